package licences

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"locator/internal/apperr"
	"locator/internal/clock"
	"locator/internal/db"
	"locator/internal/stores"
	"locator/internal/tabfile"
)

// Registry keeps the registries' rows and their matches to stores.
type Registry struct {
	db      *db.DB
	repo    *stores.Repo
	sources map[string]*Source
	Now     clock.Clock // the date enforcement actions are judged on
	// ZoneAt gives the time zone of a store created from a registry row
	// (UTC when nil).
	ZoneAt func(lat, lon float64) string
	// Where the registries cover (coverage.go), and the newest file it read.
	coverage    atomic.Pointer[Coverage]
	coveredFile atomic.Int64
}

// New returns the registry over repo's database with the shipped source
// definitions. zoneAt gives the time zone of a store created from a
// registry row (nil: UTC); clk (nil: the system's) the date licences and
// enforcement actions are judged on.
func New(repo *stores.Repo, zoneAt func(lat, lon float64) string, clk clock.Clock) (*Registry, error) {
	ss, err := Sources()
	if err != nil {
		return nil, err
	}
	if clk == nil {
		clk = clock.System()
	}
	return &Registry{db: repo.DB(), repo: repo, sources: ss, Now: clk, ZoneAt: zoneAt}, nil
}

// Source returns a definition by name, or a user-facing error.
func (g *Registry) Source(name string) (*Source, error) {
	if s, ok := g.sources[name]; ok {
		return s, nil
	}
	return nil, apperr.Invalidf("unknown source %q (one of %s)", name, strings.Join(SourceNames(), ", "))
}

func (g *Registry) today() string { return g.Now().UTC().Format(time.DateOnly) }

// Recheck judges again, on today's date, the search flags of the stores
// whose licence expired or whose No-Tobacco-Sale Order started or ended
// since they were last written (stores.Repo.RecheckLicences), and returns
// how many changed. The server runs it every few minutes on every replica.
func (g *Registry) Recheck(ctx context.Context) (int, error) {
	return g.repo.RecheckLicences(ctx, g.today())
}

// Report says what an import did.
type Report struct {
	Source        string             `json:"source"`
	FileDate      string             `json:"file_date"`
	Rows          int                `json:"rows"`    // rows read and kept
	Errors        []tabfile.RowError `json:"errors"`  // rows refused, with the reason
	Added         int                `json:"added"`   // rows the source did not list before
	Changed       int                `json:"changed"` // rows whose status changed
	Gone          int                `json:"gone"`    // rows the previous file listed and this one does not
	Sure          int                `json:"sure"`    // rows matched to a store for sure (or by a moderator)
	Doubtful      int                `json:"doubtful"`
	Unmatched     int                `json:"unmatched"`
	StoresChanged int                `json:"stores_changed"` // stores whose licence or enforcement shown changed
}

// Import reads a registry file of source and makes it the source's rows:
// rows it lists are added or updated (a status change is kept in the
// row's history), rows it no longer lists are marked gone, and every row is
// matched again, keeping moderators' and owners' decisions. fileDate
// (YYYY-MM-DD) is the date the registry published the file; a file older
// than the newest imported one is refused. Rows that cannot be read are
// reported and left out; the rest is one transaction.
func (g *Registry) Import(ctx context.Context, source string, file io.Reader, fileName, fileDate string) (*Report, error) {
	return g.ImportLimited(ctx, source, file, fileName, fileDate, CommandLimits)
}

// ImportLimited is Import within limits: a file past them is refused
// (apperr.TooLarge) as soon as its reading passes them.
func (g *Registry) ImportLimited(ctx context.Context, source string, file io.Reader, fileName, fileDate string, limits Limits) (*Report, error) {
	src, err := g.Source(source)
	if err != nil {
		return nil, err
	}
	if err := g.checkFileDate(fileDate); err != nil {
		return nil, err
	}
	fileName = cleanFileName(fileName)
	res, err := ReadLimit(src, file, limits)
	if errors.Is(err, ErrTooLarge) {
		return nil, apperr.New(apperr.TooLarge, "%s is larger than %d MB", fileName, limits.Bytes>>20)
	}
	if errors.Is(err, ErrTooManyRows) {
		return nil, apperr.New(apperr.TooLarge, "%s has more than %d rows of the source", fileName, limits.Rows)
	}
	if err != nil {
		return nil, apperr.Invalidf("%s: %s", fileName, err.Error())
	}
	rows, errs := res.Rows, res.Errors
	rep := &Report{Source: source, FileDate: fileDate, Rows: len(rows), Errors: errs}
	if rep.Errors == nil {
		rep.Errors = []tabfile.RowError{}
	}
	err = g.db.InTx(ctx, func(tx *db.Tx) error {
		var last sql.NullString
		if err := tx.QueryRow(ctx, "SELECT MAX(file_date) FROM licence_files WHERE source = $1", source).Scan(&last); err != nil {
			return fmt.Errorf("newest file of %s: %w", source, err)
		}
		if last.Valid && fileDate < last.String {
			return apperr.New(apperr.Conflict, "a newer file of %s (%s) was imported already", source, last.String)
		}
		var fileID int64
		if err := tx.QueryRow(ctx, `INSERT INTO licence_files (source, file_date, file_name, row_count, error_count, imported_at)
			VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`, source, fileDate, fileName, len(rows), res.Failed, g.Now().UTC()).Scan(&fileID); err != nil {
			return fmt.Errorf("record file: %w", err)
		}
		if err := g.saveRows(ctx, tx, src, rows, fileID, fileDate, rep); err != nil {
			return err
		}
		changed, err := g.match(ctx, tx, src, rep)
		if err != nil {
			return err
		}
		rep.StoresChanged, err = g.apply(ctx, tx, changed)
		return err
	})
	if err != nil {
		return nil, err
	}
	// This replica sees the new coverage at once; should reading it fail,
	// the import stands and the next poll (cmd/locator/jobs.go, "licence coverage") reads it.
	_ = g.RefreshCoverage(ctx)
	return rep, nil
}

// The file date a registry file may carry: from minFileDate to tomorrow
// (a registry a time zone ahead). A later one would make every real file
// after it "older than the newest imported" and block the source for good.
const minFileDate = "1990-01-01"

func (g *Registry) checkFileDate(fileDate string) error {
	t, err := time.Parse(time.DateOnly, fileDate)
	if err != nil {
		return apperr.Invalidf("the file date must be YYYY-MM-DD")
	}
	if latest := g.Now().UTC().AddDate(0, 0, 1).Format(time.DateOnly); t.Format(time.DateOnly) > latest || fileDate < minFileDate {
		return apperr.Invalidf("the file date %s is not between %s and tomorrow (%s)", fileDate, minFileDate, latest)
	}
	return nil
}

// maxFileName bounds the file name kept with an import.
const maxFileName = 200

// cleanFileName keeps a file name that any engine stores: valid UTF-8,
// no NUL, at most maxFileName bytes ("upload" when nothing is left).
func cleanFileName(name string) string {
	name = strings.ReplaceAll(strings.ToValidUTF8(name, "\uFFFD"), "\x00", "")
	if len(name) > maxFileName {
		name = strings.ToValidUTF8(name[:maxFileName], "")
	}
	if strings.TrimSpace(name) == "" {
		return "upload"
	}
	return name
}

type known struct {
	id      int64
	status  string
	present bool
}

// saveRows writes the file's rows over the source's and marks the others gone.
func (g *Registry) saveRows(ctx context.Context, tx *db.Tx, src *Source, rows []Row, fileID int64, fileDate string, rep *Report) error {
	have := map[string]known{}
	q, err := tx.Query(ctx, "SELECT id, row_key, status, present FROM licence_rows WHERE source = $1", src.Name)
	if err != nil {
		return fmt.Errorf("read rows of %s: %w", src.Name, err)
	}
	for q.Next() {
		var k known
		var key string
		if err := q.Scan(&k.id, &key, &k.status, &k.present); err != nil {
			q.Close()
			return fmt.Errorf("read rows of %s: %w", src.Name, err)
		}
		have[key] = k
	}
	q.Close()
	if err := q.Err(); err != nil {
		return fmt.Errorf("read rows of %s: %w", src.Name, err)
	}
	now := g.Now().UTC()
	history := func(id int64, status string) error {
		if _, err := tx.Exec(ctx, "INSERT INTO licence_row_history (row_id, status, file_date) VALUES ($1, $2, $3)", id, status, fileDate); err != nil {
			return fmt.Errorf("row history: %w", err)
		}
		return nil
	}
	for i := range rows {
		r := &rows[i]
		args := []any{r.Number, r.Name, r.TradeName, r.Address, AddressKey(r.Address), r.City, r.State, r.Zip, r.Lat, r.Lon,
			r.Kind, r.Status, r.ExpiresOn, r.DecidedOn, r.Until, fileID, now}
		k, ok := have[r.Key]
		if ok {
			delete(have, r.Key)
			if _, err := tx.Exec(ctx, `UPDATE licence_rows SET number = $1, name = $2, trade_name = $3, address = $4,
				address_key = $5, city = $6, state = $7, postal_code = $8, latitude = $9, longitude = $10, kind = $11,
				status = $12, expires_on = $13, decided_on = $14, until_on = $15, file_id = $16, updated_at = $17,
				present = TRUE WHERE id = $18`, append(args, k.id)...); err != nil {
				return fmt.Errorf("update row %s: %w", r.Key, err)
			}
			if k.status != r.Status || !k.present {
				rep.Changed++
				if err := history(k.id, r.Status); err != nil {
					return err
				}
			}
			continue
		}
		var id int64
		if err := tx.QueryRow(ctx, `INSERT INTO licence_rows (number, name, trade_name, address, address_key, city, state,
			postal_code, latitude, longitude, kind, status, expires_on, decided_on, until_on, file_id, updated_at, present,
			source, row_key, is_action) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17,
			TRUE, $18, $19, $20) RETURNING id`, append(args, src.Name, r.Key, src.IsActions())...).Scan(&id); err != nil {
			return fmt.Errorf("insert row %s: %w", r.Key, err)
		}
		rep.Added++
		if err := history(id, r.Status); err != nil {
			return err
		}
	}
	for _, k := range have {
		if !k.present {
			continue
		}
		if _, err := tx.Exec(ctx, "UPDATE licence_rows SET present = FALSE, updated_at = $1 WHERE id = $2", now, k.id); err != nil {
			return fmt.Errorf("mark row gone: %w", err)
		}
		rep.Gone++
		if err := history(k.id, "gone"); err != nil {
			return err
		}
	}
	return nil
}

// Match states.
const (
	stateSure     = "sure"
	stateDoubtful = "doubtful"
	stateAccepted = "accepted"
	stateRejected = "rejected"
	stateOwner    = "owner"
)

// decided reports whether a match state is a person's decision, which
// matching never changes.
func decided(state string) bool {
	return state == stateAccepted || state == stateRejected || state == stateOwner
}

type matchRow struct {
	id, rowID, storeID int64
	state              string
}

// match matches the source's present rows to stores again and returns the
// stores to render again.
func (g *Registry) match(ctx context.Context, tx *db.Tx, src *Source, rep *Report) (map[int64]bool, error) {
	rows, err := loadRows(ctx, tx, "r.source = $1", src.Name)
	if err != nil {
		return nil, err
	}
	old, err := loadMatches(ctx, tx, "r.source = $1", src.Name)
	if err != nil {
		return nil, err
	}
	refs, err := g.storeRefs(ctx, tx, rows)
	if err != nil {
		return nil, err
	}
	st := NewStores(refs)
	byRow := map[int64][]matchRow{}
	for _, m := range old {
		byRow[m.rowID] = append(byRow[m.rowID], m)
	}
	changed := map[int64]bool{}
	for i := range rows {
		r := &rows[i]
		var cands []Candidate
		settled := false // a person decided which store the row is
		for _, m := range byRow[r.id] {
			settled = settled || m.state == stateAccepted || m.state == stateOwner
		}
		if r.present && !settled {
			cands = st.Candidates(&r.Row)
		}
		want := map[int64]Candidate{}
		for _, c := range cands {
			want[c.StoreID] = c
		}
		for _, m := range byRow[r.id] {
			c, keep := want[m.storeID]
			delete(want, m.storeID)
			switch {
			case decided(m.state):
			case !keep:
				if _, err := tx.Exec(ctx, "DELETE FROM licence_matches WHERE id = $1", m.id); err != nil {
					return nil, fmt.Errorf("drop match: %w", err)
				}
				changed[m.storeID] = true
			default:
				state := autoState(c)
				if _, err := tx.Exec(ctx, "UPDATE licence_matches SET confidence = $1, state = $2 WHERE id = $3", c.Confidence, state, m.id); err != nil {
					return nil, fmt.Errorf("update match: %w", err)
				}
				changed[m.storeID] = true
			}
		}
		for _, c := range cands {
			if _, ok := want[c.StoreID]; !ok {
				continue
			}
			if _, err := tx.Exec(ctx, "INSERT INTO licence_matches (row_id, store_id, confidence, state) VALUES ($1, $2, $3, $4)",
				r.id, c.StoreID, c.Confidence, autoState(c)); err != nil {
				return nil, fmt.Errorf("insert match: %w", err)
			}
			changed[c.StoreID] = true
		}
	}
	// Count the outcome per row, decisions included.
	now, err := loadMatches(ctx, tx, "r.source = $1", src.Name)
	if err != nil {
		return nil, err
	}
	// Every store of the source's rows renders again: a row's status,
	// expiry or file date may have changed (SetLicence skips the same).
	for _, m := range append(old, now...) {
		changed[m.storeID] = true
	}
	best := map[int64]string{}
	for _, m := range now {
		switch {
		case m.state == stateSure || m.state == stateAccepted || m.state == stateOwner:
			best[m.rowID] = stateSure
		case m.state == stateDoubtful && best[m.rowID] == "":
			best[m.rowID] = stateDoubtful
		}
	}
	for i := range rows {
		if !rows[i].present {
			continue
		}
		switch best[rows[i].id] {
		case stateSure:
			rep.Sure++
		case stateDoubtful:
			rep.Doubtful++
		default:
			rep.Unmatched++
		}
	}
	return changed, nil
}

func autoState(c Candidate) string {
	if c.Sure() {
		return stateSure
	}
	return stateDoubtful
}

// storedRow is a registry row as kept.
type storedRow struct {
	Row
	id       int64
	source   string
	isAction bool
	present  bool
	fileDate string
}

const rowColumns = `r.id, r.source, r.is_action, r.row_key, r.number, r.name, r.trade_name, r.address, r.city, r.state,
	r.postal_code, r.latitude, r.longitude, r.kind, r.status, r.expires_on, r.decided_on, r.until_on, r.present, f.file_date`

func loadRows(ctx context.Context, q db.Querier, where string, args ...any) ([]storedRow, error) {
	rs, err := q.Query(ctx, "SELECT "+rowColumns+" FROM licence_rows r JOIN licence_files f ON f.id = r.file_id WHERE "+where+" ORDER BY r.id", args...)
	return db.Collect(rs, err, "read licence rows", func(sc db.Scanner) (*storedRow, error) {
		var r storedRow
		var lat, lon sql.NullFloat64
		if err := sc.Scan(&r.id, &r.source, &r.isAction, &r.Key, &r.Number, &r.Name, &r.TradeName, &r.Address, &r.City, &r.State,
			&r.Zip, &lat, &lon, &r.Kind, &r.Status, &r.ExpiresOn, &r.DecidedOn, &r.Until, &r.present, &r.fileDate); err != nil {
			return nil, err
		}
		if lat.Valid && lon.Valid {
			r.Lat, r.Lon = &lat.Float64, &lon.Float64
		}
		return &r, nil
	})
}

func loadMatches(ctx context.Context, q db.Querier, where string, args ...any) ([]matchRow, error) {
	rs, err := q.Query(ctx, "SELECT m.id, m.row_id, m.store_id, m.state FROM licence_matches m JOIN licence_rows r ON r.id = m.row_id WHERE "+where+" ORDER BY m.id", args...)
	return db.Collect(rs, err, "read licence matches", func(sc db.Scanner) (*matchRow, error) {
		var m matchRow
		return &m, sc.Scan(&m.id, &m.rowID, &m.storeID, &m.state)
	})
}

// storeRefs reads the stores that may match rows: those at one of their
// addresses or in a grid cell around one of their positions (a full
// catalogue is read once, but only these are kept).
func (g *Registry) storeRefs(ctx context.Context, q db.Querier, rows []storedRow) ([]StoreRef, error) {
	keys, cells := map[string]bool{}, map[cell]bool{}
	for i := range rows {
		if k := AddressKey(rows[i].Address); k != "" {
			keys[k] = true
		}
		if rows[i].Lat != nil {
			c := cellOf(*rows[i].Lat, *rows[i].Lon)
			for dl := int32(-1); dl <= 1; dl++ {
				for dn := int32(-1); dn <= 1; dn++ {
					cells[cell{c.lat + dl, c.lon + dn}] = true
				}
			}
		}
	}
	kept, err := stores.SummariesNotClosed(ctx, q, func(s *stores.Summary) bool {
		return cells[cellOf(s.Latitude, s.Longitude)] || keys[AddressKey(s.Address)]
	})
	if err != nil {
		return nil, fmt.Errorf("read stores to match: %w", err)
	}
	out := make([]StoreRef, len(kept))
	for i, s := range kept {
		out[i] = StoreRef{ID: s.ID, Name: s.Name, Address: s.Address, Zip: s.PostalCode, Lat: s.Latitude, Lon: s.Longitude}
	}
	return out, nil
}

// apply renders the licence record of each store in ids from its applied
// matches and writes the ones that changed; it returns how many did.
func (g *Registry) apply(ctx context.Context, tx *db.Tx, ids map[int64]bool) (int, error) {
	if len(ids) == 0 {
		return 0, nil
	}
	list := make([]int64, 0, len(ids))
	for id := range ids {
		list = append(list, id)
	}
	slices.Sort(list)
	n := 0
	today := g.today()
	err := g.repo.Write(ctx, tx, func(w *stores.Writer) error {
		for _, id := range list {
			rec, err := g.record(ctx, tx, id)
			if err != nil {
				return err
			}
			ok, err := w.SetLicence(ctx, id, rec, today)
			if err != nil {
				return err
			}
			if ok {
				n++
			}
		}
		return nil
	})
	return n, err
}

// licenceRank orders a store's licences: the one shown is the first.
var licenceRank = map[string]int{"active": 0, "revoked": 1, "expired": 2, "inactive": 3}

// maxEnforcement is how many enforcement actions a store shows, newest first.
const maxEnforcement = 5

// record is what store id shows: its best licence and latest actions
// among the rows matched to it for sure, by a moderator or by its owner.
func (g *Registry) record(ctx context.Context, q db.Querier, storeID int64) (stores.LicenceRecord, error) {
	var rec stores.LicenceRecord
	rows, err := loadRows(ctx, q, `r.present AND r.id IN (SELECT row_id FROM licence_matches
		WHERE store_id = $1 AND state IN ('sure', 'accepted', 'owner'))`, storeID)
	if err != nil {
		return rec, err
	}
	var lics []storedRow
	for _, r := range rows {
		if r.isAction {
			until := optional(r.Until)
			rec.Enforcement = append(rec.Enforcement, stores.Enforcement{Kind: r.Kind, DecidedOn: r.DecidedOn, Until: until})
		} else {
			lics = append(lics, r)
		}
	}
	slices.SortFunc(rec.Enforcement, func(a, b stores.Enforcement) int { return cmp.Compare(b.DecidedOn, a.DecidedOn) })
	if len(rec.Enforcement) > maxEnforcement {
		rec.Enforcement = rec.Enforcement[:maxEnforcement]
	}
	if len(lics) == 0 {
		return rec, nil
	}
	slices.SortStableFunc(lics, func(a, b storedRow) int {
		if c := cmp.Compare(licenceRank[a.Status], licenceRank[b.Status]); c != 0 {
			return c
		}
		return cmp.Compare(b.ExpiresOn, a.ExpiresOn)
	})
	best := lics[0]
	src := g.sources[best.source]
	l := &stores.Licence{Status: best.Status, Kind: best.Kind, Number: best.Number, ExpiresOn: optional(best.ExpiresOn), CheckedAt: best.fileDate}
	if src != nil {
		l.Jurisdiction = src.Jurisdiction
		if src.RecordURL != "" {
			u := strings.ReplaceAll(src.RecordURL, "{number}", url.QueryEscape(best.Number))
			l.RecordURL = &u
		}
	}
	rec.Licence = l
	return rec, nil
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
