// Package photos takes store photos uploaded by their owners: it checks what
// the bytes really are, refuses decompression bombs before decoding, drops
// every piece of metadata (EXIF location included) by re-encoding the
// pixels, resizes to a few widths and keeps them in the database, from where
// they are served with long-lived cache headers (docs/claims.md, "Photos").
//
// It uses the standard library's JPEG and PNG codecs and golang.org/x/image
// (WebP decoding, the Catmull-Rom resampler): pure Go, maintained with Go
// itself, so the binary stays one static file with no C image library.
package photos

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io"
	"net/http"

	"golang.org/x/image/draw"
	"golang.org/x/image/webp"

	"locator/internal/apperr"
)

const (
	// MaxBytes is the largest upload accepted.
	MaxBytes = 8 << 20
	// MaxPixels bounds the decoded size: an 8 MB file can claim a
	// 100,000 x 100,000 canvas (40 GB of pixels); the header is read first
	// and anything larger is refused before a byte of it is decoded.
	MaxPixels = 50_000_000
	// MinSide is the smallest width or height worth showing as a store photo.
	MinSide = 64
	// DefaultWidth is the variant the store's image field points at.
	DefaultWidth = 640
	jpegQuality  = 82
)

// Widths are the variants kept of a photo, its slots: each holds the photo
// at that width, or at its own width when it is narrower (the photo is never
// enlarged). A slot past the first that holds the full photo is not kept:
// asking for it answers the widest kept (Repo.Variant).
var Widths = []int{320, 640, 1280}

// The messages an owner reads.
var (
	ErrEmpty    = apperr.Invalidf("Choose a photo to upload")
	ErrTooLarge = &apperr.Error{Code: apperr.TooLarge, Message: "The photo must be at most 8 MB"}
	ErrType     = &apperr.Error{Code: apperr.Unsupported, Message: "The photo must be a JPEG, PNG or WebP image"}
	ErrPixels   = apperr.Invalidf("The photo is too large: at most 50 megapixels")
	ErrSmall    = apperr.Invalidf("The photo is too small: at least 64 pixels wide and high")
	ErrDamaged  = apperr.Invalidf("The photo could not be read: the file is damaged or incomplete")
)

// Variant is one re-encoded width of a photo (JPEG, no metadata).
type Variant struct {
	Slot          int // one of Widths: its URL names it
	Width, Height int // its pixels: Slot, or less for a narrower photo
	Data          []byte
}

// Kind returns the real type of data from its first bytes ("image/jpeg",
// "image/png", "image/webp"), whatever the upload claimed, or "".
func Kind(data []byte) string {
	switch t := http.DetectContentType(data); t {
	case "image/jpeg", "image/png", "image/webp":
		return t
	}
	return ""
}

// Process checks an upload and returns its variants, widest last. The
// context bounds the wait for room in the gate's memory budget (gate.go).
func (g *Gate) Process(ctx context.Context, data []byte) ([]Variant, error) {
	if len(data) == 0 {
		return nil, ErrEmpty
	}
	if len(data) > MaxBytes {
		return nil, ErrTooLarge
	}
	kind := Kind(data)
	if kind == "" {
		return nil, ErrType
	}
	cfg, err := decodeConfig(kind, data)
	if err != nil {
		return nil, ErrDamaged
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || int64(cfg.Width)*int64(cfg.Height) > MaxPixels {
		return nil, ErrPixels
	}
	if cfg.Width < MinSide || cfg.Height < MinSide {
		return nil, ErrSmall
	}
	o := 1
	if kind == "image/jpeg" {
		o = jpegOrientation(data)
	}
	release, err := g.reserve(ctx, decodeCost(kind, data, cfg, o))
	if err != nil {
		return nil, err
	}
	defer release()
	img, err := decode(kind, data)
	if err != nil {
		return nil, ErrDamaged
	}
	return variants(img, o)
}

// codec is the decoder of one accepted kind (WebP for any other: Kind
// accepts only the three).
type codec struct {
	config func(io.Reader) (image.Config, error)
	decode func(io.Reader) (image.Image, error)
}

func codecOf(kind string) codec {
	switch kind {
	case "image/jpeg":
		return codec{jpeg.DecodeConfig, jpeg.Decode}
	case "image/png":
		return codec{png.DecodeConfig, png.Decode}
	default:
		return codec{webp.DecodeConfig, webp.Decode}
	}
}

func decodeConfig(kind string, data []byte) (image.Config, error) {
	return codecOf(kind).config(bytes.NewReader(data))
}

func decode(kind string, data []byte) (image.Image, error) {
	return codecOf(kind).decode(bytes.NewReader(data))
}

// variants scales img to each of Widths the photo, turned upright as EXIF
// orientation o says, is at least as wide as (and to its own width when
// narrower than all of them). The widest is scaled from the source, each
// smaller one from the next wider, which costs far less than resampling the
// full-size source each time; the turn is made on the scaled pixels.
func variants(img image.Image, o int) ([]Variant, error) {
	b := img.Bounds()
	dispW, dispH := b.Dx(), b.Dy()
	turned := o >= 5 && o <= 8 // orientations 5-8 swap width and height
	if turned {
		dispW, dispH = dispH, dispW
	}
	var slots []int
	for _, w := range Widths {
		slots = append(slots, w)
		if w >= dispW {
			break
		}
	}
	out := make([]Variant, len(slots))
	src := img
	for i := len(slots) - 1; i >= 0; i-- {
		w := min(slots[i], dispW)
		h := max(1, int(int64(dispH)*int64(w)/int64(dispW)))
		sw, sh := w, h
		if turned {
			sw, sh = h, w
		}
		if b := src.Bounds(); i == len(slots)-1 {
			if mw, mh, ok := midSize(int64(b.Dx()), int64(b.Dy()), int64(sw)); ok {
				mid := image.NewRGBA(image.Rect(0, 0, int(mw), int(mh)))
				draw.ApproxBiLinear.Scale(mid, mid.Bounds(), src, b, draw.Src, nil)
				src = mid
			}
		}
		// Drawn over white: a transparent PNG would turn black in a JPEG.
		scaled := image.NewRGBA(image.Rect(0, 0, sw, sh))
		draw.Draw(scaled, scaled.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
		draw.CatmullRom.Scale(scaled, scaled.Bounds(), src, src.Bounds(), draw.Over, nil)
		var buf bytes.Buffer
		if err := jpeg.Encode(&buf, orient(scaled, o), &jpeg.Options{Quality: jpegQuality}); err != nil {
			return nil, err
		}
		out[i] = Variant{Slot: slots[i], Width: w, Height: h, Data: buf.Bytes()}
		src = scaled
	}
	return out, nil
}

// preShrink is how many times wider than its widest variant a source may
// be before it is first scaled down to that many times the variant's width
// with the bilinear scaler, which keeps no scratch. Catmull-Rom's scratch
// grows with the height of what it reads (decodeCost), so reading the
// smaller copy lets a 24 or 48 MP phone photo fit the memory budget; the
// second pass, at under 2x, hides the first's coarser sampling.
const preShrinkNum, preShrinkDen = 7, 4

// midSize is the size of the bilinear copy a source of w x h scaled to
// width tw (both in the source's own orientation) is read from, or ok
// false when the source is read directly.
func midSize(w, h, tw int64) (mw, mh int64, ok bool) {
	if w*preShrinkDen <= tw*preShrinkNum {
		return w, h, false
	}
	mw = tw * preShrinkNum / preShrinkDen
	return mw, max(1, h*mw/w), true
}

// DefaultVariant is the variant the store's image field names: the
// DefaultWidth slot, or the widest kept when there is none.
func DefaultVariant(vs []Variant) Variant {
	best := vs[0]
	for _, v := range vs {
		if v.Slot <= DefaultWidth {
			best = v
		}
	}
	return best
}
