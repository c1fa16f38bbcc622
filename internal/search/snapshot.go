package search

// Snapshots of the search index. Decoding a million rows through the SQL
// drivers costs 5-7 s of CPU; a snapshot of the built index (records in
// Hilbert order, documents S2-compressed ~9x) loads in about a second.
// Snapshots live in the database (search_snapshots, search_snapshot_parts),
// so every replica, a new one included, starts from the same one. Each is
// labelled with the search version it reflects: a replica loads the newest,
// then re-reads only the stores written after that version (as Poll does),
// so a snapshot never has to be current to give a correct index.

import (
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/klauspost/compress/s2"
	"github.com/klauspost/compress/zstd"
	"golang.org/x/sync/errgroup"

	"locator/internal/rules"
	"locator/internal/schedule"
)

// snapshotFormat is the layout of the parts. Bump it whenever the layout or
// the rendering of the documents changes: replicas ignore other formats and
// load from the rows instead.
// Format 2: schedules carry special hours and closures
// (stores.EncodeStoreSchedule), and permanently closed stores are left out.
// Format 3 adds each store's last change (updated_at), which store pages
// and sitemaps show.
// Format 4: documents carry "licence" and "enforcement", records the
// licence flags (flagLicensed, flagDemoted).
// Format 5: documents carry "adult_only" (the rulebook's store kind).
// Format 6: documents come in a list part and a detail part
// (stores.ListEnd), "adult_only" starting the detail part.
// Format 7: a document whose detail part is plainDetail is stored without
// it, its record flagged flagPlainDetail.
// Format 8: each record names its place (the rulebook's address and kind,
// docPlace) in a table of the part, and where its list part ends, so that
// a load reads no document; the documents are an S2 block (twice as fast
// to decode as zstd, for 1.3x the bytes).
const snapshotFormat = 8

// SnapshotMode says when a replica writes search snapshots.
type SnapshotMode int

const (
	// SnapshotAuto writes snapshots for indexes of SnapshotMinStores or
	// more, when none exists or SnapshotStale says the newest is stale.
	SnapshotAuto SnapshotMode = iota
	// SnapshotAlways writes them whatever the size, after any change.
	SnapshotAlways
	// SnapshotOff neither reads nor writes snapshots.
	SnapshotOff
)

// SnapshotMinStores is the smallest index SnapshotAuto snapshots: below it
// loading from the rows takes well under a second anyway.
const SnapshotMinStores = 50_000

// SnapshotStale is how many stores written since the newest snapshot make
// it worth replacing, for an index of n stores (SnapshotAuto): 5%, at least
// 1,000. Until then a start-up re-reads those rows after the snapshot.
func SnapshotStale(n int) int { return max(1000, n/20) }

// partDocBytes is roughly how many document bytes one part holds: parts
// are decoded in parallel and each becomes one arena chunk. (A variable
// so that tests can make many small parts.)
var partDocBytes = 16 << 20

const (
	// maxPartBytes bounds what the decoder allocates for one part, so a
	// damaged part cannot ask for gigabytes.
	maxPartBytes = 256 << 20
)

var errCorrupt = errors.New("search snapshot is damaged")

// WriteSnapshot writes a snapshot of the index as it is now if the policy
// (the mode given to NewSyncer) asks for one, and reports whether it wrote one. One replica
// writes at a time (see snapRepo.begin); the others skip.
func (s *Syncer) WriteSnapshot(ctx context.Context) (bool, error) {
	n := s.index.Len()
	if n == 0 || s.snapshots == SnapshotOff || (s.snapshots == SnapshotAuto && n < SnapshotMinStores) || !s.Ready() {
		return false, nil
	}
	if !s.snapBusy.CompareAndSwap(false, true) {
		return false, nil
	}
	defer s.snapBusy.Store(false)
	h, ok, err := s.snaps.latest(ctx)
	if err != nil {
		return false, err
	}
	if ok {
		due, err := s.storesDue(ctx, h, n)
		if err != nil {
			return false, err
		}
		if !due {
			if due, err = s.stockDue(ctx, h, n); err != nil || !due {
				return false, err
			}
		}
	}
	return s.writeSnapshot(ctx)
}

// storesDue reports whether enough stores changed since snapshot h to
// write a new one.
func (s *Syncer) storesDue(ctx context.Context, h snapHeader, n int) (bool, error) {
	if h.Version >= s.version.Load() {
		return false, nil
	}
	changed, err := s.repo.ChangedSince(ctx, h.Version)
	if err != nil {
		return false, err
	}
	return changed > 0 && (s.snapshots != SnapshotAuto || changed >= SnapshotStale(n)), nil
}

// stockDue reports whether snapshot h lacks this replica's stock side or
// enough stores' stock changed since it (as many as storesDue asks of the
// stores) to write a new one.
func (s *Syncer) stockDue(ctx context.Context, h snapHeader, n int) (bool, error) {
	if s.prod == nil {
		return false, nil
	}
	if !h.hasStock() {
		return true, nil
	}
	if h.StockVersion >= s.StockVersion() {
		return false, nil
	}
	changed, err := s.prod.stock.ChangedSince(ctx, h.StockVersion)
	if err != nil {
		return false, err
	}
	return changed > 0 && (s.snapshots != SnapshotAuto || changed >= SnapshotStale(n)), nil
}

func (s *Syncer) writeSnapshot(ctx context.Context) (bool, error) {
	start := time.Now()
	// The label is read before the records are copied: the copy holds at
	// least every change up to it, and a load re-reads whatever came later.
	v := s.version.Load()
	sv := int64(-1) // the stock side's label is read when it is copied (encodeStock)
	if s.prod != nil {
		sv = s.StockVersion()
	}
	// Claim the writing first, so that a replica that loses the race does
	// not copy and sort the index for nothing.
	id, err := s.snaps.begin(ctx, v, sv, time.Now())
	if err != nil || id == 0 {
		return false, err
	}
	fail := func(err error) (bool, error) {
		dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		if derr := s.snaps.drop(dctx, id); derr != nil {
			s.log.Warn("could not delete an unfinished search snapshot", "snapshot", id, "err", derr)
		}
		return false, err
	}
	n, parts, total, err := s.index.encodeSnapshot(func(part int, data []byte) error {
		return s.snaps.putPart(ctx, id, part, data)
	})
	if err != nil {
		return fail(err)
	}
	stockBytes := int64(0)
	stock, err := s.encodeStock(func(part int, data []byte) error {
		stockBytes += int64(len(data))
		return s.snaps.putStockPart(ctx, id, part, data)
	})
	if err != nil {
		return fail(err)
	}
	if err := s.snaps.complete(ctx, id, v, n, parts, total+stockBytes, stock, time.Now()); err != nil {
		return fail(err)
	}
	s.log.Info("search snapshot written", "snapshot", id, "version", v, "stores", n,
		"parts", parts, "bytes", total, "stock_version", stock.version, "stock_rows", stock.rows,
		"stock_parts", stock.parts, "stock_bytes", stockBytes, "duration", time.Since(start).Round(time.Millisecond))
	return true, nil
}

// encodeSnapshot encodes the index as it is now into snapshot parts
// (see encodePart), calling put with each in order, and returns how many
// stores and parts it wrote and their size.
func (ix *Index) encodeSnapshot(put func(part int, data []byte) error) (n, parts int, total int64, err error) {
	recs, names := ix.liveRecords()
	// In the tree's order (see pkey), so that a load packs it without a sort.
	order := make([]hilbertKey, len(recs))
	for i := range recs {
		order[i] = hilbertKey{pkey(newPitem(recs[i].lat, recs[i].lon, 0)), uint32(i)}
	}
	slices.SortFunc(order, func(a, b hilbertKey) int {
		if c := cmp.Compare(a.key, b.key); c != 0 {
			return c
		}
		return cmp.Compare(recs[a.slot].id, recs[b.slot].id)
	})
	var cuts []int // part p is order[cuts[p]:cuts[p+1]]
	size := 0
	for i := range order {
		if i == 0 || size >= partDocBytes {
			cuts = append(cuts, i)
			size = 0
		}
		size += len(recs[order[i].slot].doc)
	}
	cuts = append(cuts, len(order))
	parts = len(cuts) - 1
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1))
	if err != nil {
		return 0, 0, 0, fmt.Errorf("search snapshot: %w", err)
	}
	defer enc.Close()
	var buf []byte
	for p := range parts {
		buf = encodePart(enc, buf[:0], recs, order[cuts[p]:cuts[p+1]], cuts[p], names)
		total += int64(len(buf))
		if err := put(p, buf); err != nil {
			return 0, 0, 0, err
		}
	}
	return len(recs), parts, total, nil
}

// liveRecords copies the live records and names each schedule by its
// encoding. The documents are shared, not copied: the index never writes
// over a document's bytes, it only stops pointing at them.
func (ix *Index) liveRecords() ([]record, map[*schedule.Schedule]string) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	recs := make([]record, 0, len(ix.slots))
	for i := range ix.recs {
		if ix.recs[i].live {
			recs = append(recs, ix.recs[i])
		}
	}
	names := make(map[*schedule.Schedule]string, len(ix.sched))
	for enc, s := range ix.sched {
		names[s] = enc
	}
	return recs, names
}

// A part is uvarint(len(meta)) meta docs, where meta is a zstd frame and
// docs an S2 block (github.com/klauspost/compress/s2). meta decodes to:
// uvarint first (the slot of the part's first record), uvarint n, the zone
// names, the schedule encodings and the places used (each a uvarint
// count, then uvarint-length strings; a place is appendPlaceKey's), then n
// records of varint id delta, float64 lat, float64 lon (little endian),
// flags byte, uvarint zone, uvarint schedule, varint updated (Unix
// seconds), uvarint place, uvarint list end, uvarint document length. docs
// decodes to the n documents back to back (each without its closing
// brace, as in the index).
func encodePart(enc *zstd.Encoder, dst []byte, recs []record, order []hilbertKey, first int, names map[*schedule.Schedule]string) []byte {
	zones := map[string]uint64{}
	scheds := map[*schedule.Schedule]uint64{}
	places := map[string]uint64{}
	var zoneList, schedList, placeList []string
	var key []byte
	var body, docs []byte
	var prev int64
	for _, k := range order {
		r := &recs[k.slot]
		zn := r.loc.String()
		zi, ok := zones[zn]
		if !ok {
			zi = uint64(len(zoneList))
			zones[zn] = zi
			zoneList = append(zoneList, zn)
		}
		si, ok := scheds[r.sched]
		if !ok {
			si = uint64(len(schedList))
			scheds[r.sched] = si
			schedList = append(schedList, names[r.sched])
		}
		p, adult, _ := docPlace(r.doc, r.flags&flagPlainDetail != 0)
		key = appendPlaceKey(key[:0], p, adult)
		pi, ok := places[string(key)]
		if !ok {
			pi = uint64(len(placeList))
			places[string(key)] = pi
			placeList = append(placeList, string(key))
		}
		body = binary.AppendVarint(body, r.id-prev)
		prev = r.id
		body = binary.LittleEndian.AppendUint64(body, math.Float64bits(r.lat))
		body = binary.LittleEndian.AppendUint64(body, math.Float64bits(r.lon))
		body = append(body, r.flags)
		body = binary.AppendUvarint(body, zi)
		body = binary.AppendUvarint(body, si)
		body = binary.AppendVarint(body, r.updated)
		body = binary.AppendUvarint(body, pi)
		body = binary.AppendUvarint(body, uint64(r.listEnd))
		body = binary.AppendUvarint(body, uint64(len(r.doc)))
		docs = append(docs, r.doc...)
	}
	meta := binary.AppendUvarint(nil, uint64(first))
	meta = binary.AppendUvarint(meta, uint64(len(order)))
	for _, list := range [][]string{zoneList, schedList, placeList} {
		meta = binary.AppendUvarint(meta, uint64(len(list)))
		for _, s := range list {
			meta = binary.AppendUvarint(meta, uint64(len(s)))
			meta = append(meta, s...)
		}
	}
	meta = enc.EncodeAll(append(meta, body...), nil)
	dst = binary.AppendUvarint(dst, uint64(len(meta)))
	dst = append(dst, meta...)
	return append(dst, s2.Encode(nil, docs)...)
}

// decodedPart is one part read back: its records' documents point into
// one buffer, which becomes an arena chunk of the index.
type decodedPart struct {
	first int
	recs  []record
}

// decodePart reads one part; st interns its zones and schedules (under
// st.mu, as parts decode in parallel).
func decodePart(dec *zstd.Decoder, data []byte, st *Index) (decodedPart, error) {
	ml, k := binary.Uvarint(data)
	if k <= 0 || ml > uint64(len(data)-k) {
		return decodedPart{}, errCorrupt
	}
	meta, err := dec.DecodeAll(data[k:k+int(ml)], nil)
	if err != nil {
		return decodedPart{}, fmt.Errorf("%w: %w", errCorrupt, err)
	}
	rd := partReader{b: meta}
	first, n := rd.uvarint(), rd.uvarint()
	if rd.bad || first > slotMask || n > uint64(len(meta)/20) { // a record takes 20 bytes at least
		return decodedPart{}, errCorrupt
	}
	var tables [3][]string
	for t := range tables {
		c := rd.uvarint()
		if c > uint64(len(meta)) {
			return decodedPart{}, errCorrupt
		}
		for range c {
			tables[t] = append(tables[t], string(rd.bytes(rd.uvarint())))
		}
	}
	if rd.bad {
		return decodedPart{}, errCorrupt
	}
	// Each place is matched against this binary's rulebook once.
	sets := make([]*rules.Set, len(tables[2]))
	for i, key := range tables[2] {
		p, adult, ok := parsePlaceKey(key)
		if !ok {
			return decodedPart{}, errCorrupt
		}
		sets[i] = book.Set(p, adult)
	}
	st.mu.Lock()
	zones := make([]*time.Location, len(tables[0]))
	for i, name := range tables[0] {
		zones[i] = st.zone(name)
	}
	scheds := make([]*schedule.Schedule, len(tables[1]))
	for i, enc := range tables[1] {
		scheds[i] = st.schedule(enc)
	}
	setNums := make([]uint16, len(sets))
	for i, s := range sets {
		setNums[i] = st.internRules(s)
	}
	st.mu.Unlock()
	p := decodedPart{first: int(first), recs: make([]record, n)}
	lens := make([]int, n)
	total := 0
	var id int64
	for i := range p.recs {
		id += rd.varint()
		lat, lon := math.Float64frombits(rd.u64()), math.Float64frombits(rd.u64())
		flags := rd.byte()
		zi, si := rd.uvarint(), rd.uvarint()
		updated := rd.varint()
		pi, listEnd, dl := rd.uvarint(), rd.uvarint(), rd.uvarint()
		if rd.bad || zi >= uint64(len(zones)) || si >= uint64(len(scheds)) || pi >= uint64(len(setNums)) ||
			dl > maxPartBytes || listEnd > dl || flags > flagPlainDetail<<1-1 {
			return decodedPart{}, errCorrupt
		}
		p.recs[i] = record{id: id, lat: lat, lon: lon, loc: zones[zi], sched: scheds[si], updated: updated, flags: flags, live: true,
			rules: setNums[pi], listEnd: uint32(listEnd)}
		lens[i] = int(dl)
		total += int(dl)
	}
	if rd.bad || len(rd.b) != 0 || total > maxPartBytes {
		return decodedPart{}, errCorrupt
	}
	// The block's header says how long it decodes to: the meta's total,
	// checked before anything is allocated.
	block := data[k+int(ml):]
	if n, err := s2.DecodedLen(block); err != nil || n != total {
		return decodedPart{}, errCorrupt
	}
	docs, err := s2.Decode(make([]byte, total), block)
	if err != nil {
		return decodedPart{}, fmt.Errorf("%w: %w", errCorrupt, err)
	}
	if len(docs) != total {
		return decodedPart{}, errCorrupt
	}
	off := 0
	for i := range p.recs {
		end := off + lens[i]
		p.recs[i].doc = docs[off:end:end]
		off = end
	}
	return p, nil
}

// appendPlaceKey appends the snapshot's name of a place: its four fields
// as uvarint-length strings, then 1 for adult-only or 0.
func appendPlaceKey(dst []byte, p rules.Place, adult bool) []byte {
	for _, f := range [...]string{p.Country, p.State, p.City, p.ZIP} {
		dst = binary.AppendUvarint(dst, uint64(len(f)))
		dst = append(dst, f...)
	}
	if adult {
		return append(dst, 1)
	}
	return append(dst, 0)
}

// parsePlaceKey reads appendPlaceKey's name back.
func parsePlaceKey(key string) (p rules.Place, adult bool, ok bool) {
	rd := partReader{b: []byte(key)}
	var f [4]string
	for i := range f {
		f[i] = string(rd.bytes(rd.uvarint()))
	}
	a := rd.byte()
	if rd.bad || len(rd.b) != 0 || a > 1 {
		return rules.Place{}, false, false
	}
	return rules.Place{Country: f[0], State: f[1], City: f[2], ZIP: f[3]}, a == 1, true
}

// partReader reads the meta of a part; any short read sets bad.
type partReader struct {
	b   []byte
	bad bool
}

func (r *partReader) uvarint() uint64 {
	v, k := binary.Uvarint(r.b)
	r.skip(k)
	return v
}

func (r *partReader) varint() int64 {
	v, k := binary.Varint(r.b)
	r.skip(k)
	return v
}

// skip consumes the k bytes a varint decoder read; k <= 0 (too short or
// overlong, when the decoders return 0) marks the part bad.
func (r *partReader) skip(k int) {
	if k <= 0 {
		r.bad, r.b = true, nil
		return
	}
	r.b = r.b[k:]
}

func (r *partReader) u64() uint64 {
	if b := r.bytes(8); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

func (r *partReader) byte() uint8 {
	if b := r.bytes(1); b != nil {
		return b[0]
	}
	return 0
}

// bytes consumes n bytes; fewer left marks the part bad (nil).
func (r *partReader) bytes(n uint64) []byte {
	if n > uint64(len(r.b)) {
		r.bad, r.b = true, nil
		return nil
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v
}

// loadSnapshot fills the (empty) index from snapshot h, whose parts read
// calls fn with in part order, each in a buffer from buf. Parts are read
// on one connection, decoded by loadWorkers goroutines and gathered in
// part order (curve order) as they come; the tree is packed at the end. The index is only touched once
// everything is read and checked: a damaged snapshot leaves it empty for
// the row load.
func (ix *Index) loadSnapshot(ctx context.Context, h snapHeader, read partsFunc) error {
	if h.Stores < 0 || h.Stores > slotMask || h.Parts < 0 {
		return errCorrupt
	}
	dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(loadWorkers), zstd.WithDecoderMaxMemory(maxPartBytes))
	if err != nil {
		return fmt.Errorf("search snapshot: %w", err)
	}
	defer dec.Close()
	st := NewIndex() // staging: zones, schedules, tree, records
	parts := make([]decodedPart, h.Parts)
	ready := make([]chan struct{}, h.Parts)
	for i := range ready {
		ready[i] = make(chan struct{})
	}
	jobs := make(chan partJob, loadWorkers)
	// A part's buffer is garbage once decoded: handed round, a few are in
	// use at any time instead of ~120 MB per million stores piling up
	// while the GC is held off (Syncer.Load), and none outlives the load.
	free := make(chan []byte, loadWorkers+2)
	buf := func(n int) []byte {
		select {
		case b := <-free:
			if cap(b) >= n {
				return b[:0]
			}
		default:
		}
		return make([]byte, 0, n)
	}
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error { return sendParts(gctx, read, buf, h.Parts, "part", jobs) })
	for range loadWorkers {
		g.Go(func() error {
			for j := range jobs {
				p, err := decodePart(dec, j.data, st)
				select { // decodePart keeps nothing of it
				case free <- j.data:
				default:
				}
				if err != nil {
					return fmt.Errorf("part %d: %w", j.part, err)
				}
				parts[j.part] = p
				close(ready[j.part])
			}
			return nil
		})
	}
	recs := make([]record, 0, h.Stores)
	slots := make(map[int64]uint32, h.Stores)
	pts := make([]pitem, 0, h.Stores)
	g.Go(func() error {
		for i := range parts {
			select {
			case <-ready[i]:
			case <-gctx.Done():
				return gctx.Err()
			}
			p := parts[i]
			parts[i] = decodedPart{}
			if p.first != len(recs) || len(recs)+len(p.recs) > h.Stores {
				return fmt.Errorf("%w: part %d holds stores %d-%d of %d", errCorrupt, i, p.first, p.first+len(p.recs), h.Stores)
			}
			for j := range p.recs {
				r := &p.recs[j]
				slot := uint32(len(recs))
				// One map operation: an id seen before leaves the map as long.
				if slots[r.id] = slot; len(slots) != len(recs)+1 {
					return fmt.Errorf("%w: store %d twice", errCorrupt, r.id)
				}
				pts = append(pts, newPitem(r.lat, r.lon, treeItem(slot, r.flags)))
				recs = append(recs, *r)
			}
		}
		if len(recs) != h.Stores {
			return fmt.Errorf("%w: %d of %d stores", errCorrupt, len(recs), h.Stores)
		}
		return nil
	})
	if err := g.Wait(); err != nil {
		return err
	}
	st.recs, st.slots = recs, slots
	st.tree.build(pts, false) // in key order as written; checked, as the deletes rely on it
	return ix.adopt(st)
}

// partsFunc reads a snapshot's parts (of stores or of stock): fn with
// each, in part order, read into a buffer from buf.
type partsFunc func(ctx context.Context, buf func(n int) []byte, fn func(part int, data []byte) error) error

// partJob is one part read, for a decoding goroutine.
type partJob struct {
	part int
	data []byte
}

// sendParts reads the parts through read and hands each to jobs, closing
// jobs at the end; a part out of order or missing (of the parts the header
// counts) is errCorrupt, named as what ("part", "stock part").
func sendParts(ctx context.Context, read partsFunc, buf func(n int) []byte, parts int, what string, jobs chan<- partJob) error {
	defer close(jobs)
	next := 0
	err := read(ctx, buf, func(part int, data []byte) error {
		if part != next || part >= parts {
			return fmt.Errorf("%w: %s %d where %d was expected", errCorrupt, what, part, next)
		}
		next++
		select {
		case jobs <- partJob{part, data}:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	})
	if err == nil && next != parts {
		err = fmt.Errorf("%w: %d of %d %ss", errCorrupt, next, parts, what)
	}
	return err
}

// adopt takes over the contents of st (a staging index nobody else uses);
// the index must be empty.
func (ix *Index) adopt(st *Index) error {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if len(ix.slots) != 0 || len(ix.recs) != 0 {
		return errors.New("search index: load into an index that is not empty")
	}
	ix.tree, ix.recs, ix.slots, ix.free = st.tree, st.recs, st.slots, nil
	ix.arena = arena{} // later documents go to new chunks, never into a part's
	ix.zones, ix.sched = st.zones, st.sched
	ix.ruleSets, ix.ruleAt = st.ruleSets, st.ruleAt
	ix.pos = nil
	ix.areas, ix.areaAt = nil, nil // numbered after st's rule sets
	for slot := range ix.recs {
		if r := &ix.recs[slot]; r.live {
			ix.setPos(r.id, r.lat, r.lon, treeItem(uint32(slot), r.flags), ix.areaNumber(r))
			ix.moved = append(ix.moved, r.id)
		}
	}
	ix.relocateMoved()
	ix.gen++
	return nil
}
