package main

import (
	"context"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/stores"
)

// serve re-renders, after it starts, the search documents an older release
// wrote (here without "adult_only", listed whole), and its replica's list
// answer then carries only the list part; a restart finds nothing to do.
func TestServeRerendersStaleDocs(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: waits for a server's background re-render; make test runs it")
	}
	ctx := context.Background()
	dbURL := sqliteURL(t)
	e := env(map[string]string{"LOCATOR_DATABASE_URL": dbURL, "LOCATOR_MAIL_DIR": t.TempDir(), "LOCATOR_DRAIN_PERIOD": "0"})
	var out, errOut syncBuffer
	dbtest.Must(t, run(ctx, []string{"seed", "--demo", "--stores", "300"}, &out, &errOut, e), "seed")
	d, err := db.Open(ctx, dbURL)
	dbtest.Must(t, err, "open")
	_, err = d.Exec(ctx, `UPDATE stores SET search_doc = replace(replace(search_doc, ',"adult_only":false', ''), ',"adult_only":true', ''), doc_format = 0`)
	d.Close()
	dbtest.Must(t, err, "age documents")

	list := func(base string) string {
		t.Helper()
		res, err := http.Get(base + "/api/store/physical-store/list-physical-store/?latitude=40.71&longitude=-74.0&radius=30")
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		if res.StatusCode != 200 || !strings.Contains(string(b), `"store_id"`) {
			t.Fatalf("list: %d %.300s", res.StatusCode, b)
		}
		return string(b)
	}
	srv := startServe(t, e, "--sync-interval", "100ms", "--no-seed", "--answer-cache", "0")
	var body string
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if body = list(srv.base); strings.Contains(srv.logs.String(), `msg="search documents re-rendered" stores=300 changed=300`) &&
			!strings.Contains(body, `"enforcement"`) {
			break
		}
	}
	logs := srv.logs.String()
	if !strings.Contains(logs, `msg="re-rendering search documents of an older format" stores=300 format=`+strconv.Itoa(stores.DocFormat)) ||
		!strings.Contains(logs, `msg="search documents re-rendered" stores=300 changed=300`) {
		t.Fatalf("no re-render logged:\n%s", logs)
	}
	if strings.Contains(body, `"enforcement"`) {
		t.Fatalf("the list answer still carries whole documents: %.600s", body)
	}
	dbtest.Must(t, srv.shutdown(t), "shutdown")

	again := startServe(t, e, "--no-seed")
	dbtest.Must(t, again.shutdown(t), "shutdown")
	if strings.Contains(again.logs.String(), "re-render") {
		t.Fatalf("the second start re-rendered:\n%s", again.logs.String())
	}
}
