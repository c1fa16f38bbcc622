package photos_test

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"image/jpeg"
	"strings"
	"testing"

	"locator/internal/apperr"
	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/photos"
	"locator/internal/stores/storestest"
)

func upload(t *testing.T, w, h int) []photos.Variant {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = 0xC0
	}
	img.SetRGBA(0, 0, color.RGBA{A: 255})
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, nil); err != nil {
		t.Fatal(err)
	}
	vs, err := photos.NewGate(0).Process(context.Background(), b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	return vs
}

func TestAttachAndServe(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		sr, st := storestest.Created(t, d, storestest.CloudNine())
		repo := photos.New(d, sr, nil)

		before, err := sr.Version(ctx)
		dbtest.Must(t, err, "version")
		first, err := repo.Attach(ctx, st.ID, upload(t, 1600, 1200))
		dbtest.Must(t, err, "attach")
		if first.Image != photos.URL(first.ID, 640) || !strings.Contains(first.Srcset, photos.URL(first.ID, 1280)+" 1280w") {
			t.Fatalf("photo %+v", first)
		}
		// The store's image and its search document moved, at a new version.
		doc, err := sr.PublishedDoc(ctx, st.ID)
		dbtest.Must(t, err, "doc")
		after, err := sr.Version(ctx)
		dbtest.Must(t, err, "version")
		if !strings.Contains(string(doc), `"image":"`+first.Image+`"`) || after <= before {
			t.Fatalf("search document not re-rendered: %s", doc)
		}
		for _, w := range photos.Widths {
			data, err := repo.Variant(ctx, first.ID, w)
			dbtest.Must(t, err, "variant %d", w)
			img, err := jpeg.DecodeConfig(bytes.NewReader(data))
			if err != nil || img.Width != w {
				t.Fatalf("variant %d: %v %+v", w, err, img)
			}
		}
		if _, err := repo.Variant(ctx, first.ID, 500); !errors.Is(err, photos.ErrNotFound) {
			t.Fatalf("width 500: %v", err)
		}

		// A second upload replaces the first, whose variants are gone.
		second, err := repo.Attach(ctx, st.ID, upload(t, 500, 400))
		dbtest.Must(t, err, "second attach")
		if _, err := repo.Variant(ctx, first.ID, 640); !errors.Is(err, photos.ErrNotFound) {
			t.Fatalf("former photo still served: %v", err)
		}
		// Narrower than 640: every width answers the one variant there is.
		if second.Image != photos.URL(second.ID, 640) || second.Srcset != photos.URL(second.ID, 320)+" 320w, "+photos.URL(second.ID, 640)+" 500w" {
			t.Fatalf("narrow photo image %q", second.Image)
		}
		a, err := repo.Variant(ctx, second.ID, 1280)
		dbtest.Must(t, err, "narrow 1280")
		b, err := repo.Variant(ctx, second.ID, 640)
		dbtest.Must(t, err, "narrow 640")
		if cfg, err := jpeg.DecodeConfig(bytes.NewReader(a)); err != nil || !bytes.Equal(a, b) || cfg.Width != 500 {
			t.Fatalf("a narrow photo's 1280 slot: %v %+v, same as 640: %v", err, cfg, bytes.Equal(a, b))
		}

		// An unknown store: nothing is kept.
		var n0, n1 int
		dbtest.Must(t, d.QueryRow(ctx, "SELECT COUNT(*) FROM store_photo_variants").Scan(&n0), "count")
		_, err = repo.Attach(ctx, 999999, upload(t, 400, 300))
		var e *apperr.Error
		if !errors.As(err, &e) || e.Code != apperr.NotFound {
			t.Fatalf("unknown store: %v", err)
		}
		dbtest.Must(t, d.QueryRow(ctx, "SELECT COUNT(*) FROM store_photo_variants").Scan(&n1), "count")
		if n1 != n0 {
			t.Fatalf("half-written upload: %d variants, was %d", n1, n0)
		}
	})
}
