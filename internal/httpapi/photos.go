package httpapi

import (
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"locator/internal/apperr"
	"locator/internal/business"
	"locator/internal/db"
	"locator/internal/photos"
)

// isPhotoUpload is the one API route whose body is an image, not JSON:
// apiOnly lets its Content-Type through and limits gives it the photo
// size limit instead of MaxBodyBytes.
func isPhotoUpload(r *http.Request) bool {
	rest, ok := strings.CutPrefix(r.URL.Path, "/api/business/stores/")
	return ok && r.Method == http.MethodPost && strings.HasSuffix(rest, "/photo") && strings.Count(rest, "/") == 1
}

type photoDTO struct {
	Image  string `json:"image"`
	Srcset string `json:"srcset"`
}

// businessUploadPhoto answers POST /api/business/stores/{id}/photo: the raw
// image body becomes the store's photo. Ownership is checked before a byte
// of the body is read; every refusal leaves the store as it was.
func (s *Server) businessUploadPhoto(w http.ResponseWriter, r *http.Request, a *business.Account, id int64) error {
	if err := s.Business.Owns(r.Context(), a, id); err != nil {
		return err
	}
	if s.Photos == nil {
		return apperr.New(apperr.Unavailable, "Photo uploads are not available")
	}
	switch mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt {
	case "image/jpeg", "image/png", "image/webp":
	default:
		return photos.ErrType
	}
	if err := s.Business.ReservePhotoUpload(r.Context(), a); err != nil {
		return err
	}
	data, err := io.ReadAll(r.Body)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return photos.ErrTooLarge
		}
		return apperr.Invalidf("Could not read the photo")
	}
	vs, err := s.PhotoGate.Process(r.Context(), data)
	if err != nil {
		return err
	}
	p, err := s.Photos.AttachBy(r.Context(), id, vs, a.Actor(), func(tx *db.Tx) error { return s.Business.PhotoChanged(r.Context(), tx, a, id) })
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, photoDTO{Image: p.Image, Srcset: p.Srcset})
	return nil
}

// servePhoto answers GET /photos/{id}/{width}.jpg: a variant of an uploaded
// store photo. A photo id is never reused and its bytes never change, so
// browsers and any CDN may keep it for a year.
func (s *Server) servePhoto(w http.ResponseWriter, r *http.Request) error {
	// A photo URL names a file: anything else is no such file.
	id, ok := parseID(r.PathValue("id"))
	ws, isJPEG := strings.CutSuffix(r.PathValue("file"), ".jpg")
	width, werr := strconv.Atoi(ws)
	if !ok || werr != nil || !isJPEG || strings.Trim(ws, "0123456789") != "" || s.Photos == nil {
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
