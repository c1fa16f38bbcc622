package schedule

import (
	"reflect"
	"testing"
	"time"
)

func TestScheduleExceptionsRead(t *testing.T) {
	t.Parallel()
	st := &Settings{
		Hours: []WorkingHour{{WeekDay: time.Monday, Start: "09:00", End: "21:00"}},
		Special: []SpecialHour{
			{Date: "2026-11-20", Closed: true},
			{Date: "2026-11-26", Closed: true, Note: "Thanksgiving"},
			{Date: "2026-11-27", Start: "10:00", End: "14:00", Note: "Short day"},
			{Date: "2026-11-27", Start: "18:00", End: "02:00"},
			{Date: "2026-12-10", Start: "10:00", End: "14:00"},
		},
		Closure: &Closure{From: "2026-12-20", Until: "2027-01-02", Note: "Works"},
	}
	s := st.Schedule()
	from := time.Date(2026, 11, 23, 23, 0, 0, 0, time.FixedZone("x", -5*3600))
	got := s.SpecialDates(from, 14)
	want := []SpecialHour{
		{Date: "2026-11-26", Closed: true, Note: "Thanksgiving"},
		{Date: "2026-11-27", Start: "10:00", End: "14:00", Note: "Short day"},
		{Date: "2026-11-27", Start: "18:00", End: "02:00", Note: "Short day"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("SpecialDates = %+v, want %+v", got, want)
	}
	if c := s.TemporaryClosure(); c == nil || *c != *st.Closure {
		t.Errorf("TemporaryClosure = %+v", c)
	}
	if s.PermanentlyClosed() {
		t.Error("not permanently closed")
	}
	st.Permanent = true
	if p := st.Schedule(); !p.PermanentlyClosed() || p.SpecialDates(from, 14) != nil {
		t.Error("permanently closed: no special dates")
	}
	var none *Schedule
	if none.PermanentlyClosed() || none.TemporaryClosure() != nil || none.SpecialDates(from, 14) != nil {
		t.Error("nil schedule")
	}
}
