package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"locator/internal/db/dbtest"
)

// syncBuffer is a bytes.Buffer safe for the server goroutine and the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// sqliteURL is a fresh SQLite database in the test's temporary directory.
// settle bounds how long the tests wait for the server to show what a command
// wrote (a search poll, a mail from the outbox). They stop waiting as soon as
// it shows; the bound is only for a machine busy enough to stall the server.
const settle = 30 * time.Second

func sqliteURL(t *testing.T) string { return "sqlite:" + filepath.Join(t.TempDir(), "locator.db") }

// eachEngine runs scenario on a fresh SQLite file, then on a fresh
// PostgreSQL schema, given by URL as the commands take it.
func eachEngine(t *testing.T, scenario func(t *testing.T, dbURL string)) {
	t.Run("sqlite", func(t *testing.T) { scenario(t, sqliteURL(t)) })
	t.Run("postgres", func(t *testing.T) {
		u, _ := dbtest.NewSchema(t)
		scenario(t, u)
	})
}

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestInvalidConfigurationNamesTheSetting(t *testing.T) {
	t.Parallel()
	// A file that is not an archive: the start stops with the reason, before the database.
	notPMTiles := filepath.Join(t.TempDir(), "area.pmtiles")
	if err := os.WriteFile(notPMTiles, bytes.Repeat([]byte("not an archive "), 20), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		env  map[string]string
		want string
	}{
		{[]string{"serve", "--addr", "nonsense"}, nil, "LOCATOR_ADDR"},
		{[]string{"serve"}, map[string]string{"LOCATOR_DATABASE_URL": "mysql://x"}, "LOCATOR_DATABASE_URL"},
		{[]string{"serve", "--public-url", "ftp://x"}, nil, "LOCATOR_PUBLIC_URL"},
		{[]string{"serve"}, map[string]string{"LOCATOR_STOREFRONT_URL": "not a url"}, "LOCATOR_STOREFRONT_URL"},
		{[]string{"serve", "--sync-interval", "-1s"}, nil, "LOCATOR_SYNC_INTERVAL"},
		{[]string{"migrate", "--log-format", "xml"}, nil, "LOCATOR_LOG_FORMAT"},
		{[]string{"serve", "--trusted-proxies", "10.0.0.0/33"}, nil, "LOCATOR_TRUSTED_PROXIES"},
		{[]string{"serve"}, map[string]string{"LOCATOR_GEOIP_DB": "/nonexistent/city.mmdb"}, "LOCATOR_GEOIP_DB"},
		{[]string{"import", "--geocoder-url", "nominatim"}, nil, "LOCATOR_GEOCODER_URL"},
		{[]string{"serve"}, map[string]string{"LOCATOR_PMTILES": "/nonexistent/area.pmtiles"}, "LOCATOR_PMTILES"},
		{[]string{"serve"}, map[string]string{"LOCATOR_PMTILES": notPMTiles}, "LOCATOR_PMTILES: pmtiles " + notPMTiles + ": not a PMTiles archive"},
	}
	for _, c := range cases {
		var out, errOut bytes.Buffer
		err := run(context.Background(), c.args, &out, &errOut, env(c.env))
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") || exitCode(err) != 2 {
			t.Errorf("%v %v: %v, want one line naming %s", c.args, c.env, err, c.want)
		}
	}
	var out, errOut bytes.Buffer
	if err := run(context.Background(), []string{"frobnicate"}, &out, &errOut, env(nil)); err == nil || exitCode(err) != 2 {
		t.Errorf("unknown command: %v", err)
	}
	for _, cmd := range []string{"serve", "migrate", "seed", "import"} {
		errOut.Reset()
		if err := run(context.Background(), []string{cmd, "--help"}, &out, &errOut, env(nil)); err == nil || !strings.Contains(errOut.String(), "Usage: locator "+cmd) {
			t.Errorf("%s --help: %v %q", cmd, err, errOut.String())
		}
	}
	out.Reset()
	if err := run(context.Background(), []string{"version"}, &out, &errOut, env(nil)); err != nil || !strings.HasPrefix(out.String(), "locator ") {
		t.Errorf("version: %v %q", err, out.String())
	}
}

func TestServeSeedImportOnBothEngines(t *testing.T) {
	eachEngine(t, serveScenario)
}

func serveScenario(t *testing.T, dbURL string) {
	mailDir := t.TempDir()
	e := env(map[string]string{"LOCATOR_DATABASE_URL": dbURL, "LOCATOR_MAIL_DIR": mailDir, "LOCATOR_DRAIN_PERIOD": "0"})
	ctx := context.Background()
	var out, errOut syncBuffer
	if err := run(ctx, []string{"seed", "--demo", "--stores", "300"}, &out, &errOut, e); err != nil {
		t.Fatalf("seed: %v\n%s", err, errOut.String())
	}
	if err := run(ctx, []string{"seed", "--demo"}, &out, &errOut, e); err == nil || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("second seed: %v", err)
	}

	// A search snapshot; serve below starts from it.
	var snapOut syncBuffer
	dbtest.Must(t, run(ctx, []string{"snapshot"}, &snapOut, &errOut, e), "snapshot")
	dbtest.Must(t, run(ctx, []string{"snapshot"}, &snapOut, &errOut, e), "snapshot again")
	if s := snapOut.String(); !strings.Contains(s, "search snapshot written at version") || !strings.Contains(s, "no snapshot written") {
		t.Fatalf("snapshot twice:\n%s", s)
	}

	srv := startServe(t, e, "--sync-interval", "200ms", "--metrics-addr", "127.0.0.1:0")
	base := srv.base
	checkMetricsListener(t, srv.logs.String())
	search := func(lat, lon string) []map[string]any {
		t.Helper()
		res, err := http.Get(base + "/api/store/physical-store/list-physical-store/?latitude=" + lat + "&longitude=" + lon + "&radius=30")
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var body struct {
			Stores []map[string]any `json:"physical_stores"`
		}
		if res.StatusCode != 200 || json.NewDecoder(res.Body).Decode(&body) != nil {
			t.Fatalf("search: %d", res.StatusCode)
		}
		return body.Stores
	}
	if got := search("40.71", "-74.0"); len(got) == 0 {
		t.Fatal("no demo stores around New York")
	}
	if !strings.Contains(srv.logs.String(), `msg="search index loaded" from=snapshot`) {
		t.Fatalf("serve did not start from the snapshot:\n%s", srv.logs.String())
	}
	// Place search answers offline from the embedded gazetteer.
	if res, err := http.Get(base + "/api/store/physical-store/search-places?q=brooklyn"); err != nil {
		t.Fatal(err)
	} else {
		var body struct {
			Code int `json:"code"`
			Data []struct {
				DisplayName string `json:"display_name"`
			} `json:"data"`
		}
		err := json.NewDecoder(res.Body).Decode(&body)
		res.Body.Close()
		if err != nil || body.Code != 200 || len(body.Data) == 0 || body.Data[0].DisplayName != "Brooklyn, New York, United States" {
			t.Fatalf("search-places?q=brooklyn: %v %+v", err, body)
		}
	}
	if got := search("45.0", "-100.0"); len(got) != 0 {
		t.Fatalf("stores in the middle of South Dakota: %d", len(got))
	}

	// An import through the CLI, while the server runs, shows up in its search.
	file := filepath.Join(t.TempDir(), "stores.csv")
	csv := "store_id,name,latitude,longitude,state,city,postal_code,working_hours\n" +
		"PR1,Prairie Vapes,45.0,-100.0,SD,Nowhere,,Mon 09:00-17:00\n" +
		"PR2,,45.0,-100.0,SD,Nowhere,,\n" +
		"PR3,Falls Smoke,,,SD,Sioux Falls,57104,\n"
	if err := os.WriteFile(file, []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	var iout syncBuffer
	err := run(ctx, []string{"import", file}, &iout, &errOut, e)
	if err == nil || exitCode(err) != 1 || !strings.Contains(iout.String(), "line 3: error: name is required") || !strings.Contains(iout.String(), "2 created, 0 updated, 1 failed") ||
		!strings.Contains(iout.String(), "coordinates filled from the postal code (approximate: ZIP centre only; place its pin in /admin)") ||
		!strings.Contains(iout.String(), "1 store stands only at a ZIP or city centre (line 4): place its pin in /admin") {
		t.Fatalf("import: %v\n%s", err, iout.String())
	}
	var got []map[string]any
	for deadline := time.Now().Add(settle); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if got = search("45.0", "-100.0"); len(got) > 0 {
			break
		}
	}
	if len(got) != 1 || got[0]["name"] != "Prairie Vapes" || got[0]["time_zone"] != "America/Chicago" {
		t.Fatalf("imported store not searchable in time: %v", got)
	}

	// A claim over HTTP, seen and approved on the command line, shows up in search.
	res, err := http.Post(base+"/api/store/claim", "application/json", strings.NewReader(claimJSON))
	if err != nil || res.StatusCode != 201 {
		t.Fatalf("claim: %v %v", err, res)
	}
	res.Body.Close()
	var lout syncBuffer
	dbtest.Must(t, run(ctx, []string{"claims", "list", "--json"}, &lout, &errOut, e), "claims list")
	var listed []struct {
		ID     int64  `json:"id"`
		Status string `json:"status"`
	}
	if err := json.Unmarshal([]byte(lout.String()), &listed); err != nil || len(listed) != 1 || listed[0].Status != "pending" {
		t.Fatalf("claims list: %v %s", err, lout.String())
	}
	var aout syncBuffer
	dbtest.Must(t, run(ctx, []string{"claims", "approve", strconv.FormatInt(listed[0].ID, 10)}, &aout, &errOut, e), "approve")
	if !strings.Contains(aout.String(), "approved") {
		t.Fatalf("approve output: %s", aout.String())
	}
	for deadline := time.Now().Add(settle); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		got = search("30.27", "-97.74")
		if len(got) > 0 && got[0]["name"] == "Capitol Vapes" {
			break
		}
	}
	if len(got) == 0 || got[0]["name"] != "Capitol Vapes" || got[0]["time_zone"] != "America/Chicago" || len(got[0]["workingHours"].([]any)) != 7 {
		t.Fatalf("approved store not searchable near its address in time: %v", got)
	}
	// Without SMTP, the owner's approval mail lands in the mail folder.
	var eml []byte
	for deadline := time.Now().Add(settle); eml == nil && time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		files, _ := filepath.Glob(filepath.Join(mailDir, "*.eml"))
		for _, f := range files {
			if b, _ := os.ReadFile(f); strings.Contains(string(b), "To: owner@example.com") {
				eml = b
			}
		}
	}
	if !strings.Contains(string(eml), "Your store claim was approved") {
		t.Fatalf("no approval mail in %s: %q", mailDir, eml)
	}
	if err := run(ctx, []string{"claims", "reject", strconv.FormatInt(listed[0].ID, 10), "--reason", "late"}, &aout, &errOut, e); err == nil {
		t.Fatal("rejecting an approved claim succeeded")
	}
	var mout syncBuffer
	me := env(map[string]string{"LOCATOR_DATABASE_URL": dbURL, "LOCATOR_MODERATOR_PASSWORD": "moderator-pass", "LOCATOR_MAIL_DIR": mailDir})
	dbtest.Must(t, run(ctx, []string{"moderators", "add", "mod@example.com"}, &mout, &errOut, me), "moderators add")
	res, err = http.Post(base+"/api/admin/auth", "application/json", strings.NewReader(`{"email":"mod@example.com","password":"moderator-pass"}`))
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("moderator sign in: %v %v", err, res)
	}
	res.Body.Close()

	// The owner's dashboard: the account made after the approval gets the
	// store; a name change waits for "claims changes approve".
	prairieID := strconv.FormatFloat(search("45.0", "-100.0")[0]["id"].(float64), 'f', 0, 64)
	res, err = http.Post(base+"/api/store/create-user", "application/json", strings.NewReader(
		`{"store_name":"Capitol Vapes","email":"owner@example.com","password":"tulip-lamp-7","phone_number":"1"}`))
	if err != nil || res.StatusCode != 201 {
		t.Fatalf("create user: %v %v", err, res)
	}
	res.Body.Close()
	if err := run(ctx, []string{"claims", "link", prairieID, "nobody@example.com"}, &aout, &errOut, e); err == nil {
		t.Fatal("linking to an unknown account succeeded")
	}
	// Not proven yet: no store, by a moderator's link either.
	if err := run(ctx, []string{"claims", "link", prairieID, "owner@example.com"}, &aout, &errOut, e); err == nil || !strings.Contains(err.Error(), "not confirmed its email") {
		t.Fatalf("linking to an unproven account: %v", err)
	}
	// The owner follows the link mailed to the mail folder, with the password.
	var token string
	for deadline := time.Now().Add(settle); token == "" && time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		files, _ := filepath.Glob(filepath.Join(mailDir, "*.eml"))
		for _, f := range files {
			b, _ := os.ReadFile(f)
			text := strings.ReplaceAll(strings.ReplaceAll(string(b), "=\r\n", ""), "=3D", "=") // quoted-printable
			if m := regexp.MustCompile(`/business/verify\?token=([A-Za-z0-9_-]+)`).FindStringSubmatch(text); m != nil && strings.Contains(text, "To: owner@example.com") {
				token = m[1]
			}
		}
	}
	jar, _ := cookiejar.New(nil)
	owner := &http.Client{Jar: jar}
	res, err = owner.Post(base+"/api/business/email-proof/confirm", "application/json", strings.NewReader(`{"token":"`+token+`","password":"tulip-lamp-7"}`))
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("confirm the email (token %q): %v %v", token, err, res)
	}
	res.Body.Close()
	var kout syncBuffer
	dbtest.Must(t, run(ctx, []string{"claims", "link", prairieID, "owner@example.com"}, &kout, &errOut, e), "claims link")
	res, err = owner.Get(base + "/api/business/stores")
	if err != nil {
		t.Fatal(err)
	}
	var mine struct {
		Stores []struct {
			ID   int64  `json:"id"`
			Name string `json:"name"`
		} `json:"stores"`
	}
	dbtest.Must(t, json.NewDecoder(res.Body).Decode(&mine), "business stores")
	res.Body.Close()
	if len(mine.Stores) != 2 {
		t.Fatalf("business stores: %+v", mine)
	}
	capitol := mine.Stores[0].ID
	if mine.Stores[0].Name != "Capitol Vapes" {
		capitol = mine.Stores[1].ID
	}
	req, _ := http.NewRequest("PATCH", base+"/api/business/stores/"+strconv.FormatInt(capitol, 10), strings.NewReader(`{"name":"Capitol Vapes & Tea"}`))
	req.Header.Set("Content-Type", "application/json")
	if res, err = owner.Do(req); err != nil || res.StatusCode != 200 {
		t.Fatalf("patch: %v %v", err, res)
	}
	res.Body.Close()
	var cout syncBuffer
	dbtest.Must(t, run(ctx, []string{"claims", "changes", "list", "--json"}, &cout, &errOut, e), "changes list")
	var changes []struct {
		ID int64 `json:"id"`
	}
	if err := json.Unmarshal([]byte(cout.String()), &changes); err != nil || len(changes) != 1 {
		t.Fatalf("changes list: %v %s", err, cout.String())
	}
	var pout syncBuffer
	dbtest.Must(t, run(ctx, []string{"claims", "changes", "approve", strconv.FormatInt(changes[0].ID, 10)}, &pout, &errOut, e), "changes approve")
	if !strings.Contains(pout.String(), "approved") || !strings.Contains(pout.String(), `name "Capitol Vapes" -> "Capitol Vapes & Tea"`) {
		t.Fatalf("changes approve output: %s", pout.String())
	}
	for deadline := time.Now().Add(settle); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if got = search("30.27", "-97.74"); len(got) > 0 && got[0]["name"] == "Capitol Vapes & Tea" {
			break
		}
	}
	if len(got) == 0 || got[0]["name"] != "Capitol Vapes & Tea" {
		t.Fatalf("approved change not searchable in time: %v", got)
	}
	var hout syncBuffer
	dbtest.Must(t, run(ctx, []string{"claims", "history", strconv.FormatInt(capitol, 10), "--json"}, &hout, &errOut, e), "claims history")
	var history []struct {
		Actor, Action string
	}
	// The link made when the owner proved the mailbox is credited to that account.
	if err := json.Unmarshal([]byte(hout.String()), &history); err != nil || len(history) != 4 ||
		history[0].Action != "change_request.approve" || history[1].Action != "store.change_request" || !strings.HasPrefix(history[1].Actor, "business:") || !strings.HasSuffix(history[1].Actor, ":owner@example.com") ||
		history[2].Action != "store.link" || history[2].Actor != history[1].Actor || history[3].Action != "claim.approve" {
		t.Fatalf("claims history: %v %s", err, hout.String())
	}

	// A moderator takes the linked store away again on the command line.
	if err := run(ctx, []string{"claims", "unlink", prairieID, "nobody@example.com"}, &aout, &errOut, e); err == nil {
		t.Fatal("unlinking an account that is no owner succeeded")
	}
	var uout syncBuffer
	dbtest.Must(t, run(ctx, []string{"claims", "unlink", prairieID, "Owner@Example.com"}, &uout, &errOut, e), "claims unlink")
	if !strings.Contains(uout.String(), "unlinked from the business account owner@example.com") {
		t.Fatalf("claims unlink output: %s", uout.String())
	}
	res, err = owner.Get(base + "/api/business/stores/" + prairieID)
	if err != nil || res.StatusCode != 404 {
		t.Fatalf("the unlinked store still opens in the dashboard: %v %v", err, res)
	}
	res.Body.Close()
	var uhout syncBuffer
	dbtest.Must(t, run(ctx, []string{"claims", "history", prairieID, "--json"}, &uhout, &errOut, e), "claims history after unlink")
	var uhistory []struct {
		Actor, Action string
	}
	if err := json.Unmarshal([]byte(uhout.String()), &uhistory); err != nil || len(uhistory) < 2 || uhistory[0].Action != "store.unlink" ||
		!strings.HasPrefix(uhistory[0].Actor, "cli:") || uhistory[1].Action != "store.link" {
		t.Fatalf("history after unlink: %v %s", err, uhout.String())
	}

	if err := srv.shutdown(t); err != nil {
		t.Fatalf("serve returned %v", err)
	}
	if !strings.Contains(srv.logs.String(), "stopped") {
		t.Fatalf("no shutdown log:\n%s", srv.logs.String())
	}
}

// claimJSON is a store claim with an address in Austin, TX.
const claimJSON = `{"business_name":"Capitol Vapes","email":"owner@example.com","phone":"+15125550100","country":"US","state":"TX",` +
	`"address1":"100 Congress Ave","city":"Austin","postal_code":"78701","working_hours":"Mon-Sat 10am-8pm, Sun closed",` +
	`"pin_latitude":30.2650,"pin_longitude":-97.7447,"pin_source":"map"}` // placed by the owner: the gazetteer knows only the ZIP's centre

// server is a `locator serve` a test started.
type server struct {
	base string             // http://127.0.0.1:port
	stop context.CancelFunc // what SIGTERM does
	done chan error
	logs *syncBuffer
}

// startServe runs serve on a free port with env e and waits until it
// listens; it is stopped when the test ends.
func startServe(t *testing.T, e func(string) string, args ...string) *server {
	t.Helper()
	srv, err := launchServe(e, args...)
	if srv != nil {
		t.Cleanup(srv.stop)
	}
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

// launchServe is startServe for any goroutine: it reports instead of
// failing the test.
func launchServe(e func(string) string, args ...string) (*server, error) {
	return launchServeLogs(e, nil, args...)
}

// shutdown does what SIGTERM does and waits for serve to return.
func (s *server) shutdown(t *testing.T) error {
	t.Helper()
	s.stop()
	select {
	case err := <-s.done:
		return err
	case <-time.After(60 * time.Second):
		t.Fatalf("serve did not shut down:\n%s", s.logs.String())
		return nil
	}
}

// checkMetricsListener scrapes the listener of LOCATOR_METRICS_ADDR that
// serve logged: Prometheus text with the search index's size, no token.
func checkMetricsListener(t *testing.T, logs string) {
	t.Helper()
	m := regexp.MustCompile(`msg="metrics listening" url=(\S+)`).FindStringSubmatch(logs)
	if m == nil {
		t.Fatalf("no metrics listener logged:\n%s", logs)
	}
	res, err := http.Get(m[1])
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 || !regexp.MustCompile(`(?m)^locator_search_index_stores [1-9]`).Match(body) {
		t.Fatalf("%s: %d\n%.400s", m[1], res.StatusCode, body)
	}
}
