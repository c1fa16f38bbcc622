package maptiles

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

// textFonts collects every font name a "text-font" value of the style can
// pick: plain stacks and the literals inside expressions (case, format).
func textFonts(v any, inTextFont bool, names map[string]bool) {
	switch v := v.(type) {
	case string:
		// Expression operators and property names are strings too; font
		// names are the ones under text-font that are not operators.
		if inTextFont && strings.Contains(v, " ") {
			names[v] = true
		}
	case []any:
		for _, e := range v {
			textFonts(e, inTextFont, names)
		}
	case map[string]any:
		for k, e := range v {
			textFonts(e, inTextFont || k == "text-font", names)
		}
	}
}

func TestStreetStyleFontFaces(t *testing.T) {
	b, err := StreetStyle(PMHeader{MinZoom: 0, MaxZoom: 14})
	if err != nil {
		t.Fatal(err)
	}
	var style struct {
		Glyphs    *string                     `json:"glyphs"`
		FontFaces map[string][]map[string]any `json:"font-faces"`
		Layers    []map[string]any            `json:"layers"`
	}
	if err := json.Unmarshal(b, &style); err != nil {
		t.Fatal(err)
	}
	if style.Glyphs != nil {
		t.Errorf("glyphs URL %q: the labels are drawn from font-faces", *style.Glyphs)
	}
	used := map[string]bool{}
	for _, l := range style.Layers {
		textFonts(l, false, used)
	}
	for _, want := range []string{"Noto Sans Regular", "Noto Sans Medium", "Noto Sans Italic"} {
		if !used[want] {
			t.Errorf("no layer uses %q (used: %v): the test reads the layers wrong", want, used)
		}
	}
	// The pre-shaped Devanagari font and its Private Use Area names are
	// left out by the generator: no woff2 draws them.
	if s := string(b); strings.Contains(s, "Devanagari Regular v1") || strings.Contains(s, `"pgf:`) {
		t.Error("the style still uses the pre-shaped Devanagari font or its pgf: fields")
	}
	rangeRE := regexp.MustCompile(`^U\+[0-9A-F]{1,6}(-[0-9A-F]{1,6})?$`)
	for name := range used {
		faces := style.FontFaces[name]
		if len(faces) == 0 {
			t.Errorf("text-font %q has no font-faces entry", name)
			continue
		}
		covers := map[string]bool{}
		for _, f := range faces {
			url, _ := f["url"].(string)
			file, ok := strings.CutPrefix(url, "/map/fonts/")
			if !ok || !strings.HasSuffix(file, ".woff2") {
				t.Errorf("%s: url %q is not a relative /map/fonts/*.woff2", name, url)
				continue
			}
			body, ok := StreetFont(file)
			if !ok || !bytes.HasPrefix(body, []byte("wOF2")) {
				t.Errorf("%s: %s is not an embedded woff2 (%d bytes)", name, file, len(body))
			}
			ranges, _ := f["unicode-range"].([]any)
			if len(ranges) == 0 {
				t.Errorf("%s: %s has no unicode-range", name, file)
			}
			for _, r := range ranges {
				s, _ := r.(string)
				if !rangeRE.MatchString(s) {
					t.Errorf("%s: %s: bad unicode-range %q", name, file, s)
				}
				covers[s] = true
			}
		}
		// The first file is the Latin one (MapLibre takes the first that
		// covers a codepoint), and Latin-1 and Devanagari are covered.
		if url, _ := faces[0]["url"].(string); !strings.Contains(url, "-latin-") {
			t.Errorf("%s: first file %s, want the latin subset", name, url)
		}
		for _, r := range []string{"U+0000-00FF", "U+0900-097F"} {
			if !covers[r] {
				t.Errorf("%s: no file covers %s", name, r)
			}
		}
	}
	if _, ok := StreetFont("faces.json"); ok {
		t.Error("the face list is served as a font")
	}
	if _, ok := StreetFont("../fonts.go"); ok {
		t.Error("a path outside the fonts is served")
	}
}
