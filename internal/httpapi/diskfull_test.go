package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/httpapi"
)

// limitPages sets SQLite's max_page_count on every connection of d's pool
// (a per-connection setting): n pages, or the file's size now when n is 0,
// so the next write that needs a page fails with SQLITE_FULL, as on a full
// disk.
func limitPages(t *testing.T, d *db.DB, n int) {
	t.Helper()
	ctx := context.Background()
	if n == 0 {
		dbtest.Must(t, d.QueryRow(ctx, "PRAGMA page_count").Scan(&n), "page count")
	}
	var conns []interface{ Close() error }
	for range 8 { // the pool's size (db.Open): every connection it can hand out
		c, err := d.SQL().Conn(ctx)
		dbtest.Must(t, err, "connection")
		var got int
		dbtest.Must(t, c.QueryRowContext(ctx, fmt.Sprintf("PRAGMA max_page_count = %d", n)).Scan(&got), "max_page_count")
		conns = append(conns, c)
	}
	for _, c := range conns {
		_ = c.Close() // back to the pool, which keeps them
	}
}

// TestDiskFullOnSQLite: when SQLite's disk is full, a write answers 503
// with Retry-After and a message that says so (not a bare 500), /readyz
// says "database disk full", searches and store cards still answer, and
// all is well again once there is space.
func TestDiskFullOnSQLite(t *testing.T) {
	t.Parallel()
	d := dbtest.SQLite(t)
	f := newFixture(t, d)
	signUp := func(i int) *httptest.ResponseRecorder {
		body := fmt.Sprintf(`{"first_name":"Ann","last_name":"Lee","phone":"+12125550100","email":"ann%d@example.com","password":"tulip-lamp-7"}`, i)
		req := httptest.NewRequest(http.MethodPost, "/api/store/customers", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.RemoteAddr = fmt.Sprintf("10.1.%d.1:4000", i) // each its own network: no per-IP limit
		rec := httptest.NewRecorder()
		f.srv.ServeHTTP(rec, req)
		return rec
	}
	readyz := func() (int, string) {
		rec := do(t, f.srv, http.MethodGet, "/readyz", nil, false)
		return rec.Code, rec.Body.String()
	}
	if code, body := readyz(); code != 200 {
		t.Fatalf("readyz before: %d %s", code, body)
	}

	limitPages(t, d, 0)
	var full *httptest.ResponseRecorder
	for i := range 200 {
		rec := signUp(i)
		if rec.Code == http.StatusCreated {
			continue // it fitted in pages the file already had
		}
		full = rec
		break
	}
	if full == nil {
		t.Fatal("200 sign-ups fitted in the file's pages: the limit did not hold")
	}
	var out struct{ Message string }
	if full.Code != http.StatusServiceUnavailable || full.Header().Get("Retry-After") != "60" ||
		json.Unmarshal(full.Body.Bytes(), &out) != nil || out.Message != httpapi.MsgDiskFull {
		t.Fatalf("write on a full disk: %d Retry-After %q %s", full.Code, full.Header().Get("Retry-After"), full.Body)
	}
	if code, body := readyz(); code != http.StatusServiceUnavailable || !strings.Contains(body, `"notReady":["database disk full"]`) {
		t.Fatalf("readyz on a full disk: %d %s", code, body)
	}
	// Reads go on.
	if rec := do(t, f.srv, http.MethodGet, list+"?"+nyc, nil, true); rec.Code != 200 || !strings.Contains(rec.Body.String(), `"name":"Near"`) {
		t.Fatalf("search on a full disk: %d", rec.Code)
	}
	if rec := do(t, f.srv, http.MethodGet, "/api/store/physical-store/"+itoa(f.nearID), nil, true); rec.Code != 200 {
		t.Fatalf("store card on a full disk: %d %s", rec.Code, rec.Body)
	}

	// Space again: writes succeed, and readiness is back as soon as one
	// commits (a sign-in's session; the sign-up is a single statement
	// whose row is read after it returns).
	limitPages(t, d, 1<<30)
	if rec := signUp(1000); rec.Code != http.StatusCreated {
		t.Fatalf("write after space came back: %d %s", rec.Code, rec.Body)
	}
	if rec, out := (&client{t: t, h: f.srv}).call("POST", "/api/store/auth", map[string]string{"email": "ann1000@example.com", "password": "tulip-lamp-7"}); rec.Code != 200 {
		t.Fatalf("sign in after space came back: %d %v", rec.Code, out)
	}
	if code, body := readyz(); code != 200 {
		t.Fatalf("readyz after space came back: %d %s", code, body)
	}
}
