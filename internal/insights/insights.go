// Package insights counts what shoppers look for and what each store gets
// from the locator, without tracking anyone (docs/insights.md): each
// replica adds events in memory and writes only sums (per store, day and
// kind; per ~1 km cell, day and filters) to the database every few seconds.
// Unique visitors are told apart by a hash of address and user agent with a
// salt that lives in memory only and changes every UTC day; the hash never
// leaves the process.
package insights

import (
	"hash/maphash"
	"math"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"
)

// Kind is what happened to a store.
type Kind uint8

const (
	Impression  Kind = iota // in the first page of a search answer
	Panel                   // the app's store panel opened
	Page                    // the store page (/stores/...) viewed
	Call                    // the phone number pressed
	Directions              // directions opened
	Website                 // the store's website opened
	OnlineStore             // "Go to online store"
	Share                   // shared
	Favourite               // added to favourites
	numKinds
)

var kindNames = [numKinds]string{"impression", "panel", "page", "call", "directions", "website", "online_store", "share", "favourite"}

// Kinds lists every kind, in display order.
var Kinds = func() []Kind {
	out := make([]Kind, numKinds)
	for i := range out {
		out[i] = Kind(i)
	}
	return out
}()

func (k Kind) String() string {
	if k < numKinds {
		return kindNames[k]
	}
	return "unknown"
}

// ParseKind reads a kind's name.
func ParseKind(s string) (Kind, bool) {
	for i, n := range kindNames {
		if n == s {
			return Kind(i), true
		}
	}
	return 0, false
}

// Filters of a search, as a bit set.
const (
	FilterDelivery = 1 << iota
	FilterOrderOnline
	FilterCurbside
	FilterOpenNow
	FilterLicenceVerified
	FilterAvailableNow
	numFilters = iota
)

// FilterNames name the filter bits, lowest first (the list call's flags).
var FilterNames = [numFilters]string{"is_delivery_available", "is_order_online_available",
	"is_curbside_pickup_available", "is_open_now", "is_licence_verified", "available_now"}

// FirstPage is how many results of a search count as an impression: the
// first page the app shows.
const FirstPage = 20

// CellScale rounds a search's place to a cell: degrees times 100, about
// 1.1 km north-south (less east-west away from the equator).
const CellScale = 100

// Visitor is a shopper of one day as this replica tells them apart: a hash
// of address and user agent under the day's salt; 0 is unknown.
type Visitor uint64

// day is a UTC date as days since 1970-01-01.
type day int32

func dayOf(t time.Time) day { return day(t.Unix() / 86400) }

func (d day) String() string { return time.Unix(int64(d)*86400, 0).UTC().Format(time.DateOnly) }

type storeKey struct {
	day   day
	store int64
	kind  Kind
}

type cellKey struct {
	day      day
	lat, lon int32
	filters  uint8
}

type sums struct{ events, uniques int64 }

type cellSums struct{ searches, zero int64 }

// seenKey is a visitor seen doing kind to store (store 0: seen at all).
type seenKey struct {
	v     Visitor
	store int64
	kind  Kind
}

// MaxSeen bounds each shard's set of the day's visitors: past it, uniques
// are no longer added that day on this replica (an undercount, logged at
// flush), so memory stays bounded under a flood.
const MaxSeen = 1 << 18

// shards spread the counting over locks, so concurrent searches rarely
// wait on each other.
const shards = 32

type shard struct {
	mu      sync.Mutex
	imps    []int64 // impressions since the last flush (impressions.go)
	stores  map[storeKey]sums
	cells   map[cellKey]cellSums
	days    map[day]int64 // visitors
	seen    map[seenKey]struct{}
	seenDay day
	full    bool
	_       [16]byte // keep shards on their own cache lines
}

// salt is the day's hash seed: random, in memory only, replaced on the
// first event of each UTC day.
type salt struct {
	day  day
	seed maphash.Seed
}

// Counter adds events in memory until Flush writes them. Safe for
// concurrent use.
type Counter struct {
	shards [shards]shard
	imps   impressions
	saltMu sync.Mutex // held to replace the salt
	salt   atomic.Pointer[salt]
	now    func() time.Time
	off    bool
}

// NewCounter returns an empty counter.
func NewCounter() *Counter {
	c := &Counter{now: time.Now}
	for i := range c.shards {
		c.shards[i].reset()
	}
	return c
}

// Off makes every count a no-op (the benchmark's baseline; a nil Counter
// counts nothing too).
func (c *Counter) Off() { c.off = true }

// Enabled says whether counting is on (a nil Counter counts nothing).
func (c *Counter) Enabled() bool { return c != nil && !c.off }

func (s *shard) reset() {
	s.stores = map[storeKey]sums{}
	s.cells = map[cellKey]cellSums{}
	s.days = map[day]int64{}
}

// VisitorOf hashes a caller's address and user agent under today's salt.
// Neither is kept; the hash is only compared within the day, in memory.
func (c *Counter) VisitorOf(addr, userAgent string) Visitor {
	if c == nil || c.off || (addr == "" && userAgent == "") {
		return 0
	}
	today := dayOf(c.now())
	s := c.salt.Load()
	if s == nil || s.day != today {
		c.saltMu.Lock()
		if s = c.salt.Load(); s == nil || s.day != today {
			s = &salt{day: today, seed: maphash.MakeSeed()}
			c.salt.Store(s)
		}
		c.saltMu.Unlock()
	}
	var h maphash.Hash
	h.SetSeed(s.seed)
	h.WriteString(addr)
	h.WriteByte(0)
	h.WriteString(userAgent)
	v := Visitor(h.Sum64())
	if v == 0 {
		v = 1
	}
	return v
}

// shardFor keeps a visitor's counts in one shard, so the visitor's set of
// the day is consistent; unknown visitors spread at random.
func (c *Counter) shardFor(v Visitor) *shard {
	if v == 0 {
		return &c.shards[rand.Uint32()%shards]
	}
	return &c.shards[uint64(v)%shards]
}

// firstSeen records k for the day and says whether it is new. The caller
// holds s.mu.
func (s *shard) firstSeen(today day, k seenKey) bool {
	if k.v == 0 {
		return false
	}
	if s.seenDay != today {
		s.seen, s.seenDay, s.full = map[seenKey]struct{}{}, today, false
	}
	if _, ok := s.seen[k]; ok {
		return false
	}
	if len(s.seen) >= MaxSeen {
		s.full = true
		return false
	}
	s.seen[k] = struct{}{}
	return true
}

func (s *shard) visitor(today day, v Visitor) {
	if s.firstSeen(today, seenKey{v: v}) {
		s.days[today]++
	}
}

func (s *shard) add(today day, v Visitor, store int64, k Kind) {
	key := storeKey{today, store, k}
	sm := s.stores[key]
	sm.events++
	if k != Impression && s.firstSeen(today, seenKey{v, store, k}) {
		sm.uniques++
	}
	s.stores[key] = sm
}

// Search is one store search as counted.
type Search struct {
	Latitude, Longitude float64
	Filters             uint8
	Results             int     // how many stores the answer holds (0: none; counting needs no more)
	FirstPage           []int64 // the stores of its first page (impressions)
}

// CountSearch counts a search, its cell and the impressions of its first
// page, under one lock.
func (c *Counter) CountSearch(v Visitor, s Search) {
	if c == nil || c.off {
		return
	}
	today := dayOf(c.now())
	key := cellKey{today, cell(s.Latitude), cell(s.Longitude), s.Filters}
	sh := c.shardFor(v)
	sh.mu.Lock()
	cs := sh.cells[key]
	cs.searches++
	if s.Results == 0 {
		cs.zero++
	}
	sh.cells[key] = cs
	sh.visitor(today, v)
	if len(sh.imps)+len(s.FirstPage) > impBuf {
		c.imps.hand(sh.imps)
		sh.imps = make([]int64, 0, impBuf)
	}
	sh.imps = append(sh.imps, s.FirstPage...)
	sh.mu.Unlock()
}

// Count counts one event of a store.
func (c *Counter) Count(v Visitor, store int64, k Kind) {
	if c == nil || c.off || k >= numKinds || store < 1 {
		return
	}
	today := dayOf(c.now())
	sh := c.shardFor(v)
	sh.mu.Lock()
	sh.visitor(today, v)
	sh.add(today, v, store, k)
	sh.mu.Unlock()
}

func cell(deg float64) int32 { return int32(math.Round(deg * CellScale)) }

// CellCentre is the centre of a cell coordinate, in degrees.
func CellCentre(c int32) float64 { return float64(c) / CellScale }

// batch is what a flush takes out of the shards.
type batch struct {
	stores map[storeKey]sums
	cells  map[cellKey]cellSums
	days   map[day]int64
	full   bool
}

func newBatch() *batch {
	return &batch{stores: map[storeKey]sums{}, cells: map[cellKey]cellSums{}, days: map[day]int64{}}
}

func (b *batch) empty() bool { return len(b.stores) == 0 && len(b.cells) == 0 && len(b.days) == 0 }

// merge adds the sums into b.
func (b *batch) merge(stores map[storeKey]sums, cells map[cellKey]cellSums, days map[day]int64) {
	for k, v := range stores {
		s := b.stores[k]
		s.events += v.events
		s.uniques += v.uniques
		b.stores[k] = s
	}
	for k, v := range cells {
		s := b.cells[k]
		s.searches += v.searches
		s.zero += v.zero
		b.cells[k] = s
	}
	for k, v := range days {
		b.days[k] += v
	}
}

// take empties the shards into one batch. Impressions counted since the
// last take are given the day of now.
//
// searches says whether the search side (cells and impressions) is taken
// too: it is written on a slower cadence (Service.SearchEvery).
func (c *Counter) take(searches bool) *batch {
	b := newBatch()
	var imps [][]int64
	for i := range c.shards {
		sh := &c.shards[i]
		sh.mu.Lock()
		st, da := sh.stores, sh.days
		sh.stores, sh.days = map[storeKey]sums{}, map[day]int64{}
		var ce map[cellKey]cellSums
		if searches {
			ce = sh.cells
			sh.cells = map[cellKey]cellSums{}
			if len(sh.imps) > 0 {
				imps = append(imps, sh.imps)
				sh.imps = make([]int64, 0, impBuf)
			}
		}
		b.full = b.full || sh.full
		sh.mu.Unlock()
		b.merge(st, ce, da)
	}
	if !searches {
		return b
	}
	today := dayOf(c.now())
	c.imps.count(imps, func(id, n int64) {
		k := storeKey{today, id, Impression}
		sm := b.stores[k]
		sm.events += n
		b.stores[k] = sm
	})
	return b
}

// putBack returns an unwritten batch to the counter, to be written by the
// next flush.
func (c *Counter) putBack(b *batch) {
	sh := &c.shards[0]
	sh.mu.Lock()
	defer sh.mu.Unlock()
	nb := &batch{stores: sh.stores, cells: sh.cells, days: sh.days}
	nb.merge(b.stores, b.cells, b.days)
}
