package answercache

import (
	"bytes"
	"sync"
	"testing"
)

func TestHitsWithinOneEpochOnly(t *testing.T) {
	c := New(1 << 20)
	e := Epoch{Minute: 100, Gen: 7}
	if _, ok := c.Get(e, "q=1", 2); ok {
		t.Fatal("hit in an empty cache")
	}
	body := []byte("compressed answer")
	c.Put(e, "q=1", 2, body, []int64{4, 5})
	body[0] = 'X' // the cache keeps its own copy
	got, ok := c.Get(e, "q=1", 2)
	if !ok || string(got.Body) != "compressed answer" || len(got.IDs) != 2 || got.IDs[1] != 5 {
		t.Fatalf("get after put: %v %+v", ok, got)
	}
	for name, miss := range map[string]struct {
		e      Epoch
		query  string
		coding uint8
	}{
		"another coding":     {e, "q=1", 1},
		"another query":      {e, "q=2", 2},
		"the next minute":    {Epoch{101, 7}, "q=1", 2},
		"a store changed":    {Epoch{100, 8}, "q=1", 2},
		"the previous epoch": {Epoch{99, 7}, "q=1", 2},
	} {
		if _, ok := c.Get(miss.e, miss.query, miss.coding); ok {
			t.Errorf("%s: hit", name)
		}
	}
	if st := c.Stats(); st.Hits != 1 || st.Misses != 6 || st.Entries != 1 {
		t.Errorf("stats %+v", st)
	}
}

// A newer epoch empties the cache; an answer of an older one (built while
// the minute turned) is dropped rather than thrown in with the new ones.
func TestEpochsMoveForwardOnly(t *testing.T) {
	c := New(1 << 20)
	c.Put(Epoch{100, 7}, "a", 1, []byte("a@100"), nil)
	c.Put(Epoch{101, 7}, "b", 1, []byte("b@101"), nil)
	if _, ok := c.Get(Epoch{100, 7}, "a", 1); ok {
		t.Error("an entry of a past minute survived")
	}
	c.Put(Epoch{100, 7}, "a", 1, []byte("a@100"), nil)
	if st := c.Stats(); st.Entries != 1 {
		t.Errorf("a late answer of the past minute was kept: %+v", st)
	}
	c.Put(Epoch{101, 8}, "c", 1, []byte("c"), nil) // a store changed
	if _, ok := c.Get(Epoch{101, 8}, "b", 1); ok {
		t.Error("an entry of the previous generation survived")
	}
	c.Put(Epoch{5, 8}, "d", 1, []byte("d"), nil) // the clock stepped back an hour and more
	if _, ok := c.Get(Epoch{5, 8}, "d", 1); !ok {
		t.Error("a clock stepped back leaves the cache unused")
	}
}

// Past its budget the cache admits nothing more until the epoch moves.
func TestBudget(t *testing.T) {
	c := New(10 * (1000 + entryOverhead + 1))
	body := bytes.Repeat([]byte{'z'}, 1000)
	e := Epoch{1, 1}
	for i := range 20 {
		c.Put(e, string(rune('a'+i)), 1, body, nil)
	}
	st := c.Stats()
	if st.Entries != 10 || st.Bytes > 10*(1000+entryOverhead+1) {
		t.Fatalf("over budget: %+v", st)
	}
	if _, ok := c.Get(e, "a", 1); !ok {
		t.Error("the first answers are the ones kept")
	}
	c.Put(Epoch{2, 1}, "k", 1, body, nil)
	if st := c.Stats(); st.Entries != 1 {
		t.Errorf("the next minute starts empty: %+v", st)
	}
}

func TestNilCacheCachesNothing(t *testing.T) {
	c := New(0)
	c.Put(Epoch{1, 1}, "a", 1, []byte("x"), nil)
	if _, ok := c.Get(Epoch{1, 1}, "a", 1); ok || c.Stats() != (Stats{}) {
		t.Fatal("a cache of 0 bytes cached")
	}
}

func TestConcurrentUse(t *testing.T) {
	c := New(1 << 16)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 2000 {
				e := Epoch{Minute: int64(i / 500), Gen: uint64(g % 2)}
				q := string(rune('a' + i%7))
				if ent, ok := c.Get(e, q, 1); ok && string(ent.Body) != q {
					t.Errorf("answer of %q is %q", q, ent.Body)
					return
				}
				c.Put(e, q, 1, []byte(q), nil)
			}
		}()
	}
	wg.Wait()
}
