// Package medusatest is a stand-in Medusa v2 admin API for tests of the
// products sync (internal/medusa, cmd/locator).
package medusatest

import (
	"embed"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Server is an httptest server that answers the admin calls the sync
// makes with the JSON shapes a real Medusa 2.21.2 answers (the fixtures in
// testdata/ follow what one answered: make test-medusa). It keeps
// products, locations and levels in memory, filters by updated_at as
// Medusa does, pages by limit and offset, and can be made to fail.
type Server struct {
	URL string
	srv *httptest.Server

	mu        sync.Mutex
	products  []map[string]any // as Medusa writes them, variants inside
	locations []map[string]any
	levels    []map[string]any // inventory_item_id, location_id, ..., updated_at
	queries   []string         // path?query of each admin call
	mode      string           // "", "hang", "500", "badjson"
	logins    int
}

// The admin user the server knows.
const Email, Password = "admin@example.com", "supersecret"

// New starts a server holding the fixtures (testdata/products.json,
// stock_locations.json, levels.json); the test's end stops it.
func New(t testing.TB) *Server {
	f := &Server{}
	f.products = load(t, "products.json")
	f.locations = load(t, "stock_locations.json")
	f.levels = load(t, "levels.json")
	release := make(chan struct{})
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { f.serve(w, r, release) }))
	f.URL = f.srv.URL
	t.Cleanup(func() { close(release); f.srv.Close() })
	return f
}

//go:embed testdata/*.json
var fixtures embed.FS

func load(t testing.TB, name string) []map[string]any {
	t.Helper()
	b, err := fixtures.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return out
}

// SetMode makes every call fail: "hang" (never answers until the call or
// the test ends), "500" (Medusa's error answer), "badjson" (a cut JSON
// body); "" answers again.
func (f *Server) SetMode(m string) {
	f.mu.Lock()
	f.mode = m
	f.mu.Unlock()
}

func (f *Server) serve(w http.ResponseWriter, r *http.Request, release chan struct{}) {
	f.mu.Lock()
	mode := f.mode
	f.mu.Unlock()
	switch mode {
	case "hang":
		select {
		case <-release:
		case <-r.Context().Done():
		}
		return
	case "500":
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = w.Write([]byte(`{"type":"unknown_error","message":"An unknown error occurred."}`))
		return
	case "badjson":
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"products": [{"id": "prod_1", "title": `))
		return
	}
	if r.URL.Path == "/auth/user/emailpass" && r.Method == http.MethodPost {
		var in map[string]string
		_ = json.NewDecoder(r.Body).Decode(&in)
		if in["email"] != Email || in["password"] != Password {
			writeFake(w, http.StatusUnauthorized, map[string]any{"type": "unauthorized", "message": "Invalid email or password"})
			return
		}
		f.mu.Lock()
		f.logins++
		f.mu.Unlock()
		writeFake(w, http.StatusOK, map[string]any{"token": "jwt-1"})
		return
	}
	if r.Header.Get("Authorization") != "Bearer jwt-1" {
		writeFake(w, http.StatusUnauthorized, map[string]any{"type": "unauthorized", "message": "Unauthorized"})
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.queries = append(f.queries, r.URL.Path+"?"+r.URL.RawQuery)
	q := r.URL.Query()
	switch r.URL.Path {
	case "/admin/products":
		var out []map[string]any
		for _, p := range f.products {
			if ids := q["id[]"]; len(ids) > 0 && !slices.Contains(ids, p["id"].(string)) {
				continue
			}
			if !matches(p, q) || !variantDeletedAfter(p, first(q["variants[deleted_at][$gt]"])) {
				continue
			}
			if first(q["with_deleted"]) == "true" {
				out = append(out, p)
			} else {
				out = append(out, withLiveVariants(p))
			}
		}
		f.page(w, q, "products", out)
	case "/admin/product-variants":
		var out []map[string]any
		for _, p := range f.products {
			for _, v := range p["variants"].([]any) {
				v := v.(map[string]any)
				// This list never holds a deleted variant, with_deleted or not.
				if d, _ := v["deleted_at"].(string); d != "" || !matches(v, q) {
					continue
				}
				out = append(out, map[string]any{"id": v["id"], "product_id": p["id"], "updated_at": v["updated_at"], "deleted_at": v["deleted_at"]})
			}
		}
		f.page(w, q, "variants", out)
	case "/admin/stock-locations":
		f.page(w, q, "stock_locations", f.locations)
	case "/admin/inventory-items":
		loc := q.Get("location_levels[location_id]")
		byItem := map[string][]any{}
		var order []string
		for _, l := range f.levels {
			if l["location_id"] != loc {
				continue
			}
			id := l["inventory_item_id"].(string)
			if _, ok := byItem[id]; !ok {
				order = append(order, id)
			}
			byItem[id] = append(byItem[id], l)
		}
		var out []map[string]any
		for _, id := range order {
			out = append(out, map[string]any{"id": id, "sku": nil, "location_levels": byItem[id]})
		}
		f.page(w, q, "inventory_items", out)
	default:
		writeFake(w, http.StatusNotFound, map[string]any{"type": "not_found", "message": "Route not found"})
	}
}

// matches applies Medusa's filters a sync uses to a product or variant: a
// deleted record (deleted_at set) is listed only with with_deleted=true,
// and updated_at[$gt] and deleted_at[$gt] compare times.
func matches(rec map[string]any, q map[string][]string) bool {
	del, _ := rec["deleted_at"].(string)
	if del != "" && first(q["with_deleted"]) != "true" {
		return false
	}
	if gt := first(q["updated_at[$gt]"]); gt != "" && !laterThan(rec["updated_at"].(string), gt) {
		return false
	}
	if gt := first(q["deleted_at[$gt]"]); gt != "" && (del == "" || !laterThan(del, gt)) {
		return false
	}
	return true
}

// variantDeletedAfter applies variants[deleted_at][$gt]: a product with a
// variant deleted after gt ("" matches every product).
func variantDeletedAfter(p map[string]any, gt string) bool {
	if gt == "" {
		return true
	}
	for _, v := range p["variants"].([]any) {
		if d, _ := v.(map[string]any)["deleted_at"].(string); d != "" && laterThan(d, gt) {
			return true
		}
	}
	return false
}

// withLiveVariants is a product with its deleted variants left out, as
// Medusa lists a product's variants.
func withLiveVariants(p map[string]any) map[string]any {
	out := make(map[string]any, len(p))
	for k, v := range p {
		out[k] = v
	}
	var vs []any
	for _, v := range p["variants"].([]any) {
		if d, _ := v.(map[string]any)["deleted_at"].(string); d == "" {
			vs = append(vs, v)
		}
	}
	out["variants"] = vs
	return out
}

// DeleteVariant soft-deletes variant id at time at (RFC 3339), as Medusa's
// DELETE /admin/products/{id}/variants/{variant_id} does.
func (f *Server) DeleteVariant(id, at string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, p := range f.products {
		for _, v := range p["variants"].([]any) {
			if v := v.(map[string]any); v["id"] == id {
				v["deleted_at"] = at
			}
		}
	}
}

// DeleteProduct soft-deletes product id and its variants at time at, as
// Medusa's DELETE /admin/products/{id} does.
func (f *Server) DeleteProduct(id, at string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, p := range f.products {
		if p["id"] == id {
			p["deleted_at"] = at
			for _, v := range p["variants"].([]any) {
				v.(map[string]any)["deleted_at"] = at
			}
		}
	}
}

// DeleteLocation removes stock location id from the list (Medusa's
// DELETE /admin/stock-locations/{id}).
func (f *Server) DeleteLocation(id string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.locations = slices.DeleteFunc(f.locations, func(l map[string]any) bool { return l["id"] == id })
}

func (f *Server) page(w http.ResponseWriter, q map[string][]string, key string, all []map[string]any) {
	limit, _ := strconv.Atoi(first(q["limit"]))
	offset, _ := strconv.Atoi(first(q["offset"]))
	if limit == 0 {
		limit = 50
	}
	end := min(offset+limit, len(all))
	items := []map[string]any{}
	if offset < len(all) {
		items = all[offset:end]
	}
	writeFake(w, http.StatusOK, map[string]any{key: items, "count": len(all), "offset": offset, "limit": limit})
}

func first(v []string) string {
	if len(v) == 0 {
		return ""
	}
	return v[0]
}

func laterThan(a, b string) bool {
	ta, _ := time.Parse(time.RFC3339Nano, a)
	tb, _ := time.Parse(time.RFC3339Nano, b)
	return ta.After(tb)
}

func writeFake(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// CallsTo returns the admin calls made to path (path?query), oldest first.
func (f *Server) CallsTo(path string) []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for _, q := range f.queries {
		if strings.HasPrefix(q, path+"?") {
			out = append(out, q)
		}
	}
	return out
}

// Edit changes what the server holds (Products, Locations, Levels: the
// records as Medusa writes them) under its lock; ClearCalls forgets the
// calls made.
func (f *Server) Edit(fn func(products, locations, levels []map[string]any)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	fn(f.products, f.locations, f.levels)
}

// ClearCalls forgets the calls made so far.
func (f *Server) ClearCalls() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.queries = nil
}
