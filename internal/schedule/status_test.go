package schedule

import (
	"encoding/json"
	"testing"
	"time"
)

var ny = func() *time.Location {
	loc, err := time.LoadLocation("America/New_York")
	if err != nil {
		panic(err)
	}
	return loc
}()

// nyAt is a New York wall time; on a fall-back day pass the offset to pick
// the occurrence ("-04:00" first, "-05:00" second).
func nyAt(t *testing.T, s string) time.Time {
	t.Helper()
	if len(s) > 16 {
		v, err := time.Parse("2006-01-02 15:04-07:00", s)
		if err != nil {
			t.Fatal(err)
		}
		return v.In(ny)
	}
	v, err := time.ParseInLocation("2006-01-02 15:04", s, ny)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func daily(start, end string) []WorkingHour {
	var hs []WorkingHour
	for d := time.Sunday; d <= time.Saturday; d++ {
		hs = append(hs, WorkingHour{WeekDay: d, Start: start, End: end})
	}
	return hs
}

func sched(t *testing.T, st *Settings) *Schedule {
	t.Helper()
	if err := st.Validate(time.Now()); err != nil {
		t.Fatalf("validate: %v", err)
	}
	return st.Schedule()
}

type step struct {
	at       string
	open     bool
	next     string // RFC 3339 or "" for none
	reason   Reason
	note     string
	describe string
}

func check(t *testing.T, s *Schedule, steps []step) {
	t.Helper()
	for _, c := range steps {
		st := s.Status(nyAt(t, c.at))
		next := ""
		if !st.NextChange.IsZero() {
			next = st.NextChange.Format(time.RFC3339)
		}
		if st.Open != c.open || next != c.next || st.Reason != c.reason || st.Note != c.note {
			t.Errorf("%s (%s): got open=%v next=%q reason=%q note=%q; want open=%v next=%q reason=%q note=%q",
				c.at, c.describe, st.Open, next, st.Reason, st.Note, c.open, c.next, c.reason, c.note)
		}
		if s.OpenAt(nyAt(t, c.at)) != c.open {
			t.Errorf("%s: OpenAt disagrees with Status", c.at)
		}
	}
}

func TestStatusSpecialClosureToday(t *testing.T) {
	t.Parallel()
	// 2026-11-26 (Thursday) is Thanksgiving.
	s := sched(t, &Settings{Hours: daily("09:00", "21:00"),
		Special: []SpecialHour{{Date: "2026-11-26", Closed: true, Note: "Thanksgiving"}}})
	check(t, s, []step{
		{"2026-11-25 20:00", true, "2026-11-25T21:01:00-05:00", ReasonHours, "", "the day before closes as usual"},
		{"2026-11-25 22:00", false, "2026-11-27T09:00:00-05:00", ReasonHours, "", "next opening skips the closed date"},
		{"2026-11-26 02:53", false, "2026-11-27T09:00:00-05:00", ReasonSpecial, "Thanksgiving", "the issue's 02:53"},
		{"2026-11-26 12:00", false, "2026-11-27T09:00:00-05:00", ReasonSpecial, "Thanksgiving", "weekly hours replaced"},
		{"2026-11-27 09:00", true, "2026-11-27T21:01:00-05:00", ReasonHours, "", "back to weekly"},
	})
}

func TestStatusSpecialLateHoursPastMidnight(t *testing.T) {
	t.Parallel()
	s := sched(t, &Settings{Hours: daily("09:00", "17:00"),
		Special: []SpecialHour{{Date: "2026-11-26", Start: "18:00", End: "02:00", Note: "Late night"}}})
	check(t, s, []step{
		{"2026-11-26 10:00", false, "2026-11-26T18:00:00-05:00", ReasonSpecial, "Late night", "weekday hours replaced"},
		{"2026-11-26 23:00", true, "2026-11-27T02:01:00-05:00", ReasonSpecial, "Late night", ""},
		{"2026-11-27 02:00", true, "2026-11-27T02:01:00-05:00", ReasonHours, "", "end inclusive on the 27th"},
		{"2026-11-27 02:01", false, "2026-11-27T09:00:00-05:00", ReasonHours, "", ""},
	})
}

func TestStatusWeeklyLateSpanIntoSpecialDate(t *testing.T) {
	t.Parallel()
	late := []WorkingHour{{WeekDay: time.Wednesday, Start: "18:00", End: "02:00"}, {WeekDay: time.Thursday, Start: "09:00", End: "17:00"}}
	closed := sched(t, &Settings{Hours: late, Special: []SpecialHour{{Date: "2026-11-26", Closed: true}}})
	check(t, closed, []step{
		{"2026-11-25 23:59", true, "2026-11-26T00:00:00-05:00", ReasonHours, "", "a closed date cuts the late span at midnight"},
		{"2026-11-26 00:00", false, "2026-12-02T18:00:00-05:00", ReasonSpecial, "", ""},
	})
	spans := sched(t, &Settings{Hours: late, Special: []SpecialHour{{Date: "2026-11-26", Start: "10:00", End: "14:00"}}})
	check(t, spans, []step{
		{"2026-11-26 01:30", true, "2026-11-26T02:01:00-05:00", ReasonSpecial, "", "a date with spans keeps the late span"},
		{"2026-11-26 09:30", false, "2026-11-26T10:00:00-05:00", ReasonSpecial, "", "the weekday's 09:00 is replaced"},
		{"2026-11-26 14:01", false, "2026-12-02T18:00:00-05:00", ReasonSpecial, "", "the 27th (Friday) has no hours"},
	})
}

func TestStatusDST(t *testing.T) {
	t.Parallel()
	// 2026-03-08: 02:00 EST jumps to 03:00 EDT.
	spring := sched(t, &Settings{Hours: []WorkingHour{
		{WeekDay: time.Saturday, Start: "20:00", End: "02:30"},
		{WeekDay: time.Sunday, Start: "02:15", End: "02:45"},
		{WeekDay: time.Monday, Start: "09:00", End: "17:00"},
	}})
	check(t, spring, []step{
		{"2026-03-08 01:59", true, "2026-03-08T03:00:00-04:00", ReasonHours, "", "the late span ends with the skipped hour"},
		{"2026-03-08 03:00", false, "2026-03-09T09:00:00-04:00", ReasonHours, "", "a span inside the gap never shows"},
	})
	// 2026-11-01: 02:00 EDT falls back to 01:00 EST; 01:xx happens twice.
	fall := sched(t, &Settings{Hours: []WorkingHour{
		{WeekDay: time.Saturday, Start: "20:00", End: "01:30"},
		{WeekDay: time.Sunday, Start: "09:00", End: "17:00"},
	}})
	check(t, fall, []step{
		{"2026-11-01 01:20-04:00", true, "2026-11-01T01:31:00-04:00", ReasonHours, "", "first 01:20"},
		{"2026-11-01 01:40-04:00", false, "2026-11-01T01:00:00-05:00", ReasonHours, "", "the wall clock shows 01:00 again"},
		{"2026-11-01 01:10-05:00", true, "2026-11-01T01:31:00-05:00", ReasonHours, "", "second 01:10"},
		{"2026-11-01 01:31-05:00", false, "2026-11-01T09:00:00-05:00", ReasonHours, "", ""},
	})
	until2 := sched(t, &Settings{Hours: []WorkingHour{{WeekDay: time.Saturday, Start: "20:00", End: "02:00"}}})
	check(t, until2, []step{
		{"2026-11-01 01:59-04:00", true, "2026-11-01T02:01:00-05:00", ReasonHours, "", "a bar open until 02:00 gets the extra hour"},
	})
}

func TestStatusTemporaryClosure(t *testing.T) {
	t.Parallel()
	s := sched(t, &Settings{Hours: daily("09:00", "21:00"),
		Closure: &Closure{From: "2026-12-01", Until: "2026-12-02", Note: "Renovation"}})
	check(t, s, []step{
		{"2026-11-30 21:00", true, "2026-11-30T21:01:00-05:00", ReasonHours, "", "the day before"},
		{"2026-11-30 22:00", false, "2026-12-03T09:00:00-05:00", ReasonHours, "", ""},
		{"2026-12-01 00:00", false, "2026-12-03T09:00:00-05:00", ReasonTemporarilyClosed, "Renovation", "from is inclusive"},
		{"2026-12-02 23:59", false, "2026-12-03T09:00:00-05:00", ReasonTemporarilyClosed, "Renovation", "until is inclusive"},
		{"2026-12-03 09:00", true, "2026-12-03T21:01:00-05:00", ReasonHours, "", ""},
	})
	if st := s.Status(nyAt(t, "2026-12-01 10:00")); st.Until != "2026-12-02" {
		t.Errorf("until = %q", st.Until)
	}
	open := sched(t, &Settings{Hours: daily("09:00", "21:00"), Closure: &Closure{From: "2026-12-01"}})
	check(t, open, []step{
		{"2026-12-01 12:00", false, "", ReasonTemporarilyClosed, "", "until further notice: no change ahead"},
		{"2026-11-30 12:00", true, "2026-11-30T21:01:00-05:00", ReasonHours, "", ""},
	})
	late := sched(t, &Settings{Hours: daily("18:00", "02:00"), Closure: &Closure{From: "2026-12-01", Until: "2026-12-01"}})
	check(t, late, []step{
		{"2026-12-01 01:00", false, "2026-12-02T18:00:00-05:00", ReasonTemporarilyClosed, "", "the closure cuts the late span at midnight"},
		{"2026-12-02 01:00", false, "2026-12-02T18:00:00-05:00", ReasonHours, "", "the closed day has no late span into the next"},
	})
}

func TestStatusLookAheadAndPermanent(t *testing.T) {
	t.Parallel()
	mondays := sched(t, &Settings{Hours: []WorkingHour{{WeekDay: time.Monday, Start: "09:00", End: "17:00"}}})
	check(t, mondays, []step{
		{"2026-11-24 12:00", false, "2026-11-30T09:00:00-05:00", ReasonHours, "", "six days ahead"},
	})
	far := sched(t, &Settings{Special: []SpecialHour{{Date: "2026-12-05", Start: "10:00", End: "12:00"}}})
	check(t, far, []step{
		{"2026-11-27 12:00", false, "2026-12-05T10:00:00-05:00", ReasonHours, "", "the 8th day after today is looked at"},
		{"2026-11-26 12:00", false, "", ReasonHours, "", "9 days ahead is beyond the look-ahead"},
	})
	always := sched(t, &Settings{Hours: daily("00:00", "00:00")})
	check(t, always, []step{{"2026-11-26 12:00", true, "", ReasonHours, "", "open around the clock"}})
	gone := sched(t, &Settings{Hours: daily("09:00", "21:00"), Permanent: true})
	check(t, gone, []step{{"2026-11-26 12:00", false, "", ReasonPermanentlyClosed, "", ""}})
}

func TestAppendLive(t *testing.T) {
	t.Parallel()
	s := sched(t, &Settings{Hours: daily("09:00", "21:00"), Special: []SpecialHour{
		{Date: "2026-11-10", Closed: true, Note: "too old for the window"},
		{Date: "2026-11-25", Start: "09:00", End: "12:00", Note: "Short \"day\""},
		{Date: "2026-11-25", Start: "13:00", End: "15:00"},
		{Date: "2026-11-26", Closed: true, Note: "Thanksgiving"},
		{Date: "2027-02-25", Closed: true, Note: "day 91: inside"},
		{Date: "2027-02-26", Closed: true, Note: "day 92: outside"},
	}, Closure: &Closure{From: "2027-01-04", Until: "2027-01-05"}})
	now := nyAt(t, "2026-11-26 12:00")
	for range 2 { // the second answer comes from the cache
		out := FinishDoc(nil, []byte(`{"id":1}`), s, now.UTC(), ny, 0)
		var got struct {
			ID           int     `json:"id"`
			OpenNow      bool    `json:"open_now"`
			NextChangeAt *string `json:"next_change_at"`
			SpecialHours []struct {
				Date      string  `json:"date"`
				Closed    bool    `json:"closed"`
				StartTime *string `json:"startTime"`
				Note      *string `json:"note"`
			} `json:"special_hours"`
			TemporarilyClosed *struct {
				From  string  `json:"from"`
				Until *string `json:"until"`
			} `json:"temporarily_closed"`
			PermanentlyClosed bool `json:"permanently_closed"`
		}
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		if got.ID != 1 || got.OpenNow || got.NextChangeAt == nil || *got.NextChangeAt != "2026-11-27T09:00:00-05:00" ||
			len(got.SpecialHours) != 4 || got.SpecialHours[0].Date != "2026-11-25" || *got.SpecialHours[0].Note != `Short "day"` ||
			got.SpecialHours[1].Note != nil || *got.SpecialHours[1].StartTime != "13:00" || !got.SpecialHours[2].Closed ||
			got.TemporarilyClosed == nil || *got.TemporarilyClosed.Until != "2027-01-05" || got.PermanentlyClosed {
			t.Fatalf("live fields: %s", out)
		}
	}
	// Past the next change the cached fragment is not reused.
	out := FinishDoc(nil, []byte(`{"id":1}`), s, nyAt(t, "2026-11-27 09:30"), ny, 0)
	if !json.Valid(out) || !contains(out, `"open_now":true`) || !contains(out, `"next_change_at":"2026-11-27T21:01:00-05:00"`) {
		t.Fatalf("after the change: %s", out)
	}
	if got := string(FinishDoc(nil, []byte(`{"id":2}`), nil, now, ny, 0)); got != `{"id":2,"open_now":false,"next_change_at":null,"special_hours":[],"temporarily_closed":null,"permanently_closed":false,"services":{"delivery":`+notOffered+`,"curbside_pickup":`+notOffered+`,"online_order":`+notOffered+`}}` {
		t.Fatalf("no schedule: %s", got)
	}
}

func contains(b []byte, s string) bool {
	return json.Valid(b) && len(s) > 0 && stringIndex(string(b), s) >= 0
}

func stringIndex(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}

func TestValidateExceptions(t *testing.T) {
	t.Parallel()
	bad := map[string]Settings{
		"special_hours entry 1: date \"2026-02-30\" is not a date":            {Special: []SpecialHour{{Date: "2026-02-30", Closed: true}}},
		"special_hours entry 1: give startTime and endTime, or closed: true":  {Special: []SpecialHour{{Date: "2026-11-26"}}},
		"special_hours entry 1: a closed date has no startTime or endTime":    {Special: []SpecialHour{{Date: "2026-11-26", Closed: true, Start: "09:00"}}},
		"special_hours entry 2: 2026-11-26 is closed and has other entries":   {Special: []SpecialHour{{Date: "2026-11-26", Start: "09:00", End: "10:00"}, {Date: "2026-11-26", Closed: true}}},
		"special_hours entry 2: 11:00-13:00 overlaps another span":            {Special: []SpecialHour{{Date: "2026-11-26", Start: "09:00", End: "12:00"}, {Date: "2026-11-26", Start: "11:00", End: "13:00"}}},
		"special_hours entry 2: 23:00-01:00 overlaps":                         {Special: []SpecialHour{{Date: "2026-11-26", Start: "18:00", End: "02:00"}, {Date: "2026-11-26", Start: "23:00", End: "01:00"}}},
		"special_hours entry 1: end time \"25:00\" is not HH:MM":              {Special: []SpecialHour{{Date: "2026-11-26", Start: "09:00", End: "25:00"}}},
		"temporarily_closed.until must not be before its from date":           {Closure: &Closure{From: "2026-12-02", Until: "2026-12-01"}},
		"temporarily_closed.from \"\" is not a date":                          {Closure: &Closure{}},
		"temporarily_closed.note must be at most 100 characters":              {Closure: &Closure{From: "2026-12-02", Note: string(make([]byte, 101))}},
		"special_hours entry 1: note must be one line of text":                {Special: []SpecialHour{{Date: "2026-11-26", Closed: true, Note: "a\nb"}}},
		"special_hours entry 1: date \"1999-12-31\" is not a date":            {Special: []SpecialHour{{Date: "1999-12-31", Closed: true}}},
		"special_hours entry 1: date \"2026-1-5\" is not a date (YYYY-MM-DD,": {Special: []SpecialHour{{Date: "2026-1-5", Closed: true}}},
	}
	for want, st := range bad {
		err := st.Validate(time.Now())
		if err == nil || stringIndex(err.Error(), want) != 0 {
			t.Errorf("want %q, got %v", want, err)
		}
	}
	ok := Settings{Special: []SpecialHour{
		{Date: "2026-11-27", Start: "12:00", End: "15:00"},
		{Date: "2026-11-26", Start: "09:00", End: "12:00"},
		{Date: "2026-11-26", Start: "12:00", End: "15:00"}, // touching is not overlapping
	}}
	if err := ok.Validate(time.Now()); err != nil {
		t.Fatal(err)
	}
	if ok.Special[0].Date != "2026-11-26" || ok.Special[2].Date != "2026-11-27" {
		t.Errorf("not sorted by date: %+v", ok.Special)
	}
	pruned := PruneSpecialHours(ok.Special, time.Date(2026, 12, 27, 0, 0, 0, 0, time.UTC))
	if len(pruned) != 1 || pruned[0].Date != "2026-11-27" {
		t.Errorf("pruned: %+v", pruned)
	}
}

func TestScheduleEncodingKeepsExceptions(t *testing.T) {
	t.Parallel()
	st := &Settings{Hours: daily("09:00", "17:00"), Permanent: false,
		Special: []SpecialHour{{Date: "2026-11-26", Closed: true, Note: "Thanks\ngiving"}},
		Closure: &Closure{From: "2027-01-01", Note: "x"}}
	enc := st.Encode()
	if (&Settings{Hours: st.Hours}).Encode() != EncodeSchedule(st.Hours) {
		t.Error("a store without exceptions keeps the weekly line alone")
	}
	s := ParseSchedule(enc)
	if len(s.special) != 1 || !s.special[0].closed || s.special[0].note != "Thanks\ngiving" || s.closure == nil || s.closure.Until != "" {
		t.Fatalf("parsed %q: %+v", enc, s)
	}
	if ParseSchedule(EncodeSchedule(st.Hours)).OpenAt(nyAt(t, "2026-11-26 10:00")) != true {
		t.Error("weekly line alone")
	}
}
