package httpapi_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"locator/internal/db"
	"locator/internal/db/dbtest"
)

// "Report a problem" on a store page: a plain form posting to the page's
// /report, answered with 303 to the confirmation, or the form again with
// the API's message; cross-site posts are refused.
func TestReportFormOnStorePages(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, d *db.DB, f *fixture) {
		page := "/stores/ny/other/near-" + strconvI(f.nearID)
		action := page + "/report"
		do := func(req *http.Request) *httptest.ResponseRecorder {
			rec := httptest.NewRecorder()
			f.srv.ServeHTTP(rec, req)
			return rec
		}
		post := func(target string, form url.Values, hdr ...string) *httptest.ResponseRecorder {
			req := httptest.NewRequest(http.MethodPost, target, strings.NewReader(form.Encode()))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			req.Header.Set("Sec-Fetch-Site", "same-origin") // as a browser posting the page's own form
			for i := 0; i+1 < len(hdr); i += 2 {
				req.Header.Set(hdr[i], hdr[i+1])
			}
			return do(req)
		}
		count := func() int {
			var n int
			dbtest.Must(t, d.QueryRow(context.Background(), "SELECT COUNT(*) FROM store_reports WHERE store_id = $1", f.nearID).Scan(&n), "count")
			return n
		}

		rec := do(httptest.NewRequest(http.MethodGet, page, nil))
		if !strings.Contains(rec.Body.String(), `<form method="post" action="`+action+`">`) ||
			!strings.Contains(rec.Body.String(), `<input type="radio" name="reason" value="wrong_hours" required> Wrong hours</label>`) {
			t.Fatalf("no report form on the store page:\n%s", rec.Body)
		}
		if got := cspDirectives(t, rec.Header().Get("Content-Security-Policy"))["form-action"]; len(got) != 1 || got[0] != "'self'" {
			t.Errorf("form-action %v: the form must be allowed to post to the site", got)
		}

		// Cross-site posts are refused before anything is recorded.
		if rec := post(action, url.Values{"reason": {"other"}}, "Sec-Fetch-Site", "cross-site"); rec.Code != http.StatusForbidden {
			t.Errorf("cross-site: %d", rec.Code)
		}
		req := httptest.NewRequest(http.MethodPost, "http://locator.example"+action, strings.NewReader("reason=other"))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", "https://evil.example")
		if rec := do(req); rec.Code != http.StatusForbidden {
			t.Errorf("foreign origin: %d", rec.Code)
		}
		if n := count(); n != 0 {
			t.Fatalf("%d reports after refused posts", n)
		}

		// Refused input: the form again, with the message and the note kept.
		rec = post(action, url.Values{"reason": {"rude"}, "note": {"kept note"}})
		if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), `role="alert">Choose what is wrong</p>`) ||
			!strings.Contains(rec.Body.String(), ">kept note</textarea>") {
			t.Errorf("bad reason: %d\n%s", rec.Code, rec.Body)
		}
		rec = post(action, url.Values{"reason": {"other"}, "note": {strings.Repeat("n", 501)}})
		if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), "The note should be at most 500 characters") ||
			!strings.Contains(rec.Body.String(), `value="other" required checked>`) {
			t.Errorf("long note: %d\n%s", rec.Code, rec.Body)
		}
		if rec := post(action, url.Values{"reason": {"other"}, "note": {strings.Repeat("é", 5000)}}); rec.Code != http.StatusRequestEntityTooLarge {
			t.Errorf("oversized body: %d", rec.Code)
		}
		if n := count(); n != 0 {
			t.Fatalf("%d reports after refused input", n)
		}

		// Accepted: 303 to the confirmation (POST/redirect/GET).
		rec = post(action, url.Values{"reason": {"wrong_hours"}, "note": {"Closes at 8 now"}})
		if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != action+"?sent=1" {
			t.Fatalf("report: %d to %q\n%s", rec.Code, rec.Header().Get("Location"), rec.Body)
		}
		rec = do(httptest.NewRequest(http.MethodGet, action+"?sent=1", nil))
		if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "Thanks! We&#39;ll check this store.") ||
			!strings.Contains(rec.Header().Get("Content-Security-Policy"), "default-src 'none'") {
			t.Errorf("confirmation: %d\n%s", rec.Code, rec.Body)
		}
		if n := count(); n != 1 {
			t.Fatalf("%d reports, want 1", n)
		}

		// The API's limits: a repeated reason without a note merges into the
		// open report; past 3 a day from one network about one store, the
		// shopper is thanked and nothing more is kept.
		for i := range 3 {
			if rec := post(action, url.Values{"reason": {"other"}}); rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != action+"?sent=1" {
				t.Fatalf("report %d: %d", i+2, rec.Code)
			}
		}

		// Hidden and unknown stores: the 404 page, nothing recorded.
		for _, target := range []string{"/stores/ny/other/hidden-" + strconvI(f.hiddenID) + "/report", "/stores/ny/other/x-999999/report"} {
			if rec := post(target, url.Values{"reason": {"other"}}); rec.Code != http.StatusNotFound {
				t.Errorf("%s: %d", target, rec.Code)
			}
		}
		if n := count(); n != 2 {
			t.Errorf("%d reports, want 2 (wrong_hours; other, sent twice)", n)
		}
	})
}
