package schedule

import (
	"testing"
	"time"
)

func at(day time.Weekday, hhmm string) time.Time {
	// 2026-11-22 is a Sunday.
	t, err := time.Parse("2006-01-02 15:04", "2026-11-22 "+hhmm)
	if err != nil {
		panic(err)
	}
	return t.AddDate(0, 0, int(day))
}

func TestOpenAt(t *testing.T) {
	t.Parallel()
	sched := NewSchedule([]WorkingHour{
		{WeekDay: time.Monday, Start: "09:00", End: "17:00"},
		{WeekDay: time.Friday, Start: "18:00", End: "02:00"},
		{WeekDay: time.Saturday, Start: "10:00", End: "10:00"},
		{WeekDay: time.Sunday}, // closed
	})
	cases := []struct {
		day  time.Weekday
		hhmm string
		want bool
	}{
		{time.Monday, "08:59", false},
		{time.Monday, "09:00", true}, // start inclusive
		{time.Monday, "17:00", true}, // end inclusive to the minute
		{time.Monday, "17:01", false},
		{time.Tuesday, "12:00", false},
		{time.Friday, "17:59", false},
		{time.Friday, "18:00", true},
		{time.Friday, "23:59", true},
		{time.Saturday, "00:00", true}, // Friday's late hours
		{time.Saturday, "02:00", true},
		{time.Saturday, "02:01", true}, // Saturday is open around the clock
		{time.Sunday, "01:00", false},  // Saturday 10:00-10:00 does not cross midnight
		{time.Sunday, "12:00", false},
	}
	for _, c := range cases {
		if got := sched.OpenAt(at(c.day, c.hhmm)); got != c.want {
			t.Errorf("%s %s: open = %v, want %v", c.day, c.hhmm, got, c.want)
		}
	}
	var none *Schedule
	if none.OpenAt(at(time.Monday, "12:00")) {
		t.Error("nil schedule is open")
	}
	if !NewSchedule(nil).Empty() {
		t.Error("schedule without hours is not empty")
	}
}

func TestOpenAtSundayAfterSaturdayNight(t *testing.T) {
	t.Parallel()
	s := NewSchedule([]WorkingHour{{WeekDay: time.Saturday, Start: "20:00", End: "03:30"}})
	if !s.OpenAt(at(time.Sunday, "03:30")) || s.OpenAt(at(time.Sunday, "03:31")) {
		t.Fatal("Saturday night hours must run into Sunday until 03:30 inclusive")
	}
}

func TestScheduleRoundTrip(t *testing.T) {
	t.Parallel()
	in := []WorkingHour{
		{WeekDay: time.Sunday, Start: "10:00", End: "16:00"},
		{WeekDay: time.Monday}, // closed: not encoded
		{WeekDay: time.Saturday, Start: "18:00", End: "02:00"},
	}
	enc := EncodeSchedule(in)
	if enc != "0 10:00 16:00,6 18:00 02:00" {
		t.Fatalf("encoded %q", enc)
	}
	out := DecodeSchedule(enc)
	if len(out) != 2 || out[1].WeekDay != time.Saturday || out[1].End != "02:00" {
		t.Fatalf("decoded %+v", out)
	}
}

func TestWorkingHourValidate(t *testing.T) {
	t.Parallel()
	bad := []WorkingHour{
		{WeekDay: time.Monday, Start: "9:00", End: "17:00"},
		{WeekDay: time.Monday, Start: "09:00"},
		{WeekDay: time.Monday, Start: "25:00", End: "17:00"},
		{WeekDay: time.Monday, Start: "09:60", End: "17:00"},
		{WeekDay: time.Monday, Start: "+9:00", End: "17:00"}, // a sign is not a digit
		{WeekDay: time.Monday, Start: "09:00", End: "1 :00"},
		{WeekDay: 7, Start: "09:00", End: "17:00"},
	}
	for _, h := range bad {
		if h.Validate() == nil {
			t.Errorf("%+v accepted", h)
		}
	}
	if err := (WorkingHour{WeekDay: time.Monday, Start: "00:00", End: "24:00"}).Validate(); err != nil {
		t.Errorf("24:00 refused: %v", err)
	}
}

func TestParseWeekday(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]time.Weekday{"Sunday": time.Sunday, "mon": time.Monday, " SATURDAY ": time.Saturday, "thu": time.Thursday} {
		if got, ok := ParseWeekday(in); !ok || got != want {
			t.Errorf("ParseWeekday(%q) = %v %v", in, got, ok)
		}
	}
	if _, ok := ParseWeekday("xx"); ok {
		t.Error("xx parsed")
	}
}

// wallClock reads the same civil day and minute as t.Date, t.Hour and
// t.Minute, across zones, DST changes both ways and before 1970.
func TestWallClockMatchesDate(t *testing.T) {
	t.Parallel()
	var zones []*time.Location
	for _, name := range []string{"UTC", "America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu", "Pacific/Chatham", "America/St_Johns"} {
		loc, err := time.LoadLocation(name)
		if err != nil {
			t.Fatal(err)
		}
		zones = append(zones, loc)
	}
	starts := []time.Time{
		time.Date(2026, 3, 8, 6, 0, 0, 0, time.UTC),  // New York springs forward at 07:00 UTC
		time.Date(2026, 11, 1, 5, 0, 0, 0, time.UTC), // and falls back at 06:00 UTC
		time.Date(1969, 12, 31, 20, 0, 0, 0, time.UTC),
		time.Date(1900, 2, 28, 22, 0, 0, 0, time.UTC),
	}
	for _, loc := range zones {
		for _, start := range starts {
			for m := 0; m < 8*60; m += 7 {
				lt := start.Add(time.Duration(m)*time.Minute + 13*time.Second).In(loc)
				day, minute := wallClock(lt)
				y, mo, d := lt.Date()
				if day != civilDay(y, mo, d) || int(minute) != lt.Hour()*60+lt.Minute() {
					t.Fatalf("%v: wallClock %d %d, Date %d %d", lt, day, minute, civilDay(y, mo, d), lt.Hour()*60+lt.Minute())
				}
			}
		}
	}
}
