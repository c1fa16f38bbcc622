package httpapi

import (
	"math"
	"net/http"
	"strconv"
	"time"

	"locator/internal/apperr"
	"locator/internal/rules"
)

// The rulebook for a place (docs/rules.md): GET /api/rules?latitude=&longitude=.

type rulePlaceDTO struct {
	Country    string `json:"country"`
	State      string `json:"state"`
	City       string `json:"city"`
	PostalCode string `json:"postal_code"`
}

type rulesAnswer struct {
	Place               *rulePlaceDTO  `json:"place"`
	On                  string         `json:"on"`
	Rules               []rules.Public `json:"rules"`
	MinAge              int            `json:"min_age"`
	ShippingToConsumers bool           `json:"shipping_to_consumers"`
	ShippingBan         *rules.Public  `json:"shipping_ban"`
}

// placeRules answers the rules in force at a position today (in the
// place's zone), for a store open to all: the shopper's place, so its
// minimum age and whether shipping to consumers is allowed.
func (s *Server) placeRules(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	lat, err1 := strconv.ParseFloat(q.Get("latitude"), 64)
	lon, err2 := strconv.ParseFloat(q.Get("longitude"), 64)
	if err1 != nil || err2 != nil || math.IsNaN(lat) || math.IsNaN(lon) || lat < -90 || lat > 90 || lon < -180 || lon > 180 {
		return apperr.Invalidf("latitude (from -90 to 90) and longitude (from -180 to 180) are required numbers")
	}
	out := rulesAnswer{Rules: []rules.Public{}}
	var in []*rules.Rule
	if p, ok := s.ruleLocator.PlaceAt(lat, lon); ok {
		out.Place = &rulePlaceDTO{Country: p.Country, State: p.State, City: p.City, PostalCode: p.ZIP}
		loc, err := time.LoadLocation(s.ruleLocator.TimeZone(lat, lon))
		if err != nil {
			loc = time.UTC
		}
		now := s.Clock.Now().In(loc)
		out.On = now.Format(time.DateOnly)
		in = rules.MustLoad().At(p, false, rules.DayOf(now))
	} else {
		out.On = s.Clock.Now().UTC().Format(time.DateOnly)
	}
	for _, rule := range in {
		out.Rules = append(out.Rules, rules.PublicOf(rule))
	}
	out.MinAge = rules.MinAge(in)
	if ban := rules.ShippingBan(in); ban != nil {
		p := rules.PublicOf(ban)
		out.ShippingBan = &p
	} else {
		out.ShippingToConsumers = true
	}
	w.Header().Set("Cache-Control", "public, max-age=3600")
	writeJSON(w, http.StatusOK, out)
	return nil
}
