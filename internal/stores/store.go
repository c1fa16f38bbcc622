// Package stores holds physical stores: their fields, validation, their
// storage, the one write path (Repo.Write) and the change feed the
// replicas' search indexes follow (package search). When a store is open
// is package schedule's rule, over the store's settings (Store.Settings).
package stores

import (
	"strings"
	"time"
	"unicode/utf8"

	"locator/internal/apperr"
	"locator/internal/schedule"
	"locator/internal/textfield"
)

// Status says whether a store is shown in search.
type Status string

const (
	Published Status = "published"
	Pending   Status = "pending"
	Hidden    Status = "hidden"
)

// Store is a physical store.
type Store struct {
	ID           int64
	StoreID      string // the marketplace's store id: "Go to online store" opens {storefront}/store/{StoreID}
	Name         string
	Image        string
	PhoneNumber  string
	Hours        string // free text shown on the detail panel
	CountryCode  string // ISO 3166-1 alpha-2, e.g. "US"
	CountryName  string // display_name
	CountryID    int64
	State        string
	City         string
	PostalCode   string
	Address      string
	Latitude     float64
	Longitude    float64
	GeoPrecision string // exact, address, postal_code or city: how the coordinates were found
	TimeZone     string // IANA name
	Delivery     bool
	OrderOnline  bool
	Curbside     bool
	AdultOnly    bool // admits no one under the minimum age: some rules exempt such stores (internal/rules)
	Status       Status
	RatingSum    int64
	ReviewCount  int64
	WorkingHours []schedule.WorkingHour
	// Exceptions to the weekly hours and the services' own hours: the
	// store's schedule settings (schedule.go, package schedule).
	SpecialHours      []schedule.SpecialHour
	TemporarilyClosed *schedule.Closure                           // nil: not closed
	PermanentlyClosed bool                                        // kept and shown, never in search
	Services          [schedule.NumServices]schedule.ServiceHours // own hours, last order and pause per service
	Website           string                                      // the store's own web address, http(s)
	VerifiedAt        *time.Time                                  // when the owner or a moderator last confirmed the details (last_verified_at)
	LicenceRecord                                                 // from public registries (licence.go), written only by Writer.SetLicence
	CreatedAt         time.Time
	UpdatedAt         time.Time
}

// AverageRating is the mean rating rounded to one decimal, 0 without reviews.
func (s *Store) AverageRating() float64 {
	if s.ReviewCount == 0 {
		return 0
	}
	return roundTo1(float64(s.RatingSum) / float64(s.ReviewCount))
}

func roundTo1(v float64) float64 {
	return float64(int64(v*10+0.5)) / 10
}

// Field limits, enforced on every write path (API, import, seed).
const (
	MaxNameLen  = 255
	MaxTextLen  = 1000
	MaxPhoneLen = 32
	MaxURLLen   = 2048
)

// hasNUL reports whether any text of the store holds U+0000 (see HasNUL).
func (s *Store) hasNUL() bool {
	if textfield.HasNUL(s.StoreID, s.Name, s.Image, s.PhoneNumber, s.Hours, s.CountryCode, s.CountryName, s.State, s.City,
		s.PostalCode, s.Address, s.GeoPrecision, s.TimeZone, string(s.Status), s.Website) {
		return true
	}
	for _, h := range s.SpecialHours {
		if textfield.HasNUL(h.Date, h.Start, h.End, h.Note) {
			return true
		}
	}
	for _, h := range s.WorkingHours {
		if textfield.HasNUL(h.Start, h.End) {
			return true
		}
	}
	return s.TemporarilyClosed != nil && textfield.HasNUL(s.TemporarilyClosed.From, s.TemporarilyClosed.Until, s.TemporarilyClosed.Note)
}

// Validate checks a store before it is written. Messages are user-facing.
func (s *Store) Validate() error {
	s.Name = strings.TrimSpace(s.Name)
	switch {
	case s.Name == "":
		return apperr.Invalidf("name is required")
	case utf8.RuneCountInString(s.Name) > MaxNameLen:
		return apperr.Invalidf("name must be at most %d characters", MaxNameLen)
	case s.Latitude < -90 || s.Latitude > 90 || s.Latitude != s.Latitude:
		return apperr.Invalidf("latitude must be between -90 and 90")
	case s.Longitude < -180 || s.Longitude > 180 || s.Longitude != s.Longitude:
		return apperr.Invalidf("longitude must be between -180 and 180")
	case utf8.RuneCountInString(s.PhoneNumber) > MaxPhoneLen:
		return apperr.Invalidf("phone_number must be at most %d characters", MaxPhoneLen)
	case len(s.Image) > MaxURLLen:
		return apperr.Invalidf("image must be at most %d characters", MaxURLLen)
	case len(s.Website) > MaxURLLen:
		return apperr.Invalidf("website must be at most %d characters", MaxURLLen)
	case s.Website != "" && !ValidWebsite(s.Website):
		return apperr.Invalidf("website must be an http(s) address with a host name, e.g. https://example.com")
	case len(s.WorkingHours) > schedule.MaxHoursCount:
		return apperr.Invalidf("at most %d working-hours entries", schedule.MaxHoursCount)
	}
	for _, f := range []struct{ name, v string }{
		{"store_id", s.StoreID}, {"hours", s.Hours}, {"state", s.State}, {"city", s.City},
		{"postal_code", s.PostalCode}, {"address", s.Address}, {"country", s.CountryName},
	} {
		if utf8.RuneCountInString(f.v) > MaxTextLen {
			return apperr.Invalidf("%s must be at most %d characters", f.name, MaxTextLen)
		}
	}
	if s.Image != "" && !strings.HasPrefix(s.Image, "https://") && !strings.HasPrefix(s.Image, "http://") && !strings.HasPrefix(s.Image, "/") {
		return apperr.Invalidf("image must be an http(s) URL or a path")
	}
	if err := s.validateSchedule(time.Now()); err != nil {
		return err
	}
	if s.hasNUL() {
		return apperr.Invalidf("Text must not contain the character U+0000 (NUL)")
	}
	switch s.Status {
	case "":
		s.Status = Published
	case Published, Pending, Hidden:
	default:
		return apperr.Invalidf("status must be published, pending or hidden")
	}
	if s.GeoPrecision == "" {
		s.GeoPrecision = "exact"
	}
	if s.CountryCode == "" {
		s.CountryCode = "US"
	}
	s.CountryCode = strings.ToUpper(s.CountryCode)
	if len(s.CountryCode) != 2 {
		return apperr.Invalidf("country must be a two-letter code")
	}
	if s.CountryName == "" {
		s.CountryName = CountryName(s.CountryCode)
	}
	if s.TimeZone == "" {
		s.TimeZone = "UTC"
	}
	if _, err := time.LoadLocation(s.TimeZone); err != nil {
		return apperr.Invalidf("unknown time zone %q", s.TimeZone)
	}
	return nil
}

// CountryName returns a display name for the countries stores are found in,
// the code itself otherwise.
func CountryName(code string) string {
	switch strings.ToUpper(code) {
	case "US":
		return "United States"
	case "CA":
		return "Canada"
	case "MX":
		return "Mexico"
	case "GB":
		return "United Kingdom"
	case "DE":
		return "Germany"
	case "FR":
		return "France"
	}
	return strings.ToUpper(code)
}
