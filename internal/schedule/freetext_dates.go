package schedule

import (
	"regexp"
	"strconv"
	"strings"
	"time"
)

// The claim form's free-text hours may also name dates and closures, e.g.
// "Mon-Fri 9am-9pm, Thanksgiving closed, Dec 24 9am-2pm" or "Temporarily
// closed until Jan 5". ParseFreeSchedule reads those parts into special
// hours and a temporary closure, so that the moderator's approval keeps
// what the text says instead of dropping it.

var (
	monthWord = `(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?`
	dateWord  = `(\d{4}-\d{2}-\d{2}|` + monthWord + `\s+\d{1,2}(?:st|nd|rd|th)?|\d{1,2}/\d{1,2}|thanksgiving(?: day)?|christmas eve|christmas(?: day)?|new year'?s(?: day)?|new year'?s eve|independence day|july 4(?:th)?)`
	datePart  = regexp.MustCompile(`^(?:closed\s+(?:on\s+)?` + dateWord + `|` + dateWord + `\s*:?\s*(.+))$`)
	tempPart  = regexp.MustCompile(`^(?:temporarily|temp\.?) closed(?:\s*-\s*` + dateWord + `)?$`) // "until" reads as "-" once normalised
	months    = map[string]time.Month{"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12}
)

// ParseFreeSchedule reads the claim form's free-text hours: the weekly
// hours (as ParseFreeHours), special dates ("Thanksgiving closed",
// "Dec 24 9am-2pm", "2026-12-31 18:00-02:00", "closed on Dec 25") and a
// temporary closure ("temporarily closed until Jan 5"). Dates without a
// year are the next such date on or after now (in UTC). ok is false when
// any part is unclear; the text then stays the store's hours text only.
func ParseFreeSchedule(text string, now time.Time) (hours []WorkingHour, special []SpecialHour, closure *Closure, ok bool) {
	r := ReadFreeSchedule(text, now)
	return r.Hours, r.Special, r.Closure, r.OK
}

// FreeSchedule is what ReadFreeSchedule read from free-text hours.
type FreeSchedule struct {
	Hours   []WorkingHour
	Special []SpecialHour
	Closure *Closure
	// Notes name the ranges read one way that could mean another ("6-10"
	// is 06:00-10:00 and may mean until 10 PM): the moderator sees them
	// before approving.
	Notes []string
	OK    bool
}

// ReadFreeSchedule is ParseFreeSchedule with the notes on unclear ranges.
func ReadFreeSchedule(text string, now time.Time) FreeSchedule {
	hours, special, closure, notes, ok := readFreeSchedule(text, now)
	if !ok {
		return FreeSchedule{}
	}
	return FreeSchedule{Hours: hours, Special: special, Closure: closure, Notes: notes, OK: true}
}

func readFreeSchedule(text string, now time.Time) (hours []WorkingHour, special []SpecialHour, closure *Closure, notes []string, ok bool) {
	fail := func() ([]WorkingHour, []SpecialHour, *Closure, []string, bool) {
		return nil, nil, nil, nil, false
	}
	s := normalizeHours(text)
	if s == "" {
		return fail()
	}
	var weekly []string
	for _, part := range splitParts(s) {
		if m := tempPart.FindStringSubmatch(part); m != nil {
			c := &Closure{From: now.UTC().Format("2006-01-02")}
			if m[1] != "" {
				d, ok := resolveDate(m[1], m[2], now)
				if !ok {
					return fail()
				}
				c.Until = d
			}
			closure = c
			continue
		}
		if m := datePart.FindStringSubmatch(part); m != nil {
			word, month, rest := m[1], m[2], "closed"
			if word == "" {
				word, month, rest = m[3], m[4], strings.TrimSpace(m[5])
			}
			d, ok := resolveDate(word, month, now)
			if !ok {
				return fail()
			}
			h := SpecialHour{Date: d, Note: holidayNote(word)}
			switch rest {
			case "closed", "off", "close":
				h.Closed = true
			default:
				var note string
				var err error
				if h.Start, h.End, note, err = parseRange(rest); err != nil {
					return fail()
				}
				if note != "" {
					notes = append(notes, note)
				}
			}
			special = append(special, h)
			continue
		}
		weekly = append(weekly, part)
	}
	if len(weekly) > 0 {
		var more []string
		if hours, more, ok = parseWeekly(strings.Join(weekly, ", ")); !ok {
			return fail()
		}
		notes = append(more, notes...)
	}
	return hours, special, closure, notes, true
}

// resolveDate turns a date word into YYYY-MM-DD: the next such date on or
// after now's (UTC) date.
func resolveDate(word, month string, now time.Time) (string, bool) {
	today := time.Date(now.UTC().Year(), now.UTC().Month(), now.UTC().Day(), 0, 0, 0, 0, time.UTC)
	if len(word) == 10 && word[4] == '-' {
		if _, err := time.Parse("2006-01-02", word); err != nil {
			return "", false
		}
		return word, true
	}
	next := func(f func(y int) time.Time) (string, bool) {
		d := f(today.Year())
		if d.Before(today) {
			d = f(today.Year() + 1)
		}
		return d.Format("2006-01-02"), true
	}
	fixedDay := func(m time.Month, d int) (string, bool) {
		if d < 1 || d > 31 || time.Date(2024, m, d, 0, 0, 0, 0, time.UTC).Month() != m { // 2024: Feb 29 allowed
			return "", false
		}
		return next(func(y int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) })
	}
	switch {
	case strings.HasPrefix(word, "thanksgiving"):
		return next(func(y int) time.Time {
			t := time.Date(y, time.November, 1, 0, 0, 0, 0, time.UTC)
			return t.AddDate(0, 0, (int(time.Thursday)-int(t.Weekday())+7)%7+21)
		})
	case word == "christmas eve":
		return fixedDay(time.December, 24)
	case strings.HasPrefix(word, "christmas"):
		return fixedDay(time.December, 25)
	case strings.HasSuffix(word, "eve"): // new year's eve
		return fixedDay(time.December, 31)
	case strings.HasPrefix(word, "new year"):
		return fixedDay(time.January, 1)
	case word == "independence day" || strings.HasPrefix(word, "july 4"):
		return fixedDay(time.July, 4)
	case month != "":
		m, ok := months[month[:3]]
		digits := strings.TrimRight(strings.Fields(word)[1], "stndrh")
		d, err := strconv.Atoi(digits)
		if !ok || err != nil {
			return "", false
		}
		return fixedDay(m, d)
	default: // m/d
		a, b, _ := strings.Cut(word, "/")
		m, err1 := strconv.Atoi(a)
		d, err2 := strconv.Atoi(b)
		if err1 != nil || err2 != nil || m < 1 || m > 12 {
			return "", false
		}
		return fixedDay(time.Month(m), d)
	}
}

// holidayNote names the holiday a date word was, as the special date's note.
func holidayNote(word string) string {
	switch {
	case strings.HasPrefix(word, "thanksgiving"):
		return "Thanksgiving"
	case word == "christmas eve":
		return "Christmas Eve"
	case strings.HasPrefix(word, "christmas"):
		return "Christmas Day"
	case strings.HasSuffix(word, "eve"):
		return "New Year's Eve"
	case strings.HasPrefix(word, "new year"):
		return "New Year's Day"
	case word == "independence day" || strings.HasPrefix(word, "july 4"):
		return "Independence Day"
	}
	return ""
}

// MergeSpecial puts a claim's special dates over the store's: a date the
// claim names replaces the store's entries for it, the others stay.
func MergeSpecial(old, claim []SpecialHour) []SpecialHour {
	named := map[string]bool{}
	for _, h := range claim {
		named[h.Date] = true
	}
	out := make([]SpecialHour, 0, len(old)+len(claim))
	for _, h := range old {
		if !named[h.Date] {
			out = append(out, h)
		}
	}
	return append(out, claim...)
}
