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

// Attribution lists the sources to credit: GeoNames (the embedded gazetteer)
// and OpenStreetMap (the offline basemap's seas, rivers, lakes and its two
// cities' streets, internal/maptiles;
// also an upstream geocoder's and a street map style's data) always, and the
// IP database when it asks for credit. The options say which optional sources
// are in use.
func Attribution(o AttributionOptions) []Source {
	out := []Source{{Name: "GeoNames", License: "CC BY 4.0", URL: "https://www.geonames.org/",
		LicenseURL: "https://creativecommons.org/licenses/by/4.0/"},
		{Name: "© OpenStreetMap contributors", License: "ODbL 1.0",
			URL: "https://www.openstreetmap.org/copyright", LicenseURL: "https://opendatacommons.org/licenses/odbl/1-0/"}}
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
