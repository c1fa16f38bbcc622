package catalog

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"locator/internal/apperr"
	"locator/internal/db"
)

// Fields writes p as a row of the catalogue file (by Columns), so that an
// edit or a product made in code passes through the file's rules.
func (p *Product) Fields() map[string]string {
	return map[string]string{
		"id": p.ProductID, "gtin": p.GTIN, "brand": p.Brand, "name": p.Name, "kind": string(p.Kind),
		"flavour": string(p.Flavour), "nicotine": p.NicotineText(),
		"is_zero_nic_applicable": strconv.FormatBool(p.IsZeroNicApplicable),
		"is_cbd_applicable":      strconv.FormatBool(p.IsCBDApplicable),
		"image":                  p.Image, "handle": p.Handle, "fda_status": string(p.FDAStatus),
	}
}

// Check returns p as the catalogue file's rules read it (GTIN as GTIN-14,
// kind and flavour normalised), or the first rule it breaks.
func Check(p *Product) (*Product, error) {
	if strings.TrimSpace(p.ProductID) == "" {
		return nil, fmt.Errorf("id is empty")
	}
	return parse(p.Fields())
}

// Put writes products made in code (the demo catalogue) in one
// transaction: each is checked as a file's row would be, then created or,
// when its id is in the catalogue, updated. A product breaking a rule or
// taking another's GTIN writes nothing.
func (r *Repo) Put(ctx context.Context, ps []*Product) error {
	checked := make([]*Product, len(ps))
	for i, p := range ps {
		c, err := Check(p)
		if err != nil {
			return apperr.Invalidf("product %q: %s", p.ProductID, err.Error())
		}
		checked[i] = c
	}
	now := time.Now().UTC()
	return r.db.InTx(ctx, func(tx *db.Tx) error {
		stmt, err := tx.Prepare(ctx, upsertSQL)
		if err != nil {
			return fmt.Errorf("prepare product upsert: %w", err)
		}
		defer stmt.Close()
		for _, p := range checked {
			if _, err := stmt.ExecContext(ctx, p.ProductID, p.GTIN, p.Brand, p.Name, string(p.Kind), string(p.Flavour),
				p.Nicotine, string(p.NicotineUnit), p.IsZeroNicApplicable, p.IsCBDApplicable, p.Image, p.Handle,
				string(p.FDAStatus), now); err != nil {
				return fmt.Errorf("write product %q: %w", p.ProductID, err)
			}
		}
		return nil
	})
}

// Search limits.
const (
	MaxSearchText  = 100
	MaxSearchLimit = 100
)

// Search returns a page of the products whose name, brand, id or GTIN
// holds q (case does not matter; digits also match inside a GTIN, so the
// UPC-A form finds the stored GTIN-14), by brand, name and id, and how many
// match in all. An empty q lists the catalogue.
func (r *Repo) Search(ctx context.Context, q string, limit, offset int) ([]*Product, int, error) {
	if len([]rune(q)) > MaxSearchText {
		return nil, 0, apperr.Invalidf("q is longer than %d characters", MaxSearchText)
	}
	if limit < 1 || limit > MaxSearchLimit {
		return nil, 0, apperr.Invalidf("limit must be from 1 to %d", MaxSearchLimit)
	}
	if offset < 0 || offset > 1_000_000 {
		return nil, 0, apperr.Invalidf("offset must be from 0 to 1000000")
	}
	where, args := "", []any{}
	if q = strings.TrimSpace(q); q != "" {
		like := "%" + escapeLike(strings.ToLower(q)) + "%"
		digits := strings.Map(func(r rune) rune {
			if r == ' ' || r == '-' {
				return -1
			}
			return r
		}, q)
		args = append(args, like)
		where = ` WHERE LOWER(name) LIKE $1 ESCAPE '\' OR LOWER(brand) LIKE $1 ESCAPE '\' OR LOWER(product_id) LIKE $1 ESCAPE '\'`
		if digits != "" && strings.Trim(digits, "0123456789") == "" {
			args = append(args, "%"+digits+"%")
			where += " OR gtin LIKE $2"
		}
	}
	var total int
	if err := r.db.QueryRow(ctx, "SELECT COUNT(*) FROM products"+where, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count products: %w", err)
	}
	n := len(args)
	rows, err := r.db.Query(ctx, fmt.Sprintf("%s%s ORDER BY LOWER(brand), LOWER(name), product_id LIMIT $%d OFFSET $%d",
		selectProduct, where, n+1, n+2), append(args, limit, offset)...)
	ps, err := db.Collect(rows, err, "search products", scan)
	if err != nil {
		return nil, 0, err
	}
	out := make([]*Product, len(ps))
	for i := range ps {
		out[i] = &ps[i]
	}
	return out, total, nil
}

func escapeLike(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// Change is one field an edit changed, as the catalogue file writes it.
type Change struct {
	Old string `json:"old"`
	New string `json:"new"`
}

// Changes lists the fields that differ between two products, by column.
func Changes(before, after *Product) map[string]Change {
	b, a := before.Fields(), after.Fields()
	m := map[string]Change{}
	for _, c := range Columns {
		if b[c] != a[c] {
			m[c] = Change{Old: b[c], New: a[c]}
		}
	}
	return m
}

// Recorder writes what an edit did inside its transaction (the audit log);
// an error rolls the edit back.
type Recorder func(ctx context.Context, q db.Querier, before, after *Product) error

// Update edits the product with product id pid: patch holds the fields to
// change, by the catalogue file's column names (or their aliases), as a
// JSON object gives them (string, number, boolean or null for empty). The
// product with its changes must pass the file's rules; the first rule it
// breaks is the error (apperr.Invalid, naming the field). An id or GTIN
// that another product holds is a conflict. record runs in the same
// transaction.
func (r *Repo) Update(ctx context.Context, pid string, patch map[string]any, record Recorder) (*Product, error) {
	var after *Product
	err := r.db.InTx(ctx, func(tx *db.Tx) error {
		before, err := scan(tx.QueryRow(ctx, selectProduct+" WHERE product_id = $1", pid))
		if before, err = db.Found(before, err, ErrNotFound, "read product"); err != nil {
			return err
		}
		fields, err := patchFields(patch)
		if err != nil {
			return err
		}
		f := before.Fields()
		for k, v := range fields {
			f[k] = v
		}
		if strings.TrimSpace(f["id"]) == "" {
			return apperr.Invalidf("id is empty")
		}
		if after, err = parse(f); err != nil {
			return apperr.Invalidf("%s", err.Error())
		}
		if after.ProductID != before.ProductID {
			var other int64
			err := tx.QueryRow(ctx, "SELECT COUNT(*) FROM products WHERE product_id = $1", after.ProductID).Scan(&other)
			if err != nil {
				return fmt.Errorf("look for product %q: %w", after.ProductID, err)
			}
			if other > 0 {
				return apperr.New(apperr.Conflict, "id %q belongs to another product", after.ProductID)
			}
		}
		if after.GTIN != "" && after.GTIN != before.GTIN {
			var owner string
			err := tx.QueryRow(ctx, "SELECT COALESCE(MAX(product_id), '') FROM products WHERE gtin = $1", after.GTIN).Scan(&owner)
			if err != nil {
				return fmt.Errorf("look for GTIN %s: %w", after.GTIN, err)
			}
			if owner != "" {
				return apperr.New(apperr.Conflict, "gtin %s belongs to product %q", after.GTIN, owner)
			}
		}
		after.ID, after.UpdatedAt = before.ID, time.Now().UTC().Truncate(time.Microsecond)
		if _, err := tx.Exec(ctx, `UPDATE products SET product_id = $1, gtin = $2, brand = $3, name = $4, kind = $5, flavour = $6,
			nicotine = $7, nicotine_unit = $8, is_zero_nic_applicable = $9, is_cbd_applicable = $10, image = $11, handle = $12,
			fda_status = $13, updated_at = $14 WHERE id = $15`,
			after.ProductID, after.GTIN, after.Brand, after.Name, string(after.Kind), string(after.Flavour), after.Nicotine,
			string(after.NicotineUnit), after.IsZeroNicApplicable, after.IsCBDApplicable, after.Image, after.Handle,
			string(after.FDAStatus), after.UpdatedAt, after.ID); err != nil {
			return fmt.Errorf("update product %q: %w", pid, err)
		}
		if record != nil {
			return record(ctx, tx, before, after)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return after, nil
}

// patchFields reads an edit's JSON object: known columns only, each a
// string, number, boolean or null.
func patchFields(patch map[string]any) (map[string]string, error) {
	if len(patch) == 0 {
		return nil, apperr.Invalidf("the edit changes no field (fields: %s)", strings.Join(Columns, ", "))
	}
	var unknown []string
	for k := range patch {
		if columnOf(k) == "" {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return nil, apperr.Invalidf("%s is not a product field (fields: %s)", clip(unknown[0]), strings.Join(Columns, ", "))
	}
	fields, bad := jsonFields(patch)
	if bad != "" {
		return nil, apperr.Invalidf("%s", bad)
	}
	return fields, nil
}
