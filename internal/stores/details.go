package stores

// Details are a store's name, address and position as a change gives them
// (an owner's change request, a moderator's fix after reports): nil fields
// stay as they are. Latitude and Longitude come together.
type Details struct {
	Name       *string  `json:"name,omitempty"`
	Address    *string  `json:"address,omitempty"`
	City       *string  `json:"city,omitempty"`
	State      *string  `json:"state,omitempty"`
	PostalCode *string  `json:"postal_code,omitempty"`
	Latitude   *float64 `json:"latitude,omitempty"`
	Longitude  *float64 `json:"longitude,omitempty"`
}

// Empty reports whether d changes nothing.
func (d Details) Empty() bool {
	return d.Name == nil && d.Address == nil && d.City == nil && d.State == nil && d.PostalCode == nil && d.Latitude == nil && d.Longitude == nil
}

// Apply sets the fields d gives on st and returns the old and new values
// of those that changed, by their JSON names (for the audit log).
func (d Details) Apply(st *Store) (before, after map[string]any) {
	before, after = map[string]any{}, map[string]any{}
	SetChanged(before, after, "name", d.Name, &st.Name)
	SetChanged(before, after, "address", d.Address, &st.Address)
	SetChanged(before, after, "city", d.City, &st.City)
	SetChanged(before, after, "state", d.State, &st.State)
	SetChanged(before, after, "postal_code", d.PostalCode, &st.PostalCode)
	SetChanged(before, after, "latitude", d.Latitude, &st.Latitude)
	SetChanged(before, after, "longitude", d.Longitude, &st.Longitude)
	return before, after
}

// SetChanged sets *field to *v when v is given and differs, noting the
// old and new value under name.
func SetChanged[T comparable](before, after map[string]any, name string, v *T, field *T) {
	if v != nil && *v != *field {
		before[name], after[name] = *field, *v
		*field = *v
	}
}
