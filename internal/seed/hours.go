package seed

import (
	"math/rand/v2"
	"time"

	"locator/internal/reviews"
	"locator/internal/stores"
)

// pattern is a weekly-hours template: spans per weekday ("" closed).
type pattern struct {
	text string
	days [7][2]string
}

func (p pattern) hours() []stores.WorkingHour {
	if p.days == ([7][2]string{}) {
		return nil // no hours at all: the "does not have set business hours" notice
	}
	hs := make([]stores.WorkingHour, 7)
	for d := range hs {
		hs[d] = stores.WorkingHour{WeekDay: time.Weekday(d), Start: p.days[d][0], End: p.days[d][1]}
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

var patterns = []pattern{
	{"Daily 9:00 AM - 9:00 PM", week(nineNine, nineNine, nineNine, nineNine, nineNine, nineNine, nineNine)},
	{"Mon-Sat 10:00 AM - 8:00 PM, Sun closed", week(closed, tenEight, tenEight, tenEight, tenEight, tenEight, tenEight)},
	{"Mon-Fri 10:00 AM - 8:00 PM, Sat-Sun 12:00 PM - 6:00 PM", week(noonSix, tenEight, tenEight, tenEight, tenEight, tenEight, noonSix)},
	{"Daily 11:00 AM - 1:00 AM", week(midLate, midLate, midLate, midLate, midLate, midLate, midLate)},
	{"Mon-Thu 9:00 AM - 9:00 PM, Fri-Sat 6:00 PM - 2:00 AM, Sun closed", week(closed, nineNine, nineNine, nineNine, nineNine, late, late)},
	{"Open 24 hours", week(allDay, allDay, allDay, allDay, allDay, allDay, allDay)},
	{"Tue-Sat 10:00 AM - 8:00 PM, Sun-Mon closed", week(closed, closed, tenEight, tenEight, tenEight, tenEight, tenEight)},
	{"Call for hours", [7][2]string{}},
}

var patternWeights = []int{30, 20, 15, 10, 8, 5, 5, 7}

var (
	firstNames = []string{"Alex", "Jordan", "Taylor", "Sam", "Chris", "Morgan", "Jamie", "Casey", "Riley", "Avery", "Drew", "Quinn", "Maria", "James", "Li", "Priya"}
	lastNames  = []string{"Smith", "Garcia", "Johnson", "Lee", "Brown", "Nguyen", "Davis", "Miller", "Wilson", "Patel"}
	good       = []string{"Great selection and friendly staff.", "Knowledgeable staff, fair prices.", "My go-to shop, always in stock.",
		"Clean store and quick service.", "They helped me find the right device.", "Good prices on pods and coils."}
	meh = []string{"Decent, but the prices are a bit high.", "OK selection, slow at checkout.", "Fine for basics."}
	bad = []string{"Closed when the hours said open.", "Rude service, won't be back.", "Out of stock on everything I wanted."}
)

var products = []string{
	`{"title":"Disposable Vape 5000 Puffs","handle":"disposable-vape-5000","status":"published","is_giftcard":false,"discountable":true}`,
	`{"title":"Nicotine Pouches Mint","handle":"nicotine-pouches-mint","status":"published","is_giftcard":false,"discountable":true}`,
	`{"title":"Pod Kit Starter","handle":"pod-kit-starter","status":"published","is_giftcard":false,"discountable":true}`,
	`{"title":"E-Liquid Berry 30ml","handle":"e-liquid-berry-30ml","status":"published","is_giftcard":false,"discountable":true}`,
}

// makeReviews gives a store 0-12 reviews, mostly positive.
func makeReviews(rng *rand.Rand, now time.Time) []*reviews.Review {
	n := rng.IntN(13)
	if rng.IntN(5) == 0 {
		n = 0
	}
	out := make([]*reviews.Review, 0, n)
	for i := 0; i < n; i++ {
		rating := []int{5, 5, 5, 4, 4, 4, 3, 2, 1}[rng.IntN(9)]
		var text string
		switch {
		case rating >= 4:
			text = good[rng.IntN(len(good))]
		case rating == 3:
			text = meh[rng.IntN(len(meh))]
		default:
			text = bad[rng.IntN(len(bad))]
		}
		p := rng.IntN(len(products))
		created := now.Add(-time.Duration(rng.IntN(365*24*60)) * time.Minute).UTC()
		out = append(out, &reviews.Review{
			ProductID:          "prod_" + string(rune('a'+p)),
			CustomerID:         "cus_" + string(rune('a'+rng.IntN(26))) + string(rune('a'+rng.IntN(26))),
			Status:             "Approved",
			Rating:             rating,
			Content:            text,
			Product:            []byte(products[p]),
			CustomerFirstName:  firstNames[rng.IntN(len(firstNames))],
			CustomerLastName:   lastNames[rng.IntN(len(lastNames))],
			CustomerHasAccount: rng.IntN(4) != 0,
			CreatedAt:          created,
			UpdatedAt:          created,
		})
	}
	return out
}
