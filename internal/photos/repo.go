package photos

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"

	"locator/internal/apperr"
	"locator/internal/audit"
	"locator/internal/clock"
	"locator/internal/db"
	"locator/internal/stores"
)

// Repo keeps photos in the database, so every replica serves every photo.
type Repo struct {
	db     *db.DB
	stores *stores.Repo
	clock  clock.Clock
}

// New returns a Repo over d; store changes go through sr's write path.
// clk (nil: the system's) dates photos and the store changes they make.
func New(d *db.DB, sr *stores.Repo, clk clock.Clock) *Repo {
	return &Repo{db: d, stores: sr, clock: clk}
}

// Photo is a stored photo as the API shows it.
type Photo struct {
	ID int64 `json:"id"`
	// Image is the URL the store's image field now holds (DefaultWidth).
	Image string `json:"image"`
	// Srcset lists every variant for <img srcset>.
	Srcset string `json:"srcset"`
}

// URL is where variant width of photo id is served (internal/httpapi).
func URL(id int64, width int) string { return fmt.Sprintf("/photos/%d/%d.jpg", id, width) }

// ErrNotFound answers a photo or width that is not kept.
var ErrNotFound = apperr.New(apperr.NotFound, "photo not found")

// Attach stores vs as a new photo of store storeID and makes it the store's
// image, in one transaction that also re-renders the store's search
// document (so every replica shows it within the sync interval) and deletes
// the store's former photos. Nothing is kept if any step fails.
func (r *Repo) Attach(ctx context.Context, storeID int64, vs []Variant) (Photo, error) {
	return r.AttachBy(ctx, storeID, vs, "", nil)
}

// AttachBy is Attach that also writes an audit entry ("store.photo", the
// old and new image) for actor in the same transaction; no entry when
// actor is empty.
//
// also (nil: nothing) runs last in the same transaction: the dashboard tells
// the store's other owners there (business.Service.PhotoChanged).
func (r *Repo) AttachBy(ctx context.Context, storeID int64, vs []Variant, actor string, also func(tx *db.Tx) error) (Photo, error) {
	if len(vs) == 0 {
		return Photo{}, ErrEmpty
	}
	widest := vs[len(vs)-1]
	var p Photo
	err := r.db.InTx(ctx, func(tx *db.Tx) error {
		oldImage, err := stores.Image(ctx, tx, storeID)
		if err != nil {
			return err
		}
		var former []int64
		rows, err := tx.Query(ctx, "SELECT id FROM store_photos WHERE store_id = $1", storeID)
		if err != nil {
			return fmt.Errorf("former photos: %w", err)
		}
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return err
			}
			former = append(former, id)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		err = tx.QueryRow(ctx, "INSERT INTO store_photos (store_id, width, height, created_at) VALUES ($1, $2, $3, $4) RETURNING id",
			storeID, widest.Width, widest.Height, r.clock.Now().UTC()).Scan(&p.ID)
		if err != nil {
			return fmt.Errorf("insert photo of store %d: %w", storeID, err)
		}
		for _, v := range vs {
			if _, err := tx.Exec(ctx, "INSERT INTO store_photo_variants (photo_id, width, height, data) VALUES ($1, $2, $3, $4)",
				p.ID, v.Slot, v.Height, v.Data); err != nil {
				return fmt.Errorf("insert photo variant %d: %w", v.Width, err)
			}
		}
		for _, id := range former {
			// Variants first: SQLite enforces the foreign key only when asked to.
			if _, err := tx.Exec(ctx, "DELETE FROM store_photo_variants WHERE photo_id = $1", id); err != nil {
				return fmt.Errorf("delete former photo %d: %w", id, err)
			}
			if _, err := tx.Exec(ctx, "DELETE FROM store_photos WHERE id = $1", id); err != nil {
				return fmt.Errorf("delete former photo %d: %w", id, err)
			}
		}
		p.Image = URL(p.ID, DefaultVariant(vs).Slot)
		p.Srcset = Srcset(p.ID, vs)
		return r.stores.Write(ctx, tx, func(w *stores.Writer) error {
			if err := w.SetImage(ctx, storeID, p.Image); err != nil {
				return err
			}
			if actor != "" {
				changes := map[string]map[string]string{"image": {"old": oldImage, "new": p.Image}}
				if err := audit.Write(ctx, tx, r.clock.Now(), actor, "store.photo", 0, storeID, map[string]any{"changes": changes, "photo_id": p.ID}); err != nil {
					return err
				}
			}
			if also != nil {
				return also(tx)
			}
			return nil
		})
	})
	return p, err
}

// Srcset lists the variants of photo id as an <img srcset> value.
func Srcset(id int64, vs []Variant) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = fmt.Sprintf("%s %dw", URL(id, v.Slot), v.Width)
	}
	return strings.Join(parts, ", ")
}

// Variant returns the JPEG bytes of photo id in slot width, one of Widths.
// A slot not kept (the photo is narrower) answers the widest kept, so a
// srcset may name every one of Widths.
func (r *Repo) Variant(ctx context.Context, id int64, width int) ([]byte, error) {
	if !slices.Contains(Widths, width) {
		return nil, ErrNotFound
	}
	var data []byte
	err := r.db.QueryRow(ctx, `SELECT data FROM store_photo_variants WHERE photo_id = $1
		ORDER BY CASE WHEN width <= $2 THEN 0 ELSE 1 END, CASE WHEN width <= $2 THEN -width ELSE width END LIMIT 1`, id, width).Scan(&data)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("photo %d/%d: %w", id, width, err)
	}
	return data, nil
}
