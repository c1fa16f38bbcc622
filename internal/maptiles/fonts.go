package maptiles

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"sync"
)

// StreetFontsURL is where the street style's font files are served
// (StreetFontsURL + file name).
const StreetFontsURL = "/map/fonts/"

// The Noto Sans files the street style's labels are drawn with, the face
// list that maps each text-font name to them and their licence (OFL),
// written by tools/basemap/protomaps-style.mjs from @fontsource/noto-sans.
//
//go:embed fonts/*.woff2 fonts/faces.json fonts/OFL.txt
var fontFiles embed.FS

// FontFace is one file of a text-font name and the codepoints it covers
// (CSS unicode-range syntax, as the style's "font-faces" takes them).
type FontFace struct {
	File         string   `json:"file"`
	UnicodeRange []string `json:"unicode-range"`
}

var streetFonts = sync.OnceValues(func() (map[string][]FontFace, error) {
	b, err := fontFiles.ReadFile("fonts/faces.json")
	if err != nil {
		return nil, fmt.Errorf("maptiles: font faces: %w", err)
	}
	var faces map[string][]FontFace
	if err := json.Unmarshal(b, &faces); err != nil {
		return nil, fmt.Errorf("maptiles: font faces: %w", err)
	}
	return faces, nil
})

// StreetFontFaces is the face list: text-font name -> files, in the order
// MapLibre tries them (the first file covering a codepoint draws it).
func StreetFontFaces() (map[string][]FontFace, error) {
	return streetFonts()
}

// fontIndex holds the woff2 files by name, so a request can name nothing
// else (no path, no other embedded file).
var fontIndex = sync.OnceValue(func() map[string][]byte {
	index := map[string][]byte{}
	files, _ := fs.Glob(fontFiles, "fonts/*.woff2") // the pattern is valid
	for _, path := range files {
		b, err := fontFiles.ReadFile(path)
		if err == nil {
			index[path[len("fonts/"):]] = b
		}
	}
	return index
})

// StreetFont returns the woff2 file of that name, and false when there is
// none.
func StreetFont(file string) ([]byte, bool) {
	b, ok := fontIndex()[file]
	return b, ok
}

// streetFontFaces is the style's "font-faces": every file as a URL under
// StreetFontsURL, relative like the tiles'.
func streetFontFaces() (map[string][]map[string]any, error) {
	faces, err := StreetFontFaces()
	if err != nil {
		return nil, err
	}
	out := make(map[string][]map[string]any, len(faces))
	for name, files := range faces {
		for _, f := range files {
			out[name] = append(out[name], map[string]any{"url": StreetFontsURL + f.File, "unicode-range": f.UnicodeRange})
		}
	}
	return out, nil
}
