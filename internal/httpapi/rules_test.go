package httpapi_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"locator/internal/db"
	"locator/internal/httpapi"
)

type placeRules struct {
	Place *struct {
		State      string `json:"state"`
		PostalCode string `json:"postal_code"`
	} `json:"place"`
	On    string `json:"on"`
	Rules []struct {
		ID        string `json:"id"`
		Citation  string `json:"citation"`
		URL       string `json:"url"`
		CheckedOn string `json:"checked_on"`
	} `json:"rules"`
	MinAge              int  `json:"min_age"`
	ShippingToConsumers bool `json:"shipping_to_consumers"`
	ShippingBan         *struct {
		ID string `json:"id"`
	} `json:"shipping_ban"`
}

func TestPlaceRules(t *testing.T) {
	t.Parallel()
	h := placesServer(t, httpapi.Deps{})
	get := func(q string) placeRules {
		t.Helper()
		rec := do(t, h, http.MethodGet, "/api/rules?"+q, nil, true)
		if rec.Code != http.StatusOK {
			t.Fatalf("%s: %d %s", q, rec.Code, rec.Body)
		}
		var a placeRules
		if err := json.Unmarshal(rec.Body.Bytes(), &a); err != nil {
			t.Fatal(err)
		}
		return a
	}
	ids := func(a placeRules) string {
		var out []string
		for _, r := range a.Rules {
			out = append(out, r.ID)
		}
		return strings.Join(out, ",")
	}
	boston := get("latitude=42.3601&longitude=-71.0589")
	if boston.Place == nil || boston.Place.State != "MA" || boston.MinAge != 21 || !boston.ShippingToConsumers || boston.ShippingBan != nil ||
		ids(boston) != "us-tobacco-21,ma-flavoured-vapes,ma-flavoured-tobacco" || boston.Rules[1].Citation == "" {
		t.Errorf("Boston: %+v", boston)
	}
	brooklyn := get("latitude=40.6782&longitude=-73.9442")
	if brooklyn.ShippingToConsumers || brooklyn.ShippingBan == nil || brooklyn.ShippingBan.ID != "ny-no-shipping" ||
		!strings.Contains(ids(brooklyn), "nyc-flavoured-e-cigarettes") {
		t.Errorf("Brooklyn: %+v", brooklyn)
	}
	sea := get("latitude=0&longitude=-30")
	if sea.Place != nil || len(sea.Rules) != 0 || sea.MinAge != 18 || !sea.ShippingToConsumers || sea.On == "" {
		t.Errorf("mid-Atlantic: %+v", sea)
	}
	for _, q := range []string{"", "latitude=42", "latitude=91&longitude=0", "latitude=x&longitude=0", "latitude=NaN&longitude=0", "latitude=1&longitude=181"} {
		if rec := do(t, h, http.MethodGet, "/api/rules?"+q, nil, false); rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), `"message"`) {
			t.Errorf("%q: %d %s", q, rec.Code, rec.Body)
		}
	}
}

// A store's document carries its rules alone, and names them by id in
// the list answer, which carries each rule once.
func TestStoreDocumentsCarryRules(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, d *db.DB, f *fixture) {
		var one struct {
			Rules []struct {
				ID string `json:"id"`
			} `json:"rules"`
		}
		rec := do(t, f.srv, http.MethodGet, "/api/store/physical-store/"+strconvI(f.nearID), nil, true)
		if err := json.Unmarshal(rec.Body.Bytes(), &one); err != nil || len(one.Rules) != 1 || one.Rules[0].ID != "ny-flavoured-vapes" {
			t.Fatalf("one store: %s", rec.Body)
		}
		rec = do(t, f.srv, http.MethodGet, "/api/store/physical-store/list-physical-store/?latitude=40.713&longitude=-74.006&radius=1", nil, true)
		if !strings.Contains(rec.Body.String(), `"rule_ids":["ny-flavoured-vapes"]`) ||
			!strings.Contains(rec.Body.String(), `"has_more":false,"rules":[{"id":"ny-flavoured-vapes"`) {
			t.Fatalf("list: %s", rec.Body)
		}
	})
}
