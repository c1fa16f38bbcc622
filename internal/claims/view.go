package claims

import "time"

// SuggestedLocation is the JSON of a Suggestion that was found.
type SuggestedLocation struct {
	Latitude  float64 `json:"latitude"`
	Longitude float64 `json:"longitude"`
	Precision string  `json:"precision"`
}

// View is a claim as the moderation API and `locator claims ... --json`
// show it: one JSON shape for both.
type View struct {
	ID                 int64              `json:"id"`
	BusinessName       string             `json:"business_name"`
	Email              string             `json:"email"`
	Phone              string             `json:"phone"`
	Country            string             `json:"country"`
	State              string             `json:"state"`
	Address1           string             `json:"address1"`
	City               string             `json:"city"`
	PostalCode         string             `json:"postal_code"`
	Website            string             `json:"website"`
	WorkingHours       string             `json:"working_hours"`
	Category           string             `json:"category"`
	Status             string             `json:"status"`
	RejectReason       string             `json:"reject_reason"`
	DuplicateOfStoreID *int64             `json:"duplicate_of_store_id"`
	StoreID            *int64             `json:"store_id"`
	CreatedAt          time.Time          `json:"created_at"`
	DecidedAt          *time.Time         `json:"decided_at"`
	DecidedBy          string             `json:"decided_by"`
	Suggested          *SuggestedLocation `json:"suggested_location"`
	HoursParsed        bool               `json:"working_hours_parsed"`
	// WaitingForEmail: approved, waiting for the owner to confirm their
	// email before the store is linked to their business account.
	WaitingForEmail bool `json:"waiting_for_email"`
}

func optionalID(v int64) *int64 {
	if v == 0 {
		return nil
	}
	return &v
}

// View renders c; withSuggestion adds the geocoded location.
func (s *Service) View(c *Claim, withSuggestion bool) View {
	d := View{ID: c.ID, BusinessName: c.BusinessName, Email: c.Email, Phone: c.Phone, Country: c.Country, State: c.State,
		Address1: c.Address1, City: c.City, PostalCode: c.PostalCode, Website: c.Website, WorkingHours: c.WorkingHours,
		Category: c.Category, Status: string(c.Status), RejectReason: c.RejectReason,
		DuplicateOfStoreID: optionalID(c.DuplicateOfStoreID), StoreID: optionalID(c.StoreID),
		CreatedAt: c.CreatedAt, DecidedAt: c.DecidedAt, DecidedBy: c.DecidedBy, WaitingForEmail: c.WaitingForEmail}
	_, _, _, d.HoursParsed = ParseFreeSchedule(c.WorkingHours, s.now())
	if withSuggestion {
		if sg := s.Suggest(c); sg.Found {
			d.Suggested = &SuggestedLocation{Latitude: sg.Latitude, Longitude: sg.Longitude, Precision: sg.Precision}
		}
	}
	return d
}
