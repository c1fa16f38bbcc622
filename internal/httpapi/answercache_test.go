package httpapi_test

import (
	"bytes"
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"locator/internal/answercache"
	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/stores"
)

// A compressed search answer is kept for its minute and index generation:
// the second shopper asking the same gets the same bytes from the cache,
// impressions are counted for both, and a store change is seen at once.
func TestSearchAnswerCache(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, d *db.DB, f *fixture) {
		ctx := context.Background()
		f.srv.Answers = answercache.New(1 << 20)
		target := list + "?" + nyc
		shopper := 0
		ask := func(coding string) (raw []byte, plain string) {
			t.Helper()
			req := asShopper(http.MethodGet, target, "")
			// Each answer to another shopper (network): a search counts
			// once per visitor, place and day.
			shopper++
			req.RemoteAddr = "198.51." + strconv.Itoa(shopper) + ".1:4242"
			if coding != "" {
				req.Header.Set("Accept-Encoding", coding)
			}
			rec := serve(t, f.srv, req)
			if rec.Code != 200 || rec.Header().Get("Content-Encoding") != coding || rec.Header().Get("Vary") != "Accept-Encoding" {
				t.Fatalf("%s: %d %v", coding, rec.Code, rec.Header())
			}
			return rec.Body.Bytes(), string(decoded(t, coding, rec.Body.Bytes()))
		}
		minute := func() int64 { return time.Now().Unix() / 60 }

		for try := 0; ; try++ { // the minute may turn between the calls: then ask again
			m := minute()
			first, firstPlain := ask("zstd")
			again, _ := ask("zstd")
			_, identity := ask("")
			if minute() != m && try < 3 {
				continue
			}
			if !bytes.Equal(first, again) {
				t.Fatal("the cached answer differs from the one built")
			}
			if firstPlain != identity {
				t.Fatalf("zstd answer is not the plain answer:\n%s\n%s", firstPlain, identity)
			}
			break
		}
		st := f.srv.Answers.Stats()
		if st.Hits < 1 || st.Entries != 1 {
			t.Fatalf("after the same zstd search twice: %+v", st)
		}
		if _, gz := ask("gzip"); !strings.Contains(gz, `"name":"Near"`) {
			t.Fatalf("gzip answer: %s", gz)
		}
		if st := f.srv.Answers.Stats(); st.Entries != 2 {
			t.Errorf("gzip is kept apart from zstd: %+v", st)
		}

		// Every answer, cached or built, counts its stores as impressions.
		dbtest.Must(t, f.ins.Flush(ctx), "flush")
		var shown int
		dbtest.Must(t, d.QueryRow(ctx, `SELECT COALESCE(SUM(events), 0) FROM insight_store_days WHERE store_id = $1 AND kind = $2`, f.nearID, "impression").Scan(&shown), "impressions")
		if calls := 4 + int(f.srv.Answers.Stats().Hits) - int(st.Hits); shown < calls {
			t.Errorf("impressions of the nearest store: %d for at least %d answers", shown, calls)
		}

		// A renamed store: the next answer has its new name, not a copy.
		sr := stores.NewRepo(d)
		s, err := sr.Get(ctx, f.nearID)
		dbtest.Must(t, err, "get")
		s.Name = "Nearer"
		dbtest.Must(t, sr.Update(ctx, s), "update")
		dbtest.Must(t, f.sy.Poll(ctx), "poll")
		if _, got := ask("zstd"); !strings.Contains(got, `"name":"Nearer"`) {
			t.Fatalf("after the rename the cache answered the old store: %s", got)
		}
	})
}
