package search

import (
	"context"
	"fmt"
	"sync"

	"locator/internal/catalog"
	"locator/internal/inventory"
	"locator/internal/productlaw"
)

// productSource is where a Syncer reads the product side from, and what
// it last saw of each part.
type productSource struct {
	stock   *inventory.Repo
	catalog *catalog.Repo
	law     *productlaw.Repo

	mu        sync.Mutex // one load or poll at a time
	version   int64      // the stock version applied
	from      string     // what the load read the stock from: "snapshot" or "rows"
	signature string     // the catalogue's (catalog.Repo.Signature)
	lawImport int64      // the last directory import loaded
}

// WithProducts makes the syncer keep the index's product side too: the
// stock of every store (followed through its change stamps), the
// catalogue and the state directories. Call it before Load.
func (s *Syncer) WithProducts(stock *inventory.Repo, cat *catalog.Repo, law *productlaw.Repo) *Syncer {
	s.prod = &productSource{stock: stock, catalog: cat, law: law}
	return s
}

// StockVersion is the stock version the index reflects (0 without products).
func (s *Syncer) StockVersion() int64 {
	if s.prod == nil {
		return 0
	}
	s.prod.mu.Lock()
	defer s.prod.mu.Unlock()
	return s.prod.version
}

// loadProducts fills the product side: the stock version first, then
// every row (so that a change committed meanwhile is read again by the
// next poll), the catalogue and the directories.
func (s *Syncer) loadProducts(ctx context.Context) error {
	ps := s.prod
	if ps == nil {
		return nil
	}
	ps.mu.Lock()
	defer ps.mu.Unlock()
	v, err := ps.stock.Version(ctx)
	if err != nil {
		return err
	}
	if err := s.pollCatalog(ctx, true); err != nil {
		return err
	}
	if err := s.pollLaw(ctx, true); err != nil {
		return err
	}
	if ok, err := s.loadStockSnapshot(ctx, v); err != nil || ok {
		return err
	}
	err = s.index.prod.Load(func(add func([]inventory.Entry)) error {
		return ps.stock.Scan(ctx, 20_000, func(es []inventory.Entry) error {
			add(es)
			return nil
		})
	})
	if err != nil {
		return fmt.Errorf("load stock: %w", err)
	}
	ps.version, ps.from = v, "rows"
	return nil
}

// loadStockSnapshot loads the stock side of the snapshot Load found, if
// it has one this binary reads, then the stock of the stores stamped
// after it; v is the stock version read first. It reports whether it did:
// an unusable stock side (see stocksnap.go) is logged and left for the
// rows. The caller holds ps.mu.
func (s *Syncer) loadStockSnapshot(ctx context.Context, v int64) (bool, error) {
	h, ps := s.snap, s.prod
	switch {
	case h == nil:
		return false, nil
	case !h.hasStock():
		s.log.Info("search snapshot has no stock side of this format; reading every stock row", "snapshot", h.ID, "stock_format", h.StockFormat)
		return false, nil
	case h.StockVersion > v:
		s.log.Warn("search snapshot's stock is newer than the stock version; reading every stock row",
			"snapshot", h.ID, "snapshot_stock_version", h.StockVersion, "stock_version", v)
		return false, nil
	}
	err := s.index.prod.loadSnapshot(ctx, *h, func(ctx context.Context, buf func(int) []byte, fn func(int, []byte) error) error {
		return s.snaps.readStockParts(ctx, h.ID, buf, fn)
	}, s.snapChanged)
	if err != nil {
		if ctx.Err() != nil {
			return false, err
		}
		s.log.Warn("search snapshot's stock unreadable; reading every stock row", "snapshot", h.ID, "err", err)
		return false, nil
	}
	// Every store stamped after the snapshot's stock, as pollProducts.
	stores, _, err := ps.stock.ChangedStores(ctx, h.StockVersion)
	if err != nil {
		return false, err
	}
	rows, err := ps.stock.OfStores(ctx, stores)
	if err != nil {
		return false, err
	}
	s.index.prod.ApplyStores(stores, rows)
	ps.version, ps.from = v, "snapshot"
	return true, nil
}

// pollProducts applies what changed of the product side since the last
// poll: the stock of the stores stamped after the version applied, a
// changed catalogue, new directories. Each is one single-row read when
// nothing changed.
func (s *Syncer) pollProducts(ctx context.Context) error {
	ps := s.prod
	if ps == nil {
		return nil
	}
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if err := s.pollCatalog(ctx, false); err != nil {
		return err
	}
	if err := s.pollLaw(ctx, false); err != nil {
		return err
	}
	v, err := ps.stock.Version(ctx)
	if err != nil {
		return err
	}
	if v == ps.version {
		return nil
	}
	if v < ps.version {
		return fmt.Errorf("the stock version went back from %d to %d (was the database restored?): restart this replica to reload its index", ps.version, v)
	}
	// Every store stamped up to v is in the answer (ChangedStores); one
	// stamped later may be too, which only reads it early.
	stores, _, err := ps.stock.ChangedStores(ctx, ps.version)
	if err != nil {
		return err
	}
	rows, err := ps.stock.OfStores(ctx, stores)
	if err != nil {
		return err
	}
	s.index.prod.ApplyStores(stores, rows)
	ps.version = v
	s.log.Debug("search stock updated", "stores", len(stores), "rows", len(rows), "version", v)
	return nil
}

// pollCatalog re-reads the catalogue when its signature moved (always
// when force). The caller holds ps.mu.
func (s *Syncer) pollCatalog(ctx context.Context, force bool) error {
	ps := s.prod
	sig, err := ps.catalog.Signature(ctx)
	if err != nil {
		return err
	}
	if sig == ps.signature && !force {
		return nil
	}
	all, err := ps.catalog.All(ctx)
	if err != nil {
		return err
	}
	s.index.prod.SetCatalog(NewCatalog(all))
	ps.signature = sig
	return nil
}

// pollLaw re-reads the state directories when a directory was imported
// since (always when force). The caller holds ps.mu.
func (s *Syncer) pollLaw(ctx context.Context, force bool) error {
	ps := s.prod
	if ps.law == nil {
		return nil
	}
	last, err := ps.law.LastImport(ctx)
	if err != nil {
		return err
	}
	if last == ps.lawImport && !force {
		return nil
	}
	dirs, err := ps.law.Directories(ctx)
	if err != nil {
		return err
	}
	s.index.prod.SetDirectories(dirs)
	ps.lawImport = last
	return nil
}
