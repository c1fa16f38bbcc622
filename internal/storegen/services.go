package storegen

import (
	"math/rand/v2"
	"time"

	"locator/internal/schedule"
	"locator/internal/stores"
)

// The demo stores' service hours (docs/product-rules.md, "Services"): a
// share of the stores that offer delivery, curbside pickup or online
// ordering keep hours of their own, from a few shared programs (so the
// search index interns their schedules), drawn from their own random
// stream so the rest of the data set is the same as without them. SLB-1's
// data set (Dataset) has none.
const (
	ownDeliveryPct = 35 // of the stores that deliver
	ownCurbsidePct = 25 // of the stores with curbside pickup
	ownOnlinePct   = 20 // of the stores that take orders online
)

// serviceWeek is every day from start to end.
func serviceWeek(start, end string) []schedule.WorkingHour {
	hs := make([]schedule.WorkingHour, 0, 7)
	for d := time.Sunday; d <= time.Saturday; d++ {
		hs = append(hs, schedule.WorkingHour{WeekDay: d, Start: start, End: end})
	}
	return hs
}

var (
	deliveryPrograms = []schedule.ServiceHours{
		{Hours: serviceWeek("11:00", "21:00"), LastOrder: 30},
		{Hours: serviceWeek("12:00", "20:00"), LastOrder: 45},
		{LastOrder: 30}, // the store's hours, orders until half an hour before closing
	}
	curbsidePrograms = []schedule.ServiceHours{
		{Hours: serviceWeek("10:00", "19:00"), LastOrder: 15},
		{LastOrder: 15},
	}
	onlinePrograms = []schedule.ServiceHours{
		{Hours: serviceWeek("00:00", "00:00")}, // around the clock
		{Hours: serviceWeek("07:00", "23:00")},
	}
)

func addServiceHours(ss []*stores.Store, seedValue uint64) {
	rng := rand.New(rand.NewPCG(seedValue, 0x5e541ce))
	for _, s := range ss {
		for _, c := range []struct {
			offered  bool
			k        schedule.Service
			pct      int
			programs []schedule.ServiceHours
		}{
			{s.Delivery, schedule.Delivery, ownDeliveryPct, deliveryPrograms},
			{s.Curbside, schedule.CurbsidePickup, ownCurbsidePct, curbsidePrograms},
			{s.OrderOnline, schedule.OnlineOrder, ownOnlinePct, onlinePrograms},
		} {
			p, program := rng.IntN(100), rng.IntN(len(c.programs))
			if c.offered && p < c.pct {
				s.Services[c.k] = c.programs[program]
			}
		}
	}
}
