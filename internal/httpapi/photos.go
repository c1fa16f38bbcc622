package httpapi

import (
	"net/http"
	"strconv"
	"strings"

	"locator/internal/photos"
)

// servePhoto answers GET /photos/{id}/{width}.jpg: a variant of an uploaded
// store photo. A photo id is never reused and its bytes never change, so
// browsers and any CDN may keep it for a year.
func (s *Server) servePhoto(w http.ResponseWriter, r *http.Request) error {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	width, werr := strconv.Atoi(strings.TrimSuffix(r.PathValue("file"), ".jpg"))
	if err != nil || werr != nil || id <= 0 || !strings.HasSuffix(r.PathValue("file"), ".jpg") || s.Photos == nil {
		return photos.ErrNotFound
	}
	data, err := s.Photos.Variant(r.Context(), id, width)
	if err != nil {
		return err
	}
	h := w.Header()
	h.Set("Content-Type", "image/jpeg")
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	h.Set("Content-Length", strconv.Itoa(len(data)))
	if r.Method != http.MethodHead {
		_, _ = w.Write(data)
	}
	return nil
}
