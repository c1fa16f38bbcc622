package stores

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// The list's live fields: the status's window of special dates, offered
// services only, without their own week and last-order offset, no
// permanently_closed; the same instant's full form says the same.
func TestAppendLiveList(t *testing.T) {
	t.Parallel()
	st := &Store{WorkingHours: daily("09:00", "21:00"), SpecialHours: []SpecialHour{
		{Date: "2099-11-24", Closed: true, Note: "yesterday: inside"},
		{Date: "2099-12-03", Closed: true, Note: "day 8: inside"},
		{Date: "2099-12-04", Closed: true, Note: "day 9: panel only"},
	}}
	st.Services[Delivery] = ServiceHours{Hours: daily("11:00", "20:00"), LastOrder: 30}
	st.Services[CurbsidePickup] = ServiceHours{PausedUntil: pausedAt(t, "2099-11-25 14:00"), PauseNote: "Back soon"}
	s := WithExceptions(st) // (a pause in 2099 would not validate)
	at := nyAt(t, "2099-11-25 12:00")
	offered := OfferedOf(true, true, false)
	for range 2 { // the second from the cache
		out := append(s.AppendLiveList([]byte(`{"id":1,`), at, ny, offered), '}')
		want := `{"id":1,"open_now":true,"next_change_at":"2099-11-25T21:01:00-05:00","special_hours":[` +
			`{"date":"2099-11-24","closed":true,"startTime":null,"endTime":null,"note":"yesterday: inside"},` +
			`{"date":"2099-12-03","closed":true,"startTime":null,"endTime":null,"note":"day 8: inside"}],"temporarily_closed":null,` +
			`"services":{"delivery":{"offered":true,"available_now":true,"until":"2099-11-25T20:00:00-05:00","last_order_at":"2099-11-25T19:30:00-05:00"},` +
			`"curbside_pickup":{"offered":true,"available_now":false,"next_start":"2099-11-25T14:00:00-05:00","paused_until":"2099-11-25T14:00:00-05:00","note":"Back soon"}}}`
		if string(out) != want {
			t.Fatalf("list form:\n%s\nwant\n%s", out, want)
		}
	}
	full := FinishDoc(nil, []byte(`{"id":1}`), s, at, ny, offered)
	if !contains(full, `"note":"day 9: panel only"`) || !contains(full, `"last_order_minutes":30`) || !contains(full, `"permanently_closed":false`) {
		t.Fatalf("full form: %s", full)
	}
	if got := string(s.AppendLiveList(nil, at, ny, 0)); !strings.HasSuffix(got, `,"services":{}`) {
		t.Fatalf("nothing offered: %s", got)
	}
	if got := string((*Schedule)(nil).AppendLiveList(nil, at, ny, offered)); !json.Valid([]byte("{" + got + "}")) {
		t.Fatalf("no schedule: %s", got)
	}
}

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
