package storepages

import (
	"strconv"
	"strings"
	"time"

	"locator/internal/schedule"
)

// The services' own weeks on a store page (docs/product-rules.md,
// "Services"): a table each under the store's, and a department each in
// the JSON-LD with its own openingHoursSpecification.

// serviceWeek is one offered service with hours of its own.
type serviceWeek struct {
	Title string // "Delivery hours (last order 30 minutes before closing)"
	Name  string // "Delivery"
	Hours []schedule.DocHour
	Rows  []hoursRow
}

var serviceTitles = [schedule.NumServices]string{"Delivery", "Curbside pickup", "Online orders"}

func serviceWeeks(v *storeView, sched *schedule.Schedule, today time.Weekday) []serviceWeek {
	offered := schedule.OfferedOf(v.IsDeliveryAvailable, v.IsCurbsidePickupAvailable, v.IsOrderOnlineAvailable)
	var out []serviceWeek
	for k := schedule.Service(0); k < schedule.NumServices; k++ {
		week, lastOrder := sched.ServiceWeek(k)
		if !offered.Has(k) || len(week) == 0 {
			continue
		}
		hours := schedule.DocHours(week)
		title := serviceTitles[k] + " hours"
		if lastOrder > 0 {
			title += " (last order " + strconv.Itoa(lastOrder) + " minutes before closing)"
		}
		out = append(out, serviceWeek{Title: title, Name: serviceTitles[k], Hours: hours, Rows: weekRows(hours, today)})
	}
	return out
}

// weekRows is a week's table, Sunday to Saturday: a day's spans ("9:00 AM
// – 5:00 PM, 6:00 PM – 10:00 PM", "Open 24 hours") or "Closed".
func weekRows(hours []schedule.DocHour, today time.Weekday) []hoursRow {
	rows := make([]hoursRow, 0, 7)
	for d := time.Sunday; d <= time.Saturday; d++ {
		var texts []string
		for _, h := range hours {
			if wd, ok := schedule.ParseWeekday(h.WeekDay); ok && wd == d && h.StartTime != nil && h.EndTime != nil {
				texts = append(texts, schedule.SpanText(*h.StartTime, *h.EndTime))
			}
		}
		text := "Closed"
		if len(texts) > 0 {
			text = strings.Join(texts, ", ")
		}
		rows = append(rows, hoursRow{Day: d.String(), Text: text, Today: d == today})
	}
	return rows
}

// ldDepartment is a service with hours of its own, as a department of the store.
type ldDepartment struct {
	Type    string    `json:"@type"`
	Name    string    `json:"name"`
	Address ldAddress `json:"address"`
	Hours   []ldHours `json:"openingHoursSpecification"`
}

func departmentsLD(store ldStore, weeks []serviceWeek) []ldDepartment {
	var out []ldDepartment
	for _, w := range weeks {
		out = append(out, ldDepartment{Type: "Store", Name: store.Name + " " + w.Name, Address: store.Address, Hours: hoursLD(w.Hours)})
	}
	return out
}

// serviceLines are the lines of the services a store offers at now (in
// its zone), in the panel's words (schedule.ServiceLine), and the names of
// those it does not offer.
func serviceLines(v *storeView, sched *schedule.Schedule, now time.Time) ([]string, string) {
	offered := schedule.OfferedOf(v.IsDeliveryAvailable, v.IsCurbsidePickupAvailable, v.IsOrderOnlineAvailable)
	var lines, not []string
	for k := schedule.Service(0); k < schedule.NumServices; k++ {
		if !offered.Has(k) {
			not = append(not, schedule.ServiceLabels[k])
			continue
		}
		lines = append(lines, schedule.ServiceLine(k, sched.ServiceStatus(k, now), now))
	}
	return lines, strings.Join(not, ", ")
}
