// Package ownerstock is the owners' side of stock per store (docs/products.md,
// "Owners' stock"): a proven owner of a store finds catalogue products, marks
// them carried with an availability, quantity and price, removes them, reads
// the store's stock with the law's verdict on each row, and uploads a feed
// file scoped to the stores the account owns. Ownership is asked of
// internal/ownership at every call; the rows are written by
// internal/inventory (which stamps them for the search replicas).
package ownerstock

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"locator/internal/apperr"
	"locator/internal/audit"
	"locator/internal/catalog"
	"locator/internal/clock"
	"locator/internal/db"
	"locator/internal/inventory"
	"locator/internal/ownership"
	"locator/internal/productlaw"
	"locator/internal/rules"
	"locator/internal/stores"
)

// Service is the owners' stock.
type Service struct {
	db      *db.DB
	stores  *stores.Repo
	catalog *catalog.Repo
	stock   *inventory.Repo
	law     *productlaw.Repo
	book    *rules.Book
	clock   clock.Clock

	mu       sync.Mutex
	dirs     *productlaw.Directories // the state directories as of dirsFrom
	dirsFrom int64                   // productlaw.Repo.LastImport when dirs were read
}

// New returns the owners' stock of the stores of sr.
func New(sr *stores.Repo, cat *catalog.Repo, stock *inventory.Repo, clk clock.Clock) *Service {
	return &Service{db: sr.DB(), stores: sr, catalog: cat, stock: stock, law: productlaw.NewRepo(sr.DB()), book: rules.MustLoad(), clock: clk}
}

// errNoStore answers every call about a store the account does not own,
// as for one that does not exist.
var errNoStore = apperr.New(apperr.NotFound, "No such store among yours.")

// owned checks that the account owns the store and returns it.
func (s *Service) owned(ctx context.Context, businessID, storeID int64) (*stores.Store, error) {
	ok, err := ownership.Owns(ctx, s.db, businessID, storeID)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errNoStore
	}
	st, err := s.stores.Get(ctx, storeID)
	if err != nil {
		if apperr.CodeOf(err) == apperr.NotFound {
			return nil, errNoStore
		}
		return nil, err
	}
	return st, nil
}

// Find is the catalogue search an owner marks products from: name, brand,
// id or a scanned GTIN (catalog.Repo.Search).
func (s *Service) Find(ctx context.Context, q string, limit int) ([]*catalog.Product, int, error) {
	return s.catalog.Search(ctx, q, limit, 0)
}

// Item is one row of a store's stock as its owner sees it: the product,
// what the store says of it, and whether the law lets the store sell it.
type Item struct {
	Product      *catalog.Product       `json:"product"`
	Availability inventory.Availability `json:"availability"`
	Quantity     *int64                 `json:"quantity"`
	Price        string                 `json:"price,omitempty"`      // "12.99 USD"
	SalePrice    string                 `json:"sale_price,omitempty"` // "9.99 USD"
	PickupMethod string                 `json:"pickup_method,omitempty"`
	PickupSLA    string                 `json:"pickup_sla,omitempty"`
	ReportedAt   time.Time              `json:"reported_at"`
	Lawful       bool                   `json:"lawful"`
	Rule         *rules.Public          `json:"rule,omitempty"` // the law that forbids the sale, when not lawful
}

// judge is the verdict of the law on products at one store today.
type judge struct {
	rules []*rules.Rule
	dirs  *productlaw.Directories
	state string
}

func (j judge) of(p *catalog.Product) (bool, *rules.Public) {
	v := productlaw.Judge(j.rules, j.dirs, j.state, productlaw.Of(p))
	return v.Lawful, v.Rule
}

// judgeAt is the law at the store today (in its own time zone).
func (s *Service) judgeAt(ctx context.Context, st *stores.Store) (judge, error) {
	dirs, err := s.directories(ctx)
	if err != nil {
		return judge{}, err
	}
	loc, err := time.LoadLocation(st.TimeZone)
	if err != nil {
		loc = time.UTC
	}
	place := rules.Place{Country: st.CountryCode, State: st.State, City: st.City, ZIP: st.PostalCode}
	return judge{rules: s.book.At(place, st.AdultOnly, rules.DayOf(s.clock.Now().In(loc))), dirs: dirs, state: st.State}, nil
}

// directories are the state directories, read again when a new import
// was made (on any replica).
func (s *Service) directories(ctx context.Context) (*productlaw.Directories, error) {
	last, err := s.law.LastImport(ctx)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dirs != nil && s.dirsFrom == last {
		return s.dirs, nil
	}
	d, err := s.law.Directories(ctx)
	if err != nil {
		return nil, err
	}
	s.dirs, s.dirsFrom = d, last
	return d, nil
}

func itemOf(w inventory.Row, p *catalog.Product, j judge) Item {
	it := Item{Product: p, Availability: w.Availability, Quantity: w.Quantity, PickupMethod: w.PickupMethod,
		PickupSLA: w.PickupSLA, ReportedAt: w.ReportedAt.UTC()}
	if w.Price != nil {
		it.Price = w.Price.String()
	}
	if w.SalePrice != nil {
		it.SalePrice = w.SalePrice.String()
	}
	it.Lawful, it.Rule = j.of(p)
	return it
}

// List is the store's stock by brand and name, each row with the law's
// verdict: a row the law forbids stays (the feed said it), marked.
func (s *Service) List(ctx context.Context, businessID, storeID int64) ([]Item, error) {
	st, err := s.owned(ctx, businessID, storeID)
	if err != nil {
		return nil, err
	}
	j, err := s.judgeAt(ctx, st)
	if err != nil {
		return nil, err
	}
	rows, err := s.stock.ForStore(ctx, storeID)
	if err != nil {
		return nil, err
	}
	out := make([]Item, 0, len(rows))
	for _, w := range rows {
		p, err := s.catalog.Get(ctx, w.Product)
		if catalog.IsNotFound(err) {
			continue // removed from the catalogue meanwhile: its rows go with it
		}
		if err != nil {
			return nil, err
		}
		out = append(out, itemOf(w, p, j))
	}
	return out, nil
}

// Input is what an owner sets of a product: the availability, and
// optionally a quantity and a price ("12.99 USD", the feed's form).
type Input struct {
	Availability string `json:"availability"`
	Quantity     *int64 `json:"quantity"`
	Price        string `json:"price"`
}

// Set marks a product carried by the store with in's values (replacing
// what the store had for it) and answers the row as List would.
func (s *Service) Set(ctx context.Context, businessID, storeID int64, productID string, in Input) (Item, error) {
	st, err := s.owned(ctx, businessID, storeID)
	if err != nil {
		return Item{}, err
	}
	p, err := s.catalog.Get(ctx, productID)
	if err != nil {
		return Item{}, err
	}
	row := inventory.Row{Availability: inventory.Availability(in.Availability), Quantity: in.Quantity, ReportedAt: s.clock.Stamp()}
	if in.Price != "" {
		price, err := inventory.ParsePrice(in.Price)
		if err != nil {
			return Item{}, apperr.Invalidf("price %s", err.Error())
		}
		row.Price = &price
	}
	if err := s.stock.SetThen(ctx, storeID, p.ID, row, s.audit(businessID, storeID, p.ProductID, "stock.set", &row)); err != nil {
		return Item{}, err
	}
	j, err := s.judgeAt(ctx, st)
	if err != nil {
		return Item{}, err
	}
	row.StoreID, row.ProductID, row.Product = storeID, p.ID, p.ProductID
	return itemOf(row, p, j), nil
}

// Remove takes a product out of the store's stock (the store no longer
// carries it); removing one it does not carry changes nothing.
func (s *Service) Remove(ctx context.Context, businessID, storeID int64, productID string) error {
	if _, err := s.owned(ctx, businessID, storeID); err != nil {
		return err
	}
	p, err := s.catalog.Get(ctx, productID)
	if err != nil {
		return err
	}
	return s.stock.RemoveThen(ctx, storeID, p.ID, s.audit(businessID, storeID, p.ProductID, "stock.remove", nil))
}

// Upload imports a feed file (inventory.Repo.Import's layout and rules)
// whose rows may name only the stores the account owns: a row for any
// other store is refused with its line, and a full feed (replace) never
// removes another store's rows.
func (s *Service) Upload(ctx context.Context, businessID int64, rd io.Reader, fileName string, replace bool) (*inventory.Report, error) {
	up := *s.stock
	up.Limits = UploadLimits
	rep, err := up.ImportScoped(ctx, rd, fileName, replace, func(ctx context.Context, storeID int64) (bool, error) {
		return ownership.Owns(ctx, s.db, businessID, storeID)
	})
	if err != nil || rep.Rows+rep.Removed == 0 {
		return rep, err
	}
	// The import commits in its own transactions: the entry follows it
	// (a crash between them loses the entry, never tells of an import
	// that did not happen).
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		actor, err := businessActor(ctx, tx, businessID)
		if err != nil {
			return err
		}
		return audit.Write(ctx, tx, s.clock.Now(), actor, "stock.upload", 0, 0, map[string]any{
			"file": fileName, "replace": rep.Replace, "rows": rep.Rows, "stores": rep.Stores, "removed": rep.Removed, "failed": rep.Failed})
	})
	return rep, err
}

// auditRow is a stock row as the audit log tells it.
type auditRow struct {
	Availability inventory.Availability `json:"availability"`
	Quantity     *int64                 `json:"quantity"`
	Price        string                 `json:"price,omitempty"`
	SalePrice    string                 `json:"sale_price,omitempty"`
}

func auditRowOf(w *inventory.Row) *auditRow {
	if w == nil {
		return nil
	}
	a := &auditRow{Availability: w.Availability, Quantity: w.Quantity}
	if w.Price != nil {
		a.Price = w.Price.String()
	}
	if w.SalePrice != nil {
		a.SalePrice = w.SalePrice.String()
	}
	return a
}

// audit writes an owner's change of one row (after: nil for a removal) to
// the audit log, in the change's transaction: the account, the store, the
// product and the row before and after.
func (s *Service) audit(businessID, storeID int64, product, action string, after *inventory.Row) inventory.Then {
	return func(ctx context.Context, tx *db.Tx, before *inventory.Row) error {
		actor, err := businessActor(ctx, tx, businessID)
		if err != nil {
			return err
		}
		return audit.Write(ctx, tx, s.clock.Now(), actor, action, 0, storeID, map[string]any{
			"product": product, "before": auditRowOf(before), "after": auditRowOf(after)})
	}
}

// businessActor names the account in the log (audit.BusinessActor).
func businessActor(ctx context.Context, q db.Querier, businessID int64) (string, error) {
	var email string
	if err := q.QueryRow(ctx, "SELECT email FROM business_accounts WHERE id = $1", businessID).Scan(&email); err != nil {
		return "", fmt.Errorf("read business account %d: %w", businessID, err)
	}
	return audit.BusinessActor(businessID, email), nil
}

// UploadLimits bound a feed uploaded in /business: a few stores' full
// stock fits many times over; a larger feed is the command's
// (`locator inventory import`).
var UploadLimits = inventory.Limits{Bytes: 20 << 20, Rows: 200_000}
