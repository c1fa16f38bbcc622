package schedule

import "time"

// The words a shopper reads about a store's status (docs/product-rules.md,
// "Opening hours and the status"): the badge, the spec's "Opened" or
// "Closed", and the line after it that says what comes next. The store
// pages write them (internal/storepages); the web app's copy is
// web/src/lib/status.ts (storeStatus, closureLine). Both are checked
// against the same cases, testdata/cases.json (with the services' lines of
// service_line.go and web/src/lib/services.ts).

// The badge's words.
const (
	BadgeOpen   = "Opened"
	BadgeClosed = "Closed"
)

// SoonBefore is how long before closing the line says "Closes soon".
const SoonBefore = 60 * time.Minute

// Shown is a store's status at an instant as a shopper reads it.
type Shown struct {
	Open  bool
	Badge string // BadgeOpen or BadgeClosed
	// Line is what comes next: "Closes 9:00 PM", "Closes soon · 9:00 PM",
	// "Opens Sat 9:00 AM", "Closed today · Thanksgiving", "Temporarily
	// closed until Dec 2", "Permanently closed", or "" (open around the
	// clock, or nothing within the look-ahead).
	Line      string
	Permanent bool // permanently closed
	// SoonFrom is when the line began to say "Closes soon"; zero when it
	// does not.
	SoonFrom time.Time
}

// Text is the badge and the line in one: "Opened · Closes 9:00 PM".
func (s Shown) Text() string {
	if s.Line == "" {
		return s.Badge
	}
	return s.Badge + " · " + s.Line
}

// Shown applies the rule at now, which must be in the store's zone
// (now.In(loc)), and words it.
func (s *Schedule) Shown(now time.Time) Shown {
	if s.PermanentlyClosed() {
		return Shown{Badge: BadgeClosed, Line: "Permanently closed", Permanent: true}
	}
	y, mo, d := now.Date()
	os := s.Status(now)
	sh := Shown{Open: os.Open, Badge: BadgeClosed}
	if os.Open {
		sh.Badge = BadgeOpen
	}
	switch {
	case os.Reason == ReasonTemporarilyClosed:
		sh.Line = "Temporarily closed"
		if os.Until != "" {
			sh.Line += " until " + ShortDate(os.Until)
		}
	case os.Open:
		if os.NextChange.IsZero() {
			break // around the clock
		}
		last := os.NextChange.Add(-time.Minute) // hours are inclusive to the minute
		soon := os.NextChange.Add(-SoonBefore - time.Minute)
		if now.Before(soon) {
			sh.Line = "Closes " + clockOf(last)
		} else {
			sh.Line = "Closes soon · " + clockOf(last)
			sh.SoonFrom = soon
		}
	case s.closedToday(now):
		sh.Line = "Closed today"
		if os.Note != "" {
			sh.Line += " · " + os.Note
		}
	case os.NextChange.IsZero():
	default:
		ny, nm, nd := os.NextChange.Date()
		if ny == y && nm == mo && nd == d {
			sh.Line = "Opens " + clockOf(os.NextChange)
		} else {
			sh.Line = "Opens " + os.NextChange.Weekday().String()[:3] + " " + clockOf(os.NextChange)
		}
	}
	return sh
}

// closedToday reports whether now's local date is a special date marked
// closed.
func (s *Schedule) closedToday(now time.Time) bool {
	for _, h := range s.SpecialDates(now, 1) {
		if h.Closed {
			return true
		}
	}
	return false
}

// ClosureLine tells of a temporary closure that has not ended by today
// (the store's local date, YYYY-MM-DD): "Temporarily closed from Dec 2
// until Dec 9 · Renovation", "Temporarily closed until further notice", or
// "" when there is none.
func ClosureLine(c *Closure, today string) string {
	if c == nil || (c.Until != "" && c.Until < today) {
		return ""
	}
	line := "Temporarily closed from " + ShortDate(c.From)
	if c.From <= today {
		line = "Temporarily closed"
	}
	if c.Until != "" {
		line += " until " + ShortDate(c.Until)
	} else {
		line += " until further notice"
	}
	if c.Note != "" {
		line += " · " + c.Note
	}
	return line
}

// clockOf is an instant's wall clock as "9:00 PM".
func clockOf(t time.Time) string { return t.Format("3:04 PM") }

// ShortDate is "Dec 2" for "2026-12-02"; a text it cannot read is given
// back as it is.
func ShortDate(date string) string {
	t, err := time.Parse(dateLayout, date)
	if err != nil {
		return date
	}
	return t.Format("Jan 2")
}
