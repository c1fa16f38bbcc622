// Package answercache keeps compressed answers to repeated store searches
// for as long as they stay right: within one minute of the clock and one
// generation of the search index (docs/performance-history.md, "The answer cache").
//
// A search answer is a function of its query, the index's contents and the
// minute: every live field (open now, the next change, a service taking
// orders now, the day's rules) changes on a whole minute, and every store
// change moves the index's generation. So an answer built at minute m on
// generation g is exactly the answer any request with the same query would
// get at minute m on generation g, and the cache keys its entries by that
// epoch. When either moves on, every entry is stale at once and the cache
// starts over empty: no entry outlives its epoch, and nothing is evicted
// within one.
//
// Within an epoch the cache admits answers until its byte budget is full and
// then none: for a popular place (a suggestion picked by many shoppers is
// the same point for all of them) the first request of the minute fills it
// and the others copy it. No eviction means no bookkeeping on a hit: a hit
// is a read lock and a map lookup.
//
// Each replica keeps its own: two replicas on the same generation give the
// same bytes, so nothing needs to agree between them.
package answercache

import (
	"sync"
	"sync/atomic"
)

// Epoch is what an answer depends on besides its query: the minute of the
// clock (Unix seconds / 60) and the index generation it was built on.
type Epoch struct {
	Minute int64
	Gen    uint64
}

// Entry is one cached answer: its encoded body and the ids of its first
// stores (insights counts them as impressions on every answer, cached or not).
type Entry struct {
	Body []byte
	IDs  []int64
}

type key struct {
	query  string
	coding uint8
}

// entryOverhead approximates the map slot, key and Entry headers of one
// entry, so many small answers cannot exceed the budget by their overhead.
const entryOverhead = 128

// Cache is safe for concurrent use. A nil *Cache caches nothing.
type Cache struct {
	max int64

	mu    sync.RWMutex
	epoch Epoch
	m     map[key]*Entry
	size  int64

	hits, misses atomic.Uint64
}

// New returns a cache that holds at most maxBytes of answers per epoch; 0 or
// less returns nil (no cache).
func New(maxBytes int64) *Cache {
	if maxBytes <= 0 {
		return nil
	}
	return &Cache{max: maxBytes, m: map[key]*Entry{}}
}

// Get returns the answer to query in coding cached in epoch e.
func (c *Cache) Get(e Epoch, query string, coding uint8) (*Entry, bool) {
	if c == nil {
		return nil, false
	}
	c.mu.RLock()
	var ent *Entry
	if c.epoch == e {
		ent = c.m[key{query, coding}]
	}
	c.mu.RUnlock()
	if ent == nil {
		c.misses.Add(1)
		return nil, false
	}
	c.hits.Add(1)
	return ent, true
}

// Put keeps a copy of body and ids as the answer to query in coding at
// epoch e, when there is room. An answer of an older epoch than the cache's
// (built while the minute turned or the index changed) is dropped; a newer
// epoch empties the cache first.
func (c *Cache) Put(e Epoch, query string, coding uint8, body []byte, ids []int64) {
	if c == nil {
		return
	}
	n := int64(len(body)+len(query)+8*len(ids)) + entryOverhead
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.epoch != e {
		if !c.newer(e) {
			return
		}
		c.epoch, c.m, c.size = e, map[key]*Entry{}, 0
	}
	k := key{query, coding}
	if c.size+n > c.max || c.m[k] != nil {
		return
	}
	c.m[k] = &Entry{Body: append([]byte(nil), body...), IDs: append([]int64(nil), ids...)}
	c.size += n
}

// newer reports whether e should replace the cache's epoch: a later minute
// or generation. A clock stepped back by more than a minute also replaces
// it, so a corrected clock does not leave the cache unused until it catches up.
func (c *Cache) newer(e Epoch) bool {
	switch {
	case e.Gen != c.epoch.Gen:
		return e.Gen > c.epoch.Gen
	case e.Minute > c.epoch.Minute:
		return true
	default:
		return e.Minute < c.epoch.Minute-1
	}
}

// Stats is what a metrics scrape reads.
type Stats struct {
	Hits, Misses uint64
	Bytes        int64
	Entries      int
}

// Stats returns the counters since start and the current epoch's size.
func (c *Cache) Stats() Stats {
	if c == nil {
		return Stats{}
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	return Stats{Hits: c.hits.Load(), Misses: c.misses.Load(), Bytes: c.size, Entries: len(c.m)}
}
