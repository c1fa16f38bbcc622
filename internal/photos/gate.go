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
)

// Decoding is bounded by memory, not by a count of uploads: a 50 MP photo
// is 75 MB as an 8-bit JPEG but 400 MB as a 16-bit PNG with alpha. Before
// a photo is decoded, the bytes its decode will hold (decodeCost, read
// from the header) are taken from one budget shared by the whole process,
// and given back when its variants are made. A photo whose decode alone
// needs more than the budget is refused with 413; others wait for room
// (gateWait), then get a 503. docs/performance.md ("Photo memory") has
// the measured figures.

// DefaultMemoryBudget is the budget when LOCATOR_PHOTO_MEMORY is not set.
const DefaultMemoryBudget = 256 << 20

type memBudget struct {
	size int64
	sem  *semaphore.Weighted
}

var budget atomic.Pointer[memBudget]

func init() { SetMemoryBudget(DefaultMemoryBudget) }

// SetMemoryBudget sets the bytes all photo decodes of the process may hold
// at once (cmd/locator calls it at start; <= 0: DefaultMemoryBudget).
func SetMemoryBudget(n int64) {
	if n <= 0 {
		n = DefaultMemoryBudget
	}
	budget.Store(&memBudget{size: n, sem: semaphore.NewWeighted(n)})
}

// MemoryBudget is the current budget in bytes.
func MemoryBudget() int64 { return budget.Load().size }

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
func reserve(ctx context.Context, need int64) (func(), error) {
	b := budget.Load()
	if need > b.size {
		return nil, errMemory(need, b.size)
	}
	ctx, cancel := context.WithTimeout(ctx, gateWait)
	defer cancel()
	if err := b.sem.Acquire(ctx, need); err != nil {
		return nil, errBusy
	}
	return func() {
		// A big decode's pixels and scratch are garbage now: hand them back
		// to the system before the room is given to the next photo, or the
		// runtime keeps the pages and the next decode adds its own (two
		// photos one after the other measured 705 MB peak instead of 468).
		if need >= bigDecode {
			debug.FreeOSMemory()
		}
		b.sem.Release(need)
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
// 7000 x 7000 photo scaled to 1280 wide is 287 MB, more than the pixels.
// o is the EXIF orientation (5-8 swap width and height).
func decodeCost(kind string, data []byte, cfg image.Config, o int) int64 {
	px := int64(cfg.Width) * int64(cfg.Height)
	cost := px * bytesPerPixel(cfg.ColorModel)
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
	scratchCols, scratchRows := w, int64(cfg.Height) // the scaled width in the source's own orientation, its height
	if o >= 5 && o <= 8 {
		scratchCols = h
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

// progressiveJPEG reports whether a JPEG has a progressive frame (an SOF2
// marker; FF C2 cannot occur in entropy-coded data, where FF is always
// followed by 00 or a restart marker). An embedded progressive thumbnail
// errs on the safe side.
func progressiveJPEG(data []byte) bool {
	return bytes.Contains(data, []byte{0xFF, 0xC2}) || bytes.Contains(data, []byte{0xFF, 0xC6}) ||
		bytes.Contains(data, []byte{0xFF, 0xCA}) || bytes.Contains(data, []byte{0xFF, 0xCE})
}
