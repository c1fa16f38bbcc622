package storepages

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"locator/internal/stores"
)

// The status line of a store page ("Opened" · "Closes 9:00 PM") and the
// instant it last changed. The rule is the one of every API answer
// (stores.Schedule.Status with the special hours and closures the index
// holds, docs/product-rules.md "Opening hours and the status"); the words
// are the web app's (web/src/lib/status.ts), so a page and the app say the
// same thing.

// status is what a page says about a store being open.
type status struct {
	Open  bool
	Badge string // "Opened" or "Closed"
	Line  string // "Closes 9:00 PM", "Temporarily closed until Dec 2", ... or ""
	// Permanent: the store is permanently closed (the page says so and
	// offers no way back to the locator).
	Permanent bool
	// Since is when the status (or the local date, which the hours table
	// and the special hours follow) last changed: the page's Last-Modified
	// is never older, so a conditional request cannot keep a stale status.
	Since time.Time
}

// Text is the status in one line, as the page cache keys it.
func (s status) Text() string {
	if s.Line == "" {
		return s.Badge
	}
	return s.Badge + " · " + s.Line
}

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

func spansOf(hours []stores.DocHour) []minuteSpan {
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

// clock12 is "9:00 PM".
func clock12(t time.Time) string { return t.Format("3:04 PM") }

// shortDate is "Dec 2" for "2026-12-02".
func shortDate(date string) string {
	t, err := time.Parse("2006-01-02", date)
	if err != nil {
		return date
	}
	return t.Format("Jan 2")
}

// soonBefore is how long before closing the line says "Closes soon".
const soonBefore = 60 * time.Minute

// storeStatus computes the status at now of a store with this schedule
// (as the index holds it: weekly hours, special hours, closures) in zone
// loc. updated is the store's last change (when a permanent closure began,
// as far as the page knows).
func storeStatus(sched *stores.Schedule, loc *time.Location, now time.Time, updated time.Time) status {
	local := now.In(loc)
	y, mo, d := local.Date()
	midnight := time.Date(y, mo, d, 0, 0, 0, 0, loc)
	if sched.PermanentlyClosed() {
		return status{Badge: "Closed", Line: "Permanently closed", Permanent: true, Since: updated}
	}
	os := sched.Status(local)
	st := status{Open: os.Open, Badge: "Closed", Since: midnight}
	if os.Open {
		st.Badge = "Opened"
	}
	// The open/closed answer last flipped at or before now: walk the
	// changes from midnight (a day has a few).
	for at, i := midnight, 0; i < 48; i++ {
		next := sched.Status(at).NextChange
		if next.IsZero() || next.After(local) {
			break
		}
		at, st.Since = next, next
	}
	switch {
	case os.Reason == stores.ReasonTemporarilyClosed:
		st.Line = "Temporarily closed"
		if os.Until != "" {
			st.Line += " until " + shortDate(os.Until)
		}
	case os.Open:
		if os.NextChange.IsZero() {
			break // around the clock
		}
		last := os.NextChange.Add(-time.Minute) // hours are inclusive to the minute
		soon := os.NextChange.Add(-soonBefore - time.Minute)
		if local.Before(soon) {
			st.Line = "Closes " + clock12(last)
		} else {
			st.Line = "Closes soon · " + clock12(last)
			st.Since = maxTime(st.Since, soon)
		}
	case closedToday(sched, local):
		st.Line = "Closed today"
		if os.Note != "" {
			st.Line += " · " + os.Note
		}
	case os.NextChange.IsZero():
	default:
		ny, nm, nd := os.NextChange.Date()
		if ny == y && nm == mo && nd == d {
			st.Line = "Opens " + clock12(os.NextChange)
		} else {
			st.Line = "Opens " + os.NextChange.Weekday().String()[:3] + " " + clock12(os.NextChange)
		}
	}
	return st
}

// closedToday reports whether today is a special date marked closed.
func closedToday(sched *stores.Schedule, local time.Time) bool {
	for _, h := range sched.SpecialDates(local, 1) {
		if h.Closed {
			return true
		}
	}
	return false
}

// specialRow is one date of the special hours the page lists.
type specialRow struct {
	Date, Text string
	Today      bool
}

// specialDays is how many local dates from today the page lists special
// hours for (as the API's special_hours, stores.SpecialWindowDays).
const specialDays = stores.SpecialWindowDays

// specialRows lists the special hours of the next specialDays dates, one
// row per date: "Thu, Nov 26" "Closed · Thanksgiving".
func specialRows(hs []stores.SpecialHour, today string) []specialRow {
	var rows []specialRow
	for i := 0; i < len(hs); {
		j := i
		var texts []string
		closed := false
		for ; j < len(hs) && hs[j].Date == hs[i].Date; j++ {
			if hs[j].Closed {
				closed = true
			} else {
				texts = append(texts, stores.SpanText(hs[j].Start, hs[j].End))
			}
		}
		text := strings.Join(texts, ", ")
		if closed {
			text = "Closed"
		}
		if hs[i].Note != "" {
			text += " · " + hs[i].Note
		}
		day := hs[i].Date
		if t, err := time.Parse("2006-01-02", day); err == nil {
			day = t.Format("Mon, Jan 2")
		}
		rows = append(rows, specialRow{Date: day, Text: text, Today: hs[i].Date == today})
		i = j
	}
	return rows
}
