package productlaw

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"locator/internal/apperr"
	"locator/internal/db"
	"locator/internal/rules"
)

// Repo keeps the loaded state directories (tables product_directory and
// product_directory_imports).
type Repo struct {
	db     *db.DB
	Limits Limits
	Now    func() time.Time // when an import ran (time.Now)
}

// NewRepo returns the directories kept in d.
func NewRepo(d *db.DB) *Repo { return &Repo{db: d, Limits: DefaultLimits, Now: time.Now} }

// Definition is the shipped definition of state (a USPS code or a name).
func Definition(state string) (*State, error) {
	ss, err := States()
	if err != nil {
		return nil, err
	}
	s, ok := ss[rules.StateCode(state)]
	if !ok {
		return nil, apperr.Invalidf("no directory definition for state %q (there are: %s)", state, strings.Join(StateCodes(), ", "))
	}
	return s, nil
}

// Import reads a state's directory file (Read) and replaces that state's
// list with its good rows in one transaction. A file with refused rows
// writes nothing unless skipBad: the list says what may be sold, so a row
// left out would make its product read as unlawful. A file without one
// good row is refused whole (it would forbid every vapour product).
func (r *Repo) Import(ctx context.Context, state string, rd io.Reader, fileName string, skipBad bool) (*Report, error) {
	s, err := Definition(state)
	if err != nil {
		return nil, err
	}
	entries, rep, err := s.Read(rd, r.Limits)
	if err != nil {
		return nil, err
	}
	if len(entries) == 0 {
		return nil, apperr.Invalidf("no row of the file could be read (%d refused): %s's directory is left as it was", rep.Failed, s.Name)
	}
	if rep.Failed > 0 && !skipBad {
		return rep, nil
	}
	if err := r.write(ctx, s, fileName, entries, rep); err != nil {
		return nil, err
	}
	rep.Written = true
	return rep, nil
}

// batchRows is how many rows one statement writes (11 values each).
const batchRows = 500

func (r *Repo) write(ctx context.Context, s *State, fileName string, entries []Entry, rep *Report) error {
	now := r.Now().UTC()
	return r.db.InTx(ctx, func(tx *db.Tx) error {
		var importID int64
		if err := tx.QueryRow(ctx, `INSERT INTO product_directory_imports (state, file_name, row_count, error_count, imported_at)
			VALUES ($1, $2, $3, $4, $5) RETURNING id`, s.State, clipName(fileName), len(entries), rep.Failed, now).Scan(&importID); err != nil {
			return fmt.Errorf("record directory import: %w", err)
		}
		res, err := tx.Exec(ctx, `DELETE FROM product_directory WHERE state = $1`, s.State)
		if err != nil {
			return fmt.Errorf("remove %s's directory: %w", s.State, err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return fmt.Errorf("remove %s's directory: %w", s.State, err)
		}
		rep.Removed = int(n)
		for len(entries) > 0 {
			batch := entries[:min(len(entries), batchRows)]
			entries = entries[len(batch):]
			var q strings.Builder
			q.WriteString(`INSERT INTO product_directory (state, gtin, brand, name, name_key, manufacturer, category, flavour, submission, line, import_id) VALUES `)
			args := make([]any, 0, 11*len(batch))
			for i, e := range batch {
				if i > 0 {
					q.WriteByte(',')
				}
				b := len(args)
				fmt.Fprintf(&q, "($%d,$%d,$%d,$%d,$%d,$%d,$%d,$%d,$%d,$%d,$%d)", b+1, b+2, b+3, b+4, b+5, b+6, b+7, b+8, b+9, b+10, b+11)
				args = append(args, s.State, e.GTIN, e.Brand, e.Name, e.NameKey, e.Manufacturer, e.Category, e.Flavour, e.Submission, e.Line, importID)
			}
			if _, err := tx.Exec(ctx, q.String(), args...); err != nil {
				return fmt.Errorf("write %s's directory: %w", s.State, err)
			}
		}
		return nil
	})
}

func clipName(s string) string {
	if r := []rune(s); len(r) > 200 {
		return string(r[:200])
	}
	return s
}

// Directories reads every loaded directory whose state has a definition
// (a state whose definition was removed no longer binds).
func (r *Repo) Directories(ctx context.Context) (*Directories, error) {
	defs, err := States()
	if err != nil {
		return nil, err
	}
	rows, err := r.db.Query(ctx, `SELECT state, gtin, name_key FROM product_directory`)
	type row struct{ state, gtin, key string }
	all, err := db.Collect(rows, err, "read product directories", func(sc db.Scanner) (*row, error) {
		var w row
		return &w, sc.Scan(&w.state, &w.gtin, &w.key)
	})
	if err != nil {
		return nil, err
	}
	d := &Directories{states: map[string]*directory{}}
	for _, w := range all {
		dir := d.states[w.state]
		if dir == nil {
			def, ok := defs[w.state]
			if !ok {
				continue
			}
			dir = &directory{rule: def.Rule, gtins: map[string]struct{}{}, names: map[string]struct{}{}}
			d.states[w.state] = dir
		}
		if w.gtin != "" {
			dir.gtins[w.gtin] = struct{}{}
		}
		dir.names[w.key] = struct{}{}
	}
	return d, nil
}

// LastImport is the id of the latest directory import, 0 when none: a
// replica that holds Directories reloads them when it changes.
func (r *Repo) LastImport(ctx context.Context) (int64, error) {
	var id int64
	if err := r.db.QueryRow(ctx, `SELECT COALESCE(MAX(id), 0) FROM product_directory_imports`).Scan(&id); err != nil {
		return 0, fmt.Errorf("read the last directory import: %w", err)
	}
	return id, nil
}
