package storepages

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"testing"
	"time"
)

// storeLD reads the Store block of a page's JSON-LD.
func storeLD(t *testing.T, body string) map[string]any {
	t.Helper()
	for _, m := range regexp.MustCompile(`<script type="application/ld\+json">(.*?)</script>`).FindAllStringSubmatch(body, -1) {
		var v map[string]any
		if err := json.Unmarshal([]byte(m[1]), &v); err != nil {
			t.Fatalf("JSON-LD: %v", err)
		}
		if v["@type"] == "Store" {
			return v
		}
	}
	t.Fatal("no Store JSON-LD")
	return nil
}

// A store page's JSON-LD carries the latest members' reviews beside the
// aggregate rating; a failed read leaves them out and still serves the page.
func TestStorePageLatestReviews(t *testing.T) {
	t.Parallel()
	const path = "/stores/ny/new-york/manhattan-vape-shop-3613"
	for _, c := range []struct {
		name   string
		latest func(context.Context, int64) ([]Review, error)
		want   string
	}{
		{"reviews", func(_ context.Context, id int64) ([]Review, error) {
			if id != 3613 {
				t.Errorf("reviews of store %d", id)
			}
			return []Review{{Author: "Rita M.", Date: time.Date(2026, 2, 27, 23, 0, 0, 0, time.UTC), Rating: 5, Body: "Good </script> pods"}}, nil
		}, `[{"@type":"Review","author":{"@type":"Person","name":"Rita M."},"datePublished":"2026-02-27","reviewBody":"Good \u003c/script\u003e pods","reviewRating":{"@type":"Rating","bestRating":5,"ratingValue":5,"worstRating":1}}]`},
		{"failed", func(context.Context, int64) ([]Review, error) { return nil, errors.New("database down") }, "null"},
		{"none", nil, "null"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p, _ := newPages(t, fixtureStores())
			p.opt.LatestReviews = c.latest
			rec := get(t, p.handler(), path)
			if rec.Code != 200 {
				t.Fatalf("status %d", rec.Code)
			}
			ld := storeLD(t, rec.Body.String())
			got, _ := json.Marshal(ld["review"])
			if string(got) != c.want {
				t.Errorf("review %s, want %s", got, c.want)
			}
			if ld["aggregateRating"] == nil {
				t.Error("no aggregateRating")
			}
		})
	}
}
