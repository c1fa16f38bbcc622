package stores_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"locator/internal/apperr"
	"locator/internal/db"
	"locator/internal/stores"
	"locator/internal/stores/storestest"
)

// The reads other features make of store rows (reads.go), on both engines.
func TestReadsForOtherFeatures(t *testing.T) {
	storestest.Each(t, func(t *testing.T, ctx context.Context, repo *stores.Repo) {
		d := repo.DB()
		b := sampleStore("Bravo", 40.75, -73.99)
		a := sampleStore("Alpha", 40.76, -73.98)
		a2 := sampleStore("Alpha", 41, -74) // same name: then by id
		a2.StoreID, a2.PostalCode, a2.Address = "st-alpha-2", "10002", "2 Side St"
		hidden := sampleStore("Hidden Vapes", 40, -75)
		hidden.StoreID = "st-hidden"
		closed := sampleStore("Gone", 42, -76)
		closed.StoreID, closed.PermanentlyClosed = "st-gone", true
		for _, s := range []*stores.Store{b, a, a2, hidden, closed} {
			if err := repo.Create(ctx, s); err != nil {
				t.Fatalf("create %s: %v", s.Name, err)
			}
		}
		if err := repo.SetStatus(ctx, hidden.ID, stores.Hidden); err != nil {
			t.Fatal(err)
		}

		// Summaries: by name, then id; unknown ids left out; any status.
		got, err := stores.Summaries(ctx, d, []int64{hidden.ID, a2.ID, b.ID, 999999, a.ID})
		if err != nil {
			t.Fatal(err)
		}
		want := []int64{a.ID, a2.ID, b.ID, hidden.ID}
		if len(got) != len(want) {
			t.Fatalf("summaries: %+v", got)
		}
		for i, s := range got {
			if s.ID != want[i] {
				t.Errorf("summary %d is store %d, want %d (%+v)", i, s.ID, want[i], got)
			}
		}
		if s := got[1]; s.Name != "Alpha" || s.Address != "2 Side St" || s.City != "New York" || s.PostalCode != "10002" || s.Latitude != 41 || s.Longitude != -74 {
			t.Errorf("summary of a2: %+v", s)
		}
		if none, err := stores.Summaries(ctx, d, nil); err != nil || len(none) != 0 {
			t.Errorf("no ids: %v, %v", none, err)
		}
		// Many ids are one statement (no engine limit on parameters).
		many := make([]int64, 40000)
		for i := range many {
			many[i] = int64(i + 1)
		}
		if all, err := stores.Summaries(ctx, d, many); err != nil || len(all) != 5 {
			t.Errorf("40000 ids: %d summaries, %v", len(all), err)
		}
		m, err := stores.SummaryMap(ctx, d, []int64{b.ID})
		if err != nil || len(m) != 1 || m[b.ID].Name != "Bravo" {
			t.Errorf("summary map: %v, %v", m, err)
		}

		// SummariesNotClosed: every store not permanently closed that keep accepts.
		var seen []string
		kept, err := stores.SummariesNotClosed(ctx, d, func(s *stores.Summary) bool {
			seen = append(seen, s.Name)
			return s.Latitude > 40.7
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(seen) != 4 || len(kept) != 3 {
			t.Errorf("not closed: saw %v, kept %+v", seen, kept)
		}
		for _, s := range kept {
			if s.ID == closed.ID || s.ID == hidden.ID {
				t.Errorf("kept %+v", s)
			}
		}

		// Exists, Image.
		if ok, err := stores.Exists(ctx, d, hidden.ID); !ok || err != nil {
			t.Errorf("exists hidden: %v, %v", ok, err)
		}
		if ok, err := stores.Exists(ctx, d, 999999); ok || err != nil {
			t.Errorf("exists 999999: %v, %v", ok, err)
		}
		if img, err := stores.Image(ctx, d, a.ID); img != "" || err != nil {
			t.Errorf("image: %q, %v", img, err)
		}
		if _, err := stores.Image(ctx, d, 999999); apperr.CodeOf(err) != apperr.NotFound {
			t.Errorf("image of no store: %v", err)
		}

		// Lookalike: published, same name in any case, same postal code, lowest id.
		for _, c := range []struct {
			name, zip string
			want      int64
		}{
			{"ALPHA", "10001", a.ID},
			{"alpha", "10002", a2.ID},
			{"Alpha", "99999", 0},
			{"Hidden Vapes", "10001", 0},
		} {
			if id, err := stores.Lookalike(ctx, d, c.name, c.zip); id != c.want || err != nil {
				t.Errorf("lookalike %q %q: %d, %v; want %d", c.name, c.zip, id, err, c.want)
			}
		}

		// PublishedDocs: published ones only, each as PublishedDocAt gives it.
		now := time.Date(2026, 3, 2, 15, 0, 0, 0, time.UTC)
		docs, err := stores.PublishedDocs(ctx, d, []int64{a.ID, hidden.ID, 999999}, now)
		if err != nil {
			t.Fatal(err)
		}
		one, err := repo.PublishedDocAt(ctx, a.ID, now)
		if err != nil {
			t.Fatal(err)
		}
		if len(docs) != 1 || string(docs[a.ID]) != string(one) {
			t.Errorf("published docs: %d, %s\nwant %s", len(docs), docs[a.ID], one)
		}

		// SetRating and SetImage re-render the document at a new version.
		var v0 int64
		if err := d.QueryRow(ctx, "SELECT version FROM search_version").Scan(&v0); err != nil {
			t.Fatal(err)
		}
		err = d.InTx(ctx, func(tx *db.Tx) error {
			return repo.Write(ctx, tx, func(w *stores.Writer) error {
				if err := w.SetRating(ctx, a.ID, 9, 2); err != nil {
					return err
				}
				return w.SetImage(ctx, a.ID, "/photos/1/640.jpg")
			})
		})
		if err != nil {
			t.Fatal(err)
		}
		doc, err := repo.PublishedDoc(ctx, a.ID)
		if err != nil {
			t.Fatal(err)
		}
		var fields struct {
			Rating float64 `json:"average_rating"`
			Count  int     `json:"review_count"`
			Image  string  `json:"image"`
		}
		if err := json.Unmarshal(doc, &fields); err != nil {
			t.Fatal(err)
		}
		if fields.Rating != 4.5 || fields.Count != 2 || fields.Image != "/photos/1/640.jpg" {
			t.Errorf("after SetRating and SetImage: %s", doc)
		}
		var version int64
		if err := d.QueryRow(ctx, "SELECT version FROM stores WHERE id = $1", a.ID).Scan(&version); err != nil || version != v0+1 {
			t.Errorf("store version %d (%v), want %d", version, err, v0+1)
		}
		err = d.InTx(ctx, func(tx *db.Tx) error {
			return repo.Write(ctx, tx, func(w *stores.Writer) error { return w.SetImage(ctx, 999999, "x") })
		})
		if apperr.CodeOf(err) != apperr.NotFound {
			t.Errorf("image of no store: %v", err)
		}
	})
}
