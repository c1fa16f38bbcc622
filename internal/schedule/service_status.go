package schedule

import (
	"encoding/json"
	"strconv"
	"sync/atomic"
	"time"
)

// The service rule, extending the open rule (status.go; docs/product-rules.md,
// "Services"). For one service of a store, at a wall minute:
//   - no hours of its own: the service is in hours when the store is open;
//   - own hours (a week, special dates over the store's or its own week):
//     in hours when those say so and, for delivery and curbside pickup, the
//     store is open too (a closed store offers no in-person service); online
//     ordering keeps its own hours while the store is closed, but not
//     through a temporary or permanent closure.
//
// At an instant, a paused service (before paused_until) is not available;
// otherwise it is available when in hours and, with a last-order offset,
// no later than the offset before the span's last minute (a span 11:00-20:00
// with 30 minutes takes orders until 19:30 inclusive). The wall clock is
// read as the open rule reads it, so the DST cases behave the same.

// serviceRule is one service's part of a schedule.
type serviceRule struct {
	own         *Schedule     // nil: follows the store
	week        []WorkingHour // the own week, nil without one
	hours       []byte        // week as the API's hours array, nil without one
	lastOrder   int16         // minutes
	pausedUntil int64         // Unix seconds, 0: never paused
	note        string
	windows     [4]atomic.Pointer[svcWindow] // one per zone the schedule is used in, see Schedule.ServiceAvailable
}

// svcWindow is a cached answer of ServiceAvailable over [from, until).
type svcWindow struct {
	loc         *time.Location
	from, until int64
	available   bool
}

// plain reports whether the rule says nothing beyond the store's hours.
func (r *serviceRule) plain() bool {
	return r == nil || (r.own == nil && r.lastOrder == 0 && r.pausedUntil == 0)
}

func (s *Schedule) rule(k Service) *serviceRule {
	if s.svc == nil || k >= NumServices {
		return nil
	}
	return &s.svc[k]
}

// ServiceWeek is service k's own weekly hours and last-order offset
// (minutes); nil hours when it follows the store's week.
func (s *Schedule) ServiceWeek(k Service) ([]WorkingHour, int) {
	if r := s.rule(k); r != nil {
		return r.week, int(r.lastOrder)
	}
	return nil, 0
}

// ServiceStatus is one service's state at one instant, for a store that
// offers it.
type ServiceStatus struct {
	Available bool // orders are taken now
	// Until is the last minute of the current span when the service is in
	// hours now (even past its last order); zero when it does not end
	// within the look-ahead or it is not in hours.
	Until time.Time
	// LastOrderAt is Until less the last-order offset (with an offset).
	LastOrderAt time.Time
	// NextStart is when orders are next taken, when not available now;
	// zero when not within the look-ahead.
	NextStart   time.Time
	PausedUntil time.Time // while paused
	Note        string    // the pause's note, while paused
}

// inHours is the service's wall-clock rule at minute m of civil day d.
func (s *Schedule) inHours(k Service, d int32, m int16) bool {
	r := s.rule(k)
	if r == nil || r.own == nil {
		return s.openAt(d, m)
	}
	if !r.own.openAt(d, m) {
		return false
	}
	if k.InPerson() {
		return s.openAt(d, m)
	}
	return !s.closedOn(d)
}

func (s *Schedule) inHoursAt(k Service, t time.Time) bool {
	y, m, d := t.Date()
	return s.inHours(k, civilDay(y, m, d), int16(t.Hour()*60+t.Minute()))
}

// hoursChange is the next instant after t at which the service's hours
// give another answer than in (zero: none within the look-ahead).
func (s *Schedule) hoursChange(k Service, t time.Time, in bool) time.Time {
	y, m, d := t.Date()
	var extra *Schedule
	if r := s.rule(k); r != nil {
		extra = r.own
	}
	return s.changeAfter(t, civilDay(y, m, d), in, extra, func(d int32, m int16) bool { return s.inHours(k, d, m) })
}

// ServiceStatus applies the service rule at now, which must be in the
// store's zone: the one rule the API answers, the search filter
// (ServiceAvailable) and the store pages use for services.
func (s *Schedule) ServiceStatus(k Service, now time.Time) ServiceStatus {
	var st ServiceStatus
	if s == nil || s.permanent {
		return st
	}
	r := s.rule(k)
	var off int64
	from := now
	if r != nil {
		off = int64(r.lastOrder) * 60
		if r.pausedUntil > now.Unix() {
			st.PausedUntil = time.Unix(r.pausedUntil, 0).In(now.Location())
			st.Note = r.note
			st.NextStart = s.nextAvailable(k, st.PausedUntil, off)
			return st
		}
	}
	if s.inHoursAt(k, now) {
		end := s.hoursChange(k, now, true)
		if end.IsZero() {
			st.Available = true
			return st
		}
		st.Until = end.Add(-time.Minute)
		if off > 0 {
			st.LastOrderAt = st.Until.Add(-time.Duration(off) * time.Second)
		}
		if off == 0 || now.Unix() < st.LastOrderAt.Unix()+60 {
			st.Available = true
			return st
		}
		from = end
	}
	st.NextStart = s.nextAvailable(k, from, off)
	return st
}

// nextAvailable is the first instant from t on at which orders are taken
// (in hours, before the last order of the span); zero if none within the
// look-ahead.
func (s *Schedule) nextAvailable(k Service, t time.Time, off int64) time.Time {
	for i := 0; i < 16 && !t.IsZero(); i++ {
		if !s.inHoursAt(k, t) {
			t = s.hoursChange(k, t, false)
			continue
		}
		end := s.hoursChange(k, t, true)
		if end.IsZero() || t.Unix()+off < end.Unix() {
			return t
		}
		t = end // the span is over before its first order could be taken
	}
	return time.Time{}
}

// ServiceAvailable reports whether orders for service k are taken at now
// (ServiceStatus(k, now.In(loc)).Available), as cheaply as OpenAt for a
// service that follows the store; otherwise the answer is cached on the
// schedule until it can change, so a search filtering on it costs an
// atomic load per store.
func (s *Schedule) ServiceAvailable(k Service, now time.Time, loc *time.Location) bool {
	if s == nil {
		return false
	}
	r := s.rule(k)
	if r.plain() {
		return s.OpenAt(now.In(loc))
	}
	u := now.Unix()
	slot := -1
	for i := range r.windows {
		w := r.windows[i].Load()
		if w == nil || w.loc == loc {
			if w != nil && u >= w.from && u < w.until {
				return w.available
			}
			if slot < 0 {
				slot = i
			}
		}
	}
	if slot < 0 {
		slot = int(u) & (len(r.windows) - 1)
	}
	st := s.ServiceStatus(k, now.In(loc))
	w := &svcWindow{loc: loc, from: u, until: u + 3600, available: st.Available}
	if ch := st.changesAt(); !ch.IsZero() && ch.Unix() < w.until {
		w.until = ch.Unix()
	}
	r.windows[slot].Store(w)
	return st.Available
}

// changesAt is the first instant at which Available may change.
func (st *ServiceStatus) changesAt() time.Time {
	switch {
	case !st.Available:
		return st.NextStart
	case !st.LastOrderAt.IsZero():
		return st.LastOrderAt.Add(time.Minute)
	case !st.Until.IsZero():
		return st.Until.Add(time.Minute)
	}
	return time.Time{}
}

// validUntil is the first instant (Unix seconds) at which any field of
// the status may change, 0 for none ahead.
func (st *ServiceStatus) validUntil() int64 {
	var v int64
	for _, c := range [4]struct {
		t     time.Time
		after int64 // a last minute is inclusive: it changes a minute later
	}{{st.NextStart, 0}, {st.PausedUntil, 0}, {st.LastOrderAt, 60}, {st.Until, 60}} {
		if c.t.IsZero() {
			continue
		}
		if u := c.t.Unix() + c.after; v == 0 || u < v {
			v = u
		}
	}
	return v
}

// appendServiceJSON renders one offered service's object of the API's
// services (see AppendLive). Fields without a value are left out rather
// than written as null: three services per document in a 50-store answer
// made a third of its bytes when every field was spelled out. Without full
// (the list's form) the service's own week and last-order offset are left
// out: only the panel shows them.
func (s *Schedule) appendServiceJSON(dst []byte, k Service, st ServiceStatus, full bool) []byte {
	dst = append(dst, `{"offered":true,"available_now":`...)
	dst = strconv.AppendBool(dst, st.Available)
	for _, f := range []struct {
		name string
		t    time.Time
	}{{"until", st.Until}, {"next_start", st.NextStart}, {"last_order_at", st.LastOrderAt}, {"paused_until", st.PausedUntil}} {
		if f.t.IsZero() {
			continue
		}
		dst = append(dst, `,"`...)
		dst = append(dst, f.name...)
		dst = append(dst, `":`...)
		dst = appendOptTime(dst, f.t)
	}
	if st.Note != "" {
		dst = append(dst, `,"note":`...)
		dst = appendOptString(dst, st.Note)
	}
	if r := s.rule(k); r != nil && full {
		if r.lastOrder > 0 {
			dst = append(dst, `,"last_order_minutes":`...)
			dst = strconv.AppendInt(dst, int64(r.lastOrder), 10)
		}
		if r.hours != nil {
			dst = append(dst, `,"hours":`...)
			dst = append(dst, r.hours...)
		}
	}
	return append(dst, '}')
}

// notOffered is a service's object for a store that does not offer it.
const notOffered = `{"offered":false,"available_now":false}`

func appendOptTime(dst []byte, t time.Time) []byte {
	if t.IsZero() {
		return append(dst, "null"...)
	}
	dst = append(dst, '"')
	dst = t.AppendFormat(dst, time.RFC3339)
	return append(dst, '"')
}

// hoursJSON is a week as the API's hours array.
func hoursJSON(week []WorkingHour) []byte {
	b, err := json.Marshal(DocHours(week))
	if err != nil { // strings: cannot fail
		panic(err)
	}
	return b
}
