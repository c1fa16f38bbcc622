package schedule

import (
	"encoding/json"
	"strings"
	"testing"
)

// The list's live fields: the status's window of special dates, offered
// services only, without their own week and last-order offset, no
// permanently_closed; the same instant's full form says the same.
func TestAppendLiveList(t *testing.T) {
	t.Parallel()
	st := &Settings{Hours: daily("09:00", "21:00"), Special: []SpecialHour{
		{Date: "2099-11-24", Closed: true, Note: "yesterday: inside"},
		{Date: "2099-12-03", Closed: true, Note: "day 8: inside"},
		{Date: "2099-12-04", Closed: true, Note: "day 9: panel only"},
	}}
	st.Services[Delivery] = ServiceHours{Hours: daily("11:00", "20:00"), LastOrder: 30}
	st.Services[CurbsidePickup] = ServiceHours{PausedUntil: pausedAt(t, "2099-11-25 14:00"), PauseNote: "Back soon"}
	s := st.Schedule() // (a pause in 2099 would not validate)
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
