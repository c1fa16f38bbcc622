package schedule

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"

	"locator/internal/apperr"
	"locator/internal/textfield"
)

// Exceptions to the weekly hours (docs/product-rules.md, "Opening hours and
// the status"): special hours for a local date, a temporary closure over a
// range of dates, and a permanent closure.

// SpecialHour is one entry of a store's special hours: on its local Date
// either Closed, or open from Start to End (as a weekly entry: an end
// before the start runs past midnight, start = end is open all day). A date
// may have several spans; a closed date has exactly one entry.
type SpecialHour struct {
	Date   string // YYYY-MM-DD in the store's zone
	Closed bool
	Start  string // "HH:MM", empty when Closed
	End    string // "HH:MM", empty when Closed
	Note   string // optional, e.g. "Thanksgiving"
}

// Closure is a temporary closure: closed on every local date from From to
// Until, both inclusive; Until empty means until further notice.
type Closure struct {
	From  string // YYYY-MM-DD
	Until string // YYYY-MM-DD or ""
	Note  string
}

// Limits of the exceptions.
const (
	MaxSpecialCount = 100 // entries of special hours a store keeps
	MaxNoteLen      = 100 // runes of a special date's or closure's note
	// SpecialKeepDays is how long past special dates are kept: older ones
	// are dropped whenever the store is written (PruneSpecialHours).
	SpecialKeepDays = 30
)

const dateLayout = "2006-01-02"

// parseDate reads a YYYY-MM-DD date into days since 1970-01-01.
func parseDate(s string) (int32, bool) {
	if len(s) != 10 {
		return 0, false
	}
	t, err := time.Parse(dateLayout, s)
	if err != nil || t.Year() < 2000 || t.Year() > 2100 {
		return 0, false
	}
	return civilDay(t.Date()), true
}

// civilDay is the number of days from 1970-01-01 to the given date (the
// proleptic Gregorian calendar; negative before 1970).
func civilDay(y int, m time.Month, d int) int32 {
	// Howard Hinnant's days_from_civil.
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 && y%400 != 0 {
		era = (y - 399) / 400
	}
	yoe := y - era*400
	mp := (int(m) + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return int32(era*146097 + doe - 719468)
}

// dayWeekday is the weekday of a civil day (1970-01-01 was a Thursday).
func dayWeekday(d int32) time.Weekday {
	return time.Weekday(((int(d) % 7) + 7 + 4) % 7)
}

func checkNote(field, note string) (string, error) {
	note, fits := textfield.Trim(note, MaxNoteLen)
	if !fits {
		return "", apperr.Invalidf("%s must be at most %d characters", field, MaxNoteLen)
	}
	if strings.IndexFunc(note, unicode.IsControl) >= 0 {
		return "", apperr.Invalidf("%s must be one line of text", field)
	}
	return note, nil
}

// validateExceptions checks and normalises the special hours (sorted by
// date, a date's spans in the order given) and the temporary closure.
// Messages are user-facing and name the entry (1-based, in the order given).
func (s *Settings) validateExceptions() error {
	if len(s.Special) > MaxSpecialCount {
		return apperr.Invalidf("at most %d special_hours entries", MaxSpecialCount)
	}
	type iv struct{ a, b int }
	byDate := map[string][]iv{}
	closed := map[string]bool{}
	for i := range s.Special {
		h := &s.Special[i]
		bad := func(format string, args ...any) error {
			return apperr.Invalidf("special_hours entry %d: %s", i+1, fmt.Sprintf(format, args...))
		}
		h.Date = strings.TrimSpace(h.Date)
		if _, ok := parseDate(h.Date); !ok {
			return bad("date %q is not a date (YYYY-MM-DD, years 2000-2100)", h.Date)
		}
		note, err := checkNote("note", h.Note)
		if err != nil {
			return bad("%s", err.Error())
		}
		h.Note = note
		if h.Closed {
			if h.Start != "" || h.End != "" {
				return bad("a closed date has no startTime or endTime")
			}
			if len(byDate[h.Date]) > 0 || closed[h.Date] {
				return bad("%s is closed and has other entries", h.Date)
			}
			closed[h.Date] = true
			continue
		}
		if h.Start == "" || h.End == "" {
			return bad("give startTime and endTime, or closed: true")
		}
		a, ok1 := ParseClock(h.Start)
		b, ok2 := ParseClock(h.End)
		if !ok1 {
			return bad("start time %q is not HH:MM", h.Start)
		}
		if !ok2 {
			return bad("end time %q is not HH:MM", h.End)
		}
		if closed[h.Date] {
			return bad("%s is closed and has other entries", h.Date)
		}
		switch {
		case a == b:
			b = a + 24*60
		case b < a:
			b += 24 * 60
		}
		for _, o := range byDate[h.Date] {
			if a < o.b && o.a < b {
				return bad("%s-%s overlaps another span on %s", h.Start, h.End, h.Date)
			}
		}
		byDate[h.Date] = append(byDate[h.Date], iv{a, b})
	}
	slices.SortStableFunc(s.Special, func(x, y SpecialHour) int { return strings.Compare(x.Date, y.Date) })
	if c := s.Closure; c != nil {
		c.From, c.Until = strings.TrimSpace(c.From), strings.TrimSpace(c.Until)
		from, ok := parseDate(c.From)
		if !ok {
			return apperr.Invalidf("temporarily_closed.from %q is not a date (YYYY-MM-DD, years 2000-2100)", c.From)
		}
		if c.Until != "" {
			until, ok := parseDate(c.Until)
			if !ok {
				return apperr.Invalidf("temporarily_closed.until %q is not a date (YYYY-MM-DD, years 2000-2100)", c.Until)
			}
			if until < from {
				return apperr.Invalidf("temporarily_closed.until must not be before its from date")
			}
		}
		note, err := checkNote("temporarily_closed.note", c.Note)
		if err != nil {
			return err
		}
		c.Note = note
	}
	return nil
}

// ValidateExceptions checks and normalises special hours and a temporary
// closure on their own, with the messages Store.Validate gives them (for
// callers, like the store dashboard, that compare before they write).
func ValidateExceptions(hs []SpecialHour, c *Closure) ([]SpecialHour, *Closure, error) {
	s := Settings{Special: slices.Clone(hs)}
	if c != nil {
		cc := *c
		s.Closure = &cc
	}
	if err := s.validateExceptions(); err != nil {
		return nil, nil, err
	}
	return s.Special, s.Closure, nil
}

// PruneSpecialHours drops the special dates more than SpecialKeepDays
// before now's date (UTC): they can no longer matter to anyone.
func PruneSpecialHours(hs []SpecialHour, now time.Time) []SpecialHour {
	limit := civilDay(now.UTC().Date()) - SpecialKeepDays
	return slices.DeleteFunc(hs, func(h SpecialHour) bool {
		d, ok := parseDate(h.Date)
		return ok && d < limit
	})
}

// exceptions is the JSON appended to the compact schedule (see
// Settings.Encode) when a store has exceptions.
type exceptions struct {
	Special   []excSpecial `json:"s,omitempty"`
	Closure   *excClosure  `json:"t,omitempty"`
	Permanent bool         `json:"p,omitempty"`
	// Services are the services' own settings by name (services.go).
	Services map[string]excService `json:"v,omitempty"`
}

type excSpecial struct {
	Date   string `json:"d"`
	Closed bool   `json:"c,omitempty"`
	Start  string `json:"a,omitempty"`
	End    string `json:"b,omitempty"`
	Note   string `json:"n,omitempty"`
}

type excClosure struct {
	From  string `json:"f"`
	Until string `json:"u,omitempty"`
	Note  string `json:"n,omitempty"`
}

// Encode is the compact form of a store's whole schedule kept in
// schedule and carried by the change feed and the search snapshots:
// the weekly line (EncodeSchedule), then, only when the store has
// exceptions, a newline and a small JSON object with them. Stores without
// exceptions keep the weekly line alone, so most stores share a few
// encodings (the index interns them).
func (s *Settings) Encode() string {
	week := EncodeSchedule(s.Hours)
	svc := encodeServices(&s.Services)
	if len(s.Special) == 0 && s.Closure == nil && !s.Permanent && svc == nil {
		return week
	}
	e := exceptions{Permanent: s.Permanent, Services: svc}
	for _, h := range s.Special {
		e.Special = append(e.Special, excSpecial(h))
	}
	if c := s.Closure; c != nil {
		e.Closure = &excClosure{From: c.From, Until: c.Until, Note: c.Note}
	}
	b, err := json.Marshal(e)
	if err != nil { // plain strings and bools: cannot fail
		panic(err)
	}
	return week + "\n" + string(b)
}

// ParseSchedule builds the schedule of Settings.Encode's form (or the
// weekly line alone). Entries it cannot read are ignored: they were
// validated when written.
func ParseSchedule(enc string) *Schedule {
	week, extra, _ := strings.Cut(enc, "\n")
	hours := DecodeSchedule(week)
	s := NewSchedule(hours)
	if extra == "" {
		return s
	}
	var e exceptions
	if json.Unmarshal([]byte(extra), &e) != nil {
		return s
	}
	s.permanent = e.Permanent
	for _, h := range e.Special {
		s.addSpecial(SpecialHour(h))
	}
	if c := e.Closure; c != nil {
		s.setClosure(&Closure{From: c.From, Until: c.Until, Note: c.Note})
	}
	s.setServices(hours, e.Services)
	return s
}
