package storepages

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"locator/internal/schedule"
)

// The status line of a store page ("Opened" · "Closes 9:00 PM") and the
// instant it last changed. The rule and its words are the schedule's
// (schedule.Schedule.Shown with the special hours and closures the index
// holds, docs/product-rules.md "Opening hours and the status"), checked
// against the same cases as the web app's copy (web/src/lib/status.ts), so
// a page and the app say the same thing.

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
// past midnight, start == end is all day), as schedule.Schedule reads them.
type minuteSpan struct {
	day        time.Weekday
	start, end int
}

func spansOf(hours []schedule.DocHour) []minuteSpan {
	var out []minuteSpan
	for _, h := range hours {
		d, ok := schedule.ParseWeekday(h.WeekDay)
		if !ok || h.StartTime == nil || h.EndTime == nil {
			continue
		}
		a, ok1 := schedule.ParseClock(*h.StartTime)
		b, ok2 := schedule.ParseClock(*h.EndTime)
		if ok1 && ok2 {
			out = append(out, minuteSpan{d, a, b})
		}
	}
	slices.SortFunc(out, func(x, y minuteSpan) int { return cmp.Or(cmp.Compare(x.day, y.day), cmp.Compare(x.start, y.start)) })
	return out
}

// storeStatus computes the status at now of a store with this schedule
// (as the index holds it: weekly hours, special hours, closures) in zone
// loc: schedule.Schedule.Shown, with the instant it last changed. updated
// is the store's last change (when a permanent closure began, as far as
// the page knows).
func storeStatus(sched *schedule.Schedule, loc *time.Location, now time.Time, updated time.Time) status {
	local := now.In(loc)
	sh := sched.Shown(local)
	if sh.Permanent {
		return status{Badge: sh.Badge, Line: sh.Line, Permanent: true, Since: updated}
	}
	y, mo, d := local.Date()
	midnight := time.Date(y, mo, d, 0, 0, 0, 0, loc)
	st := status{Open: sh.Open, Badge: sh.Badge, Line: sh.Line, Since: midnight}
	// The open/closed answer last flipped at or before now: walk the
	// changes from midnight (a day has a few).
	for at, i := midnight, 0; i < 48; i++ {
		next := sched.Status(at).NextChange
		if next.IsZero() || next.After(local) {
			break
		}
		at, st.Since = next, next
	}
	if !sh.SoonFrom.IsZero() {
		st.Since = maxTime(st.Since, sh.SoonFrom)
	}
	return st
}

// specialRow is one date of the special hours the page lists.
type specialRow struct {
	Date, Text string
	Today      bool
}

// specialDays is how many local dates from today the page lists special
// hours for (as the API's special_hours, schedule.SpecialWindowDays).
const specialDays = schedule.SpecialWindowDays

// specialRows lists the special hours of the next specialDays dates, one
// row per date: "Thu, Nov 26" "Closed · Thanksgiving".
func specialRows(hs []schedule.SpecialHour, today string) []specialRow {
	var rows []specialRow
	for i := 0; i < len(hs); {
		j := i
		var texts []string
		closed := false
		for ; j < len(hs) && hs[j].Date == hs[i].Date; j++ {
			if hs[j].Closed {
				closed = true
			} else {
				texts = append(texts, schedule.SpanText(hs[j].Start, hs[j].End))
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
