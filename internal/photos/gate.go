package photos

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"runtime/debug"
	"sync/atomic"
	"time"

	"golang.org/x/sync/semaphore"

	"locator/internal/apperr"
	"locator/internal/metrics"
)

// Decoding is bounded by memory, not by a count of uploads: a 50 MP photo
// is 75 MB as an 8-bit JPEG but 400 MB as a 16-bit PNG with alpha. Before
// a photo is decoded, the bytes its decode will hold (decodeCost, read
// from the header) are taken from one budget (a Gate, one per process:
// cmd/locator builds it), and given back when its variants are made. A photo whose decode alone
// needs more than the budget is refused with 413; others wait for room
// (gateWait), then get a 503. docs/performance-history.md ("Photo memory") has
// the measured figures.

// DefaultMemoryBudget is the budget when LOCATOR_PHOTO_MEMORY is not set.
const DefaultMemoryBudget = 256 << 20

// Gate is the memory budget photo decodes share (Process).
type Gate struct {
	size int64
	sem  *semaphore.Weighted
	// waiting and held are the gate's state for the metrics: uploads
	// waiting for room, and the bytes reserved by the decodes running.
	waiting, held atomic.Int64
}

// NewGate returns a gate letting all photo decodes through it hold n bytes
// at once (LOCATOR_PHOTO_MEMORY; <= 0: DefaultMemoryBudget).
func NewGate(n int64) *Gate {
	if n <= 0 {
		n = DefaultMemoryBudget
	}
	return &Gate{size: n, sem: semaphore.NewWeighted(n)}
}

// Queue is the decode gate now: uploads waiting, bytes held, the budget.
func (g *Gate) Queue() metrics.PhotoQueue {
	return metrics.PhotoQueue{Waiting: g.waiting.Load(), HeldBytes: g.held.Load(), BudgetBytes: g.size}
}

const gateWait = 5 * time.Second

var errBusy = &apperr.Error{Code: apperr.Unavailable, RetryAfter: 5 * time.Second,
	Message: "Photos are being processed. Please try again in a few seconds."}

// errMemory refuses a photo whose decode would need more than the budget.
func errMemory(need, limit int64) error {
	return &apperr.Error{Code: apperr.TooLarge, Message: fmt.Sprintf(
		"The photo is too large to process: it needs %d MB of memory, at most %d MB (try a smaller or 8-bit image)",
		(need+(1<<20)-1)>>20, limit>>20)}
}

// reserve takes need bytes from the budget, waiting up to gateWait for
// room; the returned func gives them back.
func (g *Gate) reserve(ctx context.Context, need int64) (func(), error) {
	if need > g.size {
		return nil, errMemory(need, g.size)
	}
	ctx, cancel := context.WithTimeout(ctx, gateWait)
	defer cancel()
	g.waiting.Add(1)
	err := g.sem.Acquire(ctx, need)
	g.waiting.Add(-1)
	if err != nil {
		return nil, errBusy
	}
	g.held.Add(need)
	return func() {
		g.held.Add(-need)
		// A big decode's pixels and scratch are garbage now: hand them back
		// to the system before the room is given to the next photo, or the
		// runtime keeps the pages and the next decode adds its own (two
		// photos one after the other measured 705 MB peak instead of 468).
		if need >= bigDecode {
			debug.FreeOSMemory()
		}
		g.sem.Release(need)
	}, nil
}

// bigDecode is the cost from which a finished decode returns its memory.
const bigDecode = 32 << 20

// decodeCost is the most memory decoding the photo and making its variants
// holds, from its header: the decoded pixels at the bytes per pixel of its
// colour model (16-bit and alpha included), a progressive JPEG's
// coefficients (4 bytes a pixel for each of its 3 components) or an
// interlaced PNG's passes, the scaled copies of the widest variant, and
// the resampler's scratch rows: draw.CatmullRom.Scale keeps 4 float64 (32
// bytes) for every destination column of every source row, which for a
// 7000 x 7000 photo scaled to 1280 wide would be 287 MB, more than the
// pixels; a source over 1.75 times the widest variant's width is therefore
// read through a bilinear copy of that width (process.go), whose pixels
// count here and whose rows are the scratch's (2240 x 2240: 20 + 92 MB).
// o is the EXIF orientation (5-8 swap width and height).
func decodeCost(kind string, data []byte, cfg image.Config, o int) int64 {
	px := int64(cfg.Width) * int64(cfg.Height)
	cost := px * bytesPerPixel(cfg.ColorModel)
	if kind == "image/jpeg" && cfg.ColorModel == color.YCbCrModel {
		// The decoder keeps the chroma planes at their own resolution: a
		// phone's 4:2:0 photo is 1.5 bytes a pixel, not 3.
		if eighths, ok := jpegEighthsPerPixel(data); ok {
			cost = (px*eighths + 7) / 8
		}
	}
	switch kind {
	case "image/jpeg":
		if progressiveJPEG(data) {
			cost += px * 12
		}
	case "image/png":
		if len(data) > 28 && data[28] == 1 { // IHDR interlace method: Adam7
			cost *= 2
		}
	case "image/webp":
		if cfg.ColorModel == color.NRGBAModel { // lossless: an ARGB buffer beside the image
			cost += px * 4
		}
	}
	srcW, srcH := int64(cfg.Width), int64(cfg.Height)
	if o >= 5 && o <= 8 {
		srcW, srcH = srcH, srcW // as displayed
	}
	w := min(srcW, int64(Widths[len(Widths)-1]))
	h := max(1, srcH*w/srcW)
	scratchCols := w // the scaled width in the source's own orientation
	if o >= 5 && o <= 8 {
		scratchCols = h
	}
	// A much wider source is read through a bilinear copy (process.go, midSize): the copy's
	// pixels are held, and Catmull-Rom's scratch has the copy's rows, not the source's.
	scratchRows := int64(cfg.Height)
	if mw, mh, ok := midSize(int64(cfg.Width), int64(cfg.Height), scratchCols); ok {
		cost += mw * mh * 4
		scratchRows = mh
	}
	return cost + 3*w*h*4 + scratchCols*scratchRows*32 // the widest variant, its turned copy, the next one; the scratch
}

func bytesPerPixel(m color.Model) int64 {
	switch m {
	case color.GrayModel, color.AlphaModel:
		return 1
	case color.Gray16Model, color.Alpha16Model:
		return 2
	case color.YCbCrModel:
		return 3 // 4:4:4 at most
	case color.RGBAModel, color.NRGBAModel, color.NYCbCrAModel, color.CMYKModel:
		return 4
	}
	if _, ok := m.(color.Palette); ok {
		return 1
	}
	return 8 // RGBA64, NRGBA64 and anything unknown
}

// jpegEighthsPerPixel reads the JPEG's frame header and returns the bytes
// its decoded planes hold per pixel, in eighths (Y at full size, each
// chroma plane by its sampling factors: 12 for 4:2:0, 16 for 4:2:2, 24 for
// 4:4:4); ok is false when no frame header can be read.
func jpegEighthsPerPixel(data []byte) (int64, bool) {
	i := 2 // after SOI
	for i+4 <= len(data) {
		if data[i] != 0xFF {
			return 0, false
		}
		marker := data[i+1]
		if marker == 0xFF { // fill byte
			i++
			continue
		}
		n := int(data[i+2])<<8 | int(data[i+3])
		if n < 2 || i+2+n > len(data) {
			return 0, false
		}
		seg := data[i+4 : i+2+n]
		// SOF0-SOF15, but DHT (C4), JPG (C8) and DAC (CC).
		if marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC {
			if len(seg) < 6 {
				return 0, false
			}
			nf := int(seg[5])
			if nf < 1 || len(seg) < 6+3*nf {
				return 0, false
			}
			var hmax, vmax int64 = 1, 1
			for c := 0; c < nf; c++ {
				hv := seg[6+3*c+1]
				hmax, vmax = max(hmax, int64(hv>>4)), max(vmax, int64(hv&15))
			}
			var sum int64
			for c := 0; c < nf; c++ {
				hv := seg[6+3*c+1]
				sum += 8 * int64(hv>>4) * int64(hv&15) / (hmax * vmax)
			}
			return max(sum, 8), true
		}
		i += 2 + n
	}
	return 0, false
}

// progressiveJPEG reports whether a JPEG has a progressive frame (an SOF2
// marker; FF C2 cannot occur in entropy-coded data, where FF is always
// followed by 00 or a restart marker). An embedded progressive thumbnail
// errs on the safe side.
func progressiveJPEG(data []byte) bool {
	return bytes.Contains(data, []byte{0xFF, 0xC2}) || bytes.Contains(data, []byte{0xFF, 0xC6}) ||
		bytes.Contains(data, []byte{0xFF, 0xCA}) || bytes.Contains(data, []byte{0xFF, 0xCE})
}
