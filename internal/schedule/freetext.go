package schedule

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

var (
	dayNames = map[string]time.Weekday{
		"sun": time.Sunday, "sunday": time.Sunday, "mon": time.Monday, "monday": time.Monday,
		"tue": time.Tuesday, "tues": time.Tuesday, "tuesday": time.Tuesday, "wed": time.Wednesday, "wednesday": time.Wednesday,
		"thu": time.Thursday, "thur": time.Thursday, "thurs": time.Thursday, "thursday": time.Thursday,
		"fri": time.Friday, "friday": time.Friday, "sat": time.Saturday, "saturday": time.Saturday,
		// Short forms: "M-F", "Tu/Th", "Sa-Su".
		"su": time.Sunday, "mo": time.Monday, "m": time.Monday, "tu": time.Tuesday, "we": time.Wednesday, "w": time.Wednesday,
		"th": time.Thursday, "fr": time.Friday, "f": time.Friday, "sa": time.Saturday,
	}
	dayWord = `(?:sun(?:day)?|su|mon(?:day)?|mo|m|tue(?:sday|s)?|tu|wed(?:nesday)?|we|w|thu(?:rsday|rs|r)?|th|fri(?:day)?|fr|f|sat(?:urday)?|sa)s?\b`
	dayList = `(daily|every ?day|everyday|all week|7 days(?: a week)?|weekdays|weekends|` + dayWord + `(?:\s*(?:-|&|/|and|\+)\s*` + dayWord + `)*)`
	daySpec = regexp.MustCompile(`^` + dayList + `\.?\s*:?\s*`)
	// Hours before their days: "9am-5pm Mon-Fri".
	daysLast = regexp.MustCompile(`^([0-9][0-9: apm-]*?)\s*:?\s*` + dayList + `\.?$`)
	clockRe  = `(\d{1,2})(?::?(\d{2}))?\s*(am|pm|a|p)?`
	rangeRe  = regexp.MustCompile(`^` + clockRe + `\s*-\s*` + clockRe + `$`)
	spacesRe = regexp.MustCompile(`\s+`)
)

// ParseFreeHours reads the claim form's free-text working hours into weekly
// hours when every part can be read, e.g. "Mon-Fri 9am-9pm, Sat 10-6, Sun
// closed", "Daily 09:00-21:00", "24/7". Days not named are closed. It
// answers false when any part is unclear: the text is then kept as the
// store's hours text only.
func ParseFreeHours(text string) ([]WorkingHour, bool) {
	hours, _, ok := parseWeekly(normalizeHours(text))
	return hours, ok
}

// normalizeHours lower-cases free-text hours and spells times one way.
func normalizeHours(text string) string {
	s := strings.ToLower(strings.TrimSpace(text))
	s = strings.NewReplacer("–", "-", "—", "-", " to ", "-", " till ", "-", " until ", "-", " through ", "-", " thru ", "-",
		"noon", "12pm", "midnight", "12am", "a.m.", "am", "p.m.", "pm").Replace(s)
	return spacesRe.ReplaceAllString(s, " ")
}

func splitParts(s string) []string {
	var out []string
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ';' || r == '\n' || r == '|' }) {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}

// parseWeekly reads normalised weekly hours (see ParseFreeHours); notes
// are the ranges that could also be read another way (see parseRange).
func parseWeekly(s string) (hours []WorkingHour, notes []string, ok bool) {
	if s == "" {
		return nil, nil, false
	}
	switch s {
	case "24/7", "24 / 7", "open 24 hours", "24 hours", "open 24/7", "always open":
		return allWeek("00:00", "23:59"), nil, true
	}
	var out []WorkingHour
	seen := map[time.Weekday]bool{}
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ';' || r == '\n' || r == '|' }) {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		part = strings.TrimPrefix(part, "open ")
		if days, ok := strings.CutPrefix(part, "closed "); ok {
			part = days + " closed" // "Closed Sun"
		} else if m := daysLast.FindStringSubmatch(part); m != nil {
			part = m[2] + " " + m[1]
		}
		m := daySpec.FindStringSubmatch(part)
		if m == nil {
			return nil, nil, false
		}
		days, ok := expandDays(m[1])
		if !ok {
			return nil, nil, false
		}
		rest := strings.TrimSpace(part[len(m[0]):])
		var start, end string
		switch rest {
		case "closed", "off", "close":
		case "24 hours", "open 24 hours", "24h", "all day":
			start, end = "00:00", "23:59"
		default:
			var note string
			var err error
			if start, end, note, err = parseRange(rest); err != nil {
				return nil, nil, false
			}
			if note != "" {
				notes = append(notes, note)
			}
		}
		for _, d := range days {
			if seen[d] {
				return nil, nil, false // a day given twice: unclear
			}
			seen[d] = true
			out = append(out, WorkingHour{WeekDay: d, Start: start, End: end})
		}
	}
	if len(out) == 0 {
		return nil, nil, false
	}
	sort.Slice(out, func(i, j int) bool { return out[i].WeekDay < out[j].WeekDay })
	return out, notes, true
}

func allWeek(start, end string) []WorkingHour {
	out := make([]WorkingHour, 7)
	for d := range out {
		out[d] = WorkingHour{WeekDay: time.Weekday(d), Start: start, End: end}
	}
	return out
}

// expandDays reads "mon-fri", "sat & sun", "daily", "weekdays".
func expandDays(spec string) ([]time.Weekday, bool) {
	switch spec {
	case "daily", "every day", "everyday", "all week", "7 days", "7 days a week":
		return []time.Weekday{0, 1, 2, 3, 4, 5, 6}, true
	case "weekdays":
		return []time.Weekday{1, 2, 3, 4, 5}, true
	case "weekends":
		return []time.Weekday{0, 6}, true
	}
	spec = strings.NewReplacer(" and ", "&", "/", "&", "+", "&", " ", "").Replace(spec)
	var out []time.Weekday
	for _, grp := range strings.Split(spec, "&") {
		a, b, isRange := strings.Cut(grp, "-")
		da, ok := dayName(a)
		if !ok {
			return nil, false
		}
		if !isRange {
			out = append(out, da)
			continue
		}
		db, ok := dayName(b)
		if !ok {
			return nil, false
		}
		for d := da; ; d = (d + 1) % 7 { // "fri-mon" wraps over the weekend
			out = append(out, d)
			if d == db {
				break
			}
		}
	}
	return out, true
}

// A time as the free text wrote it.
type writtenClock struct {
	h, m   int
	suffix string // "am", "pm" or ""
	h24    bool   // a 24-hour clock: "09", "00" or an hour over 12
}

func readClock(hs, ms, suffix string) (writtenClock, bool) {
	h, m, ok := clock(hs, ms, suffix)
	if !ok {
		return writtenClock{}, false
	}
	sfx := ""
	switch suffix {
	case "am", "a":
		sfx = "am"
	case "pm", "p":
		sfx = "pm"
	}
	return writtenClock{h: h, m: m, suffix: sfx, h24: sfx == "" && (h == 0 || h > 12 || (len(hs) == 2 && hs[0] == '0'))}, true
}

// shortDay is how short a shop-hours reading may be before the moderator
// is told it might run past midnight ("11-1": 11 AM-1 PM, or 11 AM-1 AM).
const shortDay = 4 * 60

// dayName reads a day's name, also in the plural ("Sundays").
func dayName(s string) (time.Weekday, bool) {
	if d, ok := dayNames[s]; ok {
		return d, true
	}
	d, ok := dayNames[strings.TrimSuffix(s, "s")]
	return d, ok && len(s) > 3
}

// parseRange reads one range of opening hours: "9am-9pm", "9:30 am - 5 pm",
// "09:00-21:00", "9-5", "10-2am". A range without AM/PM is read the way
// shop hours are written (docs/claims.md, "Free-text hours"): the opening
// hour 1-4 is afternoon, 5-11 morning and 12 noon; the closing time is the
// first reading of it after the opening that is not past midnight ("12-6"
// is 12:00-18:00, "9-9" 09:00-21:00). Only a range written on a 24-hour
// clock or with AM/PM on its closing time may run past midnight
// ("18:00-02:00", "10-2am"). note is set when another reading is as
// plausible (the moderator sees it before approving); err when no reading
// fits, and the text then stays the store's hours text only.
func parseRange(s string) (start, end, note string, err error) {
	m := rangeRe.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return "", "", "", fmt.Errorf("not a time range: %q", s)
	}
	a, ok1 := readClock(m[1], m[2], m[3])
	b, ok2 := readClock(m[4], m[5], m[6])
	if !ok1 || !ok2 {
		return "", "", "", fmt.Errorf("not a time range: %q", s)
	}
	from, to := a.h*60+a.m, b.h*60+b.m
	switch {
	case a.suffix != "" && b.suffix != "", a.suffix == "" && b.suffix == "" && (a.h24 || b.h24):
		// As written; a closing time before the opening runs past midnight.
	case a.suffix == "" && b.suffix != "":
		// "5-11pm" shares the suffix; "9-5pm" is 9 AM; "10-2am" runs past
		// midnight from an opening read as in a range without AM/PM.
		shared, other := a.h%12*60+a.m, a.h%12*60+a.m+12*60
		if b.suffix == "pm" {
			shared, other = other, shared
		}
		switch {
		case a.h == 12:
			from = 12*60 + a.m
		case shared < to:
			from = shared
		case other < to:
			from = other
		default:
			from = openingHour(a)
		}
	default:
		if a.suffix == "" {
			from = openingHour(a)
		}
		var alt int
		to, alt = closingAfter(from, b)
		if to < 0 {
			return "", "", "", fmt.Errorf("%q would run past midnight: write AM/PM", s)
		}
		switch {
		case alt >= 0:
			note = fmt.Sprintf("%q read as %s-%s; it may mean %s-%s", strings.TrimSpace(s), clockText(from), clockText(to), clockText(from), clockText(alt))
		case to-from < shortDay && to+12*60 > 24*60:
			note = fmt.Sprintf("%q read as %s-%s; it may mean %s-%s (past midnight)", strings.TrimSpace(s), clockText(from), clockText(to), clockText(from), clockText(to+12*60-24*60))
		}
	}
	if to == 0 && from > 0 {
		to = 24 * 60 // closes at midnight
	}
	return clockText(from), clockText(to), note, nil
}

// openingHour reads an opening time without AM/PM: 1-4 is afternoon, 5-11
// morning, 12 noon.
func openingHour(c writtenClock) int {
	if c.h >= 1 && c.h <= 4 {
		return (c.h+12)*60 + c.m
	}
	return c.h*60 + c.m
}

// closingAfter reads a closing time without AM/PM after the opening at from
// (minutes): its first reading after from that is not past midnight, or -1.
// alt is a second such reading (12 hours later), or -1.
func closingAfter(from int, c writtenClock) (to, alt int) {
	to, alt = -1, -1
	readings := []int{c.h%12*60 + c.m, c.h%12*60 + c.m + 12*60, c.h%12*60 + c.m + 24*60}
	if c.h24 {
		readings = []int{c.h*60 + c.m}
	}
	for _, t := range readings {
		if t <= from || t > 24*60 {
			continue
		}
		if to < 0 {
			to = t
		} else if alt < 0 {
			alt = t
		}
	}
	return to, alt
}

func clock(hs, ms, ampm string) (int, int, bool) {
	h, err := strconv.Atoi(hs)
	if err != nil {
		return 0, 0, false
	}
	m := 0
	if ms != "" {
		if m, err = strconv.Atoi(ms); err != nil || m > 59 {
			return 0, 0, false
		}
	}
	switch ampm {
	case "am", "a":
		if h < 1 || h > 12 {
			return 0, 0, false
		}
		if h == 12 {
			h = 0
		}
	case "pm", "p":
		if h < 1 || h > 12 {
			return 0, 0, false
		}
		if h != 12 {
			h += 12
		}
	default:
		if h > 24 || (h == 24 && m != 0) {
			return 0, 0, false
		}
	}
	return h, m, true
}
