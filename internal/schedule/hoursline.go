package schedule

import (
	"slices"
	"strconv"
	"strings"
	"time"
)

// The words and formats every surface uses for hours (docs/product-rules.md,
// "One truth per store"): the panel, the store page, favourites and the
// list all read times as "9:00 PM", a span as "9:00 AM – 9:00 PM", a span
// covering the whole day as "Open 24 hours", and the hours line under a
// store's name is made from its weekly hours, so it cannot contradict them.
// The web app's copy is web/src/lib/hours.ts (spanText, hoursLine).

// AllDayText is what a span covering the whole day reads.
const AllDayText = "Open 24 hours"

// Clock12 writes "HH:MM" as "9:00 PM" ("00:00" and "24:00" as "12:00 AM");
// a text it cannot read is given back as it is.
func Clock12(hhmm string) string {
	m, ok := ParseClock(hhmm)
	if !ok {
		return hhmm
	}
	m %= 24 * 60
	suffix := " AM"
	if m >= 12*60 {
		suffix = " PM"
	}
	h := (m/60+11)%12 + 1
	return strconv.Itoa(h) + ":" + clockText(m)[3:] + suffix
}

// allDay reports whether a span from start to end covers the whole day:
// start = end (the open rule's all day), or midnight to the last minute or
// to 24:00 (how imports and the claim form's "24/7" write it).
func allDay(start, end string) bool {
	a, ok1 := ParseClock(start)
	b, ok2 := ParseClock(end)
	if !ok1 || !ok2 {
		return false
	}
	return a == b || (a == 0 && (b == 24*60-1 || b == 24*60))
}

// SpanText is one span as every surface writes it: "9:00 AM – 9:00 PM",
// or "Open 24 hours" for the whole day.
func SpanText(start, end string) string {
	if allDay(start, end) {
		return AllDayText
	}
	return Clock12(start) + " – " + Clock12(end)
}

// mondayFirst is the order of the hours line: the week as shops write it.
var mondayFirst = [7]time.Weekday{time.Monday, time.Tuesday, time.Wednesday, time.Thursday, time.Friday, time.Saturday, time.Sunday}

// HoursLine is the one-line summary of weekly hours that stands under a
// store's name: "Mon–Fri 9:00 AM – 9:00 PM · Sat 10:00 AM – 6:00 PM · Sun
// closed", "Daily 10:00 AM – 10:00 PM", "Open 24 hours". Consecutive days
// with the same spans are joined. It is "" when no day has hours.
func HoursLine(hs []WorkingHour) string {
	var texts [7]string // by weekday: the day's spans, "" when closed
	someOpen := false
	for d := time.Sunday; d <= time.Saturday; d++ {
		var day []WorkingHour
		for _, h := range hs {
			if h.WeekDay == d && h.Start != "" && h.End != "" {
				day = append(day, h)
			}
		}
		slices.SortFunc(day, func(a, b WorkingHour) int { return strings.Compare(a.Start, b.Start) })
		parts := make([]string, 0, len(day))
		for _, h := range day {
			if allDay(h.Start, h.End) {
				parts = []string{AllDayText}
				break
			}
			parts = append(parts, SpanText(h.Start, h.End))
		}
		texts[d] = strings.Join(parts, ", ")
		someOpen = someOpen || len(parts) > 0
	}
	if !someOpen {
		return ""
	}
	first := texts[mondayFirst[0]]
	same := true
	for _, d := range mondayFirst {
		same = same && texts[d] == first
	}
	if same {
		if first == AllDayText {
			return AllDayText
		}
		return "Daily " + first
	}
	var groups []string
	for i := 0; i < 7; {
		j := i
		for j+1 < 7 && texts[mondayFirst[j+1]] == texts[mondayFirst[i]] {
			j++
		}
		days := mondayFirst[i].String()[:3]
		switch {
		case j == i+1:
			days += ", " + mondayFirst[j].String()[:3]
		case j > i:
			days += "–" + mondayFirst[j].String()[:3]
		}
		text := texts[mondayFirst[i]]
		switch text {
		case "":
			text = "closed"
		case AllDayText:
			text = "open 24 hours" // "Sat open 24 hours", as "Sun closed"
		}
		groups = append(groups, days+" "+text)
		i = j + 1
	}
	return strings.Join(groups, " · ")
}

// ShownHours is the hours line a shopper reads under the store's name:
// the one made from the weekly hours whenever the store has any, so an
// owner's free text written for former hours ("Mon-Sat 10am-9pm") can
// never stand beside a week that says otherwise; the owner's text only
// when there are no weekly hours to read (it is then all there is).
func ShownHours(hs []WorkingHour, text string) string {
	if line := HoursLine(hs); line != "" {
		return line
	}
	return text
}
