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
// partner, kind (and store or searched cell) and day on a replica, like
// the store counts but without the cross-replica check of insight_seen: a
// visitor served by two replicas in one day may count twice.

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

// partnerCounts are the sums since the last flush and the day's set of
// what each visitor was counted for.
type partnerCounts struct {
	mu      sync.Mutex
	sums    map[partnerKey]int64
	seen    map[partnerSeen]struct{}
	seenDay day
}

// CountPartner counts n events of kind k for partner (a slug) once per
// visitor and day; what tells events of one kind apart (a store's id, a
// search's cell; 0 for a view). It reports whether they counted.
func (c *Counter) CountPartner(v Visitor, partner string, k PartnerKind, what int64, n int64) bool {
	if c == nil || c.off || partner == "" || !literal(partner) || k >= numPartnerKinds || n <= 0 {
		return false
	}
	today := dayOf(c.now())
	key := partnerKey{today, partner, k}
	p := &c.partners
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.sums == nil {
		p.sums = map[partnerKey]int64{}
	}
	if v != 0 {
		if p.seenDay != today || p.seen == nil {
			p.seen, p.seenDay = map[partnerSeen]struct{}{}, today
		}
		s := partnerSeen{v, key, what}
		if _, ok := p.seen[s]; ok || len(p.seen) >= MaxSeen {
			return false
		}
		p.seen[s] = struct{}{}
	}
	p.sums[key] += n
	return true
}

// CountPartnerSearch counts a widget's search (once per visitor, partner,
// ~1 km cell and day) and, with it, the stores its first page showed.
func (c *Counter) CountPartnerSearch(v Visitor, partner string, lat, lon float64, shown int) {
	what := int64(cell(lat))<<32 | int64(uint32(cell(lon)))
	if c.CountPartner(v, partner, PartnerSearch, what, 1) && shown > 0 {
		// Its stores once with it, whatever the visitor key says.
		c.CountPartner(0, partner, PartnerStoresShown, 0, int64(shown))
	}
}

// takePartners empties the partner sums.
func (c *Counter) takePartners() map[partnerKey]int64 {
	c.partners.mu.Lock()
	defer c.partners.mu.Unlock()
	out := c.partners.sums
	c.partners.sums = nil
	return out
}

// putBackPartners returns unwritten sums for the next flush.
func (c *Counter) putBackPartners(m map[partnerKey]int64) {
	c.partners.mu.Lock()
	defer c.partners.mu.Unlock()
	if c.partners.sums == nil {
		c.partners.sums = map[partnerKey]int64{}
	}
	for k, n := range m {
		c.partners.sums[k] += n
	}
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
