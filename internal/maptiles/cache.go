package maptiles

import (
	"container/list"
	"sync"
)

// Cache keeps the most recently used tiles up to a total size in bytes (the
// tiles' own bytes plus a fixed overhead per entry). Safe for concurrent use.
type Cache struct {
	mu      sync.Mutex
	max     int
	size    int
	order   *list.List // front: most recent
	entries map[string]*list.Element
	hits    uint64
	misses  uint64
}

type cacheEntry struct {
	key  string
	data []byte
}

// entryOverhead approximates an entry's memory besides its bytes: the map
// slot, the list element, the key and the slice header.
const entryOverhead = 160

// NewCache makes a cache of at most maxBytes (0 keeps nothing).
func NewCache(maxBytes int) *Cache {
	return &Cache{max: maxBytes, order: list.New(), entries: map[string]*list.Element{}}
}

func entrySize(key string, data []byte) int { return len(key) + len(data) + entryOverhead }

// Get returns a cached tile and marks it recently used.
func (c *Cache) Get(key string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[key]; ok {
		c.order.MoveToFront(e)
		c.hits++
		return e.Value.(*cacheEntry).data, true
	}
	c.misses++
	return nil, false
}

// Put adds a tile, dropping the least recently used ones past the bound; a
// tile larger than the whole bound is not kept.
func (c *Cache) Put(key string, data []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[key]; ok {
		old := e.Value.(*cacheEntry)
		c.size += len(data) - len(old.data)
		old.data = data
		c.order.MoveToFront(e)
	} else {
		if entrySize(key, data) > c.max {
			return
		}
		c.entries[key] = c.order.PushFront(&cacheEntry{key: key, data: data})
		c.size += entrySize(key, data)
	}
	for c.size > c.max {
		e := c.order.Back()
		if e == nil {
			break
		}
		old := e.Value.(*cacheEntry)
		c.order.Remove(e)
		delete(c.entries, old.key)
		c.size -= entrySize(old.key, old.data)
	}
}

// CacheStats is what a cache holds and how it was used.
type CacheStats struct {
	Entries, Bytes, MaxBytes int
	Hits, Misses             uint64
}

// Stats reads the cache's counters.
func (c *Cache) Stats() CacheStats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return CacheStats{Entries: len(c.entries), Bytes: c.size, MaxBytes: c.max, Hits: c.hits, Misses: c.misses}
}
