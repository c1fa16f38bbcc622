package photos

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"os"
	"strings"
	"testing"

	"locator/internal/apperr"
)

// picture is a w x h image whose left half is red and right half blue, so
// a test can tell how it was turned.
func picture(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := color.RGBA{R: 220, A: 255}
			if x >= w/2 {
				c = color.RGBA{B: 220, A: 255}
			}
			img.SetRGBA(x, y, c)
		}
	}
	return img
}

func jpegOf(t *testing.T, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// withExif inserts an APP1 EXIF segment right after the JPEG's SOI: an
// orientation tag and a GPS-looking string a phone would write.
func withExif(data []byte, orientation uint16) []byte {
	var t bytes.Buffer
	t.WriteString("MM\x00\x2a")
	_ = binary.Write(&t, binary.BigEndian, uint32(8))
	_ = binary.Write(&t, binary.BigEndian, uint16(2)) // two entries
	// Orientation, SHORT, count 1, value in the first two bytes.
	_ = binary.Write(&t, binary.BigEndian, []uint16{0x0112, 3})
	_ = binary.Write(&t, binary.BigEndian, uint32(1))
	_ = binary.Write(&t, binary.BigEndian, []uint16{orientation, 0})
	// ImageDescription, ASCII, pointing at the text after the IFD.
	text := "GPS 40.7128N 74.0060W home\x00"
	_ = binary.Write(&t, binary.BigEndian, []uint16{0x010E, 2})
	_ = binary.Write(&t, binary.BigEndian, uint32(len(text)))
	_ = binary.Write(&t, binary.BigEndian, uint32(8+2+2*12+4))
	_ = binary.Write(&t, binary.BigEndian, uint32(0)) // no next IFD
	t.WriteString(text)
	seg := append([]byte("Exif\x00\x00"), t.Bytes()...)
	app1 := []byte{0xFF, 0xE1, 0, 0}
	binary.BigEndian.PutUint16(app1[2:], uint16(len(seg)+2))
	out := append([]byte{}, data[:2]...)
	out = append(out, app1...)
	out = append(out, seg...)
	return append(out, data[2:]...)
}

func decodeJPEG(t *testing.T, data []byte) image.Image {
	t.Helper()
	img, err := jpeg.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("variant is not a JPEG: %v", err)
	}
	return img
}

func isRed(c color.Color) bool {
	r, g, b, _ := c.RGBA()
	return r > 0xA000 && g < 0x4000 && b < 0x4000
}

func isBlue(c color.Color) bool {
	r, g, b, _ := c.RGBA()
	return b > 0xA000 && r < 0x4000 && g < 0x4000
}

func TestProcessJPEG(t *testing.T) {
	t.Parallel()
	vs, err := NewGate(0).Process(context.Background(), withExif(jpegOf(t, picture(2000, 1500)), 1))
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 3 {
		t.Fatalf("%d variants, want 3", len(vs))
	}
	for i, want := range [][2]int{{320, 240}, {640, 480}, {1280, 960}} {
		v := vs[i]
		img := decodeJPEG(t, v.Data)
		if v.Width != want[0] || v.Height != want[1] || img.Bounds().Dx() != want[0] || img.Bounds().Dy() != want[1] {
			t.Errorf("variant %d: %dx%d (%v), want %dx%d", i, v.Width, v.Height, img.Bounds(), want[0], want[1])
		}
		if bytes.Contains(v.Data, []byte("Exif")) || bytes.Contains(v.Data, []byte("GPS")) {
			t.Errorf("variant %d keeps metadata", i)
		}
		if !isRed(img.At(10, 10)) || !isBlue(img.At(v.Width-10, 10)) {
			t.Errorf("variant %d: colours moved", i)
		}
	}
	if d := DefaultVariant(vs); d.Width != 640 {
		t.Errorf("default %d", d.Width)
	}
}

// A phone photo stored on its side with orientation 6 ("turned right")
// comes out upright, without its EXIF block.
func TestProcessTurnsByOrientation(t *testing.T) {
	t.Parallel()
	// Stored 1500 wide, 2000 high; orientation 6 shows it 2000 x 1500, with
	// the stored top (red left half... after the turn) on the right.
	stored := picture(1500, 2000)
	data := withExif(jpegOf(t, stored), 6)
	if o := jpegOrientation(data); o != 6 {
		t.Fatalf("orientation %d", o)
	}
	vs, err := NewGate(0).Process(context.Background(), data)
	if err != nil {
		t.Fatal(err)
	}
	v := vs[len(vs)-1]
	img := decodeJPEG(t, v.Data)
	if v.Width != 1280 || v.Height != 960 || img.Bounds().Dx() != 1280 {
		t.Fatalf("turned: %dx%d", v.Width, v.Height)
	}
	// Turned right: the stored left (red) half ends at the top, the
	// right (blue) half at the bottom.
	if !isRed(img.At(640, 10)) || !isBlue(img.At(640, 950)) {
		t.Errorf("not turned: top %v bottom %v", img.At(640, 10), img.At(640, 950))
	}
	if bytes.Contains(v.Data, []byte("Exif")) {
		t.Error("EXIF kept")
	}
}

func TestProcessPNGAndWebP(t *testing.T) {
	t.Parallel()
	// A transparent PNG lands on white, not black.
	img := image.NewNRGBA(image.Rect(0, 0, 400, 300))
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	vs, err := NewGate(0).Process(context.Background(), b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 2 || vs[0].Width != 320 || vs[0].Height != 240 || vs[1].Slot != 640 || vs[1].Width != 400 {
		t.Fatalf("png variants: %+v", vs)
	}
	if r, g, bl, _ := decodeJPEG(t, vs[0].Data).At(5, 5).RGBA(); r < 0xF000 || g < 0xF000 || bl < 0xF000 {
		t.Errorf("transparent became %x %x %x", r, g, bl)
	}
	webp, err := os.ReadFile("testdata/gradient-200x150.webp") // made with Debian's cwebp
	if err != nil {
		t.Fatal(err)
	}
	if Kind(webp) != "image/webp" {
		t.Fatalf("kind %q", Kind(webp))
	}
	vs, err = NewGate(0).Process(context.Background(), webp)
	if err != nil {
		t.Fatal(err)
	}
	// Narrower than every width: kept at its own.
	if len(vs) != 1 || vs[0].Slot != 320 || vs[0].Width != 200 || vs[0].Height != 150 {
		t.Fatalf("webp variants: %+v", vs)
	}
}

// pngHeader is the start of a PNG that claims w x h pixels: enough for its
// header to be read, nothing to decode.
func pngHeader(w, h uint32) []byte {
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr, w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	copy(ihdr[8:], []byte{8, 2, 0, 0, 0})
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	_ = binary.Write(&b, binary.BigEndian, uint32(13))
	b.WriteString("IHDR")
	b.Write(ihdr)
	_ = binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(append([]byte("IHDR"), ihdr...)))
	return b.Bytes()
}

func TestProcessRefusals(t *testing.T) {
	t.Parallel()
	full := jpegOf(t, picture(800, 600))
	gif := []byte("GIF89a\x01\x00\x01\x00\x00\x00\x00;")
	for _, c := range []struct {
		name string
		data []byte
		want *apperr.Error
	}{
		{"nothing", nil, ErrEmpty},
		{"over 8 MB", append(full, make([]byte, MaxBytes)...), ErrTooLarge},
		{"a GIF", gif, ErrType},
		{"a PDF named photo.jpg", []byte("%PDF-1.7\n1 0 obj"), ErrType},
		{"text", []byte(strings.Repeat("hello ", 100)), ErrType},
		{"a 100,000 x 100,000 bomb", pngHeader(100_000, 100_000), ErrPixels},
		{"8,000 x 7,000 (56 MP)", pngHeader(8_000, 7_000), ErrPixels},
		{"a header and no pixels", pngHeader(800, 600), ErrDamaged},
		{"cut in half", full[:len(full)/2], ErrDamaged},
		{"a JPEG start and nothing else", []byte{0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10, 'J', 'F', 'I', 'F', 0}, ErrDamaged},
		{"too small", jpegOf(t, picture(40, 40)), ErrSmall},
	} {
		_, err := NewGate(0).Process(context.Background(), c.data)
		var e *apperr.Error
		if !errors.As(err, &e) || e != c.want {
			t.Errorf("%s: %v, want %q", c.name, err, c.want.Message)
		}
	}
}

func TestOrientationParserNeverPanics(t *testing.T) {
	t.Parallel()
	data := withExif(jpegOf(t, picture(100, 100)), 8)
	for n := 0; n <= 200 && n <= len(data); n++ {
		_ = jpegOrientation(data[:n])
	}
	for i := 2; i < 200; i++ {
		d := append([]byte{}, data...)
		d[i] ^= 0xFF
		if o := jpegOrientation(d); o < 1 || o > 8 {
			t.Fatalf("orientation %d", o)
		}
	}
}

// pngHeaderOf is a PNG signature and IHDR of the given bit depth, colour
// type and interlace method.
func pngHeaderOf(w, h uint32, depth, colorType, interlace byte) []byte {
	b := pngHeader(w, h)
	b[8+8+8], b[8+8+9], b[8+8+12] = depth, colorType, interlace
	crc := crc32.ChecksumIEEE(b[12:29])
	binary.BigEndian.PutUint32(b[29:], crc)
	return b
}

func TestDecodeCostFromHeader(t *testing.T) {
	t.Parallel()
	const mp = 7000 * 7000
	// Read through a 2240 x 2240 bilinear copy: its pixels, and CatmullRom's rows of it, 1280 columns wide.
	const scratch = 2240*2240*4 + 1280*2240*32
	for _, c := range []struct {
		name     string
		data     []byte
		atLeast  int64
		lessThan int64
	}{
		{"8-bit RGB PNG", pngHeaderOf(7000, 7000, 8, 2, 0), mp*4 + scratch, mp*5 + scratch},
		{"8-bit RGBA PNG", pngHeaderOf(7000, 7000, 8, 6, 0), mp*4 + scratch, mp*5 + scratch},
		{"16-bit RGBA PNG", pngHeaderOf(7000, 7000, 16, 6, 0), mp*8 + scratch, mp*9 + scratch},
		{"16-bit grey PNG", pngHeaderOf(7000, 7000, 16, 0, 0), mp*2 + scratch, mp*3 + scratch},
		{"interlaced 16-bit RGBA PNG", pngHeaderOf(7000, 7000, 16, 6, 1), mp*16 + scratch, mp*17 + scratch},
		// A 64 x 780,000 strip keeps its width: the scratch is 64 columns of 780,000 rows.
		{"a tall strip", pngHeaderOf(64, 780_000, 8, 6, 0), 64 * 780_000 * (4 + 32), 64 * 780_000 * (4 + 32 + 13)},
	} {
		cfg, err := decodeConfig(Kind(c.data), c.data)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := decodeCost(Kind(c.data), c.data, cfg, 1); got < c.atLeast || got >= c.lessThan {
			t.Errorf("%s: cost %d MB, want [%d, %d) MB", c.name, got>>20, c.atLeast>>20, c.lessThan>>20)
		}
	}
	base := jpegOf(t, picture(800, 600))
	cfg, _ := decodeConfig("image/jpeg", base)
	const rest = 3*800*600*4 + 800*600*32
	// The standard encoder writes 4:2:0: 1.5 bytes a pixel of planes.
	if got := decodeCost("image/jpeg", base, cfg, 1); got != 800*600*3/2+rest {
		t.Errorf("baseline JPEG: %d", got)
	}
	prog := append([]byte{}, base...)
	i := bytes.Index(prog, []byte{0xFF, 0xC0})
	prog[i+1] = 0xC2 // the same frame, marked progressive
	if got := decodeCost("image/jpeg", prog, cfg, 1); got != 800*600*27/2+rest {
		t.Errorf("progressive JPEG: %d", got)
	}
}

// Phone photos fit the default budget: 24 MP (5712 x 4284) and 48 MP
// (8000 x 6000) JPEGs, which read directly by Catmull-Rom would need 263
// and 410 MB.
func TestPhonePhotosFitTheDefaultBudget(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{5712, 4284}, {8000, 6000}, {6000, 8000}} {
		cfg := image.Config{ColorModel: color.YCbCrModel, Width: size[0], Height: size[1]}
		header := jpegFrameHeader(size[0], size[1], 0x22) // 4:2:0, as phones write them
		if e, ok := jpegEighthsPerPixel(header); !ok || e != 12 {
			t.Fatalf("4:2:0 frame header read as %d/8 bytes a pixel (%v)", e, ok)
		}
		for _, o := range []int{1, 6} {
			if got := decodeCost("image/jpeg", header, cfg, o); got > DefaultMemoryBudget {
				t.Errorf("%dx%d orientation %d: %d MB, over the %d MB budget", size[0], size[1], o, got>>20, DefaultMemoryBudget>>20)
			}
		}
	}
}

// A source much wider than its widest variant goes through the bilinear
// copy and still gives every variant at its size.
func TestProcessLargeSourceThroughTheCopy(t *testing.T) {
	t.Parallel()
	vs, err := NewGate(0).Process(context.Background(), jpegOf(t, picture(3000, 2000)))
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 3 || vs[2].Width != 1280 || vs[2].Height != 853 || vs[0].Width != 320 {
		t.Fatalf("variants: %+v", sizesOf(vs))
	}
	for _, v := range vs {
		img, err := jpeg.Decode(bytes.NewReader(v.Data))
		if err != nil || img.Bounds().Dx() != v.Width || img.Bounds().Dy() != v.Height {
			t.Fatalf("variant %d: %v %v", v.Slot, err, img.Bounds())
		}
	}
}

// jpegFrameHeader is SOI and a baseline frame header of three components,
// the luma one with sampling factors hv (0x22: 4:2:0, 0x11: 4:4:4).
func jpegFrameHeader(w, h int, hv byte) []byte {
	return []byte{0xFF, 0xD8, 0xFF, 0xC0, 0, 17, 8, byte(h >> 8), byte(h), byte(w >> 8), byte(w), 3,
		1, hv, 0, 2, 0x11, 1, 3, 0x11, 1}
}

func TestJPEGPlanesFromTheFrameHeader(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		hv   byte
		want int64
	}{{0x22, 12}, {0x21, 16}, {0x11, 24}, {0x41, 12}} {
		if got, ok := jpegEighthsPerPixel(jpegFrameHeader(100, 100, c.hv)); !ok || got != c.want {
			t.Errorf("luma sampling %#x: %d (%v), want %d", c.hv, got, ok, c.want)
		}
	}
	// What the standard encoder writes (4:2:0) reads the same.
	if got, ok := jpegEighthsPerPixel(jpegOf(t, picture(64, 64))); !ok || got != 12 {
		t.Errorf("encoded JPEG: %d (%v)", got, ok)
	}
	for _, bad := range [][]byte{nil, {0xFF, 0xD8}, {0xFF, 0xD8, 0xFF, 0xC0, 0, 40}, {0xFF, 0xD8, 0xFF, 0xC0, 0, 8, 8, 0, 1, 0, 1, 9}} {
		if _, ok := jpegEighthsPerPixel(bad); ok {
			t.Errorf("%x read as a frame header", bad)
		}
	}
}

func sizesOf(vs []Variant) [][2]int {
	out := make([][2]int, len(vs))
	for i, v := range vs {
		out[i] = [2]int{v.Width, v.Height}
	}
	return out
}

// A photo whose decode alone needs more than the budget is refused with
// 413 naming the limit before a pixel is decoded: a 49 MP 16-bit PNG with
// alpha (392 MB) under the default 256 MB.
func TestProcessRefusesOverBudget(t *testing.T) {
	t.Parallel()
	_, err := NewGate(0).Process(context.Background(), pngHeaderOf(7000, 7000, 16, 6, 0))
	var e *apperr.Error
	if !errors.As(err, &e) || e.Code != apperr.TooLarge || !strings.Contains(e.Message, "at most 256 MB") {
		t.Fatalf("16-bit 49 MP PNG: %v", err)
	}
	// A 12 MP 8-bit one fits: it gets as far as decoding.
	if _, err := NewGate(0).Process(context.Background(), pngHeaderOf(4000, 3000, 8, 6, 0)); !errors.Is(err, ErrDamaged) {
		t.Fatalf("8-bit 12 MP PNG header: %v", err)
	}
}

func TestBudgetWaitsThenRefuses(t *testing.T) {
	t.Parallel()
	g := NewGate(10 << 20)
	release, err := g.reserve(context.Background(), 8<<20)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // a caller that has gone away gets the busy answer at once
	if _, err := g.reserve(ctx, 4<<20); !errors.Is(err, errBusy) {
		t.Fatalf("over the room left: %v", err)
	}
	if r, err := g.reserve(context.Background(), 2<<20); err != nil {
		t.Fatalf("within the room left: %v", err)
	} else {
		r()
	}
	var e *apperr.Error
	if _, err := g.reserve(context.Background(), 11<<20); !errors.As(err, &e) || e.Code != apperr.TooLarge || !strings.Contains(e.Message, "needs 11 MB of memory, at most 10 MB") {
		t.Fatalf("over the whole budget: %v", err)
	}
	release()
	if r, err := g.reserve(context.Background(), 10<<20); err != nil {
		t.Fatal(err)
	} else {
		r()
	}
}
