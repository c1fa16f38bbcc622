package insights

import (
	"sync"
	"sync/atomic"
)

// maxDenseID bounds the store ids counted in the dense array (16M ids,
// 64 MB at most); larger ids go to the shards' maps.
const maxDenseID = 1 << 24

// impressions counts appearances in first pages by store id in a dense
// array of atomic counters: ten lock-free additions are all a search pays
// (a map per shard cost it a cache miss per store, ~8% of a search at 1M
// stores). The array grows with the largest id seen; a flush swaps each
// counter back to zero, so nothing is lost to a search counting meanwhile.
type impressions struct {
	cur     atomic.Pointer[[]atomic.Uint32]
	mu      sync.Mutex         // held to grow
	retired []*[]atomic.Uint32 // arrays grown out of: drained by every flush, a search may still hold one
}

// add counts one impression of id; false when id does not fit the array.
func (m *impressions) add(id int64) bool {
	if id < 1 || id >= maxDenseID {
		return false
	}
	a := m.cur.Load()
	if a == nil || int(id) >= len(*a) {
		a = m.grow(int(id))
	}
	(*a)[id].Add(1)
	return true
}

func (m *impressions) grow(id int) *[]atomic.Uint32 {
	m.mu.Lock()
	defer m.mu.Unlock()
	a := m.cur.Load()
	if a != nil && id < len(*a) {
		return a
	}
	n := 1 << 12
	if a != nil {
		n = len(*a)
	}
	for n <= id {
		n *= 2
	}
	n = min(n, maxDenseID)
	next := make([]atomic.Uint32, n)
	if a != nil {
		m.retired = append(m.retired, a)
	}
	m.cur.Store(&next)
	return &next
}

// drain calls fn with every non-zero count, zeroing it.
func (m *impressions) drain(fn func(id int64, n uint32)) {
	m.mu.Lock()
	arrays := append([]*[]atomic.Uint32{m.cur.Load()}, m.retired...)
	m.mu.Unlock()
	for _, a := range arrays {
		if a == nil {
			continue
		}
		for i := range *a {
			if (*a)[i].Load() != 0 {
				if n := (*a)[i].Swap(0); n > 0 {
					fn(int64(i), n)
				}
			}
		}
	}
}
