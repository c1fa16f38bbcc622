package claims

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"locator/internal/stores"
)

var (
	dayNames = map[string]time.Weekday{
		"sun": time.Sunday, "sunday": time.Sunday, "mon": time.Monday, "monday": time.Monday,
		"tue": time.Tuesday, "tues": time.Tuesday, "tuesday": time.Tuesday, "wed": time.Wednesday, "wednesday": time.Wednesday,
		"thu": time.Thursday, "thur": time.Thursday, "thurs": time.Thursday, "thursday": time.Thursday,
		"fri": time.Friday, "friday": time.Friday, "sat": time.Saturday, "saturday": time.Saturday,
	}
	dayWord  = `(?:sun(?:day)?|mon(?:day)?|tue(?:sday|s)?|wed(?:nesday)?|thu(?:rsday|rs|r)?|fri(?:day)?|sat(?:urday)?)`
	daySpec  = regexp.MustCompile(`^(daily|every ?day|everyday|all week|weekdays|weekends|` + dayWord + `(?:\s*(?:-|&|/|and|\+)\s*` + dayWord + `)*)\.?\s*:?\s*`)
	clockRe  = `(\d{1,2})(?::?(\d{2}))?\s*(am|pm|a|p)?`
	rangeRe  = regexp.MustCompile(`^` + clockRe + `\s*-\s*` + clockRe + `$`)
	spacesRe = regexp.MustCompile(`\s+`)
)

// ParseFreeHours reads the claim form's free-text working hours into weekly
// hours when every part can be read, e.g. "Mon-Fri 9am-9pm, Sat 10-6, Sun
// closed", "Daily 09:00-21:00", "24/7". Days not named are closed. It
// answers false when any part is unclear: the text is then kept as the
// store's hours text only.
func ParseFreeHours(text string) ([]stores.WorkingHour, bool) {
	return parseWeekly(normalizeHours(text))
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

// parseWeekly reads normalised weekly hours (see ParseFreeHours).
func parseWeekly(s string) ([]stores.WorkingHour, bool) {
	if s == "" {
		return nil, false
	}
	switch s {
	case "24/7", "24 / 7", "open 24 hours", "24 hours", "open 24/7", "always open":
		return allWeek("00:00", "23:59"), true
	}
	var out []stores.WorkingHour
	seen := map[time.Weekday]bool{}
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ';' || r == '\n' || r == '|' }) {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		m := daySpec.FindStringSubmatch(part)
		if m == nil {
			return nil, false
		}
		days, ok := expandDays(m[1])
		if !ok {
			return nil, false
		}
		rest := strings.TrimSpace(part[len(m[0]):])
		var start, end string
		switch rest {
		case "closed", "off", "close":
		case "24 hours", "open 24 hours", "24h", "all day":
			start, end = "00:00", "23:59"
		default:
			var err error
			if start, end, err = parseRange(rest); err != nil {
				return nil, false
			}
		}
		for _, d := range days {
			if seen[d] {
				return nil, false // a day given twice: unclear
			}
			seen[d] = true
			out = append(out, stores.WorkingHour{WeekDay: d, Start: start, End: end})
		}
	}
	if len(out) == 0 {
		return nil, false
	}
	sort.Slice(out, func(i, j int) bool { return out[i].WeekDay < out[j].WeekDay })
	return out, true
}

func allWeek(start, end string) []stores.WorkingHour {
	out := make([]stores.WorkingHour, 7)
	for d := range out {
		out[d] = stores.WorkingHour{WeekDay: time.Weekday(d), Start: start, End: end}
	}
	return out
}

// expandDays reads "mon-fri", "sat & sun", "daily", "weekdays".
func expandDays(spec string) ([]time.Weekday, bool) {
	switch spec {
	case "daily", "every day", "everyday", "all week":
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
		da, ok := dayNames[a]
		if !ok {
			return nil, false
		}
		if !isRange {
			out = append(out, da)
			continue
		}
		db, ok := dayNames[b]
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

// parseRange reads "9am-9pm", "9:30 am - 5 pm", "09:00-21:00", "9-5".
func parseRange(s string) (string, string, error) {
	m := rangeRe.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return "", "", fmt.Errorf("not a time range: %q", s)
	}
	h1, min1, ok1 := clock(m[1], m[2], m[3])
	h2, min2, ok2 := clock(m[4], m[5], m[6])
	if !ok1 || !ok2 {
		return "", "", fmt.Errorf("not a time range: %q", s)
	}
	// "9-5" without am/pm means 09:00-17:00: a shop day, not 9 AM to 5 AM.
	if m[3] == "" && m[6] == "" && h2 <= h1 && h2 < 12 && h1 < 12 {
		h2 += 12
	}
	return fmt.Sprintf("%02d:%02d", h1, min1), fmt.Sprintf("%02d:%02d", h2%24, min2), nil
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
