package storepages

import (
	"cmp"
	"slices"
	"time"

	"locator/internal/stores"
)

// The status line of a store page ("Opened · Closes 9:00 PM") and the
// instant it last changed. This is the one place that decides it: it uses
// the weekly rule (stores.Schedule.OpenAt, docs/product-rules.md "Open
// now"); when special hours and closures land, storeStatus is the function
// to switch to their rule.

// status is what a page says about a store being open.
type status struct {
	Open bool
	Text string // "Opened · Closes 9:00 PM", "Closed · Opens Tue 9:00 AM", "Permanently closed"
	// Since is when the text last changed (or could have): the page's
	// Last-Modified is never older, so a conditional request cannot keep
	// a stale status.
	Since time.Time
}

// permanentlyClosed is the hook for the permanent closure the hours issue
// adds to stores: until a store carries that field, no store is.
func permanentlyClosed(v *storeView) bool { return false }

// minuteSpan is one entry of a day's hours, in minutes (end < start runs
// past midnight, start == end is all day), as stores.Schedule reads them.
type minuteSpan struct {
	day        time.Weekday
	start, end int
}

func clock(s string) (int, bool) {
	if len(s) != 5 || s[2] != ':' {
		return 0, false
	}
	for _, i := range []int{0, 1, 3, 4} {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	h, m := int(s[0]-'0')*10+int(s[1]-'0'), int(s[3]-'0')*10+int(s[4]-'0')
	if h > 24 || m > 59 || (h == 24 && m != 0) {
		return 0, false
	}
	return h*60 + m, true
}

func spansOf(hours []docHour) []minuteSpan {
	var out []minuteSpan
	for _, h := range hours {
		d, ok := stores.ParseWeekday(h.WeekDay)
		if !ok || h.StartTime == nil || h.EndTime == nil {
			continue
		}
		a, ok1 := clock(*h.StartTime)
		b, ok2 := clock(*h.EndTime)
		if ok1 && ok2 {
			out = append(out, minuteSpan{d, a, b})
		}
	}
	slices.SortFunc(out, func(x, y minuteSpan) int { return cmp.Or(cmp.Compare(x.day, y.day), cmp.Compare(x.start, y.start)) })
	return out
}

// at is the instant of minute m of the local day starting at midnight.
func at(midnight time.Time, m int) time.Time {
	y, mo, d := midnight.Date()
	return time.Date(y, mo, d, m/60, m%60, 0, 0, midnight.Location())
}

// storeStatus computes the status line at now for a store with these hours
// (sched is the same hours as the index holds them, whose OpenAt is the rule).
func storeStatus(v *storeView, sched *stores.Schedule, loc *time.Location, now time.Time) status {
	local := now.In(loc)
	y, mo, d := local.Date()
	midnight := time.Date(y, mo, d, 0, 0, 0, 0, loc)
	if permanentlyClosed(v) {
		return status{Text: "Permanently closed", Since: v.UpdatedAt}
	}
	spans := spansOf(v.WorkingHours)
	st := status{Since: midnight} // the hours table marks today
	nowMin := local.Hour()*60 + local.Minute()
	today, yesterday := local.Weekday(), (local.Weekday()+6)%7
	// The last instant the open/closed answer could have flipped: a
	// span's start, or the minute after its (inclusive) end.
	for _, sp := range spans {
		var starts, ends []time.Time
		switch sp.day {
		case today:
			starts = append(starts, at(midnight, sp.start))
			if sp.end >= sp.start && sp.start != sp.end {
				ends = append(ends, at(midnight, sp.end+1))
			}
		case yesterday:
			if sp.end < sp.start {
				ends = append(ends, at(midnight, sp.end+1))
			}
		}
		for _, t := range append(starts, ends...) {
			if !t.After(local) && t.After(st.Since) {
				st.Since = t
			}
		}
	}
	if len(spans) == 0 {
		st.Text = "Closed"
		return st
	}
	st.Open = sched.OpenAt(local)
	if st.Open {
		for _, sp := range spans {
			switch {
			case sp.day == today && sp.start == sp.end:
				st.Text = "Opened · Open 24 hours"
				return st
			case sp.day == today && sp.start < sp.end && nowMin >= sp.start && nowMin <= sp.end,
				sp.day == today && sp.start > sp.end && nowMin >= sp.start,
				sp.day == yesterday && sp.start > sp.end && nowMin <= sp.end:
				st.Text = "Opened · Closes " + at(midnight, sp.end).Format("3:04 PM")
				return st
			}
		}
		st.Text = "Opened"
		return st
	}
	for ahead := range 8 {
		day := (today + time.Weekday(ahead)) % 7
		for _, sp := range spans {
			if sp.day != day || (ahead == 0 && sp.start <= nowMin) {
				continue
			}
			when := at(midnight, sp.start).Format("3:04 PM")
			if ahead > 0 {
				when = day.String()[:3] + " " + when
			}
			st.Text = "Closed · Opens " + when
			return st
		}
	}
	st.Text = "Closed"
	return st
}
