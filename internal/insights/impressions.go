package insights

import "sync"

// impBuf is how many impressions a shard collects before it hands the
// buffer over to the next flush.
const impBuf = 8192

// maxDenseID bounds the store ids added up in the flush's dense array
// (16M ids, 64 MB at most); larger ids are added up in a map.
const maxDenseID = 1 << 24

// impressions collects the stores of first pages until a flush adds them
// up. A search only appends its ids to its shard's buffer (sequential
// writes under the lock it holds anyway): adding them to a counter per
// store there cost a cache miss per store, ~4% of a search at 1M stores;
// the flush adds them up in one pass, without locks and with the misses
// overlapping.
type impressions struct {
	mu    sync.Mutex
	full  [][]int64 // buffers handed over by shards
	dense []uint32  // the flush's scratch counts by id, all zero between flushes
}

// hand takes a shard's full buffer.
func (m *impressions) hand(buf []int64) {
	m.mu.Lock()
	m.full = append(m.full, buf)
	m.mu.Unlock()
}

// count adds up every impression handed over plus more, calling fn once
// per store.
func (m *impressions) count(more [][]int64, fn func(id int64, n int64)) {
	m.mu.Lock()
	bufs := append(m.full, more...)
	m.full = nil
	m.mu.Unlock()
	var sparse map[int64]int64
	for _, buf := range bufs {
		for _, id := range buf {
			if id < 1 || id >= maxDenseID {
				if sparse == nil {
					sparse = map[int64]int64{}
				}
				sparse[id]++
				continue
			}
			if int(id) >= len(m.dense) {
				m.dense = append(m.dense, make([]uint32, int(id)+1-len(m.dense)+len(m.dense)/2)...)
			}
			m.dense[id]++
		}
	}
	for _, buf := range bufs {
		for _, id := range buf {
			if id >= 1 && id < maxDenseID && m.dense[id] > 0 {
				fn(id, int64(m.dense[id]))
				m.dense[id] = 0
			}
		}
	}
	for id, n := range sparse {
		fn(id, n)
	}
}
