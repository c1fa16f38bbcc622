package claims

import (
	"context"
	"time"

	"locator/internal/apperr"
	"locator/internal/ownership"
	"locator/internal/schedule"
)

// SuggestedLocation is the JSON of a Suggestion that was found.
type SuggestedLocation struct {
	Latitude  float64 `json:"latitude"`
	Longitude float64 `json:"longitude"`
	Precision string  `json:"precision"`
	// PrecisionText says it in words ("ZIP centre only"); Approximate: only
	// a postal or city centre, which an approval refuses to publish unless
	// a person places the pin (docs/claims.md, "Where the store stands").
	PrecisionText string `json:"precision_text"`
	Approximate   bool   `json:"approximate"`
}

// View is a claim as the moderation API and `locator claims ... --json`
// show it: one JSON shape for both.
type View struct {
	ID int64 `json:"id"`
	Input
	Status             string             `json:"status"`
	RejectReason       string             `json:"reject_reason"`
	DuplicateOfStoreID *int64             `json:"duplicate_of_store_id"`
	StoreID            *int64             `json:"store_id"`
	CreatedAt          time.Time          `json:"created_at"`
	DecidedAt          *time.Time         `json:"decided_at"`
	DecidedBy          string             `json:"decided_by"`
	Suggested          *SuggestedLocation `json:"suggested_location"`
	HoursParsed        bool               `json:"working_hours_parsed"`
	ExistingStore      *ExistingStore     `json:"existing_store"`
	// HoursNotes name the ranges of the hours text that were read one way
	// but could mean another ("6-10": 06:00-10:00, or until 10 PM), for the
	// moderator to check before approving.
	HoursNotes []string `json:"working_hours_notes"`
	// ServiceHours says how each service's text given reads, with the
	// same notes as the store hours.
	ServiceHours []ServiceHoursRead `json:"service_hours_read"`
	// LicenceVerified is the registries' answer to the licence number on
	// approval; null before it or when it was not checked.
	LicenceVerified *bool `json:"licence_verified"`
	// WaitingForEmail: approved, waiting for the owner to confirm their
	// email before the store is linked to their business account.
	WaitingForEmail bool `json:"waiting_for_email"`
	// Consent says whether the claimant of an approved claim on a store
	// with owners waits for them ("pending"), was accepted or declined; ""
	// when no consent was needed (docs/claims.md, "Consent of the owners").
	Consent string `json:"consent"`
	// ZIPCentre is the centre of the claim's postal code (pending claims),
	// and PinDistanceKm how far the owner's pin lies from it.
	ZIPCentre     *ZIPCentre `json:"zip_centre"`
	PinDistanceKm *float64   `json:"pin_distance_km"`
}

// ExistingStore is the published store a claim matches, as the moderator
// weighs the claim against it: its owners and, while the claim is pending,
// the field-by-field comparison and its position (which an approval keeps
// unless the moderator places the store).
type ExistingStore struct {
	ID             int64             `json:"id"`
	Name           string            `json:"name"`
	Latitude       float64           `json:"latitude"`
	Longitude      float64           `json:"longitude"`
	GeoPrecision   string            `json:"geo_precision"`
	LastVerifiedAt *time.Time        `json:"last_verified_at"`
	Owners         []ownership.Owner `json:"owners"`
	OwnersSummary  string            `json:"owners_summary"`
	Fields         []FieldComparison `json:"fields"`
}

func optionalID(v int64) *int64 {
	if v == 0 {
		return nil
	}
	return &v
}

// View renders c; withSuggestion adds the geocoded location.
func (s *Service) View(ctx context.Context, c *Claim, withSuggestion bool) (View, error) {
	d := View{ID: c.ID, Input: c.Input, Status: string(c.Status), RejectReason: c.RejectReason,
		DuplicateOfStoreID: optionalID(c.DuplicateOfStoreID), StoreID: optionalID(c.StoreID),
		CreatedAt: c.CreatedAt, DecidedAt: c.DecidedAt, DecidedBy: c.DecidedBy, WaitingForEmail: c.WaitingForEmail, Consent: c.Consent}
	read := schedule.ReadFreeSchedule(c.WorkingHours, s.now())
	d.HoursParsed, d.HoursNotes = read.OK, read.Notes
	if d.HoursNotes == nil {
		d.HoursNotes = []string{}
	}
	d.ServiceHours = readServices(c, s.now())
	if c.LicenceCheck != LicenceUnchecked {
		v := c.LicenceCheck == LicenceVerified
		d.LicenceVerified = &v
	}
	if withSuggestion {
		if sg := s.Suggest(c); sg.Found {
			d.Suggested = suggestedLocation(sg, countryCode(c.Country))
		}
		d.ZIPCentre = s.zipCentre(c)
		d.PinDistanceKm = pinDistance(c, d.ZIPCentre)
	}
	if c.DuplicateOfStoreID != 0 {
		st, err := s.Stores.Get(ctx, c.DuplicateOfStoreID)
		if apperr.CodeOf(err) == apperr.NotFound {
			return d, nil // removed since: the claim stands alone
		}
		if err != nil {
			return View{}, err
		}
		e := &ExistingStore{ID: st.ID, Name: st.Name, Latitude: st.Latitude, Longitude: st.Longitude, GeoPrecision: st.GeoPrecision,
			LastVerifiedAt: st.VerifiedAt, Fields: []FieldComparison{}}
		if e.Owners, err = ownership.List(ctx, s.DB, st.ID); err != nil {
			return View{}, err
		}
		e.OwnersSummary = ownership.Summary(e.Owners)
		if c.Status == Pending {
			e.Fields = Compare(st, c, s.now())
		}
		d.ExistingStore = e
	}
	return d, nil
}
