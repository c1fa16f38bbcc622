package schedule

import (
	"encoding/json"
	"testing"
	"time"
)

type svcStep struct {
	at        string
	available bool
	until     string // the last minute in hours, RFC 3339 or ""
	lastOrder string
	next      string // next start
	paused    string
	describe  string
}

func fmtT(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format(time.RFC3339)
}

func checkSvc(t *testing.T, s *Schedule, k Service, steps []svcStep) {
	t.Helper()
	for _, c := range steps {
		at := nyAt(t, c.at)
		st := s.ServiceStatus(k, at)
		if st.Available != c.available || fmtT(st.Until) != c.until || fmtT(st.LastOrderAt) != c.lastOrder ||
			fmtT(st.NextStart) != c.next || fmtT(st.PausedUntil) != c.paused {
			t.Errorf("%s %s (%s): got available=%v until=%q last=%q next=%q paused=%q; want %v %q %q %q %q",
				k, c.at, c.describe, st.Available, fmtT(st.Until), fmtT(st.LastOrderAt), fmtT(st.NextStart), fmtT(st.PausedUntil),
				c.available, c.until, c.lastOrder, c.next, c.paused)
		}
		// The search filter's cached answer agrees, asked twice (cache hit).
		for range 2 {
			if got := s.ServiceAvailable(k, at.UTC(), ny); got != c.available {
				t.Errorf("%s %s: ServiceAvailable = %v, ServiceStatus says %v", k, c.at, got, c.available)
			}
		}
	}
}

func pausedAt(t *testing.T, s string) *time.Time {
	v := nyAt(t, s)
	return &v
}

func TestServiceFollowsStore(t *testing.T) {
	t.Parallel()
	s := sched(t, &Settings{Hours: daily("09:00", "21:00")})
	for k := Service(0); k < NumServices; k++ {
		checkSvc(t, s, k, []svcStep{
			{"2026-11-25 08:00", false, "", "", "2026-11-25T09:00:00-05:00", "", "before opening"},
			{"2026-11-25 12:00", true, "2026-11-25T21:00:00-05:00", "", "", "", "open: until the last minute"},
			{"2026-11-25 21:00", true, "2026-11-25T21:00:00-05:00", "", "", "", "the last minute is inclusive"},
			{"2026-11-25 21:01", false, "", "", "2026-11-26T09:00:00-05:00", "", "closed"},
		})
	}
}

func TestServiceOwnHoursAndLastOrder(t *testing.T) {
	t.Parallel()
	st := &Settings{Hours: daily("09:00", "21:00")}
	st.Services[Delivery] = ServiceHours{Hours: daily("11:00", "22:00"), LastOrder: 30}
	st.Services[OnlineOrder] = ServiceHours{Hours: daily("00:00", "00:00")}
	s := sched(t, st)
	checkSvc(t, s, Delivery, []svcStep{
		{"2026-11-25 10:00", false, "", "", "2026-11-25T11:00:00-05:00", "", "store open, delivery not yet"},
		{"2026-11-25 12:00", true, "2026-11-25T21:00:00-05:00", "2026-11-25T20:30:00-05:00", "", "", "ends with the store (in person)"},
		{"2026-11-25 20:30", true, "2026-11-25T21:00:00-05:00", "2026-11-25T20:30:00-05:00", "", "", "last order minute inclusive"},
		{"2026-11-25 20:31", false, "2026-11-25T21:00:00-05:00", "2026-11-25T20:30:00-05:00", "2026-11-26T11:00:00-05:00", "", "past last order"},
		{"2026-11-25 21:30", false, "", "", "2026-11-26T11:00:00-05:00", "", "store closed: no delivery though its hours run"},
	})
	checkSvc(t, s, OnlineOrder, []svcStep{
		{"2026-11-25 03:00", true, "", "", "", "", "online ordering around the clock while the store is closed"},
	})
	checkSvc(t, s, CurbsidePickup, []svcStep{
		{"2026-11-25 03:00", false, "", "", "2026-11-25T09:00:00-05:00", "", "curbside follows the store"},
	})
}

func TestServicePastMidnight(t *testing.T) {
	t.Parallel()
	st := &Settings{Hours: daily("18:00", "03:00")}
	st.Services[Delivery] = ServiceHours{Hours: daily("19:00", "02:00"), LastOrder: 45}
	s := sched(t, st)
	checkSvc(t, s, Delivery, []svcStep{
		{"2026-11-25 23:00", true, "2026-11-26T02:00:00-05:00", "2026-11-26T01:15:00-05:00", "", "", "a span past midnight"},
		{"2026-11-26 01:15", true, "2026-11-26T02:00:00-05:00", "2026-11-26T01:15:00-05:00", "", "", "after midnight, last order"},
		{"2026-11-26 01:16", false, "2026-11-26T02:00:00-05:00", "2026-11-26T01:15:00-05:00", "2026-11-26T19:00:00-05:00", "", ""},
		{"2026-11-26 02:30", false, "", "", "2026-11-26T19:00:00-05:00", "", "store still open, delivery over"},
	})
}

func TestServiceDST(t *testing.T) {
	t.Parallel()
	// 2026-03-08: 02:00 EST jumps to 03:00 EDT; a late span to 03:30 is
	// an hour shorter and its last order (30 min before) comes at 03:00.
	st := &Settings{Hours: daily("00:00", "00:00")}
	st.Services[Delivery] = ServiceHours{Hours: []WorkingHour{{WeekDay: time.Saturday, Start: "22:00", End: "03:30"}}, LastOrder: 30}
	s := sched(t, st)
	checkSvc(t, s, Delivery, []svcStep{
		{"2026-03-08 01:59", true, "2026-03-08T03:30:00-04:00", "2026-03-08T03:00:00-04:00", "", "", "spring forward"},
		{"2026-03-08 03:01", false, "2026-03-08T03:30:00-04:00", "2026-03-08T03:00:00-04:00", "2026-03-14T22:00:00-04:00", "", ""},
	})
	// 2026-11-01: 01:xx happens twice; a span to 01:30 runs through both.
	fall := &Settings{Hours: daily("00:00", "00:00")}
	fall.Services[CurbsidePickup] = ServiceHours{Hours: []WorkingHour{{WeekDay: time.Saturday, Start: "20:00", End: "01:30"}}, LastOrder: 20}
	f := sched(t, fall)
	checkSvc(t, f, CurbsidePickup, []svcStep{
		{"2026-11-01 01:05-04:00", true, "2026-11-01T01:30:00-04:00", "2026-11-01T01:10:00-04:00", "", "", "first 01:05"},
		{"2026-11-01 01:20-04:00", false, "2026-11-01T01:30:00-04:00", "2026-11-01T01:10:00-04:00", "2026-11-01T01:00:00-05:00", "", "past last order, the clock turns back"},
		{"2026-11-01 01:05-05:00", true, "2026-11-01T01:30:00-05:00", "2026-11-01T01:10:00-05:00", "", "", "second 01:05"},
		{"2026-11-01 01:31-05:00", false, "", "", "2026-11-07T20:00:00-05:00", "", ""},
	})
}

func TestServiceSpecialDates(t *testing.T) {
	t.Parallel()
	st := &Settings{Hours: daily("09:00", "21:00"),
		Special: []SpecialHour{{Date: "2026-11-26", Closed: true, Note: "Thanksgiving"}}}
	st.Services[OnlineOrder] = ServiceHours{Hours: daily("07:00", "23:00")}
	st.Services[Delivery] = ServiceHours{SpecialHours: []SpecialHour{{Date: "2026-11-27", Start: "12:00", End: "15:00"}}}
	s := sched(t, st)
	checkSvc(t, s, Delivery, []svcStep{
		{"2026-11-26 12:00", false, "", "", "2026-11-27T12:00:00-05:00", "", "store's closed date: no in-person service"},
		{"2026-11-27 10:00", false, "", "", "2026-11-27T12:00:00-05:00", "", "the service's own special date"},
		{"2026-11-27 13:00", true, "2026-11-27T15:00:00-05:00", "", "", "", ""},
		{"2026-11-28 10:00", true, "2026-11-28T21:00:00-05:00", "", "", "", "back to the store's week"},
	})
	checkSvc(t, s, OnlineOrder, []svcStep{
		{"2026-11-26 12:00", true, "2026-11-26T23:00:00-05:00", "", "", "", "online ordering keeps its hours on the store's closed date"},
	})
	closed := &Settings{Hours: daily("09:00", "21:00"), Closure: &Closure{From: "2026-11-26", Until: "2026-11-27"}}
	closed.Services[OnlineOrder] = ServiceHours{Hours: daily("07:00", "23:00")}
	checkSvc(t, sched(t, closed), OnlineOrder, []svcStep{
		{"2026-11-26 12:00", false, "", "", "2026-11-28T07:00:00-05:00", "", "a temporary closure stops online orders too"},
	})
}

func TestServicePause(t *testing.T) {
	t.Parallel()
	st := &Settings{Hours: daily("09:00", "21:00")}
	st.Services[Delivery] = ServiceHours{LastOrder: 30, PausedUntil: pausedAt(t, "2099-11-25 14:00"), PauseNote: "Driver out"}
	// Validate drops past pauses and refuses them beyond a year: the
	// schedule is built as stored, then read at times around the pause.
	s := st.Schedule()
	checkSvc(t, s, Delivery, []svcStep{
		{"2099-11-25 10:00", false, "", "", "2099-11-25T14:00:00-05:00", "2099-11-25T14:00:00-05:00", "paused mid-span: back when the pause ends"},
		{"2099-11-25 14:00", true, "2099-11-25T21:00:00-05:00", "2099-11-25T20:30:00-05:00", "", "", "the pause is over"},
	})
	if st := s.ServiceStatus(Delivery, nyAt(t, "2099-11-25 10:00")); st.Note != "Driver out" {
		t.Errorf("note %q", st.Note)
	}
	night := &Settings{Hours: daily("09:00", "21:00")}
	night.Services[CurbsidePickup] = ServiceHours{PausedUntil: pausedAt(t, "2099-11-25 22:00")}
	checkSvc(t, night.Schedule(), CurbsidePickup, []svcStep{
		{"2099-11-25 10:00", false, "", "", "2099-11-26T09:00:00-05:00", "2099-11-25T22:00:00-05:00", "a pause past closing: back at the next opening"},
		{"2099-11-25 22:00", false, "", "", "2099-11-26T09:00:00-05:00", "", ""},
	})
	// A past pause is dropped when the store is validated.
	old := &Settings{Hours: daily("09:00", "21:00")}
	old.Services[Delivery] = ServiceHours{PausedUntil: pausedAt(t, "2020-01-01 10:00"), PauseNote: "x"}
	sched(t, old)
	if !old.Services[Delivery].IsZero() {
		t.Errorf("past pause kept: %+v", old.Services[Delivery])
	}
}

func TestServiceLive(t *testing.T) {
	t.Parallel()
	st := &Settings{Hours: daily("09:00", "21:00")}
	st.Services[Delivery] = ServiceHours{Hours: daily("11:00", "20:00"), LastOrder: 30}
	st.Services[CurbsidePickup] = ServiceHours{PausedUntil: pausedAt(t, "2099-11-25 14:00"), PauseNote: "Back soon"}
	s := st.Schedule()
	type svc struct {
		Offered          bool              `json:"offered"`
		AvailableNow     bool              `json:"available_now"`
		Until            *string           `json:"until"`
		NextStart        *string           `json:"next_start"`
		LastOrderAt      *string           `json:"last_order_at"`
		PausedUntil      *string           `json:"paused_until"`
		Note             *string           `json:"note"`
		LastOrderMinutes int               `json:"last_order_minutes"`
		Hours            []json.RawMessage `json:"hours"`
	}
	var got struct {
		OpenNow  bool           `json:"open_now"`
		Services map[string]svc `json:"services"`
	}
	at := nyAt(t, "2099-11-25 12:00")
	for range 2 { // the second from the cache
		out := FinishDoc(nil, []byte(`{"id":1}`), s, at, ny, OfferedOf(true, true, false))
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		d, c, o := got.Services["delivery"], got.Services["curbside_pickup"], got.Services["online_order"]
		if !got.OpenNow || !d.Offered || !d.AvailableNow || *d.Until != "2099-11-25T20:00:00-05:00" ||
			*d.LastOrderAt != "2099-11-25T19:30:00-05:00" || d.LastOrderMinutes != 30 || len(d.Hours) != 7 ||
			!c.Offered || c.AvailableNow || *c.PausedUntil != "2099-11-25T14:00:00-05:00" || *c.Note != "Back soon" ||
			*c.NextStart != "2099-11-25T14:00:00-05:00" || c.Hours != nil || o.Offered || o.AvailableNow {
			t.Fatalf("services: %s", out)
		}
	}
	// Fields without a value are left out, not written as null.
	out := FinishDoc(nil, []byte(`{"id":1}`), s, at, ny, OfferedOf(true, true, false))
	if !contains(out, `"curbside_pickup":{"offered":true,"available_now":false,"next_start":"2099-11-25T14:00:00-05:00","paused_until":"2099-11-25T14:00:00-05:00","note":"Back soon"},"online_order":{"offered":false,"available_now":false}}`) {
		t.Fatalf("absent fields: %s", out)
	}
	// Past the last order the cached fragment is not reused.
	out = FinishDoc(nil, []byte(`{"id":1}`), s, nyAt(t, "2099-11-25 19:31"), ny, OfferedOf(true, true, false))
	if !contains(out, `"delivery":{"offered":true,"available_now":false,"until":"2099-11-25T20:00:00-05:00","next_start":"2099-11-26T11:00:00-05:00"`) {
		t.Fatalf("after last order: %s", out)
	}
}

func TestServiceScheduleRoundTrip(t *testing.T) {
	t.Parallel()
	st := &Settings{Hours: daily("09:00", "21:00")}
	st.Services[OnlineOrder] = ServiceHours{Hours: daily("06:00", "23:00"), LastOrder: 15,
		SpecialHours: []SpecialHour{{Date: "2026-12-24", Start: "06:00", End: "12:00", Note: "Eve"}}}
	if err := st.Validate(time.Now()); err != nil {
		t.Fatal(err)
	}
	var back Settings
	ParseServicesColumn(&back.Services, ServicesColumn(&st.Services))
	if got, want := (&Settings{Hours: st.Hours, Services: back.Services}).Encode(), st.Encode(); got != want {
		t.Fatalf("round trip: %s\nwant %s", got, want)
	}
	if (&Settings{Hours: st.Hours}).Encode() != EncodeSchedule(st.Hours) {
		t.Fatal("a store without service settings keeps the weekly line alone")
	}
	bad := *st
	bad.Services[Delivery] = ServiceHours{LastOrder: 300}
	if err := bad.Validate(time.Now()); err == nil {
		t.Fatal("a last order of 300 minutes was accepted")
	}
}

// The per-store cost of the filters: OpenAt (is_open_now) against
// ServiceAvailable for a service that follows the store and for one with
// its own hours and a last order (the cached answer), per call:
//
//	go test -run '^$' -bench FilterPerStore ./internal/stores/
func BenchmarkFilterPerStore(b *testing.B) {
	st := &Settings{Hours: daily("09:00", "21:00")}
	st.Services[Delivery] = ServiceHours{Hours: daily("11:00", "20:00"), LastOrder: 30}
	s := st.Schedule()
	now := time.Now()
	b.Run("open-now", func(b *testing.B) {
		for b.Loop() {
			s.OpenAt(now.In(ny))
		}
	})
	b.Run("available-now-follows-store", func(b *testing.B) {
		for b.Loop() {
			s.ServiceAvailable(CurbsidePickup, now, ny)
		}
	})
	b.Run("available-now-own-hours", func(b *testing.B) {
		for b.Loop() {
			s.ServiceAvailable(Delivery, now, ny)
		}
	})
}
