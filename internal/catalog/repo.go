package catalog

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"locator/internal/apperr"
	"locator/internal/db"
	"locator/internal/tabfile"
)

// Repo reads and writes the catalogue (the products table).
type Repo struct {
	db     *db.DB
	Limits Limits // of an imported file
}

// NewRepo returns the catalogue of d.
func NewRepo(d *db.DB) *Repo { return &Repo{db: d, Limits: DefaultLimits} }

// Report is what an import did.
type Report struct {
	Format  Format             `json:"format"`
	Created int                `json:"created"`
	Updated int                `json:"updated"`
	Failed  int                `json:"failed"`
	Errors  []tabfile.RowError `json:"errors"` // the first tabfile.MaxRowErrors, by line
}

// Import reads a catalogue file (format "" sniffs it) and writes its
// products in one transaction: a product whose id is in the catalogue is
// updated, a row without an id updates the product with its GTIN, any
// other row creates a product. Rows that cannot be read or would take a
// GTIN another product holds are refused and listed; the others are
// written together or, on any failure, not at all.
func (r *Repo) Import(ctx context.Context, rd io.Reader, format Format) (*Report, error) {
	rows, errs, format, err := read(rd, format, r.Limits)
	if err != nil {
		return nil, apperr.Invalidf("%s", err.Error())
	}
	return r.write(ctx, rows, errs, format)
}

// Record is one product given as a catalogue file's row: its values by
// column (Columns; other keys are ignored), as the file would write them.
type Record map[string]string

// ImportRecords is Import for rows made in code (the marketplace's
// products, internal/medusa): each record is checked by the file's rules
// and refused with its position from 1 (Line), the good ones written in
// one transaction.
func (r *Repo) ImportRecords(ctx context.Context, recs []Record) (*Report, error) {
	c := newCollector(r.Limits.Rows)
	for i, rec := range recs {
		fields := make(map[string]string, len(Columns))
		for k, v := range rec {
			if col := columnOf(k); col != "" {
				fields[col] = strings.TrimSpace(v)
			}
		}
		if err := c.add(i+1, fields); err != nil {
			return nil, apperr.New(apperr.TooLarge, "%s", err.Error())
		}
	}
	return r.write(ctx, c.rows, c.errs, JSON)
}

// write writes the good rows of an import in one transaction and reports.
func (r *Repo) write(ctx context.Context, rows []row, errs rowErrors, format Format) (*Report, error) {
	rep := &Report{Format: format}
	now := time.Now().UTC()
	err := r.db.InTx(ctx, func(tx *db.Tx) error {
		known, err := loadKeys(ctx, tx)
		if err != nil {
			return err
		}
		stmt, err := tx.Prepare(ctx, upsertSQL)
		if err != nil {
			return fmt.Errorf("prepare product upsert: %w", err)
		}
		defer stmt.Close()
		for _, w := range rows {
			p := w.p
			if p.ProductID == p.GTIN { // no id in the file: the product with that GTIN, if any
				if k, ok := known.byGTIN[p.GTIN]; ok {
					p.ProductID = k
				}
			}
			old, exists := known.byID[p.ProductID]
			if owner, ok := known.byGTIN[p.GTIN]; ok && p.GTIN != "" && owner != p.ProductID {
				errs.add(w.line, fmt.Sprintf("GTIN %s belongs to product %q", p.GTIN, owner))
				continue
			}
			if _, err := stmt.ExecContext(ctx, p.ProductID, p.GTIN, p.Brand, p.Name, string(p.Kind), string(p.Flavour),
				p.Nicotine, string(p.NicotineUnit), p.IsZeroNicApplicable, p.IsCBDApplicable, p.Image, p.Handle,
				string(p.FDAStatus), now); err != nil {
				return fmt.Errorf("write product %q (line %d): %w", p.ProductID, w.line, err)
			}
			if exists {
				rep.Updated++
				if old.gtin != "" && old.gtin != p.GTIN {
					delete(known.byGTIN, old.gtin)
				}
			} else {
				rep.Created++
			}
			known.byID[p.ProductID] = key{gtin: p.GTIN}
			if p.GTIN != "" {
				known.byGTIN[p.GTIN] = p.ProductID
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.SliceStable(errs.list, func(i, j int) bool { return errs.list[i].Line < errs.list[j].Line })
	rep.Failed, rep.Errors = errs.failed, errs.list
	if rep.Errors == nil {
		rep.Errors = []tabfile.RowError{}
	}
	return rep, nil
}

const upsertSQL = `INSERT INTO products (product_id, gtin, brand, name, kind, flavour, nicotine, nicotine_unit,
	is_zero_nic_applicable, is_cbd_applicable, image, handle, fda_status, created_at, updated_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14)
ON CONFLICT (product_id) DO UPDATE SET gtin = excluded.gtin, brand = excluded.brand, name = excluded.name,
	kind = excluded.kind, flavour = excluded.flavour, nicotine = excluded.nicotine, nicotine_unit = excluded.nicotine_unit,
	is_zero_nic_applicable = excluded.is_zero_nic_applicable, is_cbd_applicable = excluded.is_cbd_applicable,
	image = excluded.image, handle = excluded.handle, fda_status = excluded.fda_status, updated_at = excluded.updated_at`

type key struct {
	id   int64
	gtin string
}

// keys are the catalogue's ids and GTINs.
type keys struct {
	byID   map[string]key    // product_id -> its row
	byGTIN map[string]string // GTIN-14 -> product_id
}

func loadKeys(ctx context.Context, q db.Querier) (*keys, error) {
	rows, err := q.Query(ctx, "SELECT id, product_id, gtin FROM products")
	if err != nil {
		return nil, fmt.Errorf("read product ids: %w", err)
	}
	defer rows.Close()
	k := &keys{byID: map[string]key{}, byGTIN: map[string]string{}}
	for rows.Next() {
		var id int64
		var pid, gtin string
		if err := rows.Scan(&id, &pid, &gtin); err != nil {
			return nil, fmt.Errorf("read product ids: %w", err)
		}
		k.byID[pid] = key{id: id, gtin: gtin}
		if gtin != "" {
			k.byGTIN[gtin] = pid
		}
	}
	return k, rows.Err()
}

// Index finds products by the keys a stock feed names them with.
type Index struct{ k *keys }

// Index reads every product's keys (a few dozen bytes each).
func (r *Repo) Index(ctx context.Context) (*Index, error) {
	k, err := loadKeys(ctx, r.db)
	if err != nil {
		return nil, err
	}
	return &Index{k: k}, nil
}

// ByID returns the database key and GTIN of the product with product id
// pid.
func (x *Index) ByID(pid string) (id int64, gtin string, ok bool) {
	k, ok := x.k.byID[pid]
	return k.id, k.gtin, ok
}

// ByGTIN returns the database key of the product with the GTIN-14 gtin.
func (x *Index) ByGTIN(gtin string) (id int64, ok bool) {
	pid, ok := x.k.byGTIN[gtin]
	if !ok {
		return 0, false
	}
	return x.k.byID[pid].id, true
}

// ErrNotFound is the error of a product that is not in the catalogue.
var ErrNotFound = apperr.New(apperr.NotFound, "no such product")

const selectProduct = `SELECT id, product_id, gtin, brand, name, kind, flavour, nicotine, nicotine_unit,
	is_zero_nic_applicable, is_cbd_applicable, image, handle, fda_status, updated_at FROM products`

func scan(sc db.Scanner) (*Product, error) {
	p := &Product{}
	var nic sql.NullFloat64
	err := sc.Scan(&p.ID, &p.ProductID, &p.GTIN, &p.Brand, &p.Name, &p.Kind, &p.Flavour, &nic, &p.NicotineUnit,
		&p.IsZeroNicApplicable, &p.IsCBDApplicable, &p.Image, &p.Handle, &p.FDAStatus, &p.UpdatedAt)
	if nic.Valid {
		p.Nicotine = &nic.Float64
	}
	return p, err
}

// Get returns the product with product id pid, or ErrNotFound.
func (r *Repo) Get(ctx context.Context, pid string) (*Product, error) {
	p, err := scan(r.db.QueryRow(ctx, selectProduct+" WHERE product_id = $1", pid))
	return db.Found(p, err, ErrNotFound, "read product")
}

// GetByGTIN returns the product with a GTIN (any length; it is
// normalised), or ErrNotFound.
func (r *Repo) GetByGTIN(ctx context.Context, gtin string) (*Product, error) {
	g, err := NormaliseGTIN(gtin)
	if err != nil {
		return nil, apperr.Invalidf("%s", err.Error())
	}
	p, err := scan(r.db.QueryRow(ctx, selectProduct+" WHERE gtin = $1", g))
	return db.Found(p, err, ErrNotFound, "read product")
}

// Count returns how many products the catalogue holds.
func (r *Repo) Count(ctx context.Context) (int, error) {
	var n int
	if err := r.db.QueryRow(ctx, "SELECT COUNT(*) FROM products").Scan(&n); err != nil {
		return 0, fmt.Errorf("count products: %w", err)
	}
	return n, nil
}

// DeleteIn removes the product with product id pid from the catalogue
// inside q (a transaction of inventory.Repo.IfUnstocked: removing a
// product removes the stock rows that name it), and reports whether there
// was one. A search replica sees the catalogue's count move (Signature)
// and drops it.
func DeleteIn(ctx context.Context, q db.Querier, pid string) (bool, error) {
	res, err := q.Exec(ctx, `DELETE FROM products WHERE product_id = $1`, pid)
	if err != nil {
		return false, fmt.Errorf("remove product %s: %w", pid, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("remove product %s: %w", pid, err)
	}
	return n > 0, nil
}

// IsNotFound reports whether err is ErrNotFound.
func IsNotFound(err error) bool { return errors.Is(err, ErrNotFound) }

// ProductIDs returns the product ids of the products with the database
// keys ids (a key that is no product is left out): what other features
// show of their own rows that refer to products.
func (r *Repo) ProductIDs(ctx context.Context, ids []int64) (map[int64]string, error) {
	m := make(map[int64]string, len(ids))
	if len(ids) == 0 {
		return m, nil
	}
	rows, err := r.db.Query(ctx, "SELECT id, product_id FROM products WHERE id IN ("+db.IDList(r.db, 1)+")", db.IDs(ids))
	if err != nil {
		return nil, fmt.Errorf("read product ids: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var pid string
		if err := rows.Scan(&id, &pid); err != nil {
			return nil, fmt.Errorf("read product ids: %w", err)
		}
		m[id] = pid
	}
	return m, rows.Err()
}

// All returns every product of the catalogue, by database key: what a
// search replica keeps in memory to suggest products.
func (r *Repo) All(ctx context.Context) ([]*Product, error) {
	rows, err := r.db.Query(ctx, selectProduct+" ORDER BY id")
	if err != nil {
		return nil, fmt.Errorf("read products: %w", err)
	}
	defer rows.Close()
	var out []*Product
	for rows.Next() {
		p, err := scan(rows)
		if err != nil {
			return nil, fmt.Errorf("read products: %w", err)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// Signature changes whenever a product is added or changed (the count and
// the newest change): a search replica polls it and re-reads the
// catalogue (All) when it moves.
func (r *Repo) Signature(ctx context.Context) (string, error) {
	var n int64
	var newest sql.NullString
	if err := r.db.QueryRow(ctx, "SELECT COUNT(*), MAX(updated_at) FROM products").Scan(&n, &newest); err != nil {
		return "", fmt.Errorf("read catalogue signature: %w", err)
	}
	return fmt.Sprintf("%d/%s", n, newest.String), nil
}
