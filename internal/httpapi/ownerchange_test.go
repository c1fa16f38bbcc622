package httpapi_test

import (
	"bytes"
	"context"
	"image"
	"image/jpeg"
	"strings"
	"testing"

	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/photos"
	"locator/internal/stores"
)

// A co-owner's new photo reaches shoppers at once, so the store's other
// owner is mailed about it (docs/claims.md, "Every owner is told of every
// change"); the co-owner is not.
func TestCoOwnerPhotoMailsTheOwner(t *testing.T) {
	t.Parallel()
	eachBizSetup(t, func(t *testing.T, d *db.DB, s *bizSetup) {
		ctx := context.Background()
		s.srv.Photos = photos.New(d, stores.NewRepo(d), nil)
		dbtest.Must(t, s.cs.LinkStore(ctx, s.ownStore, "other@example.com", "cli:test"), "link the co-owner")
		var b bytes.Buffer
		dbtest.Must(t, jpeg.Encode(&b, image.NewRGBA(image.Rect(0, 0, 900, 600)), nil), "jpeg")
		if rec, out := s.other.upload("/api/business/stores/"+itoa(s.ownStore)+"/photo", "image/jpeg", b.Bytes()); rec.Code != 200 {
			t.Fatalf("co-owner's upload: %d %v", rec.Code, out)
		}
		mails := dbtest.Texts(t, d, ": ", "SELECT to_addr, text_body FROM outbox WHERE subject = 'Your store was changed' ORDER BY id")
		if len(mails) != 1 || !strings.HasPrefix(mails[0], "owner@example.com: ") ||
			!strings.Contains(mails[0], "changed by the owner of the store linked on ") || strings.Contains(mails[0], "other@example.com") || !strings.Contains(mails[0], "\n- Photo\n") {
			t.Fatalf("mails: %q", mails)
		}
	})
}
