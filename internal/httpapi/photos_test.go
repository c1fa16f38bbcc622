package httpapi_test

import (
	"bytes"
	"context"
	"image"
	"image/jpeg"
	"net/http"
	"testing"

	"locator/internal/db/dbtest"
	"locator/internal/photos"
	"locator/internal/stores"
)

func TestServePhotos(t *testing.T) {
	t.Parallel()
	d := dbtest.SQLite(t)
	f := newFixture(t, d)
	f.srv.Photos = photos.New(d, stores.NewRepo(d), nil)
	var b bytes.Buffer
	dbtest.Must(t, jpeg.Encode(&b, image.NewGray(image.Rect(0, 0, 800, 600)), nil), "jpeg")
	vs, err := photos.NewGate(0).Process(context.Background(), b.Bytes())
	dbtest.Must(t, err, "process")
	p, err := f.srv.Photos.Attach(context.Background(), f.nearID, vs)
	dbtest.Must(t, err, "attach")

	rec := do(t, f.srv, http.MethodGet, p.Image, nil, false)
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "image/jpeg" ||
		rec.Header().Get("Cache-Control") != "public, max-age=31536000, immutable" {
		t.Fatalf("photo: %d %v", rec.Code, rec.Header())
	}
	if cfg, err := jpeg.DecodeConfig(rec.Body); err != nil || cfg.Width != 640 {
		t.Fatalf("photo body: %v %+v", err, cfg)
	}
	for _, target := range []string{
		photos.URL(p.ID, 500), photos.URL(p.ID+1, 640), "/photos/abc/640.jpg", "/photos/1/640.png",
		"/photos/-1/640.jpg", "/photos/99999999999999999999/640.jpg", "/photos/+1/640.jpg", "/photos/1/+640.jpg",
	} {
		if rec := do(t, f.srv, http.MethodGet, target, nil, false); rec.Code != http.StatusNotFound {
			t.Errorf("%s: %d", target, rec.Code)
		}
	}
	// U+0000 anywhere in a path is refused before routing (see errNUL).
	if rec := do(t, f.srv, http.MethodGet, "/photos/1/%00.jpg", nil, false); rec.Code != http.StatusBadRequest {
		t.Errorf("NUL in a photo path: %d", rec.Code)
	}
	// The store's answer names the photo.
	rec = do(t, f.srv, http.MethodGet, "/api/store/physical-store/"+itoa(f.nearID), nil, true)
	if !bytes.Contains(rec.Body.Bytes(), []byte(`"image":"`+p.Image+`"`)) {
		t.Fatalf("store answer: %s", rec.Body)
	}
}
