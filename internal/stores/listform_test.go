package stores

import (
	"bytes"
	"encoding/json"
	"testing"
)

// RenderDoc writes the list part first; ListEnd finds where it ends, and
// gives a whole document of the former layouts.
func TestListEnd(t *testing.T) {
	t.Parallel()
	s := &Store{ID: 7, StoreID: "s7", Name: `A "quoted" ,"adult_only": name`, CountryCode: "US", State: "NY", City: "Brooklyn",
		PostalCode: "11211", Address: "1 Main St", Latitude: 40.7, Longitude: -73.9, TimeZone: "America/New_York",
		WorkingHours: daily("09:00", "21:00"), AdultOnly: true, Website: "https://example.com",
		LicenceRecord: LicenceRecord{Licence: &Licence{Status: "active", Kind: "k", Number: "1", CheckedAt: "2026-01-01"}}}
	doc, err := RenderDoc(s)
	if err != nil {
		t.Fatal(err)
	}
	end := ListEnd(doc)
	if end == len(doc) || !bytes.HasSuffix(doc[:end], []byte(`"time_zone":"America/New_York"`)) ||
		!bytes.HasPrefix(doc[end:], []byte(`,"adult_only":true,"website":`)) || ListEnd(doc[:len(doc)-1]) != end {
		t.Fatalf("list end %d of %s", end, doc)
	}
	var list map[string]json.RawMessage
	if err := json.Unmarshal(append(bytes.Clone(doc[:end]), '}'), &list); err != nil {
		t.Fatalf("list part: %v", err)
	}
	for _, k := range []string{"adult_only", "website", "last_verified_at", "licence", "enforcement"} {
		if _, ok := list[k]; ok {
			t.Errorf("the list part holds %s", k)
		}
	}
	for _, old := range []string{
		`{"id":1,"is_curbside_pickup_available":false,"adult_only":false,"average_rating":0,"review_count":0,"time_zone":"UTC","licence":null}`,
		`{"id":1,"time_zone":"UTC","licence":null}`,
	} {
		if got := ListEnd([]byte(old)); got != len(old) {
			t.Errorf("%s: list end %d, want the whole", old, got)
		}
	}
}
