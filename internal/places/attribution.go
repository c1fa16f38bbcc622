package places

import "strings"

// Source is a data source the product must credit.
type Source struct {
	Name       string
	License    string
	URL        string
	LicenseURL string
}

// AttributionOptions says which optional sources are in use.
type AttributionOptions struct {
	UpstreamGeocoder bool   // an OpenStreetMap-based geocoder (Nominatim, Photon)
	MapStyle         bool   // a map style of OpenStreetMap data
	IPDatabaseType   string // IPLocator.DatabaseType
}

// Attribution lists the sources to credit: GeoNames always (the embedded
// gazetteer), OpenStreetMap when an upstream geocoder or a street map style
// is configured, and the IP database when it asks for credit.
func Attribution(o AttributionOptions) []Source {
	out := []Source{{Name: "GeoNames", License: "CC BY 4.0", URL: "https://www.geonames.org/",
		LicenseURL: "https://creativecommons.org/licenses/by/4.0/"}}
	if o.UpstreamGeocoder || o.MapStyle {
		out = append(out, Source{Name: "© OpenStreetMap contributors", License: "ODbL 1.0",
			URL: "https://www.openstreetmap.org/copyright", LicenseURL: "https://opendatacommons.org/licenses/odbl/1-0/"})
	}
	switch t := strings.ToLower(o.IPDatabaseType); {
	case strings.Contains(t, "geolite"):
		out = append(out, Source{Name: "GeoLite2 data created by MaxMind", License: "GeoLite2 EULA",
			URL: "https://www.maxmind.com", LicenseURL: "https://www.maxmind.com/en/geolite2/eula"})
	case strings.Contains(t, "dbip") || strings.Contains(t, "db-ip"):
		out = append(out, Source{Name: "IP Geolocation by DB-IP", License: "CC BY 4.0",
			URL: "https://db-ip.com", LicenseURL: "https://creativecommons.org/licenses/by/4.0/"})
	}
	return out
}
