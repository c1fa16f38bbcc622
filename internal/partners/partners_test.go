package partners_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"locator/internal/apperr"
	"locator/internal/clock"
	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/partners"
)

var at = time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)

func service(d *db.DB) *partners.Service { return partners.New(d, clock.Fixed(at)) }

// A partner is created with its lists normalised, read back by id, by slug
// and in the list, edited (lists replaced) and disabled; its id is random.
func TestPartnerLifecycle(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s := service(d)
		p, err := s.Create(ctx, partners.Input{Name: "  Acme Vapes Co. ", Kind: "brand",
			AllowedOrigins: []string{"https://Shop.Example:443/", "https://shop.example", "http://localhost:5173"},
			Brands:         []string{"Acme", " acme ", "Zeta"}, ProductIDs: []string{"p-1", "p-2", "p-1"}, Actor: "moderator:1:m@example.com"})
		dbtest.Must(t, err, "create")
		if !strings.HasPrefix(p.ID, partners.IDPrefix) || len(p.ID) != len(partners.IDPrefix)+16 || p.Name != "Acme Vapes Co." || p.Slug != "acme-vapes-co" ||
			p.Kind != "brand" || p.Disabled || !p.CreatedAt.Equal(at) ||
			strings.Join(p.AllowedOrigins, " ") != "https://shop.example http://localhost:5173" ||
			strings.Join(p.Brands, ",") != "Acme,Zeta" || strings.Join(p.ProductIDs, ",") != "p-1,p-2" {
			t.Fatalf("created %+v", p)
		}
		q, err := s.Create(ctx, partners.Input{Name: "Till Co", Slug: "till", Kind: "pos"})
		dbtest.Must(t, err, "create second")
		if q.ID == p.ID || len(q.AllowedOrigins) != 0 || q.Brands == nil || q.ProductIDs == nil {
			t.Fatalf("second %+v", q)
		}
		got, err := s.BySlug(ctx, "acme-vapes-co")
		dbtest.Must(t, err, "by slug")
		if got.ID != p.ID || len(got.ProductIDs) != 2 {
			t.Fatalf("by slug %+v", got)
		}
		if audits := dbtest.Texts(t, d, "|", "SELECT actor, action FROM audit_log"); len(audits) != 1 || audits[0] != "moderator:1:m@example.com|partner.create" {
			t.Fatalf("audit %q", audits)
		}

		p, err = s.Update(ctx, p.ID, partners.Input{Name: "Acme", Slug: "acme", Kind: "chain", Brands: []string{"Acme"}, ProductIDs: []string{"p-3"}})
		dbtest.Must(t, err, "update")
		if p.Slug != "acme" || p.Kind != "chain" || len(p.AllowedOrigins) != 0 || strings.Join(p.ProductIDs, ",") != "p-3" || strings.Join(p.Brands, ",") != "Acme" {
			t.Fatalf("updated %+v", p)
		}
		if _, err := s.Update(ctx, q.ID, partners.Input{Name: "Till", Slug: "acme", Kind: "pos"}); apperr.CodeOf(err) != apperr.Conflict {
			t.Fatalf("taken slug: %v", err)
		}
		if _, err := s.Update(ctx, "pt_nope", partners.Input{Name: "Xy", Kind: "pos"}); err != partners.ErrNotFound {
			t.Fatalf("update unknown: %v", err)
		}

		dbtest.Must(t, s.Disable(ctx, q.ID), "disable")
		dbtest.Must(t, s.Disable(ctx, q.ID), "disable again")
		if err := s.Disable(ctx, "pt_nope"); err != partners.ErrNotFound {
			t.Fatalf("disable unknown: %v", err)
		}
		list, err := s.List(ctx)
		dbtest.Must(t, err, "list")
		if len(list) != 2 || list[0].ID != p.ID || list[1].ID != q.ID || !list[1].Disabled || strings.Join(list[0].ProductIDs, ",") != "p-3" {
			t.Fatalf("list %+v", list)
		}
		if _, err := s.Get(ctx, "pt_nope"); err != partners.ErrNotFound {
			t.Fatalf("get unknown: %v", err)
		}
	})
}

// Each broken rule is a 400 naming its field, and nothing is written.
func TestPartnerInputRules(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s := service(d)
		ok := partners.Input{Name: "Acme", Kind: "brand"}
		cases := map[string]func(in *partners.Input){
			"name":            func(in *partners.Input) { in.Name = "  " },
			"name:":           func(in *partners.Input) { in.Name = strings.Repeat("é", partners.MaxName+1) },
			"name: must":      func(in *partners.Input) { in.Name = "a\x00b" },
			"slug":            func(in *partners.Input) { in.Slug = "Acme Vapes" },
			"slug:":           func(in *partners.Input) { in.Slug = "acme--vapes" },
			"kind":            func(in *partners.Input) { in.Kind = "shop" },
			"allowed_origins": func(in *partners.Input) { in.AllowedOrigins = []string{"http://shop.example"} },
			"allowed_origins:": func(in *partners.Input) {
				in.AllowedOrigins = []string{"https://shop.example/path"}
			},
			"allowed_origins: ": func(in *partners.Input) { in.AllowedOrigins = make([]string, partners.MaxOrigins+1) },
			"brands":            func(in *partners.Input) { in.Brands = []string{" "} },
			"product_ids":       func(in *partners.Input) { in.ProductIDs = []string{"a/b"} },
			"product_ids:":      func(in *partners.Input) { in.ProductIDs = make([]string, partners.MaxProducts+1) },
		}
		for name, change := range cases {
			in := ok
			change(&in)
			_, err := s.Create(ctx, in)
			field, _, _ := strings.Cut(name, ":")
			if apperr.CodeOf(err) != apperr.Invalid || !strings.HasPrefix(err.Error(), field+":") {
				t.Errorf("%s: %v", name, err)
			}
		}
		if n := dbtest.Texts(t, d, "", "SELECT COUNT(*) FROM partners"); n[0] != "0" {
			t.Fatalf("%s partners written", n[0])
		}
		// A name without ASCII letters or digits still gets a slug.
		p, err := s.Create(ctx, partners.Input{Name: "ÉÉ !", Kind: "pos"})
		dbtest.Must(t, err, "create")
		if p.Slug != "partner-"+strings.TrimPrefix(p.ID, partners.IDPrefix) {
			t.Fatalf("slug %q of %q", p.Slug, p.ID)
		}
	})
}

// Origins are compared after normalisation, exactly; a disabled partner
// allows none. Sells takes a listed product or a listed brand.
func TestAllowsOriginAndSells(t *testing.T) {
	p := partners.Partner{AllowedOrigins: []string{"https://shop.example", "http://127.0.0.1:8080"},
		Brands: []string{"Acme"}, ProductIDs: []string{"p-1"}}
	for origin, want := range map[string]bool{
		"https://shop.example":       true,
		"https://SHOP.example:443":   true,
		"https://shop.example/":      true,
		"http://shop.example":        false,
		"https://shop.example:8443":  false,
		"https://www.shop.example":   false,
		"https://shop.example.evil":  false,
		"http://127.0.0.1:8080":      true,
		"http://127.0.0.1:8081":      false,
		"null":                       false,
		"":                           false,
		"https://user@shop.example":  false,
		"https://shop.example/x":     false,
		"javascript:alert(1)":        false,
		"https://shop.example?x=1":   false,
		"https://shop.example#x":     false,
		"http://localhost.evil:8080": false,
		"http://192.168.1.2":         false,
		"https://[::1]:8443/":        false,
		"https://shop.example.":      false,
		"ftp://shop.example":         false,
		" https://shop.example ":     true,
		"https://shop.example:443/ ": true,
	} {
		if got := p.AllowsOrigin(origin); got != want {
			t.Errorf("AllowsOrigin(%q) = %v", origin, got)
		}
	}
	for _, c := range []struct {
		id, brand string
		want      bool
	}{{"p-1", "", true}, {"p-2", "acme ", true}, {"p-2", "Other", false}, {"", "", false}, {"P-1", "", false}} {
		if got := p.Sells(c.id, c.brand); got != c.want {
			t.Errorf("Sells(%q, %q) = %v", c.id, c.brand, got)
		}
	}
	p.Disabled = true
	if p.AllowsOrigin("https://shop.example") {
		t.Fatal("a disabled partner allows an origin")
	}
}

func TestMakeSlug(t *testing.T) {
	for in, want := range map[string]string{"Acme Vapes Co.": "acme-vapes-co", "  --X--  ": "x", "Café Zoë": "caf-zo", strings.Repeat("ab ", 30): strings.Repeat("ab-", 13) + "a"} {
		if got := partners.MakeSlug(in); got != want {
			t.Errorf("MakeSlug(%q) = %q, want %q", in, got, want)
		}
	}
}
