package stores

import (
	"encoding/json"
	"fmt"
	"time"
)

// The search answer is assembled from documents rendered once per change
// (appending 50 fragments costs microseconds; encoding 50 stores per request
// would cost ~170 us). Doc is that document: the store as the API shows it,
// minus "distance", which depends on the query.

// DocCountry is a document's country.
type DocCountry struct {
	ID          int64  `json:"id"`
	Code        string `json:"code"`
	DisplayName string `json:"display_name"`
}

// DocHour is one day of a document's weekly hours (null times: closed).
type DocHour struct {
	WeekDay   string  `json:"weekDay"`
	StartTime *string `json:"startTime"`
	EndTime   *string `json:"endTime"`
}

// Doc is the stored document's shape (RenderDoc writes it; the store pages,
// internal/storepages, read it back).
type Doc struct {
	ID                        int64      `json:"id"`
	StoreID                   string     `json:"store_id"`
	Name                      string     `json:"name"`
	Image                     *string    `json:"image"`
	PhoneNumber               *string    `json:"phone_number"`
	Hours                     string     `json:"hours"`
	CountryID                 int64      `json:"country_id"`
	Country                   DocCountry `json:"country"`
	State                     string     `json:"state"`
	City                      string     `json:"city"`
	PostalCode                string     `json:"postal_code"`
	Address                   string     `json:"address"`
	Latitude                  float64    `json:"latitude"`
	Longitude                 float64    `json:"longitude"`
	WorkingHours              []DocHour  `json:"workingHours"`
	IsDeliveryAvailable       bool       `json:"is_delivery_available"`
	IsOrderOnlineAvailable    bool       `json:"is_order_online_available"`
	IsCurbsidePickupAvailable bool       `json:"is_curbside_pickup_available"`
	AdultOnly                 bool       `json:"adult_only"`
	AverageRating             float64    `json:"average_rating"`
	ReviewCount               int64      `json:"review_count"`
	TimeZone                  string     `json:"time_zone"`
	Website                   *string    `json:"website,omitempty"`
	LastVerifiedAt            *string    `json:"last_verified_at"`
	LicenceRecord                        // "licence" and "enforcement" (licence.go)
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// DocHours is weekly hours in the document's (and the API's) shape, never
// nil (an empty list, not null).
func DocHours(hs []WorkingHour) []DocHour {
	out := make([]DocHour, 0, len(hs))
	for _, h := range hs {
		out = append(out, DocHour{WeekDay: h.WeekDay.String(), StartTime: optional(h.Start), EndTime: optional(h.End)})
	}
	return out
}

// RenderDoc renders s as the complete JSON object stored in stores.search_doc.
func RenderDoc(s *Store) ([]byte, error) {
	d := Doc{
		ID:                        s.ID,
		StoreID:                   s.StoreID,
		Name:                      s.Name,
		Image:                     optional(s.Image),
		PhoneNumber:               optional(s.PhoneNumber),
		Hours:                     s.Hours,
		CountryID:                 s.CountryID,
		Country:                   DocCountry{ID: s.CountryID, Code: s.CountryCode, DisplayName: s.CountryName},
		State:                     s.State,
		City:                      s.City,
		PostalCode:                s.PostalCode,
		Address:                   s.Address,
		Latitude:                  s.Latitude,
		Longitude:                 s.Longitude,
		WorkingHours:              DocHours(s.WorkingHours),
		IsDeliveryAvailable:       s.Delivery,
		IsOrderOnlineAvailable:    s.OrderOnline,
		IsCurbsidePickupAvailable: s.Curbside,
		AdultOnly:                 s.AdultOnly,
		AverageRating:             s.AverageRating(),
		ReviewCount:               s.ReviewCount,
		TimeZone:                  s.TimeZone,
		Website:                   optional(s.Website),
		LicenceRecord:             s.LicenceRecord,
	}
	if d.Enforcement == nil {
		d.Enforcement = []Enforcement{}
	}
	if s.VerifiedAt != nil {
		v := s.VerifiedAt.UTC().Format(time.RFC3339)
		d.LastVerifiedAt = &v
	}
	b, err := json.Marshal(d)
	if err != nil {
		return nil, fmt.Errorf("render store %d: %w", s.ID, err)
	}
	return b, nil
}
