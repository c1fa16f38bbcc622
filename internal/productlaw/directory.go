package productlaw

import (
	"slices"
	"strings"
	"sync"

	"locator/internal/places/fold"
	"locator/internal/rules"
)

// Directories are the loaded state directories of vapour products that may
// be sold, by state. A nil *Directories has none.
type Directories struct {
	states map[string]*directory
}

// States lists the states with a loaded directory, sorted.
func (d *Directories) States() []string {
	if d == nil {
		return nil
	}
	out := make([]string, 0, len(d.states))
	for s := range d.states {
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

// Matters reports whether a directory may forbid p in some state: when
// not, a verdict on p does not depend on the state (a search judging
// many stores skips reading each one's state).
func (d *Directories) Matters(p Product) bool {
	return d != nil && len(d.states) > 0 && IsVapour(p.Kind)
}

// directory is one state's list.
type directory struct {
	rule  rules.Public        // what a verdict cites when a product is not listed
	gtins map[string]struct{} // GTIN-14
	names map[string]struct{} // nameKey(brand, name)
}

// forbids is the directory rule that forbids p in state, nil when the state
// has no directory, p is not a vapour product, or p is listed.
func (d *Directories) forbids(state string, p Product) *rules.Public {
	if d == nil || !IsVapour(p.Kind) {
		return nil
	}
	dir, ok := d.states[state]
	if !ok && !isCode(state) {
		dir = d.states[rules.StateCode(state)] // "wi", "Wisconsin"
	}
	if dir == nil || dir.lists(p) {
		return nil
	}
	return &dir.rule
}

// lists reports whether p is in the directory: by its GTIN, else by brand
// and name (directories list many products without a GTIN, and a catalogue
// row may lack one).
func (dir *directory) lists(p Product) bool {
	if p.GTIN != "" {
		if _, ok := dir.gtins[p.GTIN]; ok {
			return true
		}
	}
	_, ok := dir.names[keys.of(p.Brand, p.Name)]
	return ok
}

// isCode reports whether s is already written as a USPS code: upper-case
// letters, as stores keep them, so the hot path skips StateCode.
func isCode(s string) bool {
	return len(s) == 2 && s[0] >= 'A' && s[0] <= 'Z' && s[1] >= 'A' && s[1] <= 'Z'
}

// keys remembers the name key of each product judged by name (folding
// costs microseconds, and a product search judges the same product at
// every store it lists). It holds at most maxKeys entries, about the
// catalogue's size, and starts over past that.
var keys = keyCache{m: map[[2]string]string{}}

const maxKeys = 100_000

type keyCache struct {
	mu sync.RWMutex
	m  map[[2]string]string
}

func (c *keyCache) of(brand, name string) string {
	k := [2]string{brand, name}
	c.mu.RLock()
	v, ok := c.m[k]
	c.mu.RUnlock()
	if ok {
		return v
	}
	v = nameKey(brand, name)
	c.mu.Lock()
	if len(c.m) >= maxKeys {
		c.m = map[[2]string]string{}
	}
	c.m[k] = v
	c.mu.Unlock()
	return v
}

// nameKey is the key brand and product name are compared under: folded
// (case, accents, dashes, dots), punctuation other than letters, digits
// and spaces dropped, and the brand taken off the front of the name
// ("Nimbus" + "Nimbus Bar 5000, Mango Ice" is "Nimbus" + "Bar 5000 Mango
// Ice"), since catalogues and directories differ on whether the name
// repeats the brand.
func nameKey(brand, name string) string {
	b, n := words(brand), words(name)
	if rest, ok := strings.CutPrefix(n, b+" "); ok && b != "" {
		n = rest
	}
	return b + "|" + n
}

// words is s folded, with only letters, digits and single spaces.
func words(s string) string {
	f := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r > 0x7f:
			return r
		}
		return ' '
	}, fold.Fold(s))
	return strings.Join(strings.Fields(f), " ")
}
