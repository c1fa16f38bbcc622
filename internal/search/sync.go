package search

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"runtime/debug"
	"sync/atomic"
	"time"

	"locator/internal/metrics"
	"locator/internal/stores"
)

// Syncer keeps an Index equal to the published stores of the database: a
// full load at start (from a snapshot, see snapshot.go, or every row), then
// every interval the changes since the last version it saw, read from the
// store repository's change feed. Each replica runs its own; they agree
// through the database. The syncer only reads stores, and it changes the
// index through its methods (Apply, BulkLoad, the snapshot load) only.
type Syncer struct {
	// snapshots says when this replica writes search snapshots (see
	// snapshot.go); SnapshotOff also stops it from reading them.
	snapshots SnapshotMode

	repo     *stores.Repo
	snaps    snapRepo
	index    *Index
	log      *slog.Logger
	version  atomic.Int64
	synced   atomic.Int64 // unix nanoseconds: when the database was at the version applied
	ready    atomic.Bool
	snapBusy atomic.Bool
	from     string         // what Load read: "snapshot" or "rows"
	prod     *productSource // nil: the product side is not kept (WithProducts)
	snap     *snapHeader    // the snapshot Load found (nil: none), whose stock side loadProducts tries
	// snapChanged holds the stores changed since snap's search version
	// when the stores were loaded from it (nil otherwise): the only ones
	// whose stock rows a load of its stock side checks (stocksnap.go).
	snapChanged *idSet
}

// NewSyncer returns a syncer filling index from repo, writing and reading
// search snapshots as snapshots says.
func NewSyncer(repo *stores.Repo, index *Index, snapshots SnapshotMode, log *slog.Logger) *Syncer {
	return &Syncer{snapshots: snapshots, repo: repo, snaps: snapRepo{repo.DB()}, index: index, log: log}
}

// Ready reports whether the first full load finished.
func (s *Syncer) Ready() bool { return s.ready.Load() }

// Version is the last search version the index reflects.
func (s *Syncer) Version() int64 { return s.version.Load() }

// Metrics reads this replica's index for a scrape: its size and version,
// and from the database the version there (the lag) and the newest
// snapshot's age; two single-row reads.
func (s *Syncer) Metrics(ctx context.Context) metrics.Search {
	m := metrics.Search{Stores: s.index.Len(), Applied: s.version.Load()}
	if s.Ready() {
		m.Synced = time.Unix(0, s.synced.Load())
	}
	m.Database, m.DatabaseErr = s.repo.Version(ctx)
	h, ok, err := s.snaps.latest(ctx)
	if m.SnapshotErr = err; ok {
		m.Snapshot = time.Unix(h.Created, 0)
	}
	return m
}

// loadWorkers is how many connections read the stores at start-up, each
// its own range of ids (the readers' CPU, not the database, is the limit).
var loadWorkers = max(2, runtime.GOMAXPROCS(0))

// Load fills the index with every published store: from the newest
// search snapshot plus the stores written since it, or, when there is no
// usable snapshot, from every row.
func (s *Syncer) Load(ctx context.Context) error { return s.LoadBeside(ctx, nil) }

// LoadBeside is Load while the process runs other work beside it (the
// place index, at start-up): beside, when set, waits for that work and
// returns its error. The load waits for it before it collects the
// garbage: the GC is off while the index loads, and what that work left
// after the collection would stay in memory until the heap grew by a tenth.
func (s *Syncer) LoadBeside(ctx context.Context, beside func() error) error {
	start := time.Now()
	s.synced.Store(start.UnixNano())
	v, err := s.repo.Version(ctx)
	if err != nil {
		return err
	}
	old := debug.SetGCPercent(-1) // see load and loadRows
	attrs, err := s.load(ctx, v)
	if err == nil {
		err = s.loadProducts(ctx)
	}
	var besideErr error
	if err == nil && beside != nil {
		besideErr = beside()
	}
	debug.SetGCPercent(old)
	if err != nil {
		return fmt.Errorf("load search index: %w", err)
	}
	if besideErr != nil {
		return besideErr
	}
	debug.FreeOSMemory()
	tuneGC(old)
	s.version.Store(v)
	s.ready.Store(true)
	if s.prod != nil {
		attrs = append(attrs, "stock_from", s.prod.from, "stock_rows", s.index.prod.Rows(), "products", s.index.prod.Catalog().Len())
	}
	s.log.Info("search index loaded", append(attrs, "stores", s.index.Len(), "version", v,
		"duration", time.Since(start).Round(time.Millisecond))...)
	return nil
}

// load fills the empty index, from a snapshot if it can; v is the search
// version read before anything else. It returns attributes for the log.
func (s *Syncer) load(ctx context.Context, v int64) ([]any, error) {
	if s.snapshots != SnapshotOff {
		h, ok, err := s.snaps.latest(ctx)
		switch {
		case err != nil:
			s.log.Warn("search snapshot unavailable; reading every store", "err", err)
		case ok && h.Version > v:
			// A snapshot from the future: the search version went back
			// (a restore that kept the snapshot tables?). Trust the rows.
			s.log.Warn("search snapshot is newer than the search version; reading every store",
				"snapshot", h.ID, "snapshot_version", h.Version, "version", v)
		case ok:
			s.snap = &h
			// A snapshot load makes little garbage (the compressed parts
			// are read into a few buffers that go round, see loadSnapshot)
			// and keeps the rest: collecting while the
			// heap grows from nothing to its full size would only mark the
			// same records again and again (0.6 s at 1M stores).
			err := s.index.loadSnapshot(ctx, h, func(ctx context.Context, buf func(int) []byte, fn func(int, []byte) error) error {
				return s.snaps.readParts(ctx, h.ID, buf, fn)
			})
			if err == nil {
				// Everything written after the snapshot, as Poll would.
				var ids []int64
				n, err := s.applySince(ctx, h.Version, func(cs []stores.Change) {
					for i := range cs {
						ids = append(ids, cs[i].ID)
					}
				})
				if err != nil {
					return nil, err
				}
				changed := newIDSet(ids)
				s.snapChanged = &changed
				s.from = "snapshot"
				return []any{"from", "snapshot", "snapshot", h.ID, "snapshot_version", h.Version, "changes_since", n}, nil
			}
			if ctx.Err() != nil {
				return nil, err
			}
			s.log.Warn("search snapshot unreadable; reading every store", "snapshot", h.ID, "err", err)
		}
	}
	s.from = "rows"
	// Reading rows allocates a lot of short-lived garbage (row buffers); a
	// tight GC target keeps the peak resident size close to what the index
	// really needs.
	debug.SetGCPercent(25)
	return []any{"from", "rows"}, s.loadRows(ctx)
}

// loadRows reads every published store into the index.
func (s *Syncer) loadRows(ctx context.Context) error {
	return s.index.BulkLoad(func(b *Bulk) error {
		_, err := s.repo.ScanPublished(ctx, loadWorkers, 5000, b.Reserve, func(cs []stores.Change) error {
			b.Apply(cs)
			return nil
		})
		return err
	})
}

// applySince applies every store written after version since and
// returns how many there were; seen, when set, is shown each batch.
func (s *Syncer) applySince(ctx context.Context, since int64, seen func([]stores.Change)) (int, error) {
	n := 0
	_, err := s.repo.ScanChanges(ctx, since, 5000, func(cs []stores.Change) error {
		n += len(cs)
		if seen != nil {
			seen(cs)
		}
		s.index.Apply(cs)
		return nil
	})
	return n, err
}

// gcHeadroom is the garbage a serving replica may pile up between
// collections once the index is loaded.
const gcHeadroom = 256 << 20

// tuneGC bounds the heap's growth between collections by gcHeadroom
// instead of GOGC's default 100%: the index is most of the live heap and
// lives for ever, so at 1M stores GOGC=100 let request garbage grow the
// resident size from 1.2 GB after load to 2.4 GB under load, for nothing.
// Collections stay cheap, as the documents (most of the index) hold no
// pointers. An explicit GOGC, or a percent already below 100, is kept.
func tuneGC(percent int) {
	if os.Getenv("GOGC") != "" || percent < 100 {
		return
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	if ms.HeapAlloc == 0 {
		return
	}
	p := int(uint64(percent) * gcHeadroom / ms.HeapAlloc)
	debug.SetGCPercent(min(percent, max(p, 10)))
}

// Poll applies the changes since the last version seen, if any: of the
// stores, then of the product side (WithProducts).
func (s *Syncer) Poll(ctx context.Context) error {
	if err := s.pollStores(ctx); err != nil {
		return err
	}
	return s.pollProducts(ctx)
}

func (s *Syncer) pollStores(ctx context.Context) error {
	last := s.version.Load()
	read := time.Now()
	v, err := s.repo.Version(ctx)
	if err != nil {
		return err
	}
	if v == last {
		s.synced.Store(read.UnixNano())
		return nil
	}
	if v < last {
		// Only a restore of an older copy moves the version back. The
		// index keeps its version (the metrics show a negative lag): what
		// it holds is not what the database says.
		return fmt.Errorf("the search version went back from %d to %d (was the database restored?): restart this replica to reload its index", last, v)
	}
	n, err := s.applySince(ctx, last, nil)
	if err != nil {
		return err
	}
	// v was read before the scan: anything newer is picked up next time.
	s.version.Store(v)
	s.synced.Store(read.UnixNano())
	s.log.Debug("search index updated", "changes", n, "version", v)
	return nil
}

// SnapshotCheck is how often a serving replica considers writing a search
// snapshot (WriteSnapshot decides whether one is due).
const SnapshotCheck = 10 * time.Minute
