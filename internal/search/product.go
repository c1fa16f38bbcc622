package search

import (
	"cmp"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"locator/internal/inventory"
	"locator/internal/productlaw"
	"locator/internal/rules"
	"locator/internal/schedule"
)

// A search with a product (Query.Product) lists only the stores carrying
// it, ranked by the rule of docs/products.md ("Ranking"): distance bands
// (BandEdges), within a band the stock class (lawful in stock, lawful
// limited, lawful on display to order, the rest, not lawful), within a
// class nearest first.

// BandEdges are the upper ends of the distance bands of a product search,
// in miles.
var BandEdges = [...]float64{1, 3, 5, 10, 25, 50, 100}

// StaleAfter is how old a stock row may be before it is shown as stale
// and ranked as unknown.
const StaleAfter = 7 * 24 * time.Hour

// Stock classes, best first (the ranking within a band).
const (
	classInStock uint8 = iota
	classLimited
	classOnDisplay
	classUnknown // stale: not reported for StaleAfter
	classOut
	classUnlawful
)

func bandOf(miles float64) int {
	for i, e := range BandEdges {
		if miles < e {
			return i
		}
	}
	return len(BandEdges)
}

// stockClasses ranks the stock rows of one search, whose instant fixes
// which rows are stale.
type stockClasses struct {
	staleBefore int64 // a row reported before this Unix second is stale
}

func newStockClasses(now time.Time) stockClasses {
	// Stale: now - reported > StaleAfter, that is reported < cut; with
	// whole seconds, reported <= cut's second when cut has a fraction.
	cut := now.Add(-StaleAfter)
	sec := cut.Unix()
	if cut.Nanosecond() != 0 {
		sec++
	}
	return stockClasses{staleBefore: sec}
}

// of ranks a stock row at a store.
func (k stockClasses) of(avail uint8, reported uint32, lawful bool) uint8 {
	if !lawful {
		return classUnlawful
	}
	return k.bound(avail, reported)
}

// bound is the class of a row where the product is lawful: the best it
// can rank before the law is judged (which needs the store's record).
func (k stockClasses) bound(avail uint8, reported uint32) uint8 {
	switch {
	case int64(reported) < k.staleBefore:
		return classUnknown
	case avail == availInStock:
		return classInStock
	case avail == availLimited:
		return classLimited
	case avail == availOnDisplay:
		return classOnDisplay
	}
	return classOut
}

// The availabilities' numbers in carriers.avail (their index in
// inventory.Availabilities).
var (
	availInStock   = availNumber(inventory.InStock)
	availLimited   = availNumber(inventory.LimitedAvailability)
	availOnDisplay = availNumber(inventory.OnDisplayToOrder)
)

func availNumber(a inventory.Availability) uint8 {
	i := slices.Index(inventory.Availabilities, a)
	if i < 0 {
		panic("search: unknown availability " + string(a))
	}
	return uint8(i)
}

// productHit is one store of a product search.
type productHit struct {
	r       *record
	miles   float64
	row     int // in the product's carriers
	band    int
	class   uint8
	verdict productlaw.Verdict
}

// judge says whether a product may be sold at stores, remembering the
// verdict per rule set, day and state (an answer meets a handful).
type judge struct {
	ix      *Index
	dirs    *productlaw.Directories
	product productlaw.Product
	days    *ruleDay
	seen    []judged
	// areaV is the verdict in each of the index's lawAreas (0: not judged
	// yet, 1: lawful, 2: not), when the law on the product depends on
	// nothing else (no state's product directory applies to it); else nil.
	areaV []uint8
}

var areaPool = sync.Pool{New: func() any { return new([]uint8) }}

// judgeAreas lets lawfulIn answer from store ids when the product's law
// depends on their lawArea alone; done returns the table to the pool.
func (j *judge) judgeAreas() (done func()) {
	if j.dirs.Matters(j.product) || len(j.ix.areas) == 0 {
		return func() {}
	}
	p := areaPool.Get().(*[]uint8)
	v := *p
	if cap(v) < len(j.ix.areas) {
		v = make([]uint8, len(j.ix.areas))
	}
	v = v[:len(j.ix.areas)]
	clear(v)
	j.areaV = v
	return func() {
		j.areaV = nil
		*p = v
		areaPool.Put(p)
	}
}

// lawfulIn is j.of for store id without its record: whether the product
// may be sold there, and ok when that is known from the store's lawArea
// (judgeAreas ran, and the store has one).
func (j *judge) lawfulIn(id uint32) (lawful, ok bool) {
	if j.areaV == nil {
		return false, false
	}
	a := j.ix.areaOf(id)
	if int(a) >= len(j.areaV) {
		return false, false
	}
	if v := j.areaV[a]; v != 0 {
		return v == 1, true
	}
	k := j.ix.areas[a]
	lawful = j.verdict(j.ix.ruleSet(k.rules), j.days.of(k.loc), "").Lawful
	j.areaV[a] = 2
	if lawful {
		j.areaV[a] = 1
	}
	return lawful, true
}

type judged struct {
	set   *rules.Set
	day   int
	state string
	v     productlaw.Verdict
}

func (j *judge) of(r *record) productlaw.Verdict {
	set := j.ix.rulesOf(r)
	day := j.days.of(r.loc)
	var buf [64]byte
	var st []byte
	if j.dirs.Matters(j.product) {
		st, _ = appendDocStringFrom(buf[:0], r.doc, "state", 0)
	}
	for _, s := range j.seen {
		if s.set == set && s.day == day && string(st) == s.state {
			return s.v
		}
	}
	v := j.verdict(set, day, string(st))
	j.seen = append(j.seen, judged{set, day, string(st), v})
	return v
}

// verdict judges the product under set's rules on day, at a store in state
// (which matters only where a state's product directory applies).
func (j *judge) verdict(set *rules.Set, day int, state string) productlaw.Verdict {
	var rs []*rules.Rule
	if set != nil {
		rs = set.Rules(day)
	}
	return productlaw.Judge(rs, j.dirs, state, j.product)
}

// bruteMaxOf is the most stores a product may have for its search to
// look at each of them (a few ns each outside the searched box) rather
// than walk its rows' boxes from the searched point (walkCarriers), which
// passes only the rows near the point but pays for a heap.
// (Index.bruteMax overrides it when set, so that a test can send every
// search down either path.)
func (ix *Index) bruteMaxOf() int {
	if ix.bruteMax >= 0 {
		return ix.bruteMax
	}
	return 256
}

// productHits returns the first q.Limit stores of a product search in the
// ranking's order (appended to hits[:0]), whether more matched, and the
// product's carriers the hits' rows are in. The caller holds the read
// lock.
func (ix *Index) productHits(q *Query, now time.Time, days *ruleDay, hits []productHit) ([]productHit, bool, *carriers) {
	c := ix.prod.carriersOf(q.Product)
	if c == nil {
		return nil, false, nil
	}
	j := &judge{ix: ix, dirs: ix.prod.Directories(), product: ix.prod.Catalog().lawOf(q.Product), days: days}
	classes := newStockClasses(now)
	hits = hits[:0]
	add := func(row int, r *record, miles float64) {
		if q.Compliant && !q.compliantStore(r) {
			return
		}
		v := j.of(r)
		if q.Compliant && !v.Lawful {
			return
		}
		cl := classes.of(c.avail[row], c.reported[row], v.Lawful)
		if q.InStock && cl > classLimited {
			return
		}
		hits = append(hits, productHit{r: r, miles: miles, row: row, band: bandOf(miles), class: cl, verdict: v})
	}
	if len(c.ids) <= ix.bruteMaxOf() {
		ix.eachCarrier(q, c, now, add)
	} else {
		// Nearest first. A store still to come is at least as far as
		// every match so far: it ranks after every match of an earlier
		// band and after every match of its own band of its class or a
		// better one. Its class is at best bound (the law needs its
		// record), so once those matches are more than Limit it cannot
		// enter the answer (nor change has_more: more matched already),
		// and it is passed without its record. A store surely in a later
		// band than the last match ranks after every match: once those
		// are more than Limit, the walk stops, as it does once the lawful
		// in-stock matches of the band are.
		cur, earlier := -1, 0
		var seen [classUnlawful + 1]int // matches of band cur by class
		beyondA := math.Inf(1)          // a store's haversine term from here on is in a band after cur
		// The law is judged from the store's lawArea where that is
		// enough (judgeAreas), before the store's position or record is
		// read: a flavoured product with in_stock=true around New York
		// otherwise reads every in-stock store's record to the radius.
		defer j.judgeAreas()()
		want := func(row int) bool {
			b := classes.bound(c.avail[row], c.reported[row])
			if q.InStock && b > classLimited {
				return false
			}
			n := earlier
			for _, k := range seen[:b+1] {
				n += k
			}
			if n > q.Limit {
				return false
			}
			if lawful, ok := j.lawfulIn(c.ids[row]); ok && !lawful {
				if q.InStock || q.Compliant {
					return false
				}
				for _, k := range seen[b+1:] {
					n += k
				}
			}
			return n <= q.Limit
		}
		beyond := func(a float64) bool { return a >= beyondA && len(hits) > q.Limit }
		ix.walkCarriers(q, c, now, want, beyond, func(row int, r *record, miles float64) bool {
			if b := bandOf(miles); b != cur {
				cur, earlier, seen = b, len(hits), [classUnlawful + 1]int{}
				beyondA = math.Inf(1)
				if b < len(BandEdges) {
					// The float32 point is within f32Slack of the store's
					// (twice: room for the rounding of miles).
					beyondA = hav(BandEdges[b]/EarthRadiusMiles + 2*f32Slack)
				}
			}
			if earlier+seen[classInStock] > q.Limit {
				return false
			}
			n := len(hits)
			if add(row, r, miles); len(hits) > n {
				seen[hits[n].class]++
			}
			return true
		})
	}
	slices.SortFunc(hits, rankHits)
	if len(hits) > q.Limit {
		return hits[:q.Limit], true, c
	}
	return hits, false, c
}

// rankHits orders product hits by the ranking: band, class, distance, id.
func rankHits(a, b productHit) int {
	switch {
	case a.band != b.band:
		return a.band - b.band
	case a.class != b.class:
		return int(a.class) - int(b.class)
	case a.miles != b.miles:
		return cmp.Compare(a.miles, b.miles)
	}
	return cmp.Compare(a.r.id, b.r.id)
}

// storeFilter is what a product search asks of a store besides distance:
// the service flags, open now, available now.
type storeFilter struct {
	want    uint8
	openNow bool
	avail   [schedule.NumServices]bool
	anyNow  bool
	now     time.Time
}

func newStoreFilter(q *Query, now time.Time) storeFilter {
	f := storeFilter{openNow: q.OpenNow, now: now}
	if q.Delivery {
		f.want |= flagDelivery
	}
	if q.OrderOnline {
		f.want |= flagOrderOnline
	}
	if q.Curbside {
		f.want |= flagCurbside
	}
	if q.LicenceVerified {
		f.want |= flagLicensed
	}
	if q.AvailableNow {
		f.avail = [schedule.NumServices]bool{q.Delivery, q.Curbside, q.OrderOnline}
		f.anyNow = true
	}
	return f
}

// pass reports whether r passes the filter.
func (f *storeFilter) pass(r *record) bool {
	if r.flags&f.want != f.want {
		return false
	}
	if f.openNow && !r.sched.OpenAt(f.now.In(r.loc)) {
		return false
	}
	if f.anyNow {
		for k, b := range f.avail {
			if b && !r.sched.ServiceAvailable(schedule.Service(k), f.now, r.loc) {
				return false
			}
		}
	}
	return true
}

// eachCarrier calls fn with each row of c whose store is in the index,
// within the radius and passes q's filters, as visit would find it.
func (ix *Index) eachCarrier(q *Query, c *carriers, now time.Time, fn func(row int, r *record, miles float64)) {
	qlat, qlon := q.Latitude*deg, q.Longitude*deg
	qcos := math.Cos(qlat)
	maxAngle := q.RadiusMiles / EarthRadiusMiles
	f := newStoreFilter(q, now)
	// A box around the circle, with room for float32 rounding: the
	// circle of angle a around latitude f spans asin(sin a / cos f) of
	// longitude either side (everything, near a pole).
	const slack = 1e-4 // degrees, ~11 m
	latWin := maxAngle/deg + slack
	lonWin := 360.0
	if s := math.Sin(maxAngle) / math.Cos(qlat); maxAngle < math.Pi/2 && s < 1 {
		lonWin = math.Asin(s)/deg*1.001 + slack
	}
	for row, id := range c.ids[:c.placed] {
		lat, lon, item, ok := ix.pointOf(id)
		if !ok || item>>flagShift&uint32(f.want) != uint32(f.want) {
			continue
		}
		dlon := math.Abs(float64(lon) - q.Longitude)
		if dlon > 180 {
			dlon = 360 - dlon
		}
		if math.Abs(float64(lat)-q.Latitude) > latWin || dlon > lonWin {
			continue
		}
		r := &ix.recs[item&slotMask]
		if !f.pass(r) {
			continue
		}
		angle := centralAngle(qlat, qlon, qcos, r.lat, r.lon)
		if angle > maxAngle {
			continue
		}
		fn(row, r, angle*EarthRadiusMiles)
	}
}

// walkCarriers calls fn with the rows of c whose stores are within the
// radius and pass q's filters, nearest first by exact float64 distance,
// until fn returns false: visit over one product's stores. It walks c's
// boxes best first, so it passes only this product's stores near the
// point; like visit, it orders by each store's float32 point and holds the
// popped stores back until the walk has passed them by f32Slack, so the
// order is exact. A row for which want returns false (asked before its
// store's position is read, and again before its record is) is passed
// over; the walk ends once beyond holds for the haversine term (of the
// float32 point) of a row or box it reaches, and passes over a row for
// which it holds. Both must hold only for rows fn would not need, and
// stay so; beyond must hold for every term larger than one it holds for.
func (ix *Index) walkCarriers(q *Query, c *carriers, now time.Time, want func(row int) bool, beyond func(a float64) bool,
	fn func(row int, r *record, miles float64) bool) {
	if c.placed == 0 {
		return
	}
	start, levels := c.boxLevels()
	qlat, qlon := q.Latitude*deg, q.Longitude*deg
	qcos, qsin := math.Cos(qlat), math.Sin(qlat)
	maxAngle := q.RadiusMiles / EarthRadiusMiles
	walkA := hav(maxAngle + f32Slack)
	f := newStoreFilter(q, now)
	flags := uint32(f.want)
	type pending struct {
		row   int
		r     *record
		angle float64
	}
	var store [16]pending
	buf := store[:0]
	flush := func(upTo float64) bool {
		n := 0
		for n < len(buf) && buf[n].angle <= upTo {
			if !fn(buf[n].row, buf[n].r, buf[n].angle*EarthRadiusMiles) {
				return false
			}
			n++
		}
		buf = buf[:copy(buf, buf[n:])]
		return true
	}
	hp := walkPool.Get().(*[]walkEntry)
	h := walkHeap((*hp)[:0])
	defer func() {
		if cap(h) <= 1<<16 {
			*hp = h[:0]
			walkPool.Put(hp)
		}
	}()
	box := func(level int, b int) {
		x := &c.boxes[start[level]+b]
		if a := boxLowerA(q.Latitude, q.Longitude, qcos, x.minLat, x.minLon, x.maxLat, x.maxLon); a <= walkA {
			h.push(walkEntry{a, uint32(b), int32(level)})
		}
	}
	if levels > 0 {
		box(levels-1, 0)
	} else {
		h.push(walkEntry{0, 0, 0}) // the one leaf
	}
	for len(h) > 0 {
		e := h.pop()
		if e.level < 0 && len(buf) > 0 && !flush(2*math.Asin(math.Sqrt(e.a))-f32Slack) {
			return
		}
		if beyond(e.a) {
			break // every entry left is as far: the rows held back remain
		}
		switch {
		case e.level < 0:
			row := int(e.idx)
			if !want(row) {
				continue
			}
			_, _, item, _ := ix.pointOf(c.ids[row])
			r := &ix.recs[item&slotMask]
			if !f.pass(r) {
				continue
			}
			angle := centralAngle(qlat, qlon, qcos, r.lat, r.lon)
			if angle > maxAngle {
				continue
			}
			i := len(buf)
			buf = append(buf, pending{})
			for i > 0 && buf[i-1].angle > angle {
				buf[i] = buf[i-1]
				i--
			}
			buf[i] = pending{row, r, angle}
		case e.level == 0:
			lo := int(e.idx) * leafRows
			for row := lo; row < min(lo+leafRows, c.placed); row++ {
				if !want(row) {
					continue
				}
				lat, lon, item, ok := ix.pointOf(c.ids[row])
				if !ok || item>>flagShift&flags != flags {
					continue
				}
				if a := pointA(qlat, qlon, qcos, qsin, lat, lon); a <= walkA && !beyond(a) {
					h.push(walkEntry{a, uint32(row), -1})
				}
			}
		default:
			lo := int(e.idx) * fan
			for b := lo; b < min(lo+fan, start[e.level]-start[e.level-1]); b++ {
				box(int(e.level)-1, b)
			}
		}
	}
	flush(maxAngle)
}

// ProductHits returns the ids and distances of a product search's answer,
// in its order, and whether more matched (for tests and the benchmark's
// correctness gate). q must be validated, with Product set.
func (ix *Index) ProductHits(q Query) ([]Hit, bool) {
	now := q.Now
	if now.IsZero() {
		now = time.Now()
	}
	days := ruleDay{now: now}
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	hs, more, _ := ix.productHits(&q, now, &days, nil)
	out := make([]Hit, len(hs))
	for i, h := range hs {
		out[i] = Hit{ID: h.r.id, Miles: h.miles}
	}
	return out, more
}

// hitsPool holds the hits of product searches between answers.
var hitsPool = sync.Pool{New: func() any { hs := make([]productHit, 0, 128); return &hs }}

// appendProductJSON is AppendJSONFirst for a product search: each store
// also carries "product" (AppendStock).
func (ix *Index) appendProductJSON(dst []byte, q *Query, now time.Time, ids []int64, first int) ([]byte, []int64) {
	dst = append(dst, `{"physical_stores":[`...)
	days := ruleDay{now: now}
	var ar answerRules
	var rj ruleJSON
	hp := hitsPool.Get().(*[]productHit)
	ix.mu.RLock()
	hits, hasMore, c := ix.productHits(q, now, &days, *hp)
	pid := ""
	if p, ok := ix.prod.Catalog().ByKey(q.Product); ok {
		pid = p.ProductID
	}
	for n, h := range hits {
		if n > 0 {
			dst = append(dst, ',')
		}
		if n < first {
			ids = append(ids, h.r.id)
		}
		r := h.r
		dst = append(dst, r.doc[:r.listEnd]...)
		dst = append(dst, ',')
		dst = ix.appendRuleIDs(dst, r, &days, &ar)
		dst = append(dst, ',')
		dst = r.sched.AppendLiveList(dst, now, r.loc, r.offered())
		dst = append(dst, `,"distance":`...)
		dst = strconv.AppendFloat(dst, math.Round(h.miles*100)/100, 'f', -1, 64)
		dst = append(dst, `,"product":`...)
		dst = appendStock(dst, pid, ix.prod.row(q.Product, c, h.row), h.verdict, now, &rj)
		dst = append(dst, '}')
	}
	ix.mu.RUnlock()
	if cap(hits) <= 1<<12 {
		*hp = hits[:0]
		hitsPool.Put(hp)
	}
	dst = append(dst, `],"has_more":`...)
	dst = strconv.AppendBool(dst, hasMore)
	dst = append(dst, `,"rules":`...)
	dst = ar.appendUnion(dst)
	return append(dst, '}'), ids
}

// AppendStock appends a store's stock of a product as the API shows it:
//
//	{"id":..., "availability":..., "quantity":n|null, "price":21.99|null,
//	 "sale_price":...|null, "currency_code":"usd"|null, "updated_at":...,
//	 "stale":bool, "lawful":bool, "rule":{...}|null}
//
// pid is the product's id; an empty pid leaves "id" out (a store's product
// list names it beside).
func AppendStock(dst []byte, pid string, w StockRow, v productlaw.Verdict, now time.Time) []byte {
	return appendStock(dst, pid, w, v, now, nil)
}

// appendStock is AppendStock; rj, when not nil, renders each rule once
// for a whole answer.
func appendStock(dst []byte, pid string, w StockRow, v productlaw.Verdict, now time.Time, rj *ruleJSON) []byte {
	dst = append(dst, '{')
	if pid != "" {
		dst = append(dst, `"id":`...)
		dst = strconv.AppendQuote(dst, pid)
		dst = append(dst, ',')
	}
	return append(appendStockFields(dst, w, v, now, rj), '}')
}

// AppendStockFields appends the fields of AppendStock after "id", without
// braces.
func AppendStockFields(dst []byte, w StockRow, v productlaw.Verdict, now time.Time) []byte {
	return appendStockFields(dst, w, v, now, nil)
}

// ruleJSON keeps the last rule rendered for an answer (its stores meet
// one or two).
type ruleJSON struct {
	rule *rules.Public
	b    []byte
}

// appendStockFields is AppendStockFields (rj: see appendStock).
func appendStockFields(dst []byte, w StockRow, v productlaw.Verdict, now time.Time, rj *ruleJSON) []byte {
	dst = append(dst, `"availability":`...)
	dst = appendQuoted(dst, string(w.Availability))
	dst = append(dst, `,"quantity":`...)
	dst = appendOptInt(dst, w.Quantity)
	dst = append(dst, `,"price":`...)
	dst = appendAmount(dst, w.Price)
	dst = append(dst, `,"sale_price":`...)
	dst = appendAmount(dst, w.Sale)
	dst = append(dst, `,"currency_code":`...)
	if w.Currency == "" {
		dst = append(dst, "null"...)
	} else {
		dst = appendLowerQuoted(dst, w.Currency)
	}
	dst = append(dst, `,"updated_at":"`...)
	dst = w.ReportedAt.UTC().AppendFormat(dst, time.RFC3339)
	dst = append(dst, `","stale":`...)
	dst = strconv.AppendBool(dst, now.Sub(w.ReportedAt) > StaleAfter)
	dst = append(dst, `,"lawful":`...)
	dst = strconv.AppendBool(dst, v.Lawful)
	dst = append(dst, `,"rule":`...)
	if v.Rule == nil {
		return append(dst, "null"...)
	}
	if rj != nil && rj.rule == v.Rule {
		return append(dst, rj.b...)
	}
	b, err := json.Marshal(v.Rule)
	if err != nil {
		b = []byte("null")
	}
	if rj != nil {
		rj.rule, rj.b = v.Rule, b
	}
	return append(dst, b...)
}

func appendOptInt(dst []byte, v int64) []byte {
	if v < 0 {
		return append(dst, "null"...)
	}
	return strconv.AppendInt(dst, v, 10)
}

// appendAmount writes hundredths as a decimal number of major units, as
// Medusa v2 amounts are (2199 -> 21.99).
func appendAmount(dst []byte, v int64) []byte {
	if v < 0 {
		return append(dst, "null"...)
	}
	dst = strconv.AppendInt(dst, v/100, 10)
	if c := v % 100; c != 0 {
		dst = append(dst, '.', byte('0'+c/10))
		if c%10 != 0 {
			dst = append(dst, byte('0'+c%10))
		}
	}
	return dst
}

// appendLowerQuoted appends s in lower case as a JSON string (a
// currency code).
func appendLowerQuoted(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isAlnum(c) {
			return strconv.AppendQuote(dst, strings.ToLower(s))
		}
	}
	dst = append(dst, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return append(dst, '"')
}

func isAlnum(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
}

// appendQuoted appends s as a JSON string: as it is when it needs no
// escape (an availability), else through strconv.AppendQuote.
func appendQuoted(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return strconv.AppendQuote(dst, s)
		}
	}
	dst = append(dst, '"')
	dst = append(dst, s...)
	return append(dst, '"')
}

// StoreStock is one product a store carries, with its row and verdict.
type StoreStock struct {
	Product int64
	Row     StockRow
	Verdict productlaw.Verdict
}

// StoreProducts returns the products a store in the index carries, each
// with its stock and whether it may be sold there on now's day; ok false
// when the store is not in the index (unknown, unpublished, closed for
// good).
func (ix *Index) StoreProducts(store int64, now time.Time) (out []StoreStock, ok bool) {
	ix.mu.RLock()
	slot, ok := ix.slots[store]
	if !ok {
		ix.mu.RUnlock()
		return nil, false
	}
	r := &ix.recs[slot]
	days := ruleDay{now: now}
	cat := ix.prod.Catalog()
	keys, rows := ix.prod.carried(store)
	for i, k := range keys {
		j := &judge{ix: ix, dirs: ix.prod.Directories(), product: cat.lawOf(k), days: &days}
		out = append(out, StoreStock{Product: k, Row: rows[i], Verdict: j.of(r)})
	}
	ix.mu.RUnlock()
	return out, true
}

// Products is the product side of the index.
func (ix *Index) Products() *Products { return ix.prod }

// AnswerGen changes whenever a list answer may: a store or the product
// side changed (the answer cache's epoch).
func (ix *Index) AnswerGen() uint64 { return ix.Gen() + ix.prod.Gen() }
