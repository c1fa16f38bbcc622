package stores

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"locator/internal/schedule"
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

// Doc is the stored document's shape (RenderDoc writes it; the store pages,
// internal/storepages, read it back). It comes in two parts, in this order:
// the list part, every field the search's list answer carries (the
// product's store fields and what the list rows, the map and the note near
// the list read), then the detail part from "adult_only" on, which only the
// one-store answer carries (the panel fetches it). The search index keeps
// where the list part ends (ListEnd), so the list answer copies a prefix of
// the document and the index holds no second copy.
type Doc struct {
	ID                        int64              `json:"id"`
	StoreID                   string             `json:"store_id"`
	Name                      string             `json:"name"`
	Image                     *string            `json:"image"`
	PhoneNumber               *string            `json:"phone_number"`
	Hours                     string             `json:"hours"`
	CountryID                 int64              `json:"country_id"`
	Country                   DocCountry         `json:"country"`
	State                     string             `json:"state"`
	City                      string             `json:"city"`
	PostalCode                string             `json:"postal_code"`
	Address                   string             `json:"address"`
	Latitude                  float64            `json:"latitude"`
	Longitude                 float64            `json:"longitude"`
	WorkingHours              []schedule.DocHour `json:"workingHours"`
	IsDeliveryAvailable       bool               `json:"is_delivery_available"`
	IsOrderOnlineAvailable    bool               `json:"is_order_online_available"`
	IsCurbsidePickupAvailable bool               `json:"is_curbside_pickup_available"`
	AverageRating             float64            `json:"average_rating"`
	ReviewCount               int64              `json:"review_count"`
	TimeZone                  string             `json:"time_zone"`  // the list part's last field (ListEnd)
	AdultOnly                 bool               `json:"adult_only"` // the detail part's first field (ListEnd)
	Website                   *string            `json:"website,omitempty"`
	LastVerifiedAt            *string            `json:"last_verified_at"`
	LicenceRecord                                // "licence" and "enforcement" (licence.go)
}

// detailMark starts a document's detail part (see Doc).
const detailMark = `,"adult_only":`

// ListEnd is where the list part of a store document (RenderDoc, with or
// without its closing brace) ends: the offset of the detail part's
// leading comma. A document rendered before the two parts (adult_only
// elsewhere, or missing) has no detail part: ListEnd is its length, and
// the list answer carries it whole until the store is rendered again
// (written, or re-rendered after an upgrade: Repo.RerenderDocs).
// Quotes inside JSON strings are escaped, so the mark only matches a key;
// no nested object of the list part has that key.
func ListEnd(doc []byte) int {
	i := bytes.Index(doc, []byte(detailMark))
	if i < 0 {
		return len(doc)
	}
	// The list part ends with "time_zone":"<zone>" (zone names are short).
	const tz = `"time_zone":"`
	from := max(0, i-64)
	j := bytes.LastIndex(doc[from:i], []byte(tz))
	if j < 0 || doc[i-1] != '"' || bytes.IndexByte(doc[from+j+len(tz):i-1], '"') >= 0 {
		return len(doc)
	}
	return i
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// DocFormat numbers RenderDoc's output: every write of a store's search_doc
// stores it in doc_format, and Repo.RerenderDocs re-renders the rows of an
// older number after an upgrade (docs/deploy.md). Bump it whenever
// RenderDoc's output for some store changes (a field added, moved or
// renamed, a value written otherwise): TestDocFormat, which keeps one
// store's document with its number (testdata/docformat.golden), fails until
// you do, as long as its store sets every field (give a new one a value).
// Format 1: the list part, then the detail part from "adult_only" on
// (ListEnd). Rows written before the number existed are format 0.
// Format 2: "hours" is the line made from the weekly hours when the store
// has any (schedule.ShownHours), the owner's free text only when it has none.
const DocFormat = 2

// RenderDoc renders s as the complete JSON object stored in stores.search_doc.
func RenderDoc(s *Store) ([]byte, error) {
	d := Doc{
		ID:                        s.ID,
		StoreID:                   s.StoreID,
		Name:                      s.Name,
		Image:                     optional(s.Image),
		PhoneNumber:               optional(s.PhoneNumber),
		Hours:                     schedule.ShownHours(s.WorkingHours, s.Hours), // the line under the name (hoursline.go)
		CountryID:                 s.CountryID,
		Country:                   DocCountry{ID: s.CountryID, Code: s.CountryCode, DisplayName: s.CountryName},
		State:                     s.State,
		City:                      s.City,
		PostalCode:                s.PostalCode,
		Address:                   s.Address,
		Latitude:                  s.Latitude,
		Longitude:                 s.Longitude,
		WorkingHours:              schedule.DocHours(s.WorkingHours),
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
