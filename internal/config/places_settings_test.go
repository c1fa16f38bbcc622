package config

import (
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func placeSettings(t *testing.T, env map[string]string, args ...string) (Config, error) {
	t.Helper()
	return parseSettings(t, []string{"geocoder-url", "geocoder-kind", "geoip-db", "trusted-proxies", "location-headers"}, env, args...)
}

func TestPlaceSettings(t *testing.T) {
	db := filepath.Join(t.TempDir(), "city.mmdb")
	if err := os.WriteFile(db, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := placeSettings(t, map[string]string{
		"LOCATOR_GEOCODER_URL":     "https://nominatim.example/search",
		"LOCATOR_TRUSTED_PROXIES":  "10.0.0.0/8, 192.0.2.7,2001:db8::/32",
		"LOCATOR_LOCATION_HEADERS": "CloudFront-Viewer-Latitude,CloudFront-Viewer-Longitude",
	}, "--geoip-db", db, "--geocoder-kind", "photon")
	if err != nil {
		t.Fatal(err)
	}
	want := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("192.0.2.7/32"), netip.MustParsePrefix("2001:db8::/32")}
	if c.GeocoderURL != "https://nominatim.example/search" || c.GeocoderKind != "photon" || c.GeoIPDB != db ||
		len(c.TrustedProxies) != 3 || c.TrustedProxies[0] != want[0] || c.TrustedProxies[1] != want[1] || c.TrustedProxies[2] != want[2] ||
		len(c.LocationHeaders) != 2 || c.LocationHeaders[1] != "CloudFront-Viewer-Longitude" {
		t.Errorf("config = %+v", c)
	}
	if c, err := placeSettings(t, nil); err != nil || c.GeocoderURL != "" || c.GeocoderKind != "auto" || c.TrustedProxies != nil || c.LocationHeaders != nil {
		t.Errorf("defaults = %+v, %v", c, err)
	}
	for _, bad := range []struct{ arg, setting string }{
		{"--geocoder-url=nominatim.example", "LOCATOR_GEOCODER_URL"},
		{"--geocoder-kind=google", "LOCATOR_GEOCODER_KIND"},
		{"--geoip-db=" + filepath.Join(t.TempDir(), "missing.mmdb"), "LOCATOR_GEOIP_DB"},
		{"--trusted-proxies=10.0.0.0/33", "LOCATOR_TRUSTED_PROXIES"},
		{"--trusted-proxies=proxy.example", "LOCATOR_TRUSTED_PROXIES"},
		{"--location-headers=X-Lat", "LOCATOR_LOCATION_HEADERS"},
		{"--location-headers=X-Lat,X Lon", "LOCATOR_LOCATION_HEADERS"},
	} {
		_, err := placeSettings(t, nil, bad.arg)
		if err == nil || !strings.Contains(err.Error(), bad.setting) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want one line naming %s", bad.arg, err, bad.setting)
		}
	}
}
