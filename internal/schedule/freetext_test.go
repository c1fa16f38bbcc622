package schedule_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"locator/internal/schedule"
)

// spans expands "1-5 09:00-17:00, 0 12:00-18:00" (weekdays 0 = Sunday,
// "1-5" Monday to Friday, "*" every day) into schedule.EncodeSchedule's form.
func spans(t *testing.T, s string) string {
	t.Helper()
	var hs []schedule.WorkingHour
	for part := range strings.SplitSeq(s, ", ") {
		days, rng, _ := strings.Cut(part, " ")
		start, end, _ := strings.Cut(rng, "-")
		if rng == "closed" {
			start, end = "", ""
		}
		from, to := 0, 6
		if days != "*" {
			a, b, isRange := strings.Cut(days, "-")
			var err1, err2 error
			from, err1 = strconv.Atoi(a)
			to, err2 = from, nil
			if isRange {
				to, err2 = strconv.Atoi(b)
			}
			if err1 != nil || err2 != nil {
				t.Fatalf("bad spec %q", s)
			}
		}
		for d := from; d <= to; d++ {
			hs = append(hs, schedule.WorkingHour{WeekDay: time.Weekday(d), Start: start, End: end})
		}
	}
	out := schedule.EncodeSchedule(hs)
	// EncodeSchedule keeps the given order; the parser sorts by day.
	parts := strings.Split(out, ",")
	for i := 1; i < len(parts); i++ {
		for j := i; j > 0 && parts[j][0] < parts[j-1][0]; j-- {
			parts[j], parts[j-1] = parts[j-1], parts[j]
		}
	}
	return strings.Join(parts, ",")
}

// Hours as owners type them in the claim form, with the week they mean.
// noted: the moderator is shown that the text could also mean another week.
func TestFreeHoursRealWorld(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in    string
		want  string // "" : not read, kept as text only
		noted bool
	}{
		{"Mon-Fri 9-5", "1-5 09:00-17:00", false},
		{"Mon-Sat 10am-9pm, Sun 12-6", "1-6 10:00-21:00, 0 12:00-18:00", false},
		{"Sun 12-6", "0 12:00-18:00", false},
		{"24/7", "* 00:00-23:59", false},
		{"Open 24 hours", "* 00:00-23:59", false},
		{"Daily 8-22", "* 08:00-22:00", false},
		{"M-F 9:30-6:30", "1-5 09:30-18:30", false},
		{"Tue-Sun 11-2am", "0 11:00-02:00, 2-6 11:00-02:00", false},
		{"Mon-Fri 9-5, Sat 10-4, Closed Sun", "1-5 09:00-17:00, 6 10:00-16:00, 0 -", false},
		{"Mon-Sat 9-9", "1-6 09:00-21:00", false},
		{"Mon-Fri 8-5", "1-5 08:00-17:00", false},
		{"Mon-Thu 10-8, Fri-Sat 10-10, Sun 11-6", "1-4 10:00-20:00, 5-6 10:00-22:00, 0 11:00-18:00", false},
		{"Daily 10-10", "* 10:00-22:00", false},
		{"Daily 9am-9pm", "* 09:00-21:00", false},
		{"Mon-Fri 7-3", "1-5 07:00-15:00", false},
		{"Sat 1-5", "6 13:00-17:00", false},
		{"Sun 12-12", "0 12:00-24:00", false},
		{"Fri-Sat 10-2am", "5-6 10:00-02:00", false},
		{"Mon-Sun 9am-5pm", "* 09:00-17:00", false},
		{"Monday - Friday: 9:00 AM - 6:00 PM", "1-5 09:00-18:00", false},
		{"Mon–Fri 9–5", "1-5 09:00-17:00", false},
		{"Mon thru Fri 8am to 5pm", "1-5 08:00-17:00", false},
		{"Weekdays 9-6, Weekends 10-4", "1-5 09:00-18:00, 0 10:00-16:00, 6 10:00-16:00", false},
		{"Mon-Fri 09:00-17:30", "1-5 09:00-17:30", false},
		{"Daily 0900-2100", "* 09:00-21:00", false},
		{"Fri & Sat 6 PM – 2 AM", "5-6 18:00-02:00", false},
		{"Thu-Sat 18:00-02:00", "4-6 18:00-02:00", false},
		{"Mon-Fri 9-5pm", "1-5 09:00-17:00", false},
		{"Sat 5-11pm", "6 17:00-23:00", false},
		{"Mon-Fri 11am-7", "1-5 11:00-19:00", false},
		{"Mon-Sat 10-6; Sun closed", "1-6 10:00-18:00, 0 -", false},
		{"Sundays closed, Mon-Sat 10-7", "0 -, 1-6 10:00-19:00", false},
		{"9am-5pm Mon-Fri", "1-5 09:00-17:00", false},
		{"Tu/Th 10-4", "2 10:00-16:00, 4 10:00-16:00", false},
		{"Sa-Su 10-5", "0 10:00-17:00, 6 10:00-17:00", false},
		{"7 days 8-8", "* 08:00-20:00", false},
		{"Daily noon-midnight", "* 12:00-24:00", false},
		{"Fri 10am-12am", "5 10:00-24:00", false},
		{"Mon-Fri 9:30am-5:30pm", "1-5 09:30-17:30", false},
		{"Mon-Wed 10-6, Thu-Fri 10-8, Sat 9-5", "1-3 10:00-18:00, 4-5 10:00-20:00, 6 09:00-17:00", false},
		// Still unclear: read the day way, and the moderator is told.
		{"Daily 6-10", "* 06:00-10:00", true},
		{"Mon-Sat 7-11", "1-6 07:00-11:00", true},
		{"Sat 9-12", "6 09:00-12:00", true},
		{"Mon-Fri 11-1", "1-5 11:00-13:00", true},
		// Never published as running past midnight without AM/PM or a 24-hour clock.
		{"Fri 8pm-2", "", false},
		{"Mon 4-3", "", false},
		{"call for hours", "", false},
		{"Mon-Fri 11-2, 5-10", "", false},
	}
	for _, c := range cases {
		r := schedule.ReadFreeSchedule(c.in, time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC))
		if c.want == "" {
			if r.OK {
				t.Errorf("%q read as %q, want it kept as text only", c.in, schedule.EncodeSchedule(r.Hours))
			}
			continue
		}
		want := strings.ReplaceAll(spans(t, c.want), " - ", " ")
		got := schedule.EncodeSchedule(r.Hours)
		if !r.OK || got != want || (len(r.Notes) > 0) != c.noted {
			t.Errorf("%q: ok=%v %q notes %q, want %q noted=%v", c.in, r.OK, got, r.Notes, want, c.noted)
		}
	}
	if n := len(cases); n < 40 {
		panic(fmt.Sprint("want at least 40 real-world strings, have ", n))
	}
}

func TestParseFreeHours(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"Mon-Fri 9am-9pm, Sat 10-6, Sun closed": "1 09:00 21:00,2 09:00 21:00,3 09:00 21:00,4 09:00 21:00,5 09:00 21:00,6 10:00 18:00",
		"Daily 09:00-21:00":                     "0 09:00 21:00,1 09:00 21:00,2 09:00 21:00,3 09:00 21:00,4 09:00 21:00,5 09:00 21:00,6 09:00 21:00",
		"24/7":                                  "0 00:00 23:59,1 00:00 23:59,2 00:00 23:59,3 00:00 23:59,4 00:00 23:59,5 00:00 23:59,6 00:00 23:59",
		"Fri & Sat 6 PM – 2 AM":                 "5 18:00 02:00,6 18:00 02:00",
		"Monday to Thursday 10:30am - 7pm; Friday: noon-midnight": "1 10:30 19:00,2 10:30 19:00,3 10:30 19:00,4 10:30 19:00,5 12:00 24:00",
		"Weekends 11-5":    "0 11:00 17:00,6 11:00 17:00",
		"Fri-Mon 10am-8pm": "0 10:00 20:00,1 10:00 20:00,5 10:00 20:00,6 10:00 20:00",
	}
	for in, want := range cases {
		hs, ok := schedule.ParseFreeHours(in)
		if !ok || schedule.EncodeSchedule(hs) != want {
			t.Errorf("%q: %v %q, want %q", in, ok, schedule.EncodeSchedule(hs), want)
		}
	}
	for _, bad := range []string{"", "call us", "Mon-Fri whenever", "Mon 9-5, Mon 10-6", "Mon 25-26", "Mon 13pm-2pm"} {
		if hs, ok := schedule.ParseFreeHours(bad); ok {
			t.Errorf("%q parsed as %+v", bad, hs)
		}
	}
	_ = time.Monday
}

func TestParseFreeSchedule(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	hours, special, closure, ok := schedule.ParseFreeSchedule("Mon-Fri 9am-9pm, Thanksgiving closed, Dec 24: 9am-2pm, closed on 1/1, 2026-12-31 6pm-2am", now)
	if !ok || schedule.EncodeSchedule(hours) != "1 09:00 21:00,2 09:00 21:00,3 09:00 21:00,4 09:00 21:00,5 09:00 21:00" || closure != nil {
		t.Fatalf("weekly: %v %q %+v", ok, schedule.EncodeSchedule(hours), closure)
	}
	want := []schedule.SpecialHour{
		{Date: "2026-11-26", Closed: true, Note: "Thanksgiving"},
		{Date: "2026-12-24", Start: "09:00", End: "14:00"},
		{Date: "2027-01-01", Closed: true},
		{Date: "2026-12-31", Start: "18:00", End: "02:00"},
	}
	if fmt.Sprint(special) != fmt.Sprint(want) {
		t.Fatalf("special:\n got  %+v\n want %+v", special, want)
	}
	_, _, closure, ok = schedule.ParseFreeSchedule("Temporarily closed until Jan 5", now)
	if !ok || closure == nil || *closure != (schedule.Closure{From: "2026-11-23", Until: "2027-01-05"}) {
		t.Fatalf("closure: %v %+v", ok, closure)
	}
	for _, bad := range []string{"Dec 32 closed", "Feb 30: 9-5", "Thanksgiving whenever", "Mon 9-5, Xmas closed"} {
		if _, _, _, ok := schedule.ParseFreeSchedule(bad, now); ok {
			t.Errorf("%q parsed", bad)
		}
	}
}
