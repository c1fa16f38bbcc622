package stores

import (
	"math"
	"strconv"
	"time"

	"locator/internal/apperr"
)

// Search limits: the answer holds the nearest Limit matches, never more, so
// a dense area cannot produce a multi-megabyte answer; HasMore tells the
// caller that more stores matched.
const (
	DefaultLimit  = 100
	MaxLimit      = 200
	MaxRadiusMile = 100
)

// Query is one store search.
type Query struct {
	Latitude, Longitude float64
	RadiusMiles         float64
	Limit               int
	Delivery            bool
	OrderOnline         bool
	Curbside            bool
	OpenNow             bool
	Now                 time.Time // for OpenNow; zero means time.Now()
}

// Validate checks ranges and fills the default limit.
func (q *Query) Validate() error {
	switch {
	case math.IsNaN(q.Latitude) || q.Latitude < -90 || q.Latitude > 90:
		return apperr.Invalidf("latitude must be a number between -90 and 90")
	case math.IsNaN(q.Longitude) || q.Longitude < -180 || q.Longitude > 180:
		return apperr.Invalidf("longitude must be a number between -180 and 180")
	case math.IsNaN(q.RadiusMiles) || q.RadiusMiles <= 0 || q.RadiusMiles > MaxRadiusMile:
		return apperr.Invalidf("radius must be a number of miles greater than 0 and at most %d", MaxRadiusMile)
	case q.Limit < 0 || q.Limit > MaxLimit:
		return apperr.Invalidf("limit must be between 1 and %d", MaxLimit)
	}
	if q.Limit == 0 {
		q.Limit = DefaultLimit
	}
	return nil
}

// Hit is one result of Nearest.
type Hit struct {
	ID    int64
	Miles float64
}

// visit walks matching stores nearest first, within the radius, calling fn
// until it returns false. The caller holds the read lock.
func (ix *Index) visit(q *Query, fn func(r *record, miles float64) bool) {
	qlat, qlon := q.Latitude*deg, q.Longitude*deg
	qcos := math.Cos(qlat)
	maxAngle := q.RadiusMiles / EarthRadiusMiles
	var want uint8
	if q.Delivery {
		want |= flagDelivery
	}
	if q.OrderOnline {
		want |= flagOrderOnline
	}
	if q.Curbside {
		want |= flagCurbside
	}
	now := q.Now
	if q.OpenNow && now.IsZero() {
		now = time.Now()
	}
	recs := ix.recs
	ix.tree.Nearby(
		func(min, max [2]float32, slot uint32, item bool) float64 {
			if item {
				r := &recs[slot]
				return centralAngle(qlat, qlon, qcos, r.lat, r.lon)
			}
			return boxLowerBound(q.Latitude, q.Longitude, qcos, min[1], min[0], max[1], max[0])
		},
		func(_, _ [2]float32, slot uint32, angle float64) bool {
			if angle > maxAngle {
				return false
			}
			r := &recs[slot]
			if r.flags&want != want {
				return true
			}
			if q.OpenNow && !r.sched.OpenAt(now.In(r.loc)) {
				return true
			}
			return fn(r, angle*EarthRadiusMiles)
		},
	)
}

// Nearest returns the ids and distances of the nearest q.Limit matches and
// whether more matched. q must be validated.
func (ix *Index) Nearest(q Query) (hits []Hit, hasMore bool) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	ix.visit(&q, func(r *record, miles float64) bool {
		if len(hits) == q.Limit {
			hasMore = true
			return false
		}
		hits = append(hits, Hit{ID: r.id, Miles: miles})
		return true
	})
	return hits, hasMore
}

// AppendJSON appends the search answer for q to dst:
// {"physical_stores":[...nearest first, each with "distance" in miles...],"has_more":bool}.
// q must be validated.
func (ix *Index) AppendJSON(dst []byte, q Query) []byte {
	dst = append(dst, `{"physical_stores":[`...)
	n, hasMore := 0, false
	ix.mu.RLock()
	ix.visit(&q, func(r *record, miles float64) bool {
		if n == q.Limit {
			hasMore = true
			return false
		}
		if n > 0 {
			dst = append(dst, ',')
		}
		n++
		dst = append(dst, r.doc...)
		dst = append(dst, `,"distance":`...)
		dst = strconv.AppendFloat(dst, math.Round(miles*100)/100, 'f', -1, 64)
		dst = append(dst, '}')
		return true
	})
	ix.mu.RUnlock()
	dst = append(dst, `],"has_more":`...)
	dst = strconv.AppendBool(dst, hasMore)
	return append(dst, '}')
}
