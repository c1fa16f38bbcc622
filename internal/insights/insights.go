// Package insights counts what shoppers look for and what each store gets
// from the locator, without tracking anyone (docs/insights.md): each
// replica adds events in memory and writes only sums (per store, day and
// kind; per ~1 km cell, day and filters) to the database every few seconds.
// A visitor is their network (an IPv4 /24, an IPv6 /48) hashed under a
// salt of the day that every replica reads from the database; a view, an
// action or a search counts once per visitor, store (or cell) and day, in
// memory on each replica and then across replicas (visitors.go).
package insights

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"math"
	mrand "math/rand/v2"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"locator/internal/clock"
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

// Visitor is a shopper's network on one day: a hash of the network under
// the day's salt; 0 is unknown (only callers inside the process count for
// it: every request has an address).
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

// seenKey is a visitor seen doing something of the day: what is 0 (seen at
// all), a store's kind (whatStore) or a search's cell (whatCell).
type seenKey struct {
	v    Visitor
	what int64
}

// fresh is a seenKey new on this replica, to be checked against the other
// replicas' (insight_seen) before it counts.
type fresh struct {
	day  day
	v    Visitor
	what int64
	zero bool    // a search that found nothing
	page []int64 // a search's first page: its impressions, counted with it
}

// whatStore is a store's kind as a seenKey's what (> 0).
func whatStore(store int64, k Kind) int64 { return store<<4 | int64(k) }

// whatCell is a search's cell and filters as a seenKey's what (< 0).
func whatCell(k cellKey) int64 {
	lat, lon := int64(k.lat)+9000, int64(k.lon)+18000
	return -(1 + (lat*36001+lon)*64 + int64(k.filters))
}

// MaxCellsPerVisitor bounds the searches one visitor counts a day (one
// per cell and filters): a shopper moves the map a few dozen times; a
// script sending searches to thousands of places adds no more than this.
const MaxCellsPerVisitor = 100

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
	days    map[day]int64      // visitors
	fresh   []fresh            // keys new today: visitors and store events
	freshC  []fresh            // keys new today: searches (written on the search cadence)
	seen    map[seenKey]uint16 // at a visitor's key {v, 0}: the searches counted today
	pages   []int64            // the fresh searches' first pages, one after the other
	seenDay day
	full    bool
	_       [16]byte // keep shards on their own cache lines
}

// salt is a day's salt, as the cipher visitors are made with.
type salt struct {
	day   day
	block cipher.Block
}

// Counter adds events in memory until Flush writes them. Safe for
// concurrent use.
type Counter struct {
	shards [shards]shard
	imps   impressions
	saltMu sync.Mutex // held to replace a salt
	salt   atomic.Pointer[salt]
	// shared are the salts read from the database (by day), which every
	// replica agrees on; until they are read, a random one of the process.
	shared atomic.Pointer[map[day]cipher.Block]
	now    clock.Clock
	off    bool
	// partners are the widget's counts per partner (partners.go).
	partners partnerCounts
}

// NewCounter returns an empty counter on the system's clock.
func NewCounter() *Counter { return newCounter(clock.System()) }

func newCounter(clk clock.Clock) *Counter {
	if clk == nil {
		clk = clock.System()
	}
	c := &Counter{now: clk}
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

// VisitorOf is the visitor of a caller's address: its network (an IPv4
// /24, an IPv6 /48) encrypted under today's salt (AES, one block: a keyed
// permutation, ~20 ns where SHA-256 cost ~0.5 us of a ~50 us request).
// Neither is kept; the visitor is compared within the day, in memory and
// in insight_seen. Every address, even an unreadable one, gives a
// visitor, so nothing counts without being deduplicated.
func (c *Counter) VisitorOf(addr string) Visitor {
	if c == nil || c.off {
		return 0
	}
	in := network(addr)
	var out [16]byte
	c.saltOf(dayOf(c.now())).Encrypt(out[:], in[:])
	v := Visitor(binary.LittleEndian.Uint64(out[:8]))
	if v == 0 {
		v = 1
	}
	return v
}

// network is addr's network as one block: a tag and the 3 bytes of an
// IPv4 /24 or the 6 of an IPv6 /48 (behind them, one household or one
// customer's allocation); an address that does not parse is its hash.
func network(addr string) [16]byte {
	var b [16]byte
	a, err := netip.ParseAddr(addr)
	if err != nil {
		ap, err2 := netip.ParseAddrPort(addr)
		if err2 != nil {
			h := sha256.Sum256([]byte(addr))
			b[0] = 1
			copy(b[1:], h[:15])
			return b
		}
		a = ap.Addr()
	}
	a = a.Unmap()
	if a.Is4() {
		a4 := a.As4()
		b[0] = 4
		copy(b[1:], a4[:3])
		return b
	}
	a16 := a.As16()
	b[0] = 6
	copy(b[1:], a16[:6])
	return b
}

// saltOf is the cipher of day d's salt: the shared one once read from
// the database, else one of this process (random, made the first time).
func (c *Counter) saltOf(d day) cipher.Block {
	if m := c.shared.Load(); m != nil {
		if k, ok := (*m)[d]; ok {
			return k
		}
	}
	s := c.salt.Load()
	if s == nil || s.day != d {
		c.saltMu.Lock()
		if s = c.salt.Load(); s == nil || s.day != d {
			var key [32]byte
			_, _ = rand.Read(key[:])
			s = &salt{day: d, block: newBlock(key)}
			c.salt.Store(s)
		}
		c.saltMu.Unlock()
	}
	return s.block
}

// newBlock is the AES-256 cipher of a salt (a 32-byte key never fails).
func newBlock(key [32]byte) cipher.Block {
	b, err := aes.NewCipher(key[:])
	if err != nil {
		panic(err)
	}
	return b
}

// shardFor keeps a visitor's counts in one shard, so the visitor's set of
// the day is consistent; unknown visitors spread at random.
func (c *Counter) shardFor(v Visitor) *shard {
	if v == 0 {
		return &c.shards[mrand.Uint32()%shards]
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
		s.seen, s.seenDay, s.full = map[seenKey]uint16{}, today, false
	}
	if _, ok := s.seen[k]; ok {
		return false
	}
	if len(s.seen) >= MaxSeen {
		s.full = true
		return false
	}
	s.seen[k] = 0
	return true
}

func (s *shard) visitor(today day, v Visitor) {
	if v != 0 && s.firstSeen(today, seenKey{v: v}) {
		s.fresh = append(s.fresh, fresh{day: today, v: v})
	}
}

// add counts k of store once per visitor and day: the first time here,
// then (at flush) if no other replica counted it. An unknown visitor's
// event counts as it comes.
func (s *shard) add(today day, v Visitor, store int64, k Kind) {
	if v == 0 {
		key := storeKey{today, store, k}
		sm := s.stores[key]
		sm.events++
		s.stores[key] = sm
		return
	}
	w := whatStore(store, k)
	if s.firstSeen(today, seenKey{v, w}) {
		s.fresh = append(s.fresh, fresh{day: today, v: v, what: w})
	}
}

// Search is one store search as counted.
type Search struct {
	Latitude, Longitude float64
	Filters             uint8
	Results             int     // how many stores the answer holds (0: none; counting needs no more)
	FirstPage           []int64 // the stores of its first page (impressions)
}

// CountSearch counts a search once per visitor, cell, filters and day (at
// most MaxCellsPerVisitor a day), with the impressions of its first page,
// under one lock. A search that does not count adds no impressions; one
// that counts here carries its first page to the flush, which counts both
// if no other replica counted the search.
func (c *Counter) CountSearch(v Visitor, s Search) {
	if c == nil || c.off {
		return
	}
	today := dayOf(c.now())
	key := cellKey{today, cell(s.Latitude), cell(s.Longitude), s.Filters}
	sh := c.shardFor(v)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if v == 0 {
		cs := sh.cells[key]
		cs.searches++
		if s.Results == 0 {
			cs.zero++
		}
		sh.cells[key] = cs
	} else {
		sh.visitor(today, v)
		vk := seenKey{v: v}
		if sh.seen[vk] >= MaxCellsPerVisitor {
			return
		}
		w := whatCell(key)
		if !sh.firstSeen(today, seenKey{v, w}) {
			return
		}
		if _, ok := sh.seen[vk]; ok { // absent when the set is full
			sh.seen[vk]++
		}
		// The page goes into the shard's arena, not an allocation of its
		// own (a slice of an arena that grows later keeps its old array).
		start := len(sh.pages)
		sh.pages = append(sh.pages, s.FirstPage...)
		sh.freshC = append(sh.freshC, fresh{day: today, v: v, what: w, zero: s.Results == 0, page: sh.pages[start:len(sh.pages):len(sh.pages)]})
		return
	}
	if len(sh.imps)+len(s.FirstPage) > impBuf {
		c.imps.hand(sh.imps)
		sh.imps = make([]int64, 0, impBuf)
	}
	sh.imps = append(sh.imps, s.FirstPage...)
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
	fresh  []fresh // to count once insight_seen says no replica has
	full   bool
}

func newBatch() *batch {
	return &batch{stores: map[storeKey]sums{}, cells: map[cellKey]cellSums{}, days: map[day]int64{}}
}

func (b *batch) empty() bool {
	return len(b.stores) == 0 && len(b.cells) == 0 && len(b.days) == 0 && len(b.fresh) == 0
}

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
		b.fresh = append(b.fresh, sh.fresh...)
		sh.fresh = nil
		var ce map[cellKey]cellSums
		if searches {
			ce = sh.cells
			sh.cells = map[cellKey]cellSums{}
			b.fresh = append(b.fresh, sh.freshC...)
			sh.freshC, sh.pages = nil, nil
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
	for _, f := range b.fresh {
		if f.what < 0 {
			sh.freshC = append(sh.freshC, f)
		} else {
			sh.fresh = append(sh.fresh, f)
		}
	}
}
