// Package web holds the browser app; its Vite build (web/dist) is embedded in the binary.
package web

import (
	"embed"
	"io/fs"
)

//go:embed all:dist
var dist embed.FS

// Dist returns the built app and whether it was built (dist/index.html exists).
// Without `npm run build` the folder holds only .gitkeep and ok is false.
func Dist() (fsys fs.FS, ok bool) {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		return nil, false
	}
	_, err = fs.Stat(sub, "index.html")
	return sub, err == nil
}
