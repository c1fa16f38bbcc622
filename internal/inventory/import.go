package inventory

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"locator/internal/apperr"
	"locator/internal/catalog"
	"locator/internal/db"
	"locator/internal/stores"
	"locator/internal/tabfile"
)

// Limits bound what a feed file may cost: its size and its rows. Memory
// grows with the rows (about 70 bytes each while the file is checked).
type Limits = tabfile.Limits

// DefaultLimits are the command's: a full feed of a few hundred stores
// with thousands of products each.
var DefaultLimits = Limits{Bytes: 256 << 20, Rows: 2_000_000}

// Report is what an import did.
type Report struct {
	Replace bool               `json:"replace"`
	Rows    int                `json:"rows"`    // rows written
	Stores  int                `json:"stores"`  // stores the file names
	Removed int                `json:"removed"` // rows of those stores a full feed removed
	Failed  int                `json:"failed"`
	Errors  []tabfile.RowError `json:"errors"`  // the first tabfile.MaxRowErrors, by line
	Ignored []string           `json:"ignored"` // columns of the file that are not ours
}

// Repo keeps the stock table.
type Repo struct {
	db      *db.DB
	stores  *stores.Repo
	catalog *catalog.Repo
	Limits  Limits
	Now     func() time.Time // when rows are reported (time.Now)
}

// NewRepo returns the stock of the stores of sr and the products of cat.
func NewRepo(sr *stores.Repo, cat *catalog.Repo) *Repo {
	return &Repo{db: sr.DB(), stores: sr, catalog: cat, Limits: DefaultLimits, Now: time.Now}
}

// Columns are the feed's columns we read, as Google's local inventory
// feed names them.
var Columns = []string{"store_code", "id", "gtin", "availability", "quantity", "price", "sale_price", "pickup_method", "pickup_sla"}

// feedRow is one good row, kept small: a full feed has millions.
type feedRow struct {
	store, product     int64
	qty, price, sale   int64 // -1: not given
	currency           string
	line               int32
	avail, method, sla uint8 // indexes; method and sla 0 for none, else index+1
}

// Import reads a feed (CSV or TSV, header line; docs/products.md) and
// writes its rows in one transaction, reported now. Without replace, the
// stores' other rows keep theirs; with replace, each store the file names
// keeps only the products the file names for it (a row refused for its
// values still keeps its product's old row). Rows that cannot be read,
// name an unknown store or product, or hold a bad value are refused and
// listed; a file that cannot be read (size, header) writes nothing. The
// import stamps every store the file names (see Set).
func (r *Repo) Import(ctx context.Context, rd io.Reader, fileName string, replace bool) (*Report, error) {
	return r.ImportScoped(ctx, rd, fileName, replace, nil)
}

// Scope says whether an import may write a store's stock (an owner's
// upload, a point-of-sale key: the stores of one business account). A row
// for a store outside it is refused like a row for an unknown store, and
// a full feed never removes that store's rows.
type Scope func(ctx context.Context, storeID int64) (bool, error)

// ImportScoped is Import whose rows may only name the stores scope allows
// (nil: every store).
func (r *Repo) ImportScoped(ctx context.Context, rd io.Reader, fileName string, replace bool, scope Scope) (*Report, error) {
	tr, err := tabfile.NewReader(rd, r.Limits.Bytes)
	if err != nil {
		return nil, fileError(err, r.Limits)
	}
	rep := &Report{Replace: replace, Errors: []tabfile.RowError{}, Ignored: []string{}}
	if err := checkHeader(tr.Header, rep); err != nil {
		return nil, err
	}
	im, err := r.newReading(ctx, rep, scope)
	if err != nil {
		return nil, err
	}
	for i, c := range Columns {
		im.col[i] = tr.Column(c)
	}
	for {
		rec, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fileError(err, r.Limits)
		}
		if err := im.add(ctx, rec); err != nil {
			return nil, err
		}
	}
	return r.finish(ctx, fileName, im)
}

// FeedRow is one row with the feed's columns (Columns), as the
// point-of-sale API sends them: the same text a feed file would hold.
type FeedRow struct {
	StoreCode    string
	ID           string
	GTIN         string
	Availability string
	Quantity     string
	Price        string
	SalePrice    string
	PickupMethod string
	PickupSLA    string
	// Store, when not 0, is the store itself (rows made in code, such as
	// the marketplace's stock levels, internal/medusa): StoreCode is then
	// not read.
	Store int64
}

// ImportRows writes rows given whole (a point-of-sale batch) by the feed
// file's rules: each row checked as a line of a file would be, the good
// ones written in one transaction, the others listed with Line = the row's
// number from 1. It is incremental (the stores' other rows keep theirs);
// source names the batch in the import log, in full (RemoveImported finds
// the rows a source's batches last wrote).
func (r *Repo) ImportRows(ctx context.Context, rows []FeedRow, source string, scope Scope) (*Report, error) {
	if len(rows) > r.Limits.Rows {
		return nil, apperr.New(apperr.TooLarge, "the batch has more than %d rows", r.Limits.Rows)
	}
	rep := &Report{Errors: []tabfile.RowError{}, Ignored: []string{}}
	im, err := r.newReading(ctx, rep, scope)
	if err != nil {
		return nil, err
	}
	im.source = source
	for i := range Columns {
		im.col[i] = i
	}
	for i, w := range rows {
		code := w.StoreCode
		if w.Store != 0 {
			// A code no feed can hold (a NUL is refused in every text).
			code = "\x00" + strconv.FormatInt(w.Store, 10)
			im.codes[code] = w.Store
		}
		fields := []string{code, w.ID, w.GTIN, w.Availability, w.Quantity, w.Price, w.SalePrice, w.PickupMethod, w.PickupSLA}
		for j := range fields {
			fields[j] = strings.TrimSpace(fields[j])
		}
		if err := im.add(ctx, tabfile.Record{Line: i + 1, Fields: fields}); err != nil {
			return nil, err
		}
	}
	return r.finish(ctx, source, im)
}

func (r *Repo) newReading(ctx context.Context, rep *Report, scope Scope) (*reading, error) {
	idx, err := r.catalog.Index(ctx)
	if err != nil {
		return nil, err
	}
	return &reading{r: r, idx: idx, codes: map[string]int64{}, codeAt: map[string]int64{}, named: map[int64]bool{}, currencies: map[string]string{},
		rep: rep, scope: scope, allowed: map[int64]bool{}}, nil
}

// add reads one record: a good row is kept, a bad one listed; err is a
// failure of the database or a file over the row limit.
func (im *reading) add(ctx context.Context, rec tabfile.Record) error {
	if rec.Err != "" {
		im.fail(rec.Line, rec.Err)
		return nil
	}
	if len(im.rows) >= im.r.Limits.Rows {
		return apperr.Invalidf("the file has more than %d rows", im.r.Limits.Rows)
	}
	row, msg, err := im.parse(rec)
	if errors.Is(err, errRefused) {
		return nil
	}
	if err != nil {
		return err
	}
	if msg != "" {
		im.fail(rec.Line, msg)
		return nil
	}
	im.rows = append(im.rows, row)
	return nil
}

// finish refuses repeated rows and writes the others.
func (r *Repo) finish(ctx context.Context, fileName string, im *reading) (*Report, error) {
	if err := im.resolve(ctx); err != nil {
		return nil, err
	}
	rows, rep := im.rows, im.rep
	// In (store, product) order: a repeated row stands beside its first,
	// and the writes walk the primary key in order.
	slices.SortFunc(rows, func(a, b feedRow) int {
		return cmp.Or(cmp.Compare(a.store, b.store), cmp.Compare(a.product, b.product), cmp.Compare(a.line, b.line))
	})
	kept := rows[:0]
	for i, row := range rows {
		if i > 0 && row.store == rows[i-1].store && row.product == rows[i-1].product {
			im.fail(int(row.line), fmt.Sprintf("repeats the row of line %d for this store and product", firstOf(rows, i)))
			continue
		}
		kept = append(kept, row)
	}
	rows = kept
	slices.SortStableFunc(rep.Errors, func(a, b tabfile.RowError) int { return cmp.Compare(a.Line, b.Line) })
	rep.Stores = len(im.named)
	if err := r.write(ctx, fileName, rows, im, rep); err != nil {
		return nil, err
	}
	return rep, nil
}

func firstOf(rows []feedRow, i int) int32 {
	for i > 0 && rows[i-1].store == rows[i].store && rows[i-1].product == rows[i].product {
		i--
	}
	return rows[i].line
}

func fileError(err error, l Limits) error {
	if errors.Is(err, tabfile.ErrTooLarge) {
		return apperr.New(apperr.TooLarge, "the file is too large (more than %d MB)", l.Bytes>>20)
	}
	return apperr.Invalidf("%s", err.Error())
}

// checkHeader refuses a header without the columns a row needs, or with a
// column twice; it lists the columns that are not ours (a feed may carry
// more of Google's than we read).
func checkHeader(header []string, rep *Report) error {
	have := map[string]bool{}
	for _, h := range header {
		if have[h] {
			return apperr.Invalidf("header: column %q appears twice", h)
		}
		have[h] = true
		if !slices.Contains(Columns, h) {
			rep.Ignored = append(rep.Ignored, h)
		}
	}
	var missing []string
	for _, c := range []string{"store_code", "availability"} {
		if !have[c] {
			missing = append(missing, c)
		}
	}
	if !have["id"] && !have["gtin"] {
		missing = append(missing, "id or gtin")
	}
	if len(missing) > 0 {
		return apperr.Invalidf("header: the file has no column %s (a local inventory feed's columns: %s)", strings.Join(missing, ", "), strings.Join(Columns, ", "))
	}
	return nil
}

// reading is the state of one import while the file is read.
type reading struct {
	r          *Repo
	idx        *catalog.Index
	codes      map[string]int64 // store_code -> store id, 0 unknown (filled by resolve)
	codeAt     map[string]int64 // store_code -> its number in codeList
	codeList   []string         // the file's store codes, as first met
	later      []laterError     // rows refused for their product or values
	named      map[int64]bool   // stores the file names
	keep       [][2]int64       // (store, product) of refused rows: a full feed keeps their old rows
	currencies map[string]string
	rep        *Report
	col        [9]int // index in the file of each of Columns, -1 absent
	rows       []feedRow
	scope      Scope
	allowed    map[int64]bool // scope's answer per store
	source     string         // a batch's name in full (ImportRows), "" for a file
}

// field returns the record's value of column c of Columns.
func (im *reading) field(rec tabfile.Record, c int) string { return rec.Field(im.col[c]) }

// The indexes of Columns.
const (
	colStore = iota
	colID
	colGTIN
	colAvailability
	colQuantity
	colPrice
	colSalePrice
	colPickupMethod
	colPickupSLA
)

func (im *reading) fail(line int, msg string) {
	tabfile.AddRowError(&im.rep.Errors, &im.rep.Failed, line, msg)
}

// parse reads one record into a row whose store is its code's number in
// codeList, or says what is wrong with it: msg for its store code, and
// errRefused for a row refused for its product or values, held for
// resolve (a row's store code is reported first).
func (im *reading) parse(rec tabfile.Record) (row feedRow, msg string, err error) {
	code := im.field(rec, colStore)
	if code == "" {
		return row, "store_code is empty", nil
	}
	if len(code) > 100 {
		return row, "store_code is longer than 100 characters", nil
	}
	// The store is looked up once the whole file is read (resolve): a
	// feed may name a store every ten rows, each a statement when looked
	// up one at a time. Until then row.store is the code's number.
	at, ok := im.codeAt[code]
	if !ok {
		at = int64(len(im.codeList))
		code = strings.Clone(code)
		im.codeAt[code] = at
		im.codeList = append(im.codeList, code)
	}
	product, msg := im.product(im.field(rec, colID), im.field(rec, colGTIN))
	if msg != "" {
		im.later = append(im.later, laterError{line: int32(rec.Line), code: at, msg: msg})
		return row, "", errRefused
	}
	row = feedRow{store: at, product: product, line: int32(rec.Line), qty: -1, price: -1, sale: -1}
	if msg = im.values(&row, rec); msg != "" {
		im.later = append(im.later, laterError{line: int32(rec.Line), code: at, msg: msg, product: product})
		return row, "", errRefused
	}
	return row, "", nil
}

// errRefused tells add that parse holds the row's error for resolve.
var errRefused = errors.New("row refused")

// laterError is a row refused for its product or values, reported by
// resolve unless its store_code is refused first.
type laterError struct {
	line    int32
	code    int64 // in reading.codeList
	msg     string
	product int64 // a row refused for its values: its product's old row is kept by a full feed
}

// resolve looks up the stores the file's codes name, a few statements for
// them all (stores.Repo.IDsByCodes), and asks the scope about each; then
// each row takes its store or is refused for it. Called once, after the
// last row.
func (im *reading) resolve(ctx context.Context) error {
	var ask []string
	for _, code := range im.codeList {
		if _, ok := im.codes[code]; !ok {
			ask = append(ask, code)
		}
	}
	ids, err := im.r.stores.IDsByCodes(ctx, ask)
	if err != nil {
		return err
	}
	for i, code := range ask {
		im.codes[code] = ids[i]
	}
	// Per code: the store, or why its rows are refused.
	store := make([]int64, len(im.codeList))
	why := make([]string, len(im.codeList))
	for i, code := range im.codeList {
		id := im.codes[code]
		if id == 0 {
			why[i] = fmt.Sprintf("store_code %q is no store of ours (neither a store_id nor an id)", clip(code))
			continue
		}
		if im.scope != nil {
			ok, seen := im.allowed[id]
			if !seen {
				if ok, err = im.scope(ctx, id); err != nil {
					return err
				}
				im.allowed[id] = ok
			}
			if !ok {
				why[i] = fmt.Sprintf("store_code %q is not one of your stores", clip(code))
				continue
			}
		}
		store[i] = id
	}
	kept := im.rows[:0]
	for _, row := range im.rows {
		if why[row.store] != "" {
			im.fail(int(row.line), why[row.store])
			continue
		}
		row.store = store[row.store]
		im.named[row.store] = true
		kept = append(kept, row)
	}
	im.rows = kept
	for _, e := range im.later {
		if why[e.code] != "" {
			im.fail(int(e.line), why[e.code])
			continue
		}
		im.named[store[e.code]] = true
		im.fail(int(e.line), e.msg)
		if e.product != 0 {
			im.keep = append(im.keep, [2]int64{store[e.code], e.product})
		}
	}
	return nil
}

// product finds the row's product by its id, else its GTIN; with both, the
// GTIN must be the product's.
func (im *reading) product(id, gtin string) (int64, string) {
	var g string
	if gtin != "" {
		var err error
		if g, err = catalog.NormaliseGTIN(gtin); err != nil {
			return 0, err.Error()
		}
	}
	if id != "" {
		p, pg, ok := im.idx.ByID(id)
		switch {
		case !ok:
			return 0, fmt.Sprintf("id %q is not in the catalogue", clip(id))
		case g != "" && pg != "" && g != pg:
			return 0, fmt.Sprintf("id %q has the GTIN %s, not %s", clip(id), pg, g)
		}
		return p, ""
	}
	if g == "" {
		return 0, "the row has neither an id nor a gtin"
	}
	p, ok := im.idx.ByGTIN(g)
	if !ok {
		return 0, fmt.Sprintf("gtin %s is not in the catalogue", g)
	}
	return p, ""
}

// values reads the row's availability, quantity, prices and pickup.
func (im *reading) values(row *feedRow, rec tabfile.Record) string {
	a, ok := lookup(availabilityIndex, im.field(rec, colAvailability))
	if !ok {
		return fmt.Sprintf("availability %q is not one of in_stock, limited_availability, on_display_to_order, out_of_stock", clip(im.field(rec, colAvailability)))
	}
	row.avail = a
	if q := im.field(rec, colQuantity); q != "" {
		n, err := strconv.ParseInt(q, 10, 64)
		switch {
		case err != nil:
			return fmt.Sprintf("quantity %q is not a whole number", clip(q))
		case n < 0:
			return fmt.Sprintf("quantity %d is negative", n)
		case n > 1_000_000_000:
			return fmt.Sprintf("quantity %d is more than a billion", n)
		}
		row.qty = n
	}
	var cur string
	for _, c := range []struct {
		name string
		col  int
		dst  *int64
	}{{"price", colPrice, &row.price}, {"sale_price", colSalePrice, &row.sale}} {
		s := im.field(rec, c.col)
		if s == "" {
			continue
		}
		p, err := ParsePrice(s)
		if err != nil {
			return c.name + " " + err.Error()
		}
		if cur != "" && p.Currency != cur {
			return fmt.Sprintf("sale_price is in %s, price in %s", p.Currency, cur)
		}
		cur = p.Currency
		*c.dst = p.Amount
	}
	if row.sale >= 0 && row.price >= 0 && row.sale > row.price {
		return fmt.Sprintf("sale_price %s is more than price %s", im.field(rec, colSalePrice), im.field(rec, colPrice))
	}
	if v, ok := im.currencies[cur]; ok {
		row.currency = v
	} else {
		im.currencies[cur] = cur
		row.currency = cur
	}
	if m := im.field(rec, colPickupMethod); m != "" {
		i, ok := lookup(methodIndex, m)
		if !ok {
			return fmt.Sprintf("pickup_method %q is not one of %s", clip(m), strings.Join(PickupMethods, ", "))
		}
		row.method = i + 1
	}
	if s := im.field(rec, colPickupSLA); s != "" {
		i, ok := lookup(slaIndex, s)
		if !ok {
			return fmt.Sprintf("pickup_sla %q is not one of %s", clip(s), strings.Join(PickupSLAs, ", "))
		}
		row.sla = i + 1
	}
	return ""
}

// Each value list by its values' tokens (token): a feed's value is found
// as written, else by its token.
var (
	availabilityIndex = indexOf(Availabilities)
	methodIndex       = indexOf(PickupMethods)
	slaIndex          = indexOf(PickupSLAs)
)

func indexOf[T ~string](values []T) map[string]uint8 {
	m := make(map[string]uint8, len(values))
	for i, v := range values {
		m[token(string(v))] = uint8(i)
	}
	return m
}

func lookup(m map[string]uint8, s string) (uint8, bool) {
	if i, ok := m[s]; ok {
		return i, true
	}
	i, ok := m[token(s)]
	return i, ok
}

// batchRows is how many rows one statement writes (11 values each, well
// under both engines' limit on parameters).
const batchRows = 1000

// write writes the rows in one transaction and, for a full feed, removes
// the named stores' rows the file did not name.
func (r *Repo) write(ctx context.Context, fileName string, rows []feedRow, im *reading, rep *Report) error {
	now := r.Now().UTC()
	return r.db.InTx(ctx, func(tx *db.Tx) error {
		var importID int64
		if err := tx.QueryRow(ctx, `INSERT INTO stock_imports (file_name, full_feed, row_count, error_count, imported_at, source)
			VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`, clip(fileName), rep.Replace, len(rows), rep.Failed, now, im.source).Scan(&importID); err != nil {
			return fmt.Errorf("record stock import: %w", err)
		}
		sqlite := tx.Dialect() == db.SQLite
		full := upsertSQL(sqlite, batchRows)
		args := make([]any, 0, 11*batchRows)
		for len(rows) > 0 {
			n := min(len(rows), batchRows)
			q := full
			if n < batchRows {
				q = upsertSQL(sqlite, n)
			}
			args = args[:0]
			if !sqlite {
				args = append(args, now, importID)
			}
			for _, w := range rows[:n] {
				args = append(args, w.store, w.product, string(Availabilities[w.avail]), opt(w.qty), opt(w.price), opt(w.sale),
					w.currency, pick(PickupMethods, w.method), pick(PickupSLAs, w.sla))
				if sqlite {
					args = append(args, now, importID)
				}
			}
			if _, err := tx.Exec(ctx, q, args...); err != nil {
				return fmt.Errorf("write stock (rows from line %d): %w", rows[0].line, err)
			}
			rep.Rows += n
			rows = rows[n:]
		}
		named := make([]int64, 0, len(im.named))
		for store := range im.named {
			named = append(named, store)
		}
		if !rep.Replace {
			return stamp(ctx, tx, named)
		}
		for _, k := range im.keep {
			if _, err := tx.Exec(ctx, "UPDATE stock SET import_id = $1 WHERE store_id = $2 AND product_id = $3", importID, k[0], k[1]); err != nil {
				return fmt.Errorf("keep stock of a refused row: %w", err)
			}
		}
		for store := range im.named {
			res, err := tx.Exec(ctx, "DELETE FROM stock WHERE store_id = $1 AND (import_id IS NULL OR import_id <> $2)", store, importID)
			if err != nil {
				return fmt.Errorf("remove stock the feed no longer names: %w", err)
			}
			n, err := res.RowsAffected()
			if err != nil {
				return fmt.Errorf("remove stock the feed no longer names: %w", err)
			}
			rep.Removed += int(n)
		}
		return stamp(ctx, tx, named)
	})
}

// upsertSQL writes n rows. PostgreSQL: $1 is the report time and $2 the
// import of every row, then nine values per row. SQLite: eleven anonymous
// "?" per row, the time and import repeated: the driver looks up each
// parameter's name, which costs time in proportion to the named parameters
// of the statement (a batch of "?NNN" spent 90% of an import there), and
// an anonymous one has none.
func upsertSQL(sqlite bool, n int) string { return stockSQL(sqlite, n, true) }

func opt(v int64) any {
	if v < 0 {
		return nil
	}
	return v
}

func pick(values []string, i uint8) string {
	if i == 0 {
		return ""
	}
	return values[i-1]
}
