package reviews_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"locator/internal/apperr"
	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/reviews"
	"locator/internal/stores/storestest"
)

func TestSummarize(t *testing.T) {
	t.Parallel()
	s := reviews.Summarize([5]int{3, 2, 1, 0, 1}) // 3x5, 2x4, 1x3, 1x1 = 27/7
	if s.Count != 7 || s.Average != 3.9 || s.Recommended != 71 {
		t.Fatalf("%+v", s)
	}
	if z := reviews.Summarize([5]int{}); z.Average != 0 || z.Recommended != 0 || z.Count != 0 {
		t.Fatalf("empty: %+v", z)
	}
	if h := reviews.Summarize([5]int{0, 0, 1, 0, 0}); h.Average != 3 || h.Recommended != 0 {
		t.Fatalf("one 3: %+v", h)
	}
}

func TestAddListSummarize(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		sr, st := storestest.Created(t, d, storestest.CloudNine())
		rr := reviews.NewRepo(d, sr)
		base := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
		var rs []*reviews.Review
		for i, rating := range []int{5, 4, 4, 2, 1} {
			rs = append(rs, &reviews.Review{StoreID: st.ID, Rating: rating, Content: "r" + string(rune('a'+i)),
				CustomerFirstName: "Ann", CreatedAt: base.Add(time.Duration(i) * time.Hour)})
		}
		dbtest.Must(t, rr.AddAll(ctx, rs), "add")
		sum, err := rr.Summarize(ctx, st.ID)
		dbtest.Must(t, err, "summarize")
		if sum.Count != 5 || sum.Average != 3.2 || sum.Counts != [5]int{1, 2, 0, 1, 1} || sum.Recommended != 60 {
			t.Fatalf("summary %+v", sum)
		}
		page, more, err := rr.List(ctx, st.ID, 0, 2)
		dbtest.Must(t, err, "list")
		if len(page) != 2 || !more || page[0].Content != "re" || page[1].Content != "rd" {
			t.Fatalf("first page %+v more %v", page, more)
		}
		page, more, err = rr.List(ctx, st.ID, 4, 2)
		dbtest.Must(t, err, "list")
		if len(page) != 1 || more || page[0].Content != "ra" {
			t.Fatalf("last page %+v", page)
		}
		// The store's rating and search document follow.
		got, err := sr.Get(ctx, st.ID)
		dbtest.Must(t, err, "get")
		if got.ReviewCount != 5 || got.AverageRating() != 3.2 {
			t.Fatalf("store rating %d/%d", got.RatingSum, got.ReviewCount)
		}
		var doc string
		dbtest.Must(t, d.QueryRow(ctx, "SELECT search_doc FROM stores WHERE id = $1", st.ID).Scan(&doc), "doc")
		if !strings.Contains(doc, `"average_rating":3.2`) || !strings.Contains(doc, `"review_count":5`) {
			t.Fatalf("doc not re-rendered: %s", doc)
		}
		// Bad input loses nothing.
		err = rr.AddAll(ctx, []*reviews.Review{{StoreID: st.ID, Rating: 5}, {StoreID: 99999, Rating: 5}})
		if apperr.CodeOf(err) != apperr.NotFound {
			t.Fatalf("unknown store: %v", err)
		}
		if err := rr.AddAll(ctx, []*reviews.Review{{StoreID: st.ID, Rating: 6}}); apperr.CodeOf(err) != apperr.Invalid {
			t.Fatalf("rating 6: %v", err)
		}
		if sum2, _ := rr.Summarize(ctx, st.ID); sum2.Count != 5 {
			t.Fatalf("failed adds changed the count: %+v", sum2)
		}
	})
}
