package storegen

import (
	"fmt"
	"math/rand/v2"
	"time"

	"locator/internal/schedule"
	"locator/internal/stores"
)

// Holiday is a US public holiday on a date.
type Holiday struct {
	Date time.Time // midnight UTC of the date
	Name string
}

// USHolidays lists the US federal holidays (by their actual dates, not the
// observed weekday when they fall on a weekend) from the date of from for
// twelve months, in date order, plus Christmas Eve, when shops close early.
func USHolidays(from time.Time) []Holiday {
	start := time.Date(from.Year(), from.Month(), from.Day(), 0, 0, 0, 0, time.UTC)
	end := start.AddDate(1, 0, 0)
	var out []Holiday
	for y := start.Year(); y <= end.Year(); y++ {
		for _, h := range []Holiday{
			{fixed(y, time.January, 1), "New Year's Day"},
			{nthWeekday(y, time.January, time.Monday, 3), "Martin Luther King Jr. Day"},
			{nthWeekday(y, time.February, time.Monday, 3), "Presidents' Day"},
			{lastWeekday(y, time.May, time.Monday), "Memorial Day"},
			{fixed(y, time.June, 19), "Juneteenth"},
			{fixed(y, time.July, 4), "Independence Day"},
			{nthWeekday(y, time.September, time.Monday, 1), "Labor Day"},
			{nthWeekday(y, time.October, time.Monday, 2), "Columbus Day"},
			{fixed(y, time.November, 11), "Veterans Day"},
			{nthWeekday(y, time.November, time.Thursday, 4), "Thanksgiving"},
			{fixed(y, time.December, 24), "Christmas Eve"},
			{fixed(y, time.December, 25), "Christmas Day"},
		} {
			if !h.Date.Before(start) && h.Date.Before(end) {
				out = append(out, h)
			}
		}
	}
	return out
}

func fixed(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

func nthWeekday(y int, m time.Month, wd time.Weekday, n int) time.Time {
	t := fixed(y, m, 1)
	t = t.AddDate(0, 0, (int(wd)-int(t.Weekday())+7)%7)
	return t.AddDate(0, 0, 7*(n-1))
}

func lastWeekday(y int, m time.Month, wd time.Weekday) time.Time {
	t := fixed(y, m+1, 1).AddDate(0, 0, -1)
	return t.AddDate(0, 0, -((int(t.Weekday()) - int(wd) + 7) % 7))
}

// Shares of the demo stores with each kind of exception (percent, and per
// thousand for permanent closures), so that a new user meets every status.
const (
	holidayClosedPct  = 55 // closed on the big three, short hours on the summer holidays
	federalClosedPct  = 15 // closed on every federal holiday
	temporaryPermille = 20
	permanentPermille = 6
)

// big three: closed; summer holidays: short hours; Christmas Eve: early close.
var bigThree = map[string]bool{"Thanksgiving": true, "Christmas Day": true, "New Year's Day": true}
var summer = map[string]bool{"Memorial Day": true, "Independence Day": true, "Labor Day": true}

// addExceptions gives the demo stores holiday hours and closures, from
// their own random stream (so the rest of the data set is the same as
// without them). from is the seed date: the holidays are those of the
// twelve months after it.
func addExceptions(ss []*stores.Store, seedValue uint64, from time.Time) {
	rng := rand.New(rand.NewPCG(seedValue, 0x401da75))
	hols := USHolidays(from)
	// Two shared programs: most stores of a program share one schedule
	// encoding, which the search index interns.
	var program, federal []schedule.SpecialHour
	for _, h := range hols {
		date := h.Date.Format("2006-01-02")
		switch {
		case bigThree[h.Name]:
			program = append(program, schedule.SpecialHour{Date: date, Closed: true, Note: h.Name})
		case summer[h.Name]:
			program = append(program, schedule.SpecialHour{Date: date, Start: "10:00", End: "16:00", Note: h.Name})
		case h.Name == "Christmas Eve":
			program = append(program, schedule.SpecialHour{Date: date, Start: "09:00", End: "15:00", Note: h.Name})
		}
		if h.Name != "Christmas Eve" {
			federal = append(federal, schedule.SpecialHour{Date: date, Closed: true, Note: h.Name})
		}
	}
	day := time.Date(from.Year(), from.Month(), from.Day(), 0, 0, 0, 0, time.UTC)
	for _, s := range ss {
		switch p := rng.IntN(100); {
		case p < holidayClosedPct:
			s.SpecialHours = append([]schedule.SpecialHour(nil), program...)
		case p < holidayClosedPct+federalClosedPct:
			s.SpecialHours = append([]schedule.SpecialHour(nil), federal...)
		}
		switch p := rng.IntN(1000); {
		case p < permanentPermille:
			s.PermanentlyClosed = true
		case p < permanentPermille+temporaryPermille:
			c := &schedule.Closure{From: day.AddDate(0, 0, -rng.IntN(10)).Format("2006-01-02")}
			if rng.IntN(4) > 0 {
				c.Until = day.AddDate(0, 0, 3+rng.IntN(30)).Format("2006-01-02")
			}
			c.Note = []string{"Renovation", "Closed for repairs", "Moving to a new address", ""}[rng.IntN(4)]
			s.TemporarilyClosed = c
		}
	}
}

// String is the holiday as "2026-11-26 Thanksgiving".
func (h Holiday) String() string { return fmt.Sprintf("%s %s", h.Date.Format("2006-01-02"), h.Name) }
