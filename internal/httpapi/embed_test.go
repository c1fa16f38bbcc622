package httpapi_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"locator/internal/clock"
	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/insights"
	"locator/internal/partners"
	"locator/internal/stores"
)

// widgetPartners gives the server two partners: acme, whose widget two
// sites may frame, and disabled-co, disabled.
func widgetPartners(t *testing.T, d *db.DB, f *fixture) string {
	t.Helper()
	ctx := context.Background()
	ps := partners.New(d, clock.System())
	acme, err := ps.Create(ctx, partners.Input{Name: "Acme", Slug: "acme", Kind: "brand",
		AllowedOrigins: []string{"https://shop.example", "http://127.0.0.1:5555"}})
	dbtest.Must(t, err, "partner")
	off, err := ps.Create(ctx, partners.Input{Name: "Disabled Co", Slug: "disabled-co", Kind: "brand", AllowedOrigins: []string{"https://off.example"}})
	dbtest.Must(t, err, "partner")
	dbtest.Must(t, ps.Disable(ctx, off.ID), "disable")
	f.srv.Partners = ps
	return acme.ID
}

func getPage(t *testing.T, f *fixture, target string) *httptest.ResponseRecorder {
	t.Helper()
	return serve(t, f.srv, httptest.NewRequest("GET", target, nil))
}

// /embed may be framed by its partner's sites only; every other page, an
// unknown partner and no partner keep refusing any frame. The widget's
// page reaches this site alone (img-src, connect-src), and /embed.js is a
// cacheable script.
func TestEmbedFraming(t *testing.T) {
	t.Parallel()
	d := dbtest.SQLite(t)
	f := newFixture(t, d)
	widgetPartners(t, d, f)

	js := getPage(t, f, "/embed.js")
	if js.Code != 200 || !strings.HasPrefix(js.Header().Get("Content-Type"), "text/javascript") ||
		js.Header().Get("Cache-Control") != "public, max-age=3600" || !strings.Contains(js.Body.String(), `"locator:size"`) ||
		!strings.Contains(js.Body.String(), "event.origin !== base") {
		t.Fatalf("/embed.js: %d %v %.200s", js.Code, js.Header(), js.Body)
	}

	rec := getPage(t, f, "/embed?partner=acme&product=nx-mango-5&theme=%230a7d55&lang=en&view=list&lat=40.7&lon=-74&host=https%3A%2F%2Fshop.example")
	csp := rec.Header().Get("Content-Security-Policy")
	if rec.Code != 200 || rec.Header().Get("X-Frame-Options") != "" ||
		!strings.HasSuffix(csp, "; frame-ancestors https://shop.example http://127.0.0.1:5555") ||
		!strings.Contains(csp, "img-src 'self' data: blob:;") || !strings.Contains(csp, "connect-src 'self';") {
		t.Fatalf("partner's widget: %d, X-Frame-Options %q, policy %q", rec.Code, rec.Header().Get("X-Frame-Options"), csp)
	}
	// The page is the app with its config, allowed by its hash.
	scripts := inlineScript.FindAllStringSubmatch(rec.Body.String(), -1)
	if len(scripts) != 1 || !strings.Contains(scripts[0][1], "__LOCATOR_CONFIG__") || !strings.Contains(csp, cspHash(scripts[0][1])) ||
		!strings.Contains(rec.Body.String(), `src="/assets/index-1.js"`) {
		t.Fatalf("widget page: %s (policy %q)", rec.Body, csp)
	}

	for _, target := range []string{"/embed", "/embed?partner=nobody", "/embed?partner=disabled-co", "/", "/claim", "/embed.js"} {
		rec := getPage(t, f, target)
		if target == "/embed.js" {
			if rec.Header().Get("X-Frame-Options") != "DENY" {
				t.Errorf("%s: X-Frame-Options %q", target, rec.Header().Get("X-Frame-Options"))
			}
			continue
		}
		if rec.Code != 200 || rec.Header().Get("X-Frame-Options") != "DENY" || !strings.HasSuffix(rec.Header().Get("Content-Security-Policy"), "frame-ancestors 'none'") {
			t.Errorf("%s: %d, X-Frame-Options %q, policy %q", target, rec.Code, rec.Header().Get("X-Frame-Options"), rec.Header().Get("Content-Security-Policy"))
		}
	}

	// A bad option is refused with a page naming it, framable by the partner so it shows in place.
	for _, c := range []struct{ query, says string }{
		{"theme=red", "theme must be a hex colour"},
		{"theme=%23abcd", "theme must be a hex colour"},
		{"lang=fr", "lang must be en"},
		{"view=grid", "view must be map or list"},
		{"lat=40.7", "lat and lon go together"},
		{"lat=91&lon=0", "lat must be a number from -90 to 90"},
		{"filter=cheap", `unknown filter &#34;cheap&#34;`},
		{"open=yes", "open must be 1 or 0"},
		{"host=javascript%3Aalert(1)", "host must be the embedding page"},
		{"theme=%23fff&theme=%23000", "theme is given more than once"},
		{"product=" + strings.Repeat("x", 101), "product must be text of at most 100 characters"},
		{"partner=Acme%20Inc", "partner must be a partner"},
	} {
		rec := getPage(t, f, "/embed?partner=acme&"+c.query)
		if c.query == "partner=Acme%20Inc" {
			rec = getPage(t, f, "/embed?"+c.query)
		}
		if rec.Code != 400 || !strings.Contains(rec.Body.String(), c.says) || !strings.Contains(rec.Header().Get("Content-Security-Policy"), "default-src 'none'") {
			t.Errorf("%s: %d %q, policy %q", c.query, rec.Code, rec.Body, rec.Header().Get("Content-Security-Policy"))
		}
	}
}

// What the widget counts under its partner, on both engines: a view, a
// search with the stores its first page showed, a store opened,
// directions and a buy click, each once per visitor and day; nothing for
// an unknown partner; a malformed partner in a beacon is a 400.
func TestEmbedPartnerInsights(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, d *db.DB, f *fixture) {
		ctx := context.Background()
		acme := widgetPartners(t, d, f)
		for range 2 {
			getPage(t, f, "/embed?partner=acme")
			getPage(t, f, "/embed?partner=nobody")
		}
		list := "/api/store/physical-store/list-physical-store/?latitude=40.72&longitude=-74.0&radius=5&compliant=true&partner="
		anon := &client{t: t, h: f.srv}
		var shown int
		anon.run([]step{
			{method: "GET", target: list + "acme", status: 200, reply: reply(func(t *testing.T, l storeList) { shown = len(l.Stores) })},
			{name: "the same search again", method: "GET", target: list + "acme", status: 200},
			{method: "GET", target: list + "nobody", status: 200},
			{method: "POST", target: "/api/events", body: map[string]any{"kind": "panel", "store_id": f.nearID, "partner": "acme"}, status: 204},
			{method: "POST", target: "/api/events", body: map[string]any{"kind": "directions", "store_id": f.nearID, "partner": "acme"}, status: 204},
			{method: "POST", target: "/api/events", body: map[string]any{"kind": "online_store", "store_id": f.nearID, "partner": "acme"}, status: 204},
			{method: "POST", target: "/api/events", body: map[string]any{"kind": "call", "store_id": f.nearID, "partner": "acme"}, status: 204},
			{method: "POST", target: "/api/events", body: map[string]any{"kind": "panel", "store_id": f.nearID, "partner": "nobody"}, status: 204},
			{method: "POST", target: "/api/events", body: map[string]any{"kind": "panel", "store_id": f.nearID, "partner": "Not A Slug"}, status: 400},
		})
		if shown == 0 {
			t.Fatal("the search found no store")
		}
		dbtest.Must(t, f.ins.Flush(ctx), "flush")
		months, err := insights.PartnerReport(ctx, d, "acme", time.Now(), 2)
		dbtest.Must(t, err, "report")
		want := insights.PartnerMonth{Month: time.Now().UTC().Format("2006-01"), Views: 1, Searches: 1, StoresShown: int64(min(shown, insights.FirstPage)),
			Panels: 1, Directions: 1, Buy: 1}
		if len(months) != 2 || months[0] != want || (months[1] != insights.PartnerMonth{Month: months[1].Month}) {
			t.Fatalf("report: got %+v, want %+v first", months, want)
		}
		// The moderator's monthly report says the same.
		dbtest.Must(t, newClaims(d, stores.NewRepo(d), nil).Moderators.Add(ctx, "mod@example.com", "moderator-pass"), "moderator")
		mod := &client{t: t, h: f.srv}
		modSignIn(t, f.srv, mod)
		report := "/api/admin/partners/" + acme + "/report"
		mod.runEach([]step{
			{method: "GET", target: report + "?months=2", status: 200, reply: reply(func(t *testing.T, r partnerReportReply) {
				if r.Partner != "acme" || len(r.Months) != 2 || r.Months[0] != want {
					t.Errorf("report: %+v", r)
				}
			})},
			{method: "GET", target: report + "?months=0", status: 400, message: "months must be a whole number from 1 to 25"},
			{method: "GET", target: report + "?months=x", status: 400},
			{method: "GET", target: "/api/admin/partners/pt_0000000000000000/report", status: 404},
		})
		anon.run([]step{{name: "the report without a moderator", method: "GET", target: report, status: 401}})
		none, err := insights.PartnerReport(ctx, d, "nobody", time.Now(), 1)
		dbtest.Must(t, err, "report")
		if (none[0] != insights.PartnerMonth{Month: want.Month}) {
			t.Fatalf("an unknown partner counted: %+v", none)
		}
	})
}

// partnerReportReply is the typed reply of GET /api/admin/partners/{id}/report.
type partnerReportReply struct {
	Partner string                  `json:"partner"`
	Months  []insights.PartnerMonth `json:"months"`
}
