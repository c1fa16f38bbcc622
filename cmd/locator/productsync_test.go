package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/medusa"
	"locator/internal/medusa/medusatest"
	"locator/internal/stores"
)

// `locator products sync` reads Medusa's catalogue, lists the refused
// variant and exits 1; with a location mapped it writes the store's
// stock; --status shows the state without calling Medusa; a dead
// Medusa is exit 1 with the reason, and missing settings exit 2.
func TestProductsSync(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	fake := medusatest.New(t)
	u := "sqlite:" + filepath.Join(t.TempDir(), "locator.db")
	e := env(map[string]string{"LOCATOR_DATABASE_URL": u, "LOCATOR_MEDUSA_URL": fake.URL,
		"LOCATOR_MEDUSA_EMAIL": medusatest.Email, "LOCATOR_MEDUSA_PASSWORD": medusatest.Password})
	var out, errOut syncBuffer
	err := run(ctx, []string{"products", "sync"}, &out, &errOut, e)
	if exitCode(err) != 1 || !strings.Contains(out.String(), "variant variant_01BAD (product NB5K-BLUE): error: GTIN") ||
		!strings.Contains(out.String(), "2 stock locations (0 mapped to a store); 3 variants read, 2 written to the catalogue, 1 of products not published; 0 stock rows written; 1 failed") {
		t.Fatalf("sync: %v\n%s\n%s", err, out.String(), errOut.String())
	}
	d, err := db.Open(ctx, u)
	dbtest.Must(t, err, "open")
	st := &stores.Store{Name: "Empire Vapes", Address: "350 Fifth Avenue", PostalCode: "10118", Latitude: 40.7484, Longitude: -73.9857, TimeZone: "America/New_York"}
	dbtest.Must(t, stores.NewRepo(d).Create(ctx, st), "store")
	_, err = medusa.NewLocations(d).Map(ctx, "sloc_01NYC", st.ID, "test")
	dbtest.Must(t, err, "map")
	d.Close()

	out = syncBuffer{}
	err = run(ctx, []string{"products", "sync", "--json"}, &out, &errOut, e)
	if err != nil || !strings.Contains(out.String(), `"mapped":1`) || !strings.Contains(out.String(), `"stock":2`) {
		t.Fatalf("sync with a mapping: %v\n%s", err, out.String())
	}
	// A variant deleted in Medusa: the run says what it withdrew, and
	// --status says it again.
	fake.DeleteVariant("variant_01MANGO", "2026-12-01T09:00:00.000Z")
	out = syncBuffer{}
	const applied = "deletions applied: 1 variants withdrawn (1 products removed from the catalogue), 0 stock locations gone, 1 stock rows removed"
	if err := run(ctx, []string{"products", "sync"}, &out, &errOut, e); err != nil || !strings.Contains(out.String(), applied) {
		t.Fatalf("sync after a deletion: %v\n%s", err, out.String())
	}
	out = syncBuffer{}
	fake.SetMode("500")
	err = run(ctx, []string{"products", "sync", "--status"}, &out, &errOut, e)
	if err != nil || !strings.Contains(out.String(), "0 failures in a row") || !strings.Contains(out.String(), "sloc_01NYC Empire Vapes Midtown (350 5th Ave, New York 10118): store") ||
		!strings.Contains(out.String(), "last run: "+applied) {
		t.Fatalf("status: %v\n%s", err, out.String())
	}
	err = run(ctx, []string{"products", "sync"}, &out, &errOut, e)
	if exitCode(err) != 1 || !strings.Contains(err.Error(), "medusa answered 500") {
		t.Fatalf("a failing Medusa: %v", err)
	}
	noURL := env(map[string]string{"LOCATOR_DATABASE_URL": u})
	if err := run(ctx, []string{"products", "sync"}, &out, &errOut, noURL); exitCode(err) != 2 || !strings.Contains(err.Error(), "LOCATOR_MEDUSA_URL") {
		t.Fatalf("no URL: %v", err)
	}
	noAuth := env(map[string]string{"LOCATOR_DATABASE_URL": u, "LOCATOR_MEDUSA_URL": fake.URL})
	if err := run(ctx, []string{"products", "sync"}, &out, &errOut, noAuth); exitCode(err) != 2 || !strings.Contains(err.Error(), "LOCATOR_MEDUSA_TOKEN") {
		t.Fatalf("no credential: %v", err)
	}
}
