package search

import (
	"math"
	"strconv"
	"time"

	"locator/internal/rules"
	"locator/internal/schedule"
)

// Hit is one result of Nearest.
type Hit struct {
	ID    int64
	Miles float64
}

// f32Slack bounds how far float32 rounding moves an index point: under
// 0.5 m anywhere (about 0.44 m at US longitudes), so two points' float32
// distances from a query differ from their exact ones by under 1 m together.
const f32Slack = 1.0 / (EarthRadiusMiles * 1609.344) // 1 m in radians

// visit walks matching stores nearest first by exact float64 haversine
// distance, within the radius, calling fn until it returns false. The caller
// holds the read lock.
//
// The tree walk orders items by the distance of their float32 point, read
// from the tree node itself: reading each candidate's record for its float64
// coordinates was a cache miss per item and a third of the search time at
// 1M stores. Only the items the walk pops (the answers, and the few skipped
// by open-now) read their record and get their exact distance. An item
// popped at float32 angle d means every later one is exactly at least
// d - f32Slack away, so the popped items wait in a tiny buffer, sorted by
// exact distance, until the walk passes them by that slack: the answer is
// in exact order and within the exact radius, as a brute-force float64
// search gives it.
//
// The walk (ptree.walk) orders by the haversine term a = sin²(angle/2),
// which grows with the angle, so items need no asin/sqrt until popped. It
// never queues what can never be an answer: a store missing a filter
// (the flags travel in the tree item, so its record is not read) and a
// box or point beyond the radius. So a query with nothing in range (at
// sea, say) ends after a few boxes instead of walking on to the nearest
// store anywhere.
func (ix *Index) visit(q *Query, fn func(r *record, miles float64) bool) {
	var keep func(r *record) bool
	if q.Compliant {
		keep = q.compliantStore
	}
	ix.visitWhere(q, keep, fn)
}

// visitWhere is visit of the stores keep accepts (nil: all): a store it
// refuses costs its record's read and no distance (a product search's
// filter, product.go).
func (ix *Index) visitWhere(q *Query, keep func(r *record) bool, fn func(r *record, miles float64) bool) {
	qlat, qlon := q.Latitude*deg, q.Longitude*deg
	qcos, qsin := math.Cos(qlat), math.Sin(qlat)
	maxAngle := q.RadiusMiles / EarthRadiusMiles
	walkA := hav(maxAngle + f32Slack) // float32 points farther than this are out
	var want uint32
	if q.Delivery {
		want |= uint32(flagDelivery) << flagShift
	}
	if q.OrderOnline {
		want |= uint32(flagOrderOnline) << flagShift
	}
	if q.Curbside {
		want |= uint32(flagCurbside) << flagShift
	}
	if q.LicenceVerified {
		want |= uint32(flagLicensed) << flagShift
	}
	now := q.Now
	if (q.OpenNow || q.AvailableNow) && now.IsZero() {
		now = time.Now()
	}
	// available_now narrows each chosen service to the stores taking its
	// orders now: the service rule, as cheap as open-now for a service that
	// follows the store's hours (schedule.Schedule.ServiceAvailable).
	var availNow [schedule.NumServices]bool
	nAvail := 0
	if q.AvailableNow {
		availNow = [schedule.NumServices]bool{q.Delivery, q.Curbside, q.OrderOnline}
		for _, b := range availNow {
			if b {
				nAvail++
			}
		}
	}
	recs := ix.recs

	// Popped matches not yet handed to fn, nearest first by exact angle.
	type pending struct {
		r     *record
		angle float64
	}
	var store [16]pending
	buf := store[:0]
	stopped := false
	flush := func(upTo float64) bool {
		n := 0
		for n < len(buf) && buf[n].angle <= upTo {
			if !fn(buf[n].r, buf[n].angle*EarthRadiusMiles) {
				stopped = true
				return false
			}
			n++
		}
		buf = buf[:copy(buf, buf[n:])]
		return true
	}

	wq := walkQuery{latDeg: q.Latitude, lonDeg: q.Longitude, lat: qlat, lon: qlon, cos: qcos, sin: qsin, maxA: walkA, want: want}
	ix.tree.walk(&wq, func(item uint32, a float64) bool {
		// Every item still queued is at least this far by float32, so
		// exactly at least angle - f32Slack: what is nearer than that is
		// final.
		if !flush(2*math.Asin(math.Sqrt(a)) - f32Slack) {
			return false
		}
		r := &recs[item&slotMask]
		if keep != nil && !keep(r) {
			return true
		}
		if q.OpenNow && !r.sched.OpenAt(now.In(r.loc)) {
			return true
		}
		if nAvail > 0 {
			for k, b := range availNow {
				if b && !r.sched.ServiceAvailable(schedule.Service(k), now, r.loc) {
					return true
				}
			}
		}
		angle := centralAngle(qlat, qlon, qcos, r.lat, r.lon)
		if angle > maxAngle {
			return true
		}
		i := len(buf)
		buf = append(buf, pending{})
		for i > 0 && buf[i-1].angle > angle {
			buf[i] = buf[i-1]
			i--
		}
		buf[i] = pending{r, angle}
		return true
	})
	if !stopped {
		flush(maxAngle)
	}
}

// Nearest returns the ids and distances of the nearest q.Limit matches and
// whether more matched. q must be validated.
func (ix *Index) Nearest(q Query) (hits []Hit, hasMore bool) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	ix.visitRanked(&q, func(r *record, miles float64) bool {
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
//
//	{"physical_stores":[...nearest first...],"has_more":bool,"rules":[...]}
//
// Each store is its document's list part (stores.ListEnd) with
// "rule_ids", the live fields of schedule.Schedule.AppendLiveList at q.Now
// (or now) and "distance" in miles; "rules" holds each rule the stores
// name once (docs/api.md, "The list answer"). The one-store answer carries
// the whole document. With q.Product, only the stores carrying it, in the
// product ranking, each with "product" (product.go). q must be validated.
func (ix *Index) AppendJSON(dst []byte, q Query) []byte {
	dst, _ = ix.AppendJSONFirst(dst, q, nil, 0)
	return dst
}

// AppendJSONFirst is AppendJSON that also appends to ids the ids of the
// first n stores of the answer (insights counts them as impressions).
func (ix *Index) AppendJSONFirst(dst []byte, q Query, ids []int64, first int) ([]byte, []int64) {
	now := q.Now
	if now.IsZero() {
		now = time.Now()
	}
	if q.Product != 0 {
		return ix.appendProductJSON(dst, &q, now, ids, first)
	}
	dst = append(dst, `{"physical_stores":[`...)
	n, hasMore := 0, false
	days := ruleDay{now: now}
	var ar answerRules
	var arSets [4]*rules.Set
	var arDays [4]int
	ar.sets, ar.days = arSets[:0], arDays[:0]
	ix.mu.RLock()
	ix.visitRanked(&q, func(r *record, miles float64) bool {
		if n == q.Limit {
			hasMore = true
			return false
		}
		if n > 0 {
			dst = append(dst, ',')
		}
		if n < first {
			ids = append(ids, r.id)
		}
		n++
		dst = append(dst, r.doc[:r.listEnd]...)
		dst = append(dst, ',')
		dst = ix.appendRuleIDs(dst, r, &days, &ar)
		dst = append(dst, ',')
		// open_now, next_change_at, ...: cached on the interned schedule
		// until they can change, so most hits copy a few bytes.
		dst = r.sched.AppendLiveList(dst, now, r.loc, r.offered())
		dst = append(dst, `,"distance":`...)
		dst = strconv.AppendFloat(dst, math.Round(miles*100)/100, 'f', -1, 64)
		dst = append(dst, '}')
		return true
	})
	ix.mu.RUnlock()
	dst = append(dst, `],"has_more":`...)
	dst = strconv.AppendBool(dst, hasMore)
	dst = append(dst, `,"rules":`...)
	dst = ar.appendUnion(dst)
	return append(dst, '}'), ids
}
