package httpapi_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"locator/internal/clock"
	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/partners"
)

type partnerReply struct {
	Partner partners.Partner `json:"partner"`
}

// A moderator creates a partner, reads it, edits some fields (the others
// kept), disables it and finds it in the list; bad input is a 400 naming
// the field, a taken slug a 409, an unknown id a 404; nobody else may look.
func TestAdminPartnersAPI(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, d *db.DB, f *fixture) {
		ctx := context.Background()
		f.srv.Partners = partners.New(d, clock.System())
		dbtest.Must(t, newClaims(d, nil, nil).Moderators.Add(ctx, "mod@example.com", "moderator-pass"), "moderator")

		anon := &client{t: t, h: f.srv}
		anon.runEach([]step{
			{method: "GET", target: "/api/admin/partners", status: 401},
			{method: "POST", target: "/api/admin/partners", body: map[string]any{"name": "x"}, status: 401},
			{method: "PATCH", target: "/api/admin/partners/pt_x", body: map[string]any{"name": "x"}, status: 401},
			{method: "POST", target: "/api/admin/partners/pt_x/disable", status: 401},
		})
		mod := &client{t: t, h: f.srv}
		modSignIn(t, f.srv, mod)
		rec, _ := mod.call("POST", "/api/admin/partners", map[string]any{"name": "Acme Vapes", "kind": "brand",
			"allowed_origins": []string{"https://shop.example/"}, "brands": []string{"Acme"}, "product_ids": []string{"nx-mango-5"}})
		var created partnerReply
		if rec.Code != 201 || json.Unmarshal(rec.Body.Bytes(), &created) != nil || created.Partner.Slug != "acme-vapes" ||
			strings.Join(created.Partner.AllowedOrigins, ",") != "https://shop.example" {
			t.Fatalf("create: %d %s", rec.Code, rec.Body)
		}
		id := created.Partner.ID
		mod.runEach([]step{
			{name: "a bad kind", method: "POST", target: "/api/admin/partners", body: map[string]any{"name": "X Co", "kind": "shop"}, status: 400, message: "kind: one of brand, pos, chain."},
			{name: "a plain http origin", method: "POST", target: "/api/admin/partners", body: map[string]any{"name": "X Co", "kind": "pos", "allowed_origins": []string{"http://shop.example"}}, status: 400},
			{name: "a wrong type", method: "POST", target: "/api/admin/partners", body: map[string]any{"name": "X Co", "kind": "pos", "brands": "Acme"}, status: 400},
			{name: "not JSON", method: "POST", target: "/api/admin/partners", body: "[1]", status: 400},
			{name: "a taken slug", method: "POST", target: "/api/admin/partners", body: map[string]any{"name": "Acme", "slug": "acme-vapes", "kind": "pos"}, status: 409},
			{name: "an unknown partner", method: "GET", target: "/api/admin/partners/pt_0000", status: 404},
			{name: "an unknown edit", method: "PATCH", target: "/api/admin/partners/pt_0000", body: map[string]any{"name": "x"}, status: 404},
			{name: "an unknown disable", method: "POST", target: "/api/admin/partners/pt_0000/disable", status: 404},
			{name: "an edit breaking a rule", method: "PATCH", target: "/api/admin/partners/" + id, body: map[string]any{"slug": "Bad Slug"}, status: 400},
		})
		mod.run([]step{
			{name: "one partner", method: "GET", target: "/api/admin/partners/" + id, status: 200, reply: reply(func(t *testing.T, r partnerReply) {
				if r.Partner.Name != "Acme Vapes" || strings.Join(r.Partner.ProductIDs, ",") != "nx-mango-5" {
					t.Errorf("partner %+v", r.Partner)
				}
			})},
			{name: "an edit", method: "PATCH", target: "/api/admin/partners/" + id, body: map[string]any{"kind": "chain", "brands": []string{}}, status: 200,
				reply: reply(func(t *testing.T, r partnerReply) {
					p := r.Partner
					if p.Kind != "chain" || len(p.Brands) != 0 || p.Name != "Acme Vapes" || len(p.AllowedOrigins) != 1 || len(p.ProductIDs) != 1 {
						t.Errorf("edited %+v", p)
					}
				})},
			{name: "disable", method: "POST", target: "/api/admin/partners/" + id + "/disable", status: 200, reply: reply(func(t *testing.T, r partnerReply) {
				if !r.Partner.Disabled {
					t.Errorf("not disabled: %+v", r.Partner)
				}
			})},
			{name: "the list", method: "GET", target: "/api/admin/partners", status: 200, reply: reply(func(t *testing.T, r struct{ Partners []partners.Partner }) {
				if len(r.Partners) != 1 || r.Partners[0].ID != id || !r.Partners[0].Disabled {
					t.Errorf("list %+v", r.Partners)
				}
			})},
		})
		if got := dbtest.Texts(t, d, "|", "SELECT action FROM audit_log WHERE action LIKE 'partner.%' ORDER BY id"); strings.Join(got, ",") != "partner.create,partner.update,partner.disable" {
			t.Fatalf("audit %q", got)
		}
	})
}
