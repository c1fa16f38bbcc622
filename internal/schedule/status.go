package schedule

import (
	"encoding/json"
	"slices"
	"sort"
	"strconv"
	"sync/atomic"
	"time"
)

// The open rule with its exceptions, in one place (docs/product-rules.md,
// "Opening hours and the status"). Which spans a local date has:
//   - permanently closed: none, ever;
//   - a date inside the temporary closure (from and until inclusive): none,
//     and the previous day's late span ends at the date's midnight;
//   - a special date marked closed: none, and the previous day's late span
//     ends at its midnight;
//   - a special date with spans: those spans instead of the weekday's, while
//     the previous day's late span still runs until its end;
//   - any other date: the weekday's entries.
//
// A span past midnight (end < start) of date D is open on D from its start
// and on D+1 until its end, unless D+1 is closed as above. The rule reads
// the wall clock of the store's zone, so on a spring-forward day a span
// inside the skipped hour never shows, and on a fall-back day the repeated
// hour is read twice (a late span until 02:00 is open through both 01:xx).

// specialDay is one special date of a schedule.
type specialDay struct {
	day    int32
	closed bool
	spans  []span
	note   string // the first note given for the date
	json   []byte // the date's entries as special_hours items, comma-separated
}

func (s *Schedule) addSpecial(h SpecialHour) {
	d, ok := parseDate(h.Date)
	if !ok {
		return
	}
	i, found := slices.BinarySearchFunc(s.special, d, func(x specialDay, d int32) int { return int(x.day - d) })
	if !found {
		s.special = slices.Insert(s.special, i, specialDay{day: d})
	}
	sd := &s.special[i]
	if h.Closed {
		sd.closed = true
	} else if a, ok1 := ParseClock(h.Start); ok1 {
		if b, ok2 := ParseClock(h.End); ok2 {
			sd.spans = append(sd.spans, span{int16(a), int16(b)})
		}
	}
	if sd.note == "" {
		sd.note = h.Note
	}
	if len(sd.json) > 0 {
		sd.json = append(sd.json, ',')
	}
	sd.json = appendSpecialJSON(sd.json, h)
}

func (s *Schedule) setClosure(c *Closure) {
	from, ok := parseDate(c.From)
	if !ok {
		return
	}
	to := int32(1 << 30)
	if c.Until != "" {
		if u, ok := parseDate(c.Until); ok {
			to = u
		}
	}
	s.closure, s.closeFrom, s.closeTo = c, from, to
}

func (s *Schedule) specialOn(d int32) *specialDay {
	if len(s.special) == 0 {
		return nil
	}
	i, found := slices.BinarySearchFunc(s.special, d, func(x specialDay, d int32) int { return int(x.day - d) })
	if !found {
		return nil
	}
	return &s.special[i]
}

// closedOn reports whether civil day d is inside a closure (permanent or
// temporary).
func (s *Schedule) closedOn(d int32) bool {
	return s.permanent || (s.closure != nil && d >= s.closeFrom && d <= s.closeTo)
}

// spansOn gives the spans of civil day d, and whether the day is closed
// from its midnight (cutting the previous day's late span).
func (s *Schedule) spansOn(d int32) (spans []span, closed bool) {
	if s.closedOn(d) {
		return nil, true
	}
	if sd := s.specialOn(d); sd != nil {
		return sd.spans, sd.closed
	}
	return s.week[dayWeekday(d)], false
}

// openAt is the rule at minute now of civil day d (wall clock).
func (s *Schedule) openAt(d int32, now int16) bool {
	today, closed := s.spansOn(d)
	if closed {
		return false
	}
	for _, sp := range today {
		switch {
		case sp.start == sp.end:
			return true
		case sp.start < sp.end:
			if now >= sp.start && now <= sp.end {
				return true
			}
		default: // crosses midnight: the part on this day
			if now >= sp.start {
				return true
			}
		}
	}
	yesterday, _ := s.spansOn(d - 1)
	for _, sp := range yesterday {
		if sp.start > sp.end && now <= sp.end {
			return true
		}
	}
	return false
}

// Reason says what decides a store's status today, for the status line.
type Reason string

const (
	ReasonHours             Reason = ""                   // the weekly hours
	ReasonSpecial           Reason = "special"            // today is a special date (OpenStatus.Note)
	ReasonTemporarilyClosed Reason = "temporarily_closed" // inside the temporary closure (OpenStatus.Until)
	ReasonPermanentlyClosed Reason = "permanently_closed"
)

// OpenStatus is a store's state at one instant.
type OpenStatus struct {
	Open bool
	// NextChange is the instant the store next opens or closes, in the
	// store's zone, looking ahead to the end of the 8th local day after
	// today; zero when nothing changes until then (a store that is always
	// open, or closed for longer).
	NextChange time.Time
	Reason     Reason
	Note       string // the special date's or the closure's note
	Until      string // the temporary closure's last date, "" until further notice
}

// LookAheadDays is how many local days after today NextChange looks into.
const LookAheadDays = 8

// Status applies the rule at now, which must be in the store's zone
// (now.In(loc)): whether the store is open, when that next changes and why.
// This is the one rule the search filter (OpenAt), the API answers
// (AppendLive) and the store pages use; the web app mirrors it in
// web/src/lib/status.ts.
func (s *Schedule) Status(now time.Time) OpenStatus {
	if s == nil {
		return OpenStatus{}
	}
	if s.permanent {
		return OpenStatus{Reason: ReasonPermanentlyClosed}
	}
	y, m, dd := now.Date()
	d := civilDay(y, m, dd)
	minute := int16(now.Hour()*60 + now.Minute())
	st := OpenStatus{Open: s.openAt(d, minute)}
	switch {
	case s.closure != nil && d >= s.closeFrom && d <= s.closeTo:
		st.Reason, st.Note, st.Until = ReasonTemporarilyClosed, s.closure.Note, s.closure.Until
	default:
		if sd := s.specialOn(d); sd != nil {
			st.Reason, st.Note = ReasonSpecial, sd.note
		}
	}
	st.NextChange = s.changeAfter(now, d, st.Open, nil, s.openAt)
	return st
}

// changeAfter finds the first instant after now at which rule (the open
// rule, or a service's, service_status.go) gives another answer than open.
// It can only change where the wall clock reaches a span's start (of s or
// of extra, a service's own schedule), the minute after a span's end, a
// midnight (a special or closed date begins), or where the zone's offset
// changes (a DST jump can skip a boundary): those instants are the
// candidates, tried in order.
func (s *Schedule) changeAfter(now time.Time, today int32, open bool, extra *Schedule, rule func(int32, int16) bool) time.Time {
	loc := now.Location()
	nowU := now.Unix()
	horizon := int64(today+LookAheadDays+1) * 86400 // wall seconds of the look-ahead's end
	_, off := now.Zone()
	offs := [4]int{off}
	nOffs := 1
	var cands []int64
	var buf [64]int64
	cands = buf[:0]
	_, end := now.ZoneBounds()
	for i := 0; i < 8 && !end.IsZero() && end.Unix() < horizon-int64(off); i++ {
		cands = append(cands, end.Unix())
		t := end.In(loc)
		_, o := t.Zone()
		if !slices.Contains(offs[:nOffs], o) && nOffs < len(offs) {
			offs[nOffs] = o
			nOffs++
		}
		_, end = t.ZoneBounds()
	}
	add := func(wall int64) {
		for _, o := range offs[:nOffs] {
			u := wall - int64(o)
			if u <= nowU || wall >= horizon {
				continue
			}
			if nOffs > 1 {
				if _, actual := time.Unix(u, 0).In(loc).Zone(); actual != o {
					continue // this wall time does not exist at that offset
				}
			}
			cands = append(cands, u)
		}
	}
	for d := today - 1; d <= today+LookAheadDays; d++ {
		base := int64(d) * 86400
		add(base)
		for _, sc := range [2]*Schedule{s, extra} {
			if sc == nil {
				continue
			}
			spans, _ := sc.spansOn(d)
			for _, sp := range spans {
				add(base + int64(sp.start)*60)
				switch {
				case sp.start < sp.end:
					add(base + int64(sp.end+1)*60)
				case sp.start > sp.end:
					add(base + int64(24*60+sp.end+1)*60)
				}
			}
		}
	}
	slices.Sort(cands)
	prev := int64(-1)
	for _, u := range cands {
		if u == prev {
			continue
		}
		prev = u
		var o int
		if nOffs == 1 {
			o = off
		} else {
			_, o = time.Unix(u, 0).In(loc).Zone()
		}
		wall := u + int64(o)
		day := int32(floorDiv(wall, 86400))
		minute := int16((wall - int64(day)*86400) / 60)
		if rule(day, minute) != open {
			return time.Unix(u, 0).In(loc)
		}
	}
	return time.Time{}
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// appendSpecialJSON renders one special_hours item of the API.
func appendSpecialJSON(dst []byte, h SpecialHour) []byte {
	dst = append(dst, `{"date":"`...)
	dst = append(dst, h.Date...)
	dst = append(dst, `","closed":`...)
	dst = strconv.AppendBool(dst, h.Closed)
	dst = append(dst, `,"startTime":`...)
	dst = appendOptString(dst, h.Start)
	dst = append(dst, `,"endTime":`...)
	dst = appendOptString(dst, h.End)
	dst = append(dst, `,"note":`...)
	dst = appendOptString(dst, h.Note)
	return append(dst, '}')
}

func appendOptString(dst []byte, v string) []byte {
	if v == "" {
		return append(dst, "null"...)
	}
	b, _ := json.Marshal(v) // a string cannot fail
	return append(dst, b...)
}

// SpecialWindowDays is how many local days from today the special_hours
// of API answers cover (plus yesterday, whose late hours may still run):
// about three months, so holiday hours an owner sets in November for
// Christmas are shown from then on (issue #39, m19: a two-week window hid
// them everywhere).
const SpecialWindowDays = 92

// AppendLive appends the fields of a store that depend on the instant of
// the request, without braces or a leading comma:
//
//	"open_now":bool,"next_change_at":RFC 3339|null,"special_hours":[...],
//	"temporarily_closed":{...}|null,"permanently_closed":bool,
//	"services":{"delivery":{...},"curbside_pickup":{...},"online_order":{...}}
//
// special_hours lists the special dates from yesterday to 91 days after
// today (local). loc is the store's zone; offered the services the store
// offers (service_status.go). The fragment is cached on the schedule until
// it can change (the next change or local midnight), so answers of stores
// sharing a schedule render it once (the search index interns schedules).
// The one-store answer and favourites carry this form; the search's list
// carries AppendLiveList.
func (s *Schedule) AppendLive(dst []byte, now time.Time, loc *time.Location, offered Offered) []byte {
	if s == nil {
		dst = append(dst, `"open_now":false,"next_change_at":null,"special_hours":[],"temporarily_closed":null,"permanently_closed":false`...)
		return appendServices(dst, nil, 0)
	}
	f := s.liveAt(now, loc)
	return appendServices(append(dst, f.frag...), f, offered)
}

// ListSpecialDays is how many local days from today the list form's
// special_hours cover (plus yesterday): what the status needs, which looks
// LookAheadDays after today.
const ListSpecialDays = LookAheadDays + 1

// AppendLiveList appends the live fields in the search list's form, what
// the list's rows read (the status at the minute, a service available at
// the minute, docs/api.md "A store in the list"):
//
//	"open_now":bool,"next_change_at":RFC 3339|null,"special_hours":[...],
//	"temporarily_closed":{...}|null,"services":{...offered services only...}
//
// special_hours covers yesterday to LookAheadDays after today; each offered
// service's object leaves out its own week ("hours") and
// "last_order_minutes"; permanently_closed is left out (search never lists
// such a store). Cached with AppendLive's fragment.
func (s *Schedule) AppendLiveList(dst []byte, now time.Time, loc *time.Location, offered Offered) []byte {
	if s == nil {
		return append(dst, `"open_now":false,"next_change_at":null,"special_hours":[],"temporarily_closed":null,"services":{}`...)
	}
	f := s.liveAt(now, loc)
	dst = append(dst, f.list...)
	dst = append(dst, `,"services":{`...)
	first := true
	for k := Service(0); k < NumServices; k++ {
		if !offered.Has(k) {
			continue
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = append(dst, '"')
		dst = append(dst, k.String()...)
		dst = append(dst, `":`...)
		dst = append(dst, f.svcList[k]...)
	}
	return append(dst, '}')
}

// liveAt is the cached live fragment valid at now in loc, rendered when
// there is none.
func (s *Schedule) liveAt(now time.Time, loc *time.Location) *liveFrag {
	u := now.Unix()
	for i := range s.live.slots {
		if f := s.live.slots[i].Load(); f != nil && f.loc == loc && u >= f.from && u < f.until {
			return f
		}
	}
	lt := now.In(loc)
	st := s.Status(lt)
	y, m, dd := lt.Date()
	until := time.Date(y, m, dd+1, 0, 0, 0, 0, loc).Unix()
	if !st.NextChange.IsZero() && st.NextChange.Unix() < until {
		until = st.NextChange.Unix()
	}
	today := civilDay(y, m, dd)
	f := &liveFrag{loc: loc, from: u,
		frag: s.renderLive(make([]byte, 0, 128), st, today, SpecialWindowDays, true),
		list: s.renderLive(make([]byte, 0, 128), st, today, ListSpecialDays, false)}
	for k := Service(0); k < NumServices; k++ {
		if k > 0 && s.rule(k) == nil && s.rule(k-1) == nil {
			f.svc[k], f.svcList[k] = f.svc[k-1], f.svcList[k-1] // both follow the store: the same objects
			continue
		}
		ss := s.ServiceStatus(k, lt)
		if v := ss.validUntil(); v != 0 && v < until {
			until = v
		}
		f.svc[k] = s.appendServiceJSON(nil, k, ss, true)
		f.svcList[k] = s.appendServiceJSON(nil, k, ss, false)
	}
	f.until = until
	slot := -1
	for i := range s.live.slots {
		if g := s.live.slots[i].Load(); g == nil || g.loc == loc {
			slot = i
			break
		}
	}
	if slot < 0 {
		slot = int(u) & (len(s.live.slots) - 1)
	}
	s.live.slots[slot].Store(f)
	return f
}

// appendServices appends ,"services":{...} from a cached fragment (nil:
// none offered).
func appendServices(dst []byte, f *liveFrag, offered Offered) []byte {
	dst = append(dst, `,"services":{`...)
	for k := Service(0); k < NumServices; k++ {
		if k > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, '"')
		dst = append(dst, k.String()...)
		dst = append(dst, `":`...)
		if f != nil && offered.Has(k) {
			dst = append(dst, f.svc[k]...)
		} else {
			dst = append(dst, notOffered...)
		}
	}
	return append(dst, '}')
}

// renderLive renders the live fields up to services: special_hours over
// yesterday to days-1 after today, permanently_closed when perm is set.
func (s *Schedule) renderLive(dst []byte, st OpenStatus, today, days int32, perm bool) []byte {
	dst = append(dst, `"open_now":`...)
	dst = strconv.AppendBool(dst, st.Open)
	dst = append(dst, `,"next_change_at":`...)
	if st.NextChange.IsZero() {
		dst = append(dst, "null"...)
	} else {
		dst = append(dst, '"')
		dst = st.NextChange.AppendFormat(dst, time.RFC3339)
		dst = append(dst, '"')
	}
	dst = append(dst, `,"special_hours":[`...)
	if !s.permanent {
		first := true
		lo := sort.Search(len(s.special), func(i int) bool { return s.special[i].day >= today-1 })
		for i := lo; i < len(s.special) && s.special[i].day < today+days; i++ {
			if !first {
				dst = append(dst, ',')
			}
			first = false
			dst = append(dst, s.special[i].json...)
		}
	}
	dst = append(dst, `],"temporarily_closed":`...)
	if c := s.closure; c != nil {
		dst = append(dst, `{"from":"`...)
		dst = append(dst, c.From...)
		dst = append(dst, `","until":`...)
		dst = appendOptString(dst, c.Until)
		dst = append(dst, `,"note":`...)
		dst = appendOptString(dst, c.Note)
		dst = append(dst, '}')
	} else {
		dst = append(dst, "null"...)
	}
	if !perm {
		return dst
	}
	dst = append(dst, `,"permanently_closed":`...)
	return strconv.AppendBool(dst, s.permanent)
}

// liveCache holds a few rendered fragments (one per zone the schedule is
// used in), each valid over [from, until) in Unix seconds.
type liveCache struct {
	slots [4]atomic.Pointer[liveFrag]
}

type liveFrag struct {
	loc         *time.Location
	from, until int64
	frag        []byte              // AppendLive's fields up to services
	list        []byte              // AppendLiveList's
	svc         [NumServices][]byte // each service's object as if offered
	svcList     [NumServices][]byte // the same in the list's form
}

// FinishDoc turns a stored search document (a complete JSON object,
// RenderDoc) into the API's store object at now: the document with the
// live fields (AppendLive) before its closing brace.
func FinishDoc(dst, doc []byte, s *Schedule, now time.Time, loc *time.Location, offered Offered) []byte {
	if n := len(doc); n > 0 && doc[n-1] == '}' {
		doc = doc[:n-1]
	}
	dst = append(dst, doc...)
	dst = append(dst, ',')
	dst = s.AppendLive(dst, now, loc, offered)
	return append(dst, '}')
}
