package storepages

import (
	"sync"
	"time"
)

// pageCache keeps rendered store pages, so a page asked for again (a
// shared link, a busy store, a crawler's revisit) costs a look-up instead
// of a template run (about 100 us; docs/performance.md "Store pages").
// A page is a function of the index (its generation: the store and its
// neighbours), the base URL and the status line with the instant it last
// changed (which also covers the day the hours table marks), so those are
// the key and nothing can be served stale: any change to the index (its
// stores or its stock: search.Index.AnswerGen) empties the cache, and a
// page whose products' "updated ..." text has moved on (cachedPage.until)
// is rendered anew. It holds at most pageCacheBytes and starts over when full.
type pageCache struct {
	mu    sync.Mutex
	gen   uint64
	bytes int
	m     map[pageKey]*cachedPage
}

type pageKey struct {
	id    int64
	base  string
	text  string
	since int64
	open  bool
}

type cachedPage struct {
	body     []byte
	etag     string
	modified time.Time
	until    time.Time // when a product line's "updated ..." text changes (zero: never): not served from then on
}

// pageCacheBytes bounds the cache: about 14,000 pages of 9 KB, a tenth of
// the index's own memory at a million stores.
var pageCacheBytes = 128 << 20

// get finds a page rendered at generation gen. Callers read the
// generation before the store, so a page kept under gen holds data at
// least that new.
func (c *pageCache) get(gen uint64, k pageKey) (*cachedPage, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen != gen {
		return nil, false
	}
	e, ok := c.m[k]
	return e, ok
}

func (c *pageCache) put(gen uint64, k pageKey, e *cachedPage) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen != gen || c.m == nil || c.bytes+len(e.body) > pageCacheBytes {
		c.gen, c.bytes, c.m = gen, 0, make(map[pageKey]*cachedPage)
	}
	if len(e.body) > pageCacheBytes {
		return
	}
	c.m[k] = e
	c.bytes += len(e.body)
}
