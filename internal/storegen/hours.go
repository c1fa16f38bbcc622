package storegen

import (
	"time"

	"locator/internal/schedule"
)

// Week is a weekly-hours template: spans per weekday (empty: closed); no
// span at all is a store without set hours.
type Week struct {
	text string
	days [7][2]string
}

func (p *Week) hours() []schedule.WorkingHour {
	if p.days == ([7][2]string{}) {
		return nil // no hours at all: the "does not have set business hours" notice
	}
	hs := make([]schedule.WorkingHour, 7)
	for d := range hs {
		hs[d] = schedule.WorkingHour{WeekDay: time.Weekday(d), Start: p.days[d][0], End: p.days[d][1]}
	}
	return hs
}

func week(sun, mon, tue, wed, thu, fri, sat [2]string) [7][2]string {
	return [7][2]string{sun, mon, tue, wed, thu, fri, sat}
}

var (
	closed   = [2]string{}
	nineNine = [2]string{"09:00", "21:00"}
	tenEight = [2]string{"10:00", "20:00"}
	noonSix  = [2]string{"12:00", "18:00"}
	late     = [2]string{"18:00", "02:00"}
	midLate  = [2]string{"11:00", "01:00"}
	allDay   = [2]string{"00:00", "23:59"}
)

// Weeks are the templates a Style weighs.
var Weeks = []Week{
	{"Daily 9:00 AM - 9:00 PM", week(nineNine, nineNine, nineNine, nineNine, nineNine, nineNine, nineNine)},
	{"Mon-Sat 10:00 AM - 8:00 PM, Sun closed", week(closed, tenEight, tenEight, tenEight, tenEight, tenEight, tenEight)},
	{"Mon-Fri 10:00 AM - 8:00 PM, Sat-Sun 12:00 PM - 6:00 PM", week(noonSix, tenEight, tenEight, tenEight, tenEight, tenEight, noonSix)},
	{"Daily 11:00 AM - 1:00 AM", week(midLate, midLate, midLate, midLate, midLate, midLate, midLate)},
	{"Mon-Thu 9:00 AM - 9:00 PM, Fri-Sat 6:00 PM - 2:00 AM, Sun closed", week(closed, nineNine, nineNine, nineNine, nineNine, late, late)},
	{"Open 24 hours", week(allDay, allDay, allDay, allDay, allDay, allDay, allDay)},
	{"Tue-Sat 10:00 AM - 8:00 PM, Sun-Mon closed", week(closed, closed, tenEight, tenEight, tenEight, tenEight, tenEight)},
	{"Call for hours", [7][2]string{}},
}
