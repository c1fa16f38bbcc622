package httpapi_test

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"testing"

	"locator/internal/httpapi"
	"locator/internal/places"
	"locator/internal/places/placestest"
)

// gazetteer is the embedded gazetteer with its name index (places.Load
// and BuildIndex do the work once for the whole test binary).
func gazetteer(t testing.TB) *places.Gazetteer {
	t.Helper()
	g, err := places.Load()
	if err != nil {
		t.Fatal(err)
	}
	g.BuildIndex()
	return g
}

func placesServer(t testing.TB, d httpapi.Deps) *httpapi.Server {
	t.Helper()
	if d.Places == nil {
		d.Places = &places.Service{Gazetteer: gazetteer(t)}
	}
	d.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	return httpapi.New(d)
}

type placeAnswer struct {
	Code int `json:"code"`
	Data []struct {
		DisplayName string  `json:"display_name"`
		Lat         float64 `json:"lat"`
		Lon         float64 `json:"lon"`
	} `json:"data"`
	Note string `json:"note"`
}

func searchPlaces(t *testing.T, h http.Handler, q string) (int, placeAnswer, string) {
	t.Helper()
	rec := do(t, h, http.MethodGet, "/api/store/physical-store/search-places?q="+url.QueryEscape(q), nil, true)
	var a placeAnswer
	if rec.Code == http.StatusOK {
		if err := json.Unmarshal(rec.Body.Bytes(), &a); err != nil {
			t.Fatalf("q=%s: %v", q, err)
		}
	}
	return rec.Code, a, rec.Body.String()
}

var noteAddressPlace, noteAddressNone = places.NoteAddressPlace, places.NoteAddressNone

// TestSearchPlacesAPI: every class of query, through HTTP and the contract.
func TestSearchPlacesAPI(t *testing.T) {
	t.Parallel()
	c := &client{t: t, h: placesServer(t, httpapi.Deps{})}
	const places = "/api/store/physical-store/search-places"
	var steps []step
	for _, p := range placestest.Queries {
		steps = append(steps, step{name: p.Class + ": " + p.Q, method: "GET", target: places + "?q=" + url.QueryEscape(p.Q), status: 200,
			reply: reply(func(t *testing.T, a placeAnswer) {
				if a.Code != 200 || len(a.Data) == 0 || len(a.Data) > 10 {
					t.Errorf("%s: q=%q: %+v", p.Class, p.Q, a)
					return
				}
				if f := a.Data[0]; f.DisplayName != p.Want || math.Abs(f.Lat-p.Lat) > 0.05 || math.Abs(f.Lon-p.Lon) > 0.05 {
					t.Errorf("%s: q=%q first = %q (%.3f, %.3f), want %q near (%.2f, %.2f)", p.Class, p.Q, f.DisplayName, f.Lat, f.Lon, p.Want, p.Lat, p.Lon)
				}
			})})
	}
	// A street address without a geocoder: the best place and a note; none for
	// anything else.
	steps = append(steps,
		step{name: "address note", method: "GET", target: places + "?q=" + url.QueryEscape("350 5th Ave, New York, NY 10118"), status: 200,
			reply: reply(func(t *testing.T, a placeAnswer) {
				if a.Note != noteAddressPlace || len(a.Data) == 0 {
					t.Errorf("address: %+v", a)
				}
			})},
		step{name: "address without a place", method: "GET", target: places + "?q=" + url.QueryEscape("123 Qwxz St"), status: 200,
			reply: reply(func(t *testing.T, a placeAnswer) {
				if a.Note != noteAddressNone || len(a.Data) != 0 {
					t.Errorf("unknown address: %+v", a)
				}
			})},
		step{name: "no note for a city", method: "GET", target: places + "?q=brooklyn", status: 200,
			reply: reply(func(t *testing.T, a placeAnswer) {
				if a.Note != "" {
					t.Errorf("city: note %q", a.Note)
				}
			})},
		// The map's centre breaks near-ties.
		step{name: "near Maine", method: "GET", target: places + "?q=Portland&lat=43.66&lon=-70.26", status: 200,
			reply: reply(func(t *testing.T, a placeAnswer) {
				if len(a.Data) == 0 || a.Data[0].DisplayName != "Portland, Maine, United States" {
					t.Errorf("Portland near Maine: %+v", a.Data)
				}
			})},
		step{name: "lat without lon", method: "GET", target: places + "?q=Portland&lat=43.66", status: 400},
		step{name: "lat out of range", method: "GET", target: places + "?q=Portland&lat=91&lon=0", status: 400},
		step{name: "lon not a number", method: "GET", target: places + "?q=Portland&lat=1&lon=x", status: 400},
	)
	steps = append(steps, step{name: "a ZIP prefix gives ten", method: "GET", target: places + "?q=100", status: 200,
		reply: reply(func(t *testing.T, a placeAnswer) {
			if len(a.Data) != 10 {
				t.Errorf("ZIP prefix: %d results, want 10", len(a.Data))
			}
		})})
	// Nothing to find: 200 with an empty list (never null).
	for _, q := range []string{"", "   ", "asdfghjkl", "!!!", strings.Repeat("x", 200)} {
		steps = append(steps, step{name: fmt.Sprintf("nothing for %.20q", q), method: "GET", target: places + "?q=" + url.QueryEscape(q), status: 200, reply: noPlaces})
	}
	steps = append(steps,
		step{name: "no q at all", method: "GET", target: places, status: 200, reply: noPlaces},
		step{name: "too long", method: "GET", target: places + "?q=" + url.QueryEscape(strings.Repeat("é", 201)), status: 400},
		// The route does not collide with /store/physical-store/{id}.
		step{name: "POST", method: "POST", target: places + "?q=x", status: http.StatusMethodNotAllowed},
	)
	c.runEach(steps)
}

// noPlaces checks an answer with an empty list, written as [] (never null).
func noPlaces(t *testing.T, body []byte) {
	t.Helper()
	var a placeAnswer
	if err := json.Unmarshal(body, &a); err != nil || a.Code != 200 || a.Data == nil || len(a.Data) != 0 || !strings.Contains(string(body), `"data":[]`) {
		t.Errorf("want an empty list: %s", body)
	}
}

func TestSearchPlacesUpstream(t *testing.T) {
	t.Parallel()
	hits := 0
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits++
		fmt.Fprint(w, `[{"lat":"40.7484405","lon":"-73.9856644","display_name":"Empire State Building, 350, 5th Avenue, New York, 10118, United States"}]`)
	}))
	defer up.Close()
	u, err := places.NewUpstream(places.UpstreamOptions{URL: up.URL + "/search"})
	if err != nil {
		t.Fatal(err)
	}
	srv := placesServer(t, httpapi.Deps{Places: &places.Service{Gazetteer: gazetteer(t), Upstream: u}})
	_, a, body := searchPlaces(t, srv, "350 5th Ave, New York")
	if len(a.Data) != 1 || !strings.HasPrefix(a.Data[0].DisplayName, "Empire State Building") || hits != 1 || a.Note != "" {
		t.Fatalf("upstream: %s (hits %d)", body, hits)
	}
	if rec := do(t, srv, http.MethodGet, "/api/config", nil, true); !strings.Contains(rec.Body.String(), `"addressSearch":true`) {
		t.Errorf("config with an upstream: %s", rec.Body.String())
	}
	if rec := do(t, placesServer(t, httpapi.Deps{}), http.MethodGet, "/api/config", nil, true); strings.Contains(rec.Body.String(), "addressSearch") {
		t.Errorf("config without an upstream: %s", rec.Body.String())
	}
	rec := do(t, srv, http.MethodGet, "/api/attribution", nil, true)
	if !strings.Contains(rec.Body.String(), "OpenStreetMap") {
		t.Errorf("attribution with an upstream: %s", rec.Body.String())
	}
}

func TestAttributionAPI(t *testing.T) {
	t.Parallel()
	rec := do(t, placesServer(t, httpapi.Deps{}), http.MethodGet, "/api/attribution", nil, true)
	var a struct {
		Sources []struct{ Name, License, URL string } `json:"sources"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &a); err != nil || rec.Code != 200 {
		t.Fatalf("%d %s", rec.Code, rec.Body.String())
	}
	if len(a.Sources) != 2 || a.Sources[0].Name != "GeoNames" || a.Sources[0].License != "CC BY 4.0" ||
		a.Sources[1].Name != "© OpenStreetMap contributors" || a.Sources[1].License != "ODbL 1.0" {
		t.Errorf("offline sources: %+v", a.Sources)
	}
	rec = do(t, placesServer(t, httpapi.Deps{Site: httpapi.Site{MapStyleURL: "https://tiles.example/style.json"}}), http.MethodGet, "/api/attribution", nil, true)
	if !strings.Contains(rec.Body.String(), "ODbL") {
		t.Errorf("with a map style: %s", rec.Body.String())
	}
}

func TestIPLocationAPI(t *testing.T) {
	t.Parallel()
	loc, err := places.NewIPLocator(placestest.WriteMMDB(t, map[string][2]float64{"81.2.69.0/24": {51.5142, -0.0931}, "89.160.20.0/24": {58.4167, 15.6167}}), []string{"CloudFront-Viewer-Latitude", "CloudFront-Viewer-Longitude"})
	if err != nil {
		t.Fatal(err)
	}
	defer loc.Close()
	srv := placesServer(t, httpapi.Deps{Network: httpapi.Network{IPLocator: loc, TrustedProxies: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}}})
	get := func(remote string, hdr map[string]string) (int, float64, float64) {
		t.Helper()
		req := httptest.NewRequest(http.MethodGet, "/api/geo/ip-location", nil)
		req.RemoteAddr = remote
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		rec := serve(t, srv, req)
		checkContract(t, req, nil, rec, true)
		var out struct{ Latitude, Longitude float64 }
		_ = json.Unmarshal(rec.Body.Bytes(), &out)
		return rec.Code, out.Latitude, out.Longitude
	}
	cdn := map[string]string{"CloudFront-Viewer-Latitude": "47.61", "CloudFront-Viewer-Longitude": "-122.33"}
	for _, c := range []struct {
		name     string
		remote   string
		hdr      map[string]string
		code     int
		lat, lon float64
	}{
		{"direct client in the database", "81.2.69.160:5000", nil, 200, 51.5142, -0.0931},
		{"direct client unknown", "8.8.8.8:5000", nil, 404, 0, 0},
		{"trusted proxy: X-Forwarded-For", "10.1.2.3:5000", map[string]string{"X-Forwarded-For": "89.160.20.112"}, 200, 58.4167, 15.6167},
		{"trusted proxies chained", "10.1.2.3:5000", map[string]string{"X-Forwarded-For": "6.6.6.6, 81.2.69.1, 10.9.9.9"}, 200, 51.5142, -0.0931},
		{"untrusted peer: X-Forwarded-For ignored", "8.8.8.8:5000", map[string]string{"X-Forwarded-For": "81.2.69.160"}, 404, 0, 0},
		{"CDN headers from a trusted proxy", "10.1.2.3:5000", cdn, 200, 47.61, -122.33},
		{"CDN headers from anyone else ignored", "81.2.69.160:5000", cdn, 200, 51.5142, -0.0931},
		{"IPv6 peer", "[2001:db8::1]:5000", nil, 404, 0, 0},
	} {
		code, lat, lon := get(c.remote, c.hdr)
		if code != c.code || lat != c.lat || lon != c.lon {
			t.Errorf("%s: %d (%v, %v), want %d (%v, %v)", c.name, code, lat, lon, c.code, c.lat, c.lon)
		}
	}
	// Nothing configured: always 404, and /api/config says so, so the web app does not ask.
	bare := placesServer(t, httpapi.Deps{})
	req := httptest.NewRequest(http.MethodGet, "/api/geo/ip-location", nil)
	rec := serve(t, bare, req)
	checkContract(t, req, nil, rec, true)
	if rec.Code != 404 || !strings.Contains(rec.Body.String(), `"message"`) {
		t.Errorf("unconfigured: %d %s", rec.Code, rec.Body.String())
	}
	for srv, want := range map[*httpapi.Server]bool{srv: true, bare: false} {
		rec := serve(t, srv, httptest.NewRequest(http.MethodGet, "/api/config", nil))
		if got := strings.Contains(rec.Body.String(), `"ipLocation":true`); got != want {
			t.Errorf("config %s: ipLocation %v, want %v", rec.Body.String(), got, want)
		}
	}
}
