package claims

// Where the store stands (docs/claims.md): what the moderator is told of a
// claim's position, and the published stores still standing only at a
// postal or city centre, which a moderator places.

import (
	"context"
	"fmt"
	"math"

	"locator/internal/apperr"
	"locator/internal/db"
	"locator/internal/stores"
)

// ZIPCentre is the centre the gazetteer (or the upstream geocoder) gives a
// claim's postal code: the one point of the ZIP's area the product knows,
// so the moderator sees how far a pin lies from it.
type ZIPCentre struct {
	PostalCode string  `json:"postal_code"`
	Latitude   float64 `json:"latitude"`
	Longitude  float64 `json:"longitude"`
}

// zipCentre finds the centre of the claim's postal code, or nil.
func (s *Service) zipCentre(c *Claim) *ZIPCentre {
	if s.Geocoder == nil {
		return nil
	}
	lat, lon, precision, ok := s.Geocoder.Geocode(c.PostalCode, "", "", countryCode(c.Country))
	if !ok || precision != stores.PrecisionPostalCode {
		return nil
	}
	return &ZIPCentre{PostalCode: c.PostalCode, Latitude: lat, Longitude: lon}
}

// suggestedLocation is the JSON of a found suggestion, with its precision
// in words ("ZIP centre only").
func suggestedLocation(sg Suggestion, country string) *SuggestedLocation {
	return &SuggestedLocation{Latitude: sg.Latitude, Longitude: sg.Longitude, Precision: sg.Precision,
		PrecisionText: stores.PrecisionWords(sg.Precision, country), Approximate: stores.Approximate(sg.Precision)}
}

// pinDistance is how far the owner's pin lies from the ZIP's centre, in
// km rounded to 0.01, or nil without either.
func pinDistance(c *Claim, z *ZIPCentre) *float64 {
	if c.PinLatitude == nil || z == nil {
		return nil
	}
	d := math.Round(stores.DistanceKm(*c.PinLatitude, *c.PinLongitude, z.Latitude, z.Longitude)*100) / 100
	return &d
}

// ApproximateStore is a published store whose position is only a postal
// or city centre, as the moderators' list shows it.
type ApproximateStore struct {
	ID            int64   `json:"id"`
	Name          string  `json:"name"`
	Address       string  `json:"address"`
	City          string  `json:"city"`
	State         string  `json:"state"`
	PostalCode    string  `json:"postal_code"`
	CountryCode   string  `json:"country_code"`
	Latitude      float64 `json:"latitude"`
	Longitude     float64 `json:"longitude"`
	GeoPrecision  string  `json:"geo_precision"`
	PrecisionText string  `json:"precision_text"`
}

// MaxApproximate bounds one answer of ApproximateStores.
const MaxApproximate = 500

// ApproximateStores lists the published stores whose position is only a
// centre (at most limit, oldest first) and how many there are in all.
func (s *Service) ApproximateStores(ctx context.Context, limit int) ([]ApproximateStore, int, error) {
	if limit <= 0 || limit > MaxApproximate {
		limit = MaxApproximate
	}
	list, total, err := s.Stores.ListApproximate(ctx, limit)
	if err != nil {
		return nil, 0, err
	}
	out := make([]ApproximateStore, len(list))
	for i, st := range list {
		out[i] = ApproximateStore{ID: st.ID, Name: st.Name, Address: st.Address, City: st.City, State: st.State,
			PostalCode: st.PostalCode, CountryCode: st.CountryCode, Latitude: st.Latitude, Longitude: st.Longitude,
			GeoPrecision: st.GeoPrecision, PrecisionText: stores.PrecisionWords(st.GeoPrecision, st.CountryCode)}
	}
	return out, total, nil
}

// PlaceStore puts a store where a moderator placed its pin: precision
// exact, the time zone of the new place, the search version bumped, and an
// audit line (store.position) with where it stood before.
func (s *Service) PlaceStore(ctx context.Context, id int64, lat, lon float64, actor string) (*stores.Store, error) {
	if lat != lat || lon != lon || lat < -90 || lat > 90 || lon < -180 || lon > 180 {
		return nil, apperr.Invalidf("latitude must be from -90 to 90 and longitude from -180 to 180")
	}
	var st *stores.Store
	err := s.DB.InTx(ctx, func(tx *db.Tx) error {
		var before []float64
		var was string
		err := s.Stores.Write(ctx, tx, func(w *stores.Writer) error {
			var err error
			if st, err = s.Stores.GetTx(ctx, tx, id); err != nil {
				return err
			}
			before, was = []float64{st.Latitude, st.Longitude}, st.GeoPrecision
			st.Latitude, st.Longitude, st.GeoPrecision = lat, lon, stores.PrecisionExact
			if s.ZoneAt != nil {
				st.TimeZone = s.ZoneAt(lat, lon)
			}
			if err := st.Validate(); err != nil {
				return err
			}
			return w.Save(ctx, st)
		})
		if err != nil {
			return err
		}
		return s.audit(ctx, tx, actor, "store.position", 0, map[string]any{"store_id": id, "from": before, "from_precision": was,
			"to": []float64{lat, lon}, "precision": stores.PrecisionExact})
	})
	if err != nil {
		return nil, fmt.Errorf("place store %d: %w", id, err)
	}
	return st, nil
}

// Locate geocodes an address as an approval would (Suggest), for the claim
// wizard: nil when it is not found.
func (s *Service) Locate(in Input) *SuggestedLocation {
	c := &Claim{Input: in}
	sg := s.Suggest(c)
	if !sg.Found {
		return nil
	}
	return suggestedLocation(sg, countryCode(in.Country))
}
