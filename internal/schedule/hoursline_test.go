package schedule_test

import (
	"testing"
	"time"

	"locator/internal/schedule"
)

func week(days []time.Weekday, start, end string) []schedule.WorkingHour {
	out := make([]schedule.WorkingHour, 0, len(days))
	for _, d := range days {
		out = append(out, schedule.WorkingHour{WeekDay: d, Start: start, End: end})
	}
	return out
}

var monSat = []time.Weekday{time.Monday, time.Tuesday, time.Wednesday, time.Thursday, time.Friday, time.Saturday}

func TestClock12(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"00:00": "12:00 AM", "09:05": "9:05 AM", "12:00": "12:00 PM", "13:30": "1:30 PM",
		"23:59": "11:59 PM", "24:00": "12:00 AM", "nine": "nine"} {
		if got := schedule.Clock12(in); got != want {
			t.Errorf("Clock12(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSpanText(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ start, end, want string }{
		{"09:00", "21:00", "9:00 AM – 9:00 PM"},
		{"18:00", "02:00", "6:00 PM – 2:00 AM"},
		{"00:00", "00:00", "Open 24 hours"},
		{"08:00", "08:00", "Open 24 hours"},
		{"00:00", "23:59", "Open 24 hours"},
		{"00:00", "24:00", "Open 24 hours"},
	} {
		if got := schedule.SpanText(c.start, c.end); got != c.want {
			t.Errorf("SpanText(%s, %s) = %q, want %q", c.start, c.end, got, c.want)
		}
	}
}

func TestHoursLine(t *testing.T) {
	t.Parallel()
	all := append(append([]time.Weekday{}, monSat...), time.Sunday)
	split := append(week(monSat[:5], "09:00", "21:00"), week([]time.Weekday{time.Saturday}, "10:00", "18:00")...)
	for _, c := range []struct {
		name string
		hs   []schedule.WorkingHour
		want string
	}{
		{"none", nil, ""},
		{"closed days only", []schedule.WorkingHour{{WeekDay: time.Monday}}, ""},
		{"mon-sat", week(monSat, "10:00", "21:00"), "Mon–Sat 10:00 AM – 9:00 PM · Sun closed"},
		{"daily", week(all, "10:00", "22:00"), "Daily 10:00 AM – 10:00 PM"},
		{"around the clock", week(all, "00:00", "00:00"), "Open 24 hours"},
		{"24/7 as the claim form writes it", week(all, "00:00", "23:59"), "Open 24 hours"},
		{"weekdays and saturday", split, "Mon–Fri 9:00 AM – 9:00 PM · Sat 10:00 AM – 6:00 PM · Sun closed"},
		{"late and all day", append(week([]time.Weekday{time.Saturday}, "18:00", "02:00"), week([]time.Weekday{time.Sunday}, "00:00", "00:00")...),
			"Mon–Fri closed · Sat 6:00 PM – 2:00 AM · Sun open 24 hours"},
		{"two days", week([]time.Weekday{time.Saturday, time.Sunday}, "11:00", "17:00"), "Mon–Fri closed · Sat, Sun 11:00 AM – 5:00 PM"},
		{"a break", append(week([]time.Weekday{time.Monday}, "14:00", "18:00"), week([]time.Weekday{time.Monday}, "09:00", "12:00")...),
			"Mon 9:00 AM – 12:00 PM, 2:00 PM – 6:00 PM · Tue–Sun closed"},
	} {
		if got := schedule.HoursLine(c.hs); got != c.want {
			t.Errorf("%s: HoursLine = %q, want %q", c.name, got, c.want)
		}
	}
}

// An owner's free text stands only where no weekly hours say otherwise
// (issue #39, M2: "Mon-Sat 10am-9pm" stayed beside a week changed in
// /business).
func TestShownHours(t *testing.T) {
	t.Parallel()
	if got := schedule.ShownHours(week(monSat[:5], "08:00", "20:00"), "Mon-Sat 10am-9pm"); got != "Mon–Fri 8:00 AM – 8:00 PM · Sat, Sun closed" {
		t.Errorf("with weekly hours: %q", got)
	}
	if got := schedule.ShownHours(nil, "By appointment"); got != "By appointment" {
		t.Errorf("without weekly hours: %q", got)
	}
}
