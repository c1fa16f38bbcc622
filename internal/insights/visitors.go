package insights

// Counting once per visitor across replicas. Each replica keeps the day's
// (visitor, what) keys it has seen in memory and counts nothing for a key
// it saw before; a key new to it is written to insight_seen at the next
// flush (INSERT ... ON CONFLICT DO NOTHING RETURNING), and counts only if
// the row is new there too, i.e. no replica counted it yet. For this the
// visitor hash must agree across replicas: the day's salt is a row of
// insight_salts, made by whichever replica asks first and read by all.
// Both tables hold today and yesterday only (an event of 23:59 may be
// flushed after midnight); older rows are deleted by the day's first
// flush. No address, network or user agent is written: a hash of a
// network under a salt that is deleted the day after.

import (
	"context"
	"crypto/cipher"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strconv"
	"time"

	"locator/internal/db"
)

// LoadSalts reads (making them when missing) the salts of today and
// tomorrow, so every replica hashes visitors alike, midnight included.
// Run calls it before counting starts and each flush when tomorrow's is
// not loaded yet.
func (s *Service) LoadSalts(ctx context.Context) error {
	today := dayOf(s.now())
	m := map[day]cipher.Block{}
	for _, d := range []day{today, today + 1} {
		var fresh [32]byte
		if _, err := rand.Read(fresh[:]); err != nil {
			return fmt.Errorf("insights: salt: %w", err)
		}
		if _, err := s.DB.Exec(ctx, "INSERT INTO insight_salts (day, salt) VALUES ($1, $2) ON CONFLICT (day) DO NOTHING",
			d.String(), hex.EncodeToString(fresh[:])); err != nil {
			return fmt.Errorf("insights: salt: %w", err)
		}
		var h string
		if err := s.DB.QueryRow(ctx, "SELECT salt FROM insight_salts WHERE day = $1", d.String()).Scan(&h); err != nil {
			return fmt.Errorf("insights: salt: %w", err)
		}
		b, err := hex.DecodeString(h)
		if err != nil || len(b) != 32 {
			return fmt.Errorf("insights: the salt of %s is damaged", d)
		}
		m[d] = newBlock([32]byte(b))
	}
	s.shared.Store(&m)
	return nil
}

// saltsLoaded says whether tomorrow's salt is in memory.
func (s *Service) saltsLoaded() bool {
	m := s.shared.Load()
	if m == nil {
		return false
	}
	_, ok := (*m)[dayOf(s.now())+1]
	return ok
}

// freshKey identifies a fresh key.
type freshKey struct {
	day  day
	v    Visitor
	what int64
}

// settle writes b's fresh keys to insight_seen and returns b's sums plus
// one count for each key no replica had: a visitor of the day, a store
// event (and its unique), a search of a cell. b is not changed (a failed
// flush puts it back whole).
func settle(ctx context.Context, tx *db.Tx, b *batch) (*batch, error) {
	out := newBatch()
	out.merge(b.stores, b.cells, b.days)
	if len(b.fresh) == 0 {
		return out, nil
	}
	byKey := make(map[freshKey]fresh, len(b.fresh))
	for _, f := range b.fresh {
		byKey[freshKey{f.day, f.v, f.what}] = f
	}
	rows, err := capSearches(ctx, tx, b.fresh)
	if err != nil {
		return nil, err
	}
	days := map[string]day{} // a flush holds a day or two: parse each once
	for len(rows) > 0 {
		chunk := rows[:min(len(rows), rowsPerStatement)]
		rows = rows[len(chunk):]
		q := make([]byte, 0, 64+len(chunk)*48)
		q = append(q, "INSERT INTO insight_seen (day, visitor, what) VALUES "...)
		for i, f := range chunk {
			if i > 0 {
				q = append(q, ',')
			}
			q = append(q, "('"...)
			q = append(q, f.day.String()...)
			q = append(q, "',"...)
			q = strconv.AppendInt(q, int64(f.v), 10)
			q = append(q, ',')
			q = strconv.AppendInt(q, f.what, 10)
			q = append(q, ')')
		}
		q = append(q, " ON CONFLICT (day, visitor, what) DO NOTHING RETURNING day, visitor, what"...)
		rs, err := tx.Query(ctx, string(q))
		if err != nil {
			return nil, fmt.Errorf("insights: seen: %w", err)
		}
		for rs.Next() {
			var ds string
			var v, what int64
			if err := rs.Scan(&ds, &v, &what); err != nil {
				rs.Close()
				return nil, fmt.Errorf("insights: seen: %w", err)
			}
			d, ok := days[ds]
			if !ok {
				t, err := time.Parse(time.DateOnly, ds)
				if err != nil {
					rs.Close()
					return nil, fmt.Errorf("insights: seen day %q: %w", ds, err)
				}
				d = dayOf(t)
				days[ds] = d
			}
			f, ok := byKey[freshKey{d, Visitor(v), what}]
			if !ok {
				continue
			}
			out.count(f)
		}
		rs.Close()
		if err := rs.Err(); err != nil {
			return nil, fmt.Errorf("insights: seen: %w", err)
		}
	}
	return out, nil
}

// capSearches leaves out the fresh searches of a visitor past
// MaxCellsPerVisitor places that day counting every replica's (each
// replica caps its own in memory; this caps their sum, up to two
// replicas flushing the same visitor at the same instant).
func capSearches(ctx context.Context, tx *db.Tx, keys []fresh) ([]fresh, error) {
	byDay := map[day]map[Visitor]int{} // searches counted so far
	for _, f := range keys {
		if f.what < 0 {
			if byDay[f.day] == nil {
				byDay[f.day] = map[Visitor]int{}
			}
			byDay[f.day][f.v] = 0
		}
	}
	if len(byDay) == 0 {
		return keys, nil
	}
	for d, counted := range byDay {
		vs := make([]Visitor, 0, len(counted))
		for v := range counted {
			vs = append(vs, v)
		}
		for len(vs) > 0 {
			chunk := vs[:min(len(vs), rowsPerStatement)]
			vs = vs[len(chunk):]
			q := make([]byte, 0, 128+len(chunk)*21)
			q = append(q, "SELECT visitor, COUNT(*) FROM insight_seen WHERE day = '"...)
			q = append(q, d.String()...)
			q = append(q, "' AND what < 0 AND visitor IN ("...)
			for i, v := range chunk {
				if i > 0 {
					q = append(q, ',')
				}
				q = strconv.AppendInt(q, int64(v), 10)
			}
			q = append(q, ") GROUP BY visitor"...)
			rs, err := tx.Query(ctx, string(q))
			if err != nil {
				return nil, fmt.Errorf("insights: searches per visitor: %w", err)
			}
			for rs.Next() {
				var v int64
				var n int
				if err := rs.Scan(&v, &n); err != nil {
					rs.Close()
					return nil, fmt.Errorf("insights: searches per visitor: %w", err)
				}
				counted[Visitor(v)] = n
			}
			rs.Close()
			if err := rs.Err(); err != nil {
				return nil, fmt.Errorf("insights: searches per visitor: %w", err)
			}
		}
	}
	out := make([]fresh, 0, len(keys))
	for _, f := range keys {
		if f.what < 0 {
			counted := byDay[f.day]
			if counted[f.v] >= MaxCellsPerVisitor {
				continue
			}
			counted[f.v]++
		}
		out = append(out, f)
	}
	return out, nil
}

// count adds what a fresh key new to every replica counts.
func (b *batch) count(f fresh) {
	switch {
	case f.what == 0:
		b.days[f.day]++
	case f.what > 0:
		k := storeKey{f.day, f.what >> 4, Kind(f.what & 15)}
		sm := b.stores[k]
		sm.events++
		sm.uniques++
		b.stores[k] = sm
	default:
		n := -f.what - 1
		filters := uint8(n % 64)
		n /= 64
		k := cellKey{f.day, int32(n/36001 - 9000), int32(n%36001 - 18000), filters}
		cs := b.cells[k]
		cs.searches++
		if f.zero {
			cs.zero++
		}
		b.cells[k] = cs
		for _, id := range f.page {
			k := storeKey{f.day, id, Impression}
			sm := b.stores[k]
			sm.events++
			b.stores[k] = sm
		}
	}
}

// pruneSeen deletes the keys and salts older than yesterday.
func pruneSeen(ctx context.Context, q db.Querier, now time.Time) error {
	yesterday := (dayOf(now) - 1).String()
	for _, table := range []string{"insight_seen", "insight_partner_seen", "insight_salts"} {
		if _, err := q.Exec(ctx, "DELETE FROM "+table+" WHERE day < $1", yesterday); err != nil {
			return fmt.Errorf("insights: prune %s: %w", table, err)
		}
	}
	return nil
}
