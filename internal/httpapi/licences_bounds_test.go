package httpapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/httpapi"
	"locator/internal/licences"
	"locator/internal/stores"
)

// countingBody counts what the server read of a body and refuses to give
// more than a little (the test's budget, far below the upload bound).
type countingBody struct{ read int }

func (b *countingBody) Read(p []byte) (int, error) {
	if b.read > 1<<20 {
		return 0, errors.New("the server read more than 1 MB of a body announced too large")
	}
	for i := range p {
		p[i] = 'x'
	}
	b.read += len(p)
	return len(p), nil
}
func (b *countingBody) Close() error { return nil }

// Registry uploads in /admin: a broken quote or invalid UTF-8 is a row's
// error in a 200 (it was a panic, then a 500; on PostgreSQL invalid UTF-8
// was a 500), a file dated 9999 is a 400, and a body announced larger than
// the bound is a 413 before a byte of it is read.
func TestLicenceUploadBounds(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, d *db.DB, f *fixture) {
		ctx := context.Background()
		g, err := licences.New(stores.NewRepo(d), nil, nil)
		dbtest.Must(t, err, "registry")
		g.Now = func() time.Time { return time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC) }
		f.srv.Licences = g
		dbtest.Must(t, newClaims(d, stores.NewRepo(d), nil).Moderators.Add(ctx, "mod@example.com", "moderator-pass"), "moderator")
		mod := &client{t: t, h: f.srv}
		modSignIn(t, f.srv, mod)
		upload := func(query, body string) *httptest.ResponseRecorder {
			req := httptest.NewRequest("POST", "/api/admin/licences/import?source=nyc-dcwp&"+query, strings.NewReader(body))
			req.Header.Set("Content-Type", "text/csv")
			req.AddCookie(mod.cookie)
			return serve(t, f.srv, req)
		}
		header := "license_nbr,business_name,address_building,address_street_name,business_category,license_status\n"
		body := header +
			`"1,BROKEN QUOTE,1,MAIN ST,Tobacco Retail Dealer,Active` + "\n" +
			"2,NOT UTF-8 \xff,1,MAIN ST,Tobacco Retail Dealer,Active\n" +
			"3,GOOD,1,MAIN ST,Tobacco Retail Dealer,Active\n"
		rec := upload("date=2026-11-24&file_name=%FF%FE.csv", body)
		var rep licenceImportReply
		if rec.Code != 200 || json.Unmarshal(rec.Body.Bytes(), &rep) != nil || rep.Rows != 1 || len(rep.Errors) != 2 ||
			rep.Errors[0].Line != 2 || rep.Errors[1].Line != 3 || !strings.Contains(rep.Errors[1].Message, "UTF-8") {
			t.Fatalf("hostile rows: %d %s", rec.Code, rec.Body)
		}
		if rec := upload("date=9999-12-31", header); rec.Code != 400 {
			t.Fatalf("a file of year 9999: %d %s", rec.Code, rec.Body)
		}

		big := &countingBody{}
		req := httptest.NewRequest("POST", "/api/admin/licences/import?source=nyc-dcwp&date=2026-11-24", nil)
		req.Body, req.ContentLength = big, httpapi.MaxRegistryUploadBytes+1
		req.Header.Set("Content-Type", "text/csv")
		req.AddCookie(mod.cookie)
		w := httptest.NewRecorder()
		f.srv.ServeHTTP(w, req)
		if w.Code != 413 || big.read != 0 {
			t.Fatalf("announced %d bytes: %d after reading %d bytes: %s", req.ContentLength, w.Code, big.read, w.Body)
		}
	})
}
