package maptiles

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"sync"
)

// The street style's icons, drawn here rather than shipped: town and
// capital dots, one-way arrows and plain road shields (the style writes the
// road number over them). Points of interest whose kind has no icon show
// their name only.
type spriteIcon struct {
	name string
	w, h int // CSS pixels
	draw func(img *image.RGBA, x0, y0, ratio int)
}

var (
	shieldFill   = color.RGBA{0xff, 0xff, 0xff, 0xff}
	shieldBorder = color.RGBA{0x9a, 0x9a, 0x9a, 0xff}
	dotColor     = color.RGBA{0x55, 0x55, 0x55, 0xff}
	ringColor    = color.RGBA{0xff, 0xff, 0xff, 0xff}
	arrowColor   = color.RGBA{0x99, 0x99, 0x99, 0xff}
)

func spriteIcons() []spriteIcon {
	icons := []spriteIcon{
		{"townspot", 10, 10, func(img *image.RGBA, x0, y0, r int) {
			disc(img, x0, y0, 10*r, 4.5*float64(r), ringColor)
			disc(img, x0, y0, 10*r, 3*float64(r), dotColor)
		}},
		{"capital", 14, 14, func(img *image.RGBA, x0, y0, r int) {
			disc(img, x0, y0, 14*r, 6.5*float64(r), dotColor)
			disc(img, x0, y0, 14*r, 4.5*float64(r), ringColor)
			disc(img, x0, y0, 14*r, 2.5*float64(r), dotColor)
		}},
		{"arrow", 10, 10, func(img *image.RGBA, x0, y0, r int) {
			// A chevron pointing right; the style rotates it along the road.
			s := 10 * r
			for y := range s {
				for x := range s {
					fx, fy := float64(x)/float64(s), float64(y)/float64(s)
					if fx > 0.2 && fx < 0.8 && math.Abs(fy-0.5) < 0.45*(0.8-fx)/0.6 {
						img.SetRGBA(x0+x, y0+y, arrowColor)
					}
				}
			}
		}},
	}
	for n := 1; n <= 6; n++ {
		w := 8 + 7*n
		for _, prefix := range []string{"generic_shield-", "US:I-", "NL:S-road-"} {
			icons = append(icons, spriteIcon{fmt.Sprintf("%s%dchar", prefix, n), w, 16, shield(w, 16)})
		}
	}
	return icons
}

func shield(w, h int) func(img *image.RGBA, x0, y0, r int) {
	return func(img *image.RGBA, x0, y0, r int) {
		for y := range h * r {
			for x := range w * r {
				c := shieldFill
				if x < r || y < r || x >= (w-1)*r || y >= (h-1)*r {
					c = shieldBorder
				}
				img.SetRGBA(x0+x, y0+y, c)
			}
		}
	}
}

// disc draws a filled circle of radius rad centred in a size x size square.
func disc(img *image.RGBA, x0, y0, size int, rad float64, c color.RGBA) {
	centre := float64(size) / 2
	for y := range size {
		for x := range size {
			dx, dy := float64(x)+0.5-centre, float64(y)+0.5-centre
			if dx*dx+dy*dy <= rad*rad {
				img.SetRGBA(x0+x, y0+y, c)
			}
		}
	}
}

// Sprite is a sprite sheet (PNG) and its index (JSON) at a pixel ratio.
type Sprite struct {
	JSON, PNG []byte
}

var sprites = map[int]func() (Sprite, error){
	1: sync.OnceValues(func() (Sprite, error) { return makeSprite(1) }),
	2: sync.OnceValues(func() (Sprite, error) { return makeSprite(2) }),
}

// StreetSprite returns the street style's sprite at pixel ratio 1 or 2.
func StreetSprite(ratio int) (Sprite, error) {
	f, ok := sprites[ratio]
	if !ok {
		return Sprite{}, fmt.Errorf("maptiles: no sprite at ratio %d", ratio)
	}
	return f()
}

func makeSprite(ratio int) (Sprite, error) {
	icons := spriteIcons()
	width, height := 0, 0
	for _, ic := range icons {
		width = max(width, ic.w*ratio)
		height += ic.h*ratio + 2*ratio
	}
	img := image.NewRGBA(image.Rect(0, 0, width, height))
	index := map[string]any{}
	y := 0
	for _, ic := range icons {
		ic.draw(img, 0, y, ratio)
		index[ic.name] = map[string]int{"x": 0, "y": y, "width": ic.w * ratio, "height": ic.h * ratio, "pixelRatio": ratio}
		y += ic.h*ratio + 2*ratio
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return Sprite{}, err
	}
	j, err := json.Marshal(index)
	if err != nil {
		return Sprite{}, err
	}
	return Sprite{JSON: j, PNG: buf.Bytes()}, nil
}
