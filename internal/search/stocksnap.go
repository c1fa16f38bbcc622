package search

// The stock side of a search snapshot. Reading every stock row through
// the SQL drivers is what a replica's start-up would cost per stock row
// (at SLB-1's M, 10 million of them); a snapshot carries the product side
// as the index holds it, labelled with the stock version it reflects, so
// a replica loads it and re-reads only the stock of the stores stamped
// after that version (inventory.Repo.ChangedStores), as a poll would. A
// snapshot without a stock side (written before there was one, or by a
// replica without products), of another stock format, damaged, or newer
// than the database's stock version, is ignored: the replica reads every
// stock row instead (productsync.go, loadProducts).

import (
	"context"
	"encoding/binary"
	"fmt"
	"maps"
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/klauspost/compress/zstd"
	"golang.org/x/sync/errgroup"

	"locator/internal/inventory"
)

// stockSnapFormat is the layout of the stock parts. Bump it whenever it
// changes: replicas read the stock rows of a snapshot of another format.
// Format 2 keeps each product's rows as the index arranged them (placed
// rows in spatial order first) with their leaf boxes, so that a load
// reads no store position for the rows of stores unchanged since the
// snapshot (see loadSnapshot).
const stockSnapFormat = 2

// partStockRows is roughly how many stock rows one part holds (a product
// is never split). (A variable so that tests can make many small parts.)
var partStockRows = 1 << 21

// stockView is the product side at one stock version: its carriers never
// change once published, the price table only grows, so a copy of the
// map and of the slice headers is a consistent view to encode at leisure.
type stockView struct {
	version int64
	stock   map[int64]*carriers
	prices  []priceEntry
	bigQty  map[stockKey]int64
	rows    int
}

// view copies the product side's state. The caller keeps the stock version
// from moving meanwhile (productSource.mu).
func (p *Products) view(version int64) stockView {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return stockView{version: version, stock: maps.Clone(p.stock), prices: p.prices[:len(p.prices):len(p.prices)],
		bigQty: maps.Clone(p.bigQty), rows: p.rows}
}

// encodeStock writes the product side as it is now through put, part by
// part, and returns what the snapshot's header records of it; without
// products, a side of version -1 and no parts.
func (s *Syncer) encodeStock(put func(part int, data []byte) error) (stockSide, error) {
	ps := s.prod
	if ps == nil {
		return stockSide{version: -1}, nil
	}
	ps.mu.Lock()
	v := s.index.prod.view(ps.version)
	ps.mu.Unlock()
	parts, err := v.encode(put)
	if err != nil {
		return stockSide{}, err
	}
	return stockSide{version: v.version, parts: parts, rows: v.rows}, nil
}

// encode writes the view as parts of about partStockRows rows, products
// in id order, and returns how many parts it wrote.
//
// A part is one zstd frame of: uvarint the number of prices, each a varint
// price, a varint sale price (hundredths, -1: none) and 3 bytes of currency;
// uvarint the number of products; per product a varint id delta, uvarint
// n, uvarint placed (carriers.placed), then its n rows column by column, in
// the order the index keeps them: uvarint store ids, varint deltas of the
// report time (Unix seconds), uvarint price numbers (in the part's
// prices), uvarint quantity+1 (0: none), and one availability byte each
// (inventory.Availabilities); then its leaf boxes (level 0 of
// carriers.boxes, none when the placed rows fit one leaf), each 4 float32
// little endian: min longitude, min latitude, max longitude, max latitude.
// The levels above are unions of the leaves, made again on load.
//
// The order and boxes are those of the index's store points when the view
// was taken, which is after the snapshot's stores were copied: a store
// whose point differs between the two changed after the snapshot's search
// version, and a load checks exactly those stores' rows.
func (v stockView) encode(put func(part int, data []byte) error) (int, error) {
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1))
	if err != nil {
		return 0, fmt.Errorf("search snapshot: %w", err)
	}
	defer enc.Close()
	keys := slices.Sorted(maps.Keys(v.stock))
	parts := 0
	var raw, out []byte
	for len(keys) > 0 {
		n, rows := 0, 0
		for n < len(keys) && (n == 0 || rows < partStockRows) {
			rows += len(v.stock[keys[n]].ids)
			n++
		}
		raw = v.appendPart(raw[:0], keys[:n])
		out = enc.EncodeAll(raw, out[:0])
		if err := put(parts, out); err != nil {
			return 0, err
		}
		parts++
		keys = keys[n:]
	}
	return parts, nil
}

// appendPart appends the uncompressed part of the products keys.
func (v stockView) appendPart(dst []byte, keys []int64) []byte {
	local := map[uint32]uint64{} // the view's price number -> the part's
	var table []uint32
	for _, k := range keys {
		for _, pn := range v.stock[k].price {
			if _, ok := local[pn]; !ok {
				local[pn] = uint64(len(table))
				table = append(table, pn)
			}
		}
	}
	dst = binary.AppendUvarint(dst, uint64(len(table)))
	for _, pn := range table {
		pe := v.prices[pn]
		dst = binary.AppendVarint(dst, int64(pe.price))
		dst = binary.AppendVarint(dst, int64(pe.sale))
		dst = append(dst, pe.currency[:]...)
	}
	dst = binary.AppendUvarint(dst, uint64(len(keys)))
	prev := int64(0)
	for _, k := range keys {
		c := v.stock[k]
		dst = binary.AppendVarint(dst, k-prev)
		prev = k
		dst = binary.AppendUvarint(dst, uint64(len(c.ids)))
		dst = binary.AppendUvarint(dst, uint64(c.placed))
		for _, id := range c.ids {
			dst = binary.AppendUvarint(dst, uint64(id))
		}
		last := int64(0)
		for _, r := range c.reported {
			dst = binary.AppendVarint(dst, int64(r)-last)
			last = int64(r)
		}
		for _, pn := range c.price {
			dst = binary.AppendUvarint(dst, local[pn])
		}
		for i, q := range c.qty {
			switch q {
			case qtyNone:
				dst = append(dst, 0)
			case qtyBig:
				dst = binary.AppendUvarint(dst, uint64(v.bigQty[stockKey{k, int64(c.ids[i])}])+1)
			default:
				dst = binary.AppendUvarint(dst, uint64(q)+1)
			}
		}
		dst = append(dst, c.avail...)
		start, levels := c.boxLevels()
		if levels > 0 {
			for _, b := range c.boxes[:start[1]] {
				for _, f := range [...]float32{b.minLon, b.minLat, b.maxLon, b.maxLat} {
					dst = binary.LittleEndian.AppendUint32(dst, math.Float32bits(f))
				}
			}
		}
	}
	return dst
}

// stockPart is one decoded part: its products' carriers (arranged as
// written) and the quantities too large for a row.
type stockPart struct {
	stock  map[int64]*carriers
	bigQty map[stockKey]int64
	rows   int
}

// decodeStockPart reads one part, interning its prices in p.
func (p *Products) decodeStockPart(dec *zstd.Decoder, data []byte) (stockPart, error) {
	raw, err := dec.DecodeAll(data, nil)
	if err != nil {
		return stockPart{}, fmt.Errorf("%w: %w", errCorrupt, err)
	}
	rd := partReader{b: raw}
	np := rd.uvarint()
	if rd.bad || np > uint64(len(raw)/5) { // a price takes 5 bytes at least
		return stockPart{}, errCorrupt
	}
	table := make([]priceEntry, np)
	for i := range table {
		price, sale := rd.varint(), rd.varint()
		cur := rd.bytes(3)
		if rd.bad || price < -1 || price > 1<<31-1 || sale < -1 || sale > 1<<31-1 {
			return stockPart{}, errCorrupt
		}
		table[i] = priceEntry{price: int32(price), sale: int32(sale)}
		copy(table[i].currency[:], cur)
	}
	nums := make([]uint32, np) // the part's price number -> p's
	p.mu.Lock()
	for i, pe := range table {
		nums[i] = p.internPrice(pe)
	}
	p.mu.Unlock()
	out := stockPart{stock: map[int64]*carriers{}, bigQty: map[stockKey]int64{}}
	nk := rd.uvarint()
	if rd.bad || nk > uint64(len(raw)) {
		return stockPart{}, errCorrupt
	}
	var product int64
	for range nk {
		product += rd.varint()
		n, placed := rd.uvarint(), rd.uvarint()
		if rd.bad || n == 0 || n > uint64(len(rd.b)/5) || placed > n { // a row takes 5 bytes at least
			return stockPart{}, errCorrupt
		}
		if _, dup := out.stock[product]; dup {
			return stockPart{}, fmt.Errorf("%w: product %d twice", errCorrupt, product)
		}
		c := &carriers{ids: make([]uint32, n), reported: make([]uint32, n), price: make([]uint32, n),
			qty: make([]uint16, n), avail: make([]uint8, n), placed: int(placed)}
		for i := range c.ids {
			id := rd.uvarint()
			if id > 1<<32-1 {
				return stockPart{}, errCorrupt
			}
			c.ids[i] = uint32(id)
		}
		at := int64(0)
		for i := range c.reported {
			at += rd.varint()
			if at < 0 || at > 1<<32-1 {
				return stockPart{}, errCorrupt
			}
			c.reported[i] = uint32(at)
		}
		for i := range c.price {
			pn := rd.uvarint()
			if pn >= np {
				return stockPart{}, errCorrupt
			}
			c.price[i] = nums[pn]
		}
		for i := range c.qty {
			switch q := rd.uvarint(); {
			case q == 0:
				c.qty[i] = qtyNone
			case q-1 >= qtyBig:
				if q-1 > 1<<62 {
					return stockPart{}, errCorrupt
				}
				c.qty[i] = qtyBig
				out.bigQty[stockKey{product, int64(c.ids[i])}] = int64(q - 1)
			default:
				c.qty[i] = uint16(q - 1)
			}
		}
		copy(c.avail, rd.bytes(n))
		if rd.bad {
			return stockPart{}, errCorrupt
		}
		for _, a := range c.avail {
			if int(a) >= len(inventory.Availabilities) {
				return stockPart{}, errCorrupt
			}
		}
		// The rows outside the index are by id (find searches them so).
		for i := c.placed + 1; i < len(c.ids); i++ {
			if c.ids[i] <= c.ids[i-1] {
				return stockPart{}, errCorrupt
			}
		}
		if err := readBoxes(&rd, c); err != nil {
			return stockPart{}, err
		}
		out.stock[product] = c
		out.rows += int(n)
	}
	if len(rd.b) != 0 {
		return stockPart{}, errCorrupt
	}
	return out, nil
}

// readBoxes reads c's leaf boxes and makes the levels above them. A box
// that is not a box on the globe (NaN, min above max, out of range) is
// errCorrupt: a search would skip the stores it should hold.
func readBoxes(rd *partReader, c *carriers) error {
	start, levels := c.boxLevels()
	if levels == 0 {
		return nil
	}
	raw := rd.bytes(uint64(start[1]) * 16)
	if rd.bad {
		return errCorrupt
	}
	c.boxes = make([]pbox, start[levels])
	for b := range start[1] {
		f := func(k int) float32 { return math.Float32frombits(binary.LittleEndian.Uint32(raw[b*16+k*4:])) }
		x := pbox{minLon: f(0), minLat: f(1), maxLon: f(2), maxLat: f(3)}
		// Written so that NaN fails every test.
		if !(x.minLon <= x.maxLon && x.minLat <= x.maxLat && x.minLon >= -180 && x.maxLon <= 180 && x.minLat >= -90 && x.maxLat <= 90) {
			return fmt.Errorf("%w: box %d of %d", errCorrupt, b, start[1])
		}
		c.boxes[b] = x
	}
	c.unionLevels()
	return nil
}

// loadSnapshot replaces the product side with the stock side of snapshot
// h, whose parts read calls fn with in part order. Parts are decoded by
// loadWorkers goroutines. Nothing is replaced unless every part reads
// back and the rows add up to the header's.
//
// The rows come arranged as the index was when the snapshot was written.
// When the index's stores were loaded from the same snapshot, changed
// holds the stores changed since its search version (the only ones that
// can be elsewhere now): a product is arranged again only when one of
// them is out of place (Index.stillArranged). Without it (nil: the stores
// were read from the rows) every product is arranged again.
func (p *Products) loadSnapshot(ctx context.Context, h snapHeader, read partsFunc, changed *idSet) error {
	if !h.hasStock() || h.StockParts < 0 || h.StockRows < 0 {
		return errCorrupt
	}
	dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(loadWorkers), zstd.WithDecoderMaxMemory(maxPartBytes))
	if err != nil {
		return fmt.Errorf("search snapshot: %w", err)
	}
	defer dec.Close()
	jobs := make(chan partJob, loadWorkers)
	var mu sync.Mutex // guards what follows
	build := map[int64]*carriers{}
	big := map[stockKey]int64{}
	rows := 0
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error {
		return sendParts(gctx, read, func(n int) []byte { return make([]byte, 0, n) }, h.StockParts, "stock part", jobs)
	})
	for range loadWorkers {
		g.Go(func() error {
			for j := range jobs {
				sp, err := p.decodeStockPart(dec, j.data)
				if err != nil {
					return fmt.Errorf("stock part %d: %w", j.part, err)
				}
				mu.Lock()
				for k, c := range sp.stock {
					if _, dup := build[k]; dup {
						mu.Unlock()
						return fmt.Errorf("%w: product %d in two stock parts", errCorrupt, k)
					}
					build[k] = c
				}
				maps.Copy(big, sp.bigQty)
				rows += sp.rows
				mu.Unlock()
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	if rows != h.StockRows {
		return fmt.Errorf("%w: %d of %d stock rows", errCorrupt, rows, h.StockRows)
	}
	p.rearrange(build, changed)
	p.mu.Lock()
	p.stock, p.rows, p.bigQty = build, rows, big
	p.mu.Unlock()
	p.gen.Add(1)
	return nil
}

// rearrange arranges again, in place, the products of build whose rows
// are out of place for the index's stores now (all of them when changed
// is nil; see loadSnapshot), spread over loadWorkers goroutines.
func (p *Products) rearrange(build map[int64]*carriers, changed *idSet) {
	if changed != nil && len(*changed) == 0 {
		return
	}
	keys := slices.Collect(maps.Keys(build))
	fresh := make([]*carriers, len(keys))
	var next atomic.Int64
	var wg sync.WaitGroup
	p.ix.mu.RLock()
	for range loadWorkers {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(keys); i = int(next.Add(1) - 1) {
				c := build[keys[i]]
				if changed == nil || !p.ix.stillArranged(c, *changed) {
					fresh[i] = p.ix.arrange(c)
				}
			}
		})
	}
	wg.Wait()
	p.ix.mu.RUnlock()
	for i, c := range fresh {
		if c != nil {
			build[keys[i]] = c
		}
	}
}
