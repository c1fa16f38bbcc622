package licences

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"locator/internal/apperr"
	"locator/internal/db"
	"locator/internal/stores"
)

// SourceStatus is one source's state for `locator licences status` and /admin.
type SourceStatus struct {
	Source    string `json:"source"`
	Title     string `json:"title"`
	FileDate  string `json:"file_date"` // "" before the first import
	Rows      int    `json:"rows"`      // rows the newest file lists
	Errors    int    `json:"errors"`    // rows it refused
	Matched   int    `json:"matched"`   // rows applied to a store
	Ambiguous int    `json:"ambiguous"` // rows waiting for a moderator
	Unmatched int    `json:"unmatched"`
}

// Status reports every source, by name.
func (g *Registry) Status(ctx context.Context) ([]SourceStatus, error) {
	var out []SourceStatus
	for _, name := range SourceNames() {
		s := SourceStatus{Source: name, Title: g.sources[name].Title}
		err := g.db.QueryRow(ctx, `SELECT file_date, error_count FROM licence_files WHERE source = $1
			ORDER BY file_date DESC, id DESC LIMIT 1`, name).Scan(&s.FileDate, &s.Errors)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return nil, fmt.Errorf("status of %s: %w", name, err)
		}
		err = g.db.QueryRow(ctx, `SELECT COUNT(*),
			COALESCE(SUM(CASE WHEN EXISTS (SELECT 1 FROM licence_matches m WHERE m.row_id = r.id AND m.state IN ('sure', 'accepted', 'owner')) THEN 1 ELSE 0 END), 0),
			COALESCE(SUM(CASE WHEN NOT EXISTS (SELECT 1 FROM licence_matches m WHERE m.row_id = r.id AND m.state IN ('sure', 'accepted', 'owner'))
				AND EXISTS (SELECT 1 FROM licence_matches m WHERE m.row_id = r.id AND m.state = 'doubtful') THEN 1 ELSE 0 END), 0)
			FROM licence_rows r WHERE r.source = $1 AND r.present`, name).Scan(&s.Rows, &s.Matched, &s.Ambiguous)
		if err != nil {
			return nil, fmt.Errorf("status of %s: %w", name, err)
		}
		s.Unmatched = s.Rows - s.Matched - s.Ambiguous
		out = append(out, s)
	}
	return out, nil
}

// RowView is a registry row as /admin shows it.
type RowView struct {
	RowID     int64    `json:"row_id"`
	Source    string   `json:"source"`
	Number    string   `json:"number"`
	Name      string   `json:"name"` // the trade name where the registry has one
	Address   string   `json:"address"`
	City      string   `json:"city"`
	State     string   `json:"state"`
	Zip       string   `json:"postal_code"`
	Kind      string   `json:"kind"`
	Status    string   `json:"status"`
	Latitude  *float64 `json:"latitude"`
	Longitude *float64 `json:"longitude"`
}

func (r *storedRow) view() RowView {
	name := r.TradeName
	if name == "" {
		name = r.Name
	}
	return RowView{RowID: r.id, Source: r.source, Number: r.Number, Name: name, Address: r.Address, City: r.City,
		State: r.State, Zip: r.Zip, Kind: r.Kind, Status: r.Status, Latitude: r.Lat, Longitude: r.Lon}
}

// QueueItem is a doubtful match waiting for a moderator.
type QueueItem struct {
	MatchID    int64   `json:"match_id"`
	Confidence float64 `json:"confidence"`
	RowView
	StoreID      int64  `json:"store_id"`
	StoreName    string `json:"store_name"`
	StoreAddress string `json:"store_address"`
	StoreZip     string `json:"store_postal_code"`
}

// Queue lists the doubtful matches, most confident first (at most 200).
func (g *Registry) Queue(ctx context.Context) ([]QueueItem, error) {
	rs, err := g.db.Query(ctx, `SELECT m.id, m.confidence, m.row_id, m.store_id
		FROM licence_matches m JOIN licence_rows r ON r.id = m.row_id
		WHERE m.state = 'doubtful' AND r.present ORDER BY m.confidence DESC, m.id LIMIT 200`)
	if err != nil {
		return nil, fmt.Errorf("read queue: %w", err)
	}
	var out []QueueItem
	for rs.Next() {
		var it QueueItem
		if err := rs.Scan(&it.MatchID, &it.Confidence, &it.RowID, &it.StoreID); err != nil {
			rs.Close()
			return nil, fmt.Errorf("read queue: %w", err)
		}
		out = append(out, it)
	}
	rs.Close()
	if err := rs.Err(); err != nil {
		return nil, fmt.Errorf("read queue: %w", err)
	}
	ids := make([]int64, len(out))
	for i, it := range out {
		ids[i] = it.StoreID
	}
	named, err := stores.SummaryMap(ctx, g.db, ids)
	if err != nil {
		return nil, fmt.Errorf("read queue: %w", err)
	}
	for i := range out {
		st := named[out[i].StoreID]
		out[i].StoreName, out[i].StoreAddress, out[i].StoreZip = st.Name, st.Address, st.PostalCode
	}
	for i := range out {
		rows, err := loadRows(ctx, g.db, "r.id = $1", out[i].RowID)
		if err != nil {
			return nil, err
		}
		if len(rows) == 1 {
			out[i].RowView = rows[0].view()
		}
	}
	return out, nil
}

// Decide accepts or rejects a match; accepting one match of a row drops
// the row's other undecided ones. The decision is kept across imports.
func (g *Registry) Decide(ctx context.Context, matchID int64, accept bool, by string) error {
	return g.db.InTx(ctx, func(tx *db.Tx) error {
		var rowID, storeID int64
		err := tx.QueryRow(ctx, "SELECT row_id, store_id FROM licence_matches WHERE id = $1", matchID).Scan(&rowID, &storeID)
		if errors.Is(err, sql.ErrNoRows) {
			return apperr.New(apperr.NotFound, "match %d not found", matchID)
		}
		if err != nil {
			return fmt.Errorf("read match %d: %w", matchID, err)
		}
		state := stateRejected
		if accept {
			state = stateAccepted
		}
		changed := map[int64]bool{storeID: true}
		if _, err := tx.Exec(ctx, "UPDATE licence_matches SET state = $1, decided_by = $2, decided_at = $3 WHERE id = $4",
			state, by, g.Now().UTC(), matchID); err != nil {
			return fmt.Errorf("decide match %d: %w", matchID, err)
		}
		if accept {
			if err := g.dropUndecided(ctx, tx, rowID, changed); err != nil {
				return err
			}
		}
		_, err = g.apply(ctx, tx, changed)
		return err
	})
}

// dropUndecided deletes a row's matches nobody decided, noting their stores.
func (g *Registry) dropUndecided(ctx context.Context, tx *db.Tx, rowID int64, changed map[int64]bool) error {
	ms, err := loadMatches(ctx, tx, "m.row_id = $1", rowID)
	if err != nil {
		return err
	}
	for _, m := range ms {
		if !decided(m.state) {
			changed[m.storeID] = true
			if _, err := tx.Exec(ctx, "DELETE FROM licence_matches WHERE id = $1", m.id); err != nil {
				return fmt.Errorf("drop match: %w", err)
			}
		}
	}
	return nil
}

// Pick says row belongs to store storeID (another than the one proposed):
// the row's undecided matches go, the pick is an accepted match.
func (g *Registry) Pick(ctx context.Context, rowID, storeID int64, by string) error {
	return g.db.InTx(ctx, func(tx *db.Tx) error {
		if _, err := g.repo.GetTx(ctx, tx, storeID); err != nil {
			return err
		}
		rows, err := loadRows(ctx, tx, "r.id = $1", rowID)
		if err != nil {
			return err
		}
		if len(rows) == 0 {
			return apperr.New(apperr.NotFound, "registry row %d not found", rowID)
		}
		changed := map[int64]bool{storeID: true}
		if err := g.dropUndecided(ctx, tx, rowID, changed); err != nil {
			return err
		}
		if err := g.decide(ctx, tx, rowID, storeID, 1, stateAccepted, by); err != nil {
			return err
		}
		_, err = g.apply(ctx, tx, changed)
		return err
	})
}

// decide records a person's match of row to store (insert or update).
func (g *Registry) decide(ctx context.Context, tx *db.Tx, rowID, storeID int64, confidence float64, state, by string) error {
	now := g.Now().UTC()
	res, err := tx.Exec(ctx, "UPDATE licence_matches SET state = $1, decided_by = $2, decided_at = $3 WHERE row_id = $4 AND store_id = $5",
		state, by, now, rowID, storeID)
	if err != nil {
		return fmt.Errorf("record match: %w", err)
	}
	if n, _ := res.RowsAffected(); n > 0 {
		return nil
	}
	if _, err := tx.Exec(ctx, `INSERT INTO licence_matches (row_id, store_id, confidence, state, decided_by, decided_at)
		VALUES ($1, $2, $3, $4, $5, $6)`, rowID, storeID, confidence, state, by, now); err != nil {
		return fmt.Errorf("record match: %w", err)
	}
	return nil
}

// Unmatched lists the active licences without a store (no match, applied
// or waiting) within miles of a place, nearest first (at most 100): stores
// the catalogue lacks.
func (g *Registry) Unmatched(ctx context.Context, lat, lon, miles float64) ([]RowView, error) {
	if math.IsNaN(lat) || math.Abs(lat) > 90 || math.IsNaN(lon) || math.Abs(lon) > 180 || !(miles > 0 && miles <= 100) {
		return nil, apperr.Invalidf("latitude, longitude and a radius of up to 100 miles are required")
	}
	dLat := miles / 69.0
	dLon := miles / (69.0 * math.Max(0.01, math.Cos(lat*math.Pi/180)))
	rows, err := loadRows(ctx, g.db, `r.present AND NOT r.is_action AND r.status = 'active'
		AND r.latitude BETWEEN $1 AND $2 AND r.longitude BETWEEN $3 AND $4
		AND NOT EXISTS (SELECT 1 FROM licence_matches m WHERE m.row_id = r.id AND m.state <> 'rejected')`,
		lat-dLat, lat+dLat, lon-dLon, lon+dLon)
	if err != nil {
		return nil, err
	}
	type near struct {
		v RowView
		d float64
	}
	var ns []near
	for i := range rows {
		if d := metres(lat, lon, *rows[i].Lat, *rows[i].Lon) / 1609.344; d <= miles {
			ns = append(ns, near{rows[i].view(), d})
		}
	}
	slices.SortFunc(ns, func(a, b near) int { return int(math.Copysign(1, a.d-b.d)) })
	out := []RowView{}
	for i := 0; i < len(ns) && i < 100; i++ {
		out = append(out, ns[i].v)
	}
	return out, nil
}

// CreateStore creates an unpublished (pending) store from a registry row
// with a position, matched to it by the moderator; it then goes through the
// normal publication. ZoneAt, when set, gives its time zone.
func (g *Registry) CreateStore(ctx context.Context, rowID int64, by string) (int64, error) {
	var id int64
	err := g.db.InTx(ctx, func(tx *db.Tx) error {
		rows, err := loadRows(ctx, tx, "r.id = $1 AND NOT r.is_action", rowID)
		if err != nil {
			return err
		}
		if len(rows) == 0 {
			return apperr.New(apperr.NotFound, "registry row %d not found", rowID)
		}
		r := rows[0]
		if r.Lat == nil {
			return apperr.Invalidf("registry row %d has no position: create the store by hand", rowID)
		}
		v := r.view()
		s := &stores.Store{Name: titleCase(v.Name), Address: titleCase(r.Address), City: titleCase(r.City), State: r.State,
			PostalCode: zip5(r.Zip), Latitude: *r.Lat, Longitude: *r.Lon, GeoPrecision: "address", Status: stores.Pending}
		if g.ZoneAt != nil {
			s.TimeZone = g.ZoneAt(*r.Lat, *r.Lon)
		}
		if err := g.repo.Write(ctx, tx, func(w *stores.Writer) error { return w.Save(ctx, s) }); err != nil {
			return err
		}
		id = s.ID
		if err := g.decide(ctx, tx, rowID, id, 1, stateAccepted, by); err != nil {
			return err
		}
		_, err = g.apply(ctx, tx, map[int64]bool{id: true})
		return err
	})
	return id, err
}

// titleCase turns a registry's capitals into a name: "ORCHARD VAPES" is
// "Orchard Vapes", "W 23RD ST" is "W 23rd St".
func titleCase(s string) string {
	if strings.ToUpper(s) != s {
		return s
	}
	ws := strings.Fields(strings.ToLower(s))
	for i, w := range ws {
		if w[0] >= 'a' && w[0] <= 'z' {
			ws[i] = strings.ToUpper(w[:1]) + w[1:]
		}
	}
	return strings.Join(ws, " ")
}

// VerifyNumber checks an owner's licence number for store storeID: it
// verifies only when an active licence row with that number has the
// store's address (and ZIP code); the match is then applied as the owner's.
func (g *Registry) VerifyNumber(ctx context.Context, storeID int64, number string) (bool, error) {
	number = strings.TrimSpace(number)
	if number == "" || len(number) > 64 {
		return false, apperr.Invalidf("licence number must be 1 to 64 characters")
	}
	ok := false
	err := g.db.InTx(ctx, func(tx *db.Tx) error {
		s, err := g.repo.GetTx(ctx, tx, storeID)
		if err != nil {
			return err
		}
		rows, err := loadRows(ctx, tx, "r.present AND NOT r.is_action AND r.status = 'active' AND r.number = $1", number)
		if err != nil {
			return err
		}
		key := AddressKey(s.Address)
		for i := range rows {
			r := &rows[i]
			if key == "" || AddressKey(r.Address) != key || (r.Zip != "" && zip5(r.Zip) != zip5(s.PostalCode)) {
				continue
			}
			ok = true
			if err := g.decide(ctx, tx, r.id, storeID, 1, stateOwner, "owner"); err != nil {
				return err
			}
		}
		if !ok {
			return nil
		}
		_, err = g.apply(ctx, tx, map[int64]bool{storeID: true})
		return err
	})
	return ok, err
}
