package places

import (
	"context"
	"errors"
	"log/slog"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"
)

// PrecisionAddress is the precision of coordinates an upstream geocoder
// found for a street address.
const PrecisionAddress = "address"

// Service is place search and geocoding: the embedded gazetteer, and an
// upstream geocoder for street addresses when one is configured.
type Service struct {
	Gazetteer *Gazetteer
	Upstream  *Upstream // nil: offline only
	Log       *slog.Logger

	cacheOnce sync.Once
	cache     *lruCache // answers from the gazetteer, by query as typed
}

// searchCacheSize is how many gazetteer answers Search keeps. The data is
// embedded and never changes, so entries only leave to make room; people
// search the same few thousand places, so most requests are hits (under
// 1 us instead of 10-100 us). Answers are shared: callers must not modify them.
const searchCacheSize = 8192

// Notes a place search answers with, for the search box to show.
const (
	// NoteAddressPlace: a street address answered from the gazetteer.
	NoteAddressPlace = "Street addresses can't be looked up here: showing the ZIP code or city of this address."
	// NoteAddressNone: a street address the gazetteer knows no place of.
	NoteAddressNone = "Street addresses can't be looked up here: search for a city, ZIP code or neighbourhood."
)

// Answer is what a place search finds.
type Answer struct {
	Results []Result
	// Note is a plain sentence for the search box, or "": set when a street
	// address could not be looked up (no upstream geocoder, or it failed or
	// knew nothing) and the gazetteer answered.
	Note string
}

// Search answers a place search box (see Gazetteer.Search). A street
// address goes to the upstream geocoder when there is one; when it fails or
// knows nothing, the gazetteer answers.
func (s *Service) Search(ctx context.Context, q string, limit int) []Result {
	return s.Find(ctx, q, limit, nil).Results
}

// Find is Search from a map centre (the tie-breaker of SearchNear, rounded
// to 0.1 degree so that answers can be cached), with a note when a street
// address was answered from the gazetteer.
func (s *Service) Find(ctx context.Context, q string, limit int, near *Near) Answer {
	address := LooksLikeAddress(q) && len([]rune(q)) <= MaxQueryLength
	if s.Upstream != nil && address {
		res, err := s.Upstream.Search(ctx, q, limit)
		if err == nil && len(res) > 0 {
			return Answer{Results: res}
		}
		if err != nil && !errors.Is(err, ErrUpstreamDown) && s.Log != nil {
			s.Log.WarnContext(ctx, "upstream geocoder failed; answering from the embedded gazetteer", "err", err)
		}
	}
	s.cacheOnce.Do(func() { s.cache = newLRU(searchCacheSize, 365*24*time.Hour) })
	key := strconv.Itoa(limit) + "\x00" + strings.ToLower(strings.TrimSpace(q))
	if near != nil {
		near = &Near{Lat: math.Round(near.Lat*10) / 10, Lon: math.Round(near.Lon*10) / 10}
		key += "\x00" + strconv.FormatFloat(near.Lat, 'f', 1, 64) + "," + strconv.FormatFloat(near.Lon, 'f', 1, 64)
	}
	res, ok := s.cache.get(key)
	if !ok {
		res = s.Gazetteer.SearchNear(q, limit, near)
		if s.Upstream == nil || !address { // not a stand-in for a failed upstream
			s.cache.put(key, res)
		}
	}
	a := Answer{Results: res}
	switch {
	case !address:
	case len(res) > 0:
		a.Note = NoteAddressPlace
	default:
		a.Note = NoteAddressNone
	}
	return a
}

// Geocode locates a store from its postal code, then its city and state
// (see Gazetteer.Geocode), then, when neither is known and an upstream is
// configured, by asking the upstream for "city, state postal, country".
// It has the method set of importer.Geocoder.
func (s *Service) Geocode(postalCode, city, state, country string) (lat, lon float64, precision string, ok bool) {
	if lat, lon, precision, ok = s.Gazetteer.Geocode(postalCode, city, state, country); ok || s.Upstream == nil {
		return lat, lon, precision, ok
	}
	q := joinNonEmpty(", ", city, strings.TrimSpace(state+" "+postalCode), country)
	if q == "" {
		return 0, 0, "", false
	}
	res, err := s.Upstream.Search(context.Background(), q, 1)
	if err != nil || len(res) == 0 {
		return 0, 0, "", false
	}
	precision = PrecisionCity
	if strings.TrimSpace(city) == "" {
		precision = PrecisionPostalCode
	}
	return res[0].Lat, res[0].Lon, precision, true
}

// maxAddressDistanceKm bounds how far an upstream answer for a street
// address may lie from the store's postal code or city: farther, it is taken
// to be a different street of the same name elsewhere.
const maxAddressDistanceKm = 100

// GeocodeAddress locates a store from its street address. With an upstream
// geocoder and an address that has a house number, the upstream's answer
// (precision "address") wins when it lies near the postal code or city;
// otherwise, or when the upstream fails, it is Geocode.
func (s *Service) GeocodeAddress(address, postalCode, city, state, country string) (lat, lon float64, precision string, ok bool) {
	if s.Upstream == nil || !LooksLikeAddress(address) {
		return s.Geocode(postalCode, city, state, country)
	}
	olat, olon, oprec, ook := s.Gazetteer.Geocode(postalCode, city, state, country)
	q := joinNonEmpty(", ", address, city, strings.TrimSpace(state+" "+postalCode), country)
	res, err := s.Upstream.Search(context.Background(), q, 1)
	if err == nil && len(res) > 0 {
		r := res[0]
		if !ook || haversine(olat, olon, r.Lat, r.Lon)*6371 <= maxAddressDistanceKm {
			return r.Lat, r.Lon, PrecisionAddress, true
		}
	} else if err != nil && !errors.Is(err, ErrUpstreamDown) && s.Log != nil {
		s.Log.Warn("upstream geocoder failed; geocoding from the postal code or city", "err", err)
	}
	if ook {
		return olat, olon, oprec, true
	}
	return s.Geocode(postalCode, city, state, country)
}

func joinNonEmpty(sep string, parts ...string) string {
	var out []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, sep)
}
