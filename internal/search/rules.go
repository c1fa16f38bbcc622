package search

import (
	"bytes"
	"time"

	"locator/internal/rules"
	"locator/internal/stores"
)

// Each store's document carries "rules": the rulebook's rules on what
// stores of its place and kind may sell (internal/rules, docs/rules.md).
// They depend on the date, so they are not rendered into the stored
// document; stores share a handful of combinations of jurisdictions and
// kind, so the index keeps one rules.Set per combination (ruleSets, a
// 16-bit number in the record's padding) and each set caches its JSON per
// day.

var book = rules.MustLoad()

// ruleSetOf is the set of a store's document (its country, state, city,
// ZIP code and kind). It reads the index's nothing: call it without the lock.
func ruleSetOf(doc []byte) *rules.Set {
	s, _ := docLayout(doc, false)
	return s
}

// docLayout reads what the index keeps of a store's document besides the
// bytes: its rule set and where its list part ends (stores.ListEnd), which
// is where "adult_only" starts. plain says doc is the list part of a
// document whose detail part is plainDetail (not adult-only).
func docLayout(doc []byte, plain bool) (*rules.Set, uint32) {
	p, adult, end := docPlace(doc, plain)
	return book.Set(p, adult), end
}

// docPlace reads what the rulebook matches a store by from its document
// (its country, state, city, ZIP code and whether it is adult-only) and
// where its list part ends; plain as for docLayout. Snapshots keep the
// place beside the document, so that a load matches each place once
// instead of reading a million documents.
func docPlace(doc []byte, plain bool) (p rules.Place, adult bool, listEnd uint32) {
	var buf [128]byte
	b, _ := appendDocStringFrom(buf[:0], doc, "code", 0)
	p.Country = string(b)
	b, at := appendDocStringFrom(buf[:0], doc, "state", 0)
	p.State = string(b)
	b, at = appendDocStringFrom(buf[:0], doc, "city", at)
	p.City = string(b)
	b, _ = appendDocStringFrom(buf[:0], doc, "postal_code", at)
	p.ZIP = string(b)
	if plain {
		return p, false, uint32(len(doc))
	}
	end := stores.ListEnd(doc)
	const adultField = `,"adult_only":true`
	adult = bytes.HasPrefix(doc[end:], []byte(adultField)) ||
		(end == len(doc) && bytes.Contains(doc, []byte(adultField[1:]))) // a document of the former layout
	return p, adult, uint32(end)
}

// internRules numbers set in the index's table. The caller holds the write lock.
func (ix *Index) internRules(s *rules.Set) uint16 {
	if n, ok := ix.ruleAt[s]; ok {
		return n
	}
	if ix.ruleAt == nil {
		ix.ruleAt = map[*rules.Set]uint16{}
	}
	n := uint16(len(ix.ruleSets))
	ix.ruleSets = append(ix.ruleSets, s)
	ix.ruleAt[s] = n
	return n
}

// rulesOf is the record's set. The caller holds the lock.
func (ix *Index) rulesOf(r *record) *rules.Set { return ix.ruleSet(r.rules) }

// ruleSet is set n of ruleSets, or nil. The caller holds the lock.
func (ix *Index) ruleSet(n uint16) *rules.Set {
	if int(n) < len(ix.ruleSets) {
		return ix.ruleSets[n]
	}
	return nil
}

// ruleDay is the calendar day a rule is judged on in a store's zone; one
// answer's stores mostly share a zone, so the last one is remembered.
type ruleDay struct {
	now time.Time
	loc *time.Location
	day int
}

func (d *ruleDay) of(loc *time.Location) int {
	if loc != d.loc || d.day == 0 {
		d.loc, d.day = loc, rules.DayOf(d.now.In(loc))
	}
	return d.day
}

// answerRules gathers the rule sets of one list answer, each on its day,
// to render each rule once after the stores (rules.AppendUnion). An answer
// meets a handful of (set, day) pairs at most: a small list.
type answerRules struct {
	sets []*rules.Set
	days []int
	last int // index of the pair last met (neighbours mostly share one)
}

// appendRuleIDs appends `"rule_ids":[...]` for record r and notes its set
// in a.
func (ix *Index) appendRuleIDs(dst []byte, r *record, d *ruleDay, a *answerRules) []byte {
	dst = append(dst, `"rule_ids":`...)
	s := ix.rulesOf(r)
	if s == nil {
		return append(dst, "[]"...)
	}
	day := d.of(r.loc)
	if n := len(a.sets); n == 0 || a.sets[a.last] != s || a.days[a.last] != day {
		i := 0
		for i < n && (a.sets[i] != s || a.days[i] != day) {
			i++
		}
		if i == n {
			a.sets, a.days = append(a.sets, s), append(a.days, day)
		}
		a.last = i
	}
	return s.AppendIDs(dst, day)
}

// appendUnion appends the rules of the answer, each once: "[]" for none.
func (a *answerRules) appendUnion(dst []byte) []byte {
	if len(a.sets) == 0 {
		return append(dst, "[]"...)
	}
	return rules.AppendUnion(dst, a.sets, a.days)
}

// WithRules returns doc, a complete store document read from the database
// (stores.Repo.PublishedDoc), with its "rules" on instant now, in the
// store's own zone, as the list answer carries them.
func WithRules(doc []byte, now time.Time) []byte {
	n := len(doc)
	if n < 2 || doc[n-1] != '}' {
		return doc
	}
	var zb [64]byte
	zone, _ := appendDocStringFrom(zb[:0], doc, "time_zone", 0)
	d := ruleDay{now: now}
	out := make([]byte, 0, n+256)
	out = append(out, doc[:n-1]...)
	out = append(out, `,"rules":`...)
	out = ruleSetOf(doc).AppendJSON(out, d.of(stores.Zone(string(zone))))
	return append(out, '}')
}
