package schedule_test

import (
	"testing"
	"time"

	"locator/internal/schedule"
	"locator/internal/stores"
)

// The store page says what the panel says about a service (issue #39,
// m12: the page read "Delivery: available" where the panel read
// "Delivery unavailable"); the words are web/src/lib/services.ts's.
func TestServiceLine(t *testing.T) {
	t.Parallel()
	ny, _ := time.LoadLocation("America/New_York")
	weekdays := []time.Weekday{time.Monday, time.Tuesday, time.Wednesday, time.Thursday, time.Friday}
	st := &stores.Store{WorkingHours: week(weekdays, "09:00", "21:00")}
	st.Services[schedule.Delivery] = schedule.ServiceHours{Hours: week(weekdays, "11:00", "20:00"), LastOrder: 30}
	paused := time.Date(2026, 12, 2, 14, 0, 0, 0, ny)
	st.Services[schedule.CurbsidePickup] = schedule.ServiceHours{PausedUntil: &paused, PauseNote: "Short staffed"}
	sched := stores.WithExceptions(st)
	for _, c := range []struct {
		k    schedule.Service
		at   time.Time
		want string
	}{
		{schedule.Delivery, time.Date(2026, 12, 2, 12, 0, 0, 0, ny), "Delivery until 8:00 PM · order by 7:30 PM"}, // a Wednesday
		{schedule.Delivery, time.Date(2026, 12, 2, 19, 45, 0, 0, ny), "Delivery · last orders taken 7:30 PM · next Thu 11:00 AM"},
		{schedule.Delivery, time.Date(2026, 12, 2, 8, 0, 0, 0, ny), "Delivery from 11:00 AM"},
		{schedule.Delivery, time.Date(2026, 12, 4, 22, 0, 0, 0, ny), "Delivery from Mon 11:00 AM"}, // Friday night
		{schedule.CurbsidePickup, time.Date(2026, 12, 2, 10, 0, 0, 0, ny), "Curbside pickup paused today · back at 2:00 PM · Short staffed"},
		{schedule.OnlineOrder, time.Date(2026, 12, 2, 12, 0, 0, 0, ny), "Online orders until 9:00 PM"},
	} {
		if got := schedule.ServiceLine(c.k, sched.ServiceStatus(c.k, c.at), c.at); got != c.want {
			t.Errorf("%v at %s: %q, want %q", c.k, c.at.Format(time.DateTime), got, c.want)
		}
	}
	closed := stores.WithExceptions(&stores.Store{})
	at := time.Date(2026, 12, 2, 12, 0, 0, 0, ny)
	if got := schedule.ServiceLine(schedule.Delivery, closed.ServiceStatus(schedule.Delivery, at), at); got != "Delivery unavailable" {
		t.Errorf("a store without hours: %q", got)
	}
}
