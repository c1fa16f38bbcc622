package bench_test

import (
	"testing"
	"time"

	"locator/internal/bench"
	"locator/internal/schedule"
	"locator/internal/search"
	"locator/internal/stores"
)

var serviced derived

// withServices is the loaded data set with the demo data's share of
// service settings (internal/storegen/services.go): of the stores that
// deliver, 35% keep their own hours or a last order (one store in a
// hundred of those paused for the next hour); of those with curbside
// pickup 25%; of those ordering online 20%.
func withServices(b *testing.B, l *bench.Loaded) *search.Index {
	b.Helper()
	pause := time.Now().Add(time.Hour)
	week := func(start, end string) []schedule.WorkingHour {
		var hs []schedule.WorkingHour
		for d := time.Sunday; d <= time.Saturday; d++ {
			hs = append(hs, schedule.WorkingHour{WeekDay: d, Start: start, End: end})
		}
		return hs
	}
	return serviced.index(l, func(i int, e stores.Entry, s *stores.Store) {
		p := i % 100
		if e.Delivery && p < 35 {
			s.Services[schedule.Delivery] = schedule.ServiceHours{Hours: week("11:00", "21:00"), LastOrder: 30}
			if p == 0 {
				s.Services[schedule.Delivery].PausedUntil = &pause
			}
		}
		if e.Curbside && p >= 50 && p < 75 {
			s.Services[schedule.CurbsidePickup] = schedule.ServiceHours{LastOrder: 15}
		}
		if e.OrderOnline && p >= 80 {
			s.Services[schedule.OnlineOrder] = schedule.ServiceHours{Hours: week("07:00", "23:00")}
		}
	})
}

// BenchmarkServiceFilter compares, side by side on the SLB-1 mix, the
// "Delivery" filter with is_open_now against the same with available_now
// (the service rule), on the data set as generated (no service settings)
// and with the demo share of them (docs/performance-history.md, "Service filter"):
//
//	go test -run '^$' -bench ServiceFilter -benchtime 20000x ./internal/bench/
func BenchmarkServiceFilter(b *testing.B) {
	with := func(open, avail bool) func(ix *search.Index, q search.Query) {
		return func(ix *search.Index, q search.Query) {
			q.Delivery, q.OpenNow, q.AvailableNow = true, open, avail
			ix.Nearest(q)
		}
	}
	b.Run("delivery-open-now", func(b *testing.B) { benchMix(b, 0, with(true, false)) })
	b.Run("delivery-available-now", func(b *testing.B) { benchMix(b, 0, with(false, true)) })
	b.Run("delivery-open-now-services", func(b *testing.B) {
		ix := withServices(b, load(b))
		fn := with(true, false)
		benchMix(b, 0, func(_ *search.Index, q search.Query) { fn(ix, q) })
	})
	b.Run("delivery-available-now-services", func(b *testing.B) {
		ix := withServices(b, load(b))
		fn := with(false, true)
		benchMix(b, 0, func(_ *search.Index, q search.Query) { fn(ix, q) })
	})
}
