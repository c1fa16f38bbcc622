package insights

import (
	"cmp"
	"context"
	"fmt"
	"sync"
	"time"

	"locator/internal/apperr"
	"locator/internal/db"
)

// The embeddable widget's counts under a partner's slug (docs/embed.md):
// sums per day, partner and kind, each event once per visitor (network),
// partner, kind (and store or searched cell) and day over all replicas,
// as the store counts are: a key new to this replica's memory waits for
// the next flush, which writes it to insight_partner_seen (INSERT ... ON
// CONFLICT DO NOTHING RETURNING) and counts it only if no replica had.

// PartnerKind is what the widget counts for a partner.
type PartnerKind uint8

const (
	PartnerView        PartnerKind = iota // the widget's page loaded
	PartnerSearch                         // a store search from the widget
	PartnerStoresShown                    // the stores of a counted search's first page
	PartnerPanel                          // a store opened
	PartnerDirections                     // directions opened
	PartnerBuy                            // "Go to online store" or "Buy online"
	numPartnerKinds
)

var partnerKindNames = [numPartnerKinds]string{"view", "search", "stores_shown", "panel", "directions", "buy"}

func (k PartnerKind) String() string {
	if k < numPartnerKinds {
		return partnerKindNames[k]
	}
	return "unknown"
}

// PartnerKindOf is the partner count of a store event, false for a kind
// the partner report does not hold.
func PartnerKindOf(k Kind) (PartnerKind, bool) {
	switch k {
	case Panel:
		return PartnerPanel, true
	case Directions:
		return PartnerDirections, true
	case OnlineStore:
		return PartnerBuy, true
	}
	return 0, false
}

type partnerKey struct {
	day     day
	partner string
	kind    PartnerKind
}

type partnerSeen struct {
	v    Visitor
	key  partnerKey
	what int64
}

// partnerFresh is what a key new to this replica counts once no replica
// had it: n events of its kind and, for a search, the stores shown.
type partnerFresh struct{ n, shown int64 }

// partnerCounts are the sums since the last flush, the keys new to this
// replica since then (counted at the flush if new to every replica), and
// the day's set of what each visitor was counted for.
type partnerCounts struct {
	mu      sync.Mutex
	sums    map[partnerKey]int64
	fresh   map[partnerSeen]partnerFresh
	seen    map[partnerSeen]struct{}
	seenDay day
}

// partnerBatch is what a flush takes: the sums, and the fresh keys.
type partnerBatch struct {
	sums  map[partnerKey]int64
	fresh map[partnerSeen]partnerFresh
}

func (b partnerBatch) empty() bool { return len(b.sums) == 0 && len(b.fresh) == 0 }

// CountPartner counts n events of kind k for partner (a slug) once per
// visitor and day over all replicas; what tells events of one kind apart
// (a store's id, a search's cell; 0 for a view). Without a visitor (0)
// they count at once.
func (c *Counter) CountPartner(v Visitor, partner string, k PartnerKind, what int64, n int64) {
	c.countPartner(v, partner, k, what, n, 0)
}

// countPartner is CountPartner with the stores a search showed, counted
// with it.
func (c *Counter) countPartner(v Visitor, partner string, k PartnerKind, what, n, shown int64) {
	if c == nil || c.off || partner == "" || !literal(partner) || k >= numPartnerKinds || n <= 0 {
		return
	}
	today := dayOf(c.now())
	key := partnerKey{today, partner, k}
	p := &c.partners
	p.mu.Lock()
	defer p.mu.Unlock()
	if v == 0 {
		if p.sums == nil {
			p.sums = map[partnerKey]int64{}
		}
		p.sums[key] += n
		if shown > 0 {
			p.sums[partnerKey{today, partner, PartnerStoresShown}] += shown
		}
		return
	}
	if p.seenDay != today || p.seen == nil {
		p.seen, p.seenDay = map[partnerSeen]struct{}{}, today
	}
	s := partnerSeen{v, key, what}
	if _, ok := p.seen[s]; ok || len(p.seen) >= MaxSeen {
		return
	}
	p.seen[s] = struct{}{}
	if p.fresh == nil {
		p.fresh = map[partnerSeen]partnerFresh{}
	}
	p.fresh[s] = partnerFresh{n, shown}
}

// CountPartnerSearch counts a widget's search (once per visitor, partner,
// ~1 km cell and day) and, with it, the stores its first page showed.
func (c *Counter) CountPartnerSearch(v Visitor, partner string, lat, lon float64, shown int) {
	what := int64(cell(lat))<<32 | int64(uint32(cell(lon)))
	c.countPartner(v, partner, PartnerSearch, what, 1, int64(max(shown, 0)))
}

// takePartners empties the partner sums and fresh keys.
func (c *Counter) takePartners() partnerBatch {
	c.partners.mu.Lock()
	defer c.partners.mu.Unlock()
	out := partnerBatch{c.partners.sums, c.partners.fresh}
	c.partners.sums, c.partners.fresh = nil, nil
	return out
}

// putBackPartners returns an unwritten batch for the next flush.
func (c *Counter) putBackPartners(b partnerBatch) {
	c.partners.mu.Lock()
	defer c.partners.mu.Unlock()
	if c.partners.sums == nil {
		c.partners.sums = map[partnerKey]int64{}
	}
	for k, n := range b.sums {
		c.partners.sums[k] += n
	}
	if len(b.fresh) > 0 && c.partners.fresh == nil {
		c.partners.fresh = map[partnerSeen]partnerFresh{}
	}
	for k, f := range b.fresh {
		c.partners.fresh[k] = f
	}
}

// settlePartners writes b's fresh keys to insight_partner_seen and returns
// b's sums plus what each key no replica had counts (b is not changed: a
// failed flush puts it back whole). Keys go in order, so two replicas
// flushing at once lock rows in the same order.
func settlePartners(ctx context.Context, tx *db.Tx, b partnerBatch) (map[partnerKey]int64, error) {
	out := make(map[partnerKey]int64, len(b.sums)+len(b.fresh))
	for k, n := range b.sums {
		out[k] += n
	}
	keys := sortedKeys(b.fresh, func(x, y partnerSeen) int {
		return cmp.Or(cmp.Compare(x.key.day, y.key.day), cmp.Compare(x.v, y.v), cmp.Compare(x.key.partner, y.key.partner),
			cmp.Compare(x.key.kind, y.key.kind), cmp.Compare(x.what, y.what))
	})
	type row struct {
		day, partner, kind string
		v, what            int64
	}
	byRow := make(map[row]partnerSeen, len(keys))
	for len(keys) > 0 {
		chunk := keys[:min(len(keys), rowsPerStatement)]
		keys = keys[len(chunk):]
		q := make([]byte, 0, 96+len(chunk)*64)
		q = append(q, "INSERT INTO insight_partner_seen (day, visitor, partner, kind, what) VALUES "...)
		for i, s := range chunk {
			r := row{s.key.day.String(), s.key.partner, s.key.kind.String(), int64(s.v), s.what}
			if !literal(r.partner) {
				return nil, fmt.Errorf("insights: %q is not a partner slug", r.partner)
			}
			byRow[r] = s
			if i > 0 {
				q = append(q, ',')
			}
			q = fmt.Appendf(q, "('%s',%d,'%s','%s',%d)", r.day, r.v, r.partner, r.kind, r.what)
		}
		q = append(q, " ON CONFLICT (day, visitor, partner, kind, what) DO NOTHING RETURNING day, visitor, partner, kind, what"...)
		rs, err := tx.Query(ctx, string(q))
		if err != nil {
			return nil, fmt.Errorf("insights: partner seen: %w", err)
		}
		for rs.Next() {
			var r row
			if err := rs.Scan(&r.day, &r.v, &r.partner, &r.kind, &r.what); err != nil {
				rs.Close()
				return nil, fmt.Errorf("insights: partner seen: %w", err)
			}
			s, ok := byRow[r]
			if !ok {
				continue
			}
			f := b.fresh[s]
			out[s.key] += f.n
			if f.shown > 0 {
				out[partnerKey{s.key.day, s.key.partner, PartnerStoresShown}] += f.shown
			}
		}
		rs.Close()
		if err := rs.Err(); err != nil {
			return nil, fmt.Errorf("insights: partner seen: %w", err)
		}
	}
	return out, nil
}

// writePartners upserts the partner sums, in key order (see write).
func writePartners(ctx context.Context, tx *db.Tx, m map[partnerKey]int64) error {
	var rows [][]any
	for _, k := range sortedKeys(m, func(a, b partnerKey) int {
		return cmp.Or(cmp.Compare(a.partner, b.partner), cmp.Compare(a.day, b.day), cmp.Compare(a.kind.String(), b.kind.String()))
	}) {
		rows = append(rows, []any{k.day.String(), k.partner, k.kind.String(), m[k]})
	}
	return upsert(ctx, tx, "insight_partner_days (day, partner, kind, events)", "partner, day, kind",
		"events = insight_partner_days.events + excluded.events", rows)
}

// PartnerMonth is a partner's counts of one calendar month (UTC).
type PartnerMonth struct {
	Month       string `json:"month"` // YYYY-MM
	Views       int64  `json:"views"`
	Searches    int64  `json:"searches"`
	StoresShown int64  `json:"stores_shown"`
	Panels      int64  `json:"panels"`
	Directions  int64  `json:"directions"`
	Buy         int64  `json:"buy"`
}

// PartnerReport is a partner's counts of each of the months months up
// to and including the one of now, newest first.
func PartnerReport(ctx context.Context, q db.Querier, partner string, now time.Time, months int) ([]PartnerMonth, error) {
	if months < 1 || months > Retention {
		return nil, apperr.Invalidf("months must be from 1 to %d", Retention)
	}
	end := time.Date(now.UTC().Year(), now.UTC().Month(), 1, 0, 0, 0, 0, time.UTC)
	start := end.AddDate(0, -(months - 1), 0)
	out := make([]PartnerMonth, months)
	index := map[string]*PartnerMonth{}
	for i := range out {
		m := end.AddDate(0, -i, 0).Format("2006-01")
		out[i].Month = m
		index[m] = &out[i]
	}
	rows, err := q.Query(ctx, `SELECT day, kind, events FROM insight_partner_days WHERE partner = $1 AND day >= $2`,
		partner, start.Format(time.DateOnly))
	if err != nil {
		return nil, fmt.Errorf("partner report: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var d, k string
		var n int64
		if err := rows.Scan(&d, &k, &n); err != nil {
			return nil, fmt.Errorf("partner report: %w", err)
		}
		m, ok := index[d[:min(len(d), 7)]]
		if !ok {
			continue
		}
		field := map[string]*int64{"view": &m.Views, "search": &m.Searches, "stores_shown": &m.StoresShown,
			"panel": &m.Panels, "directions": &m.Directions, "buy": &m.Buy}[k]
		if field != nil {
			*field += n
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("partner report: %w", err)
	}
	return out, nil
}
