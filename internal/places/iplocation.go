package places

import (
	"fmt"
	"net/netip"
	"strconv"
	"strings"

	"github.com/oschwald/maxminddb-golang/v2"
)

// IPLocator finds where a visitor is, roughly, from trusted CDN location
// headers or from a MaxMind-format database file (GeoLite2 City, DB-IP
// City Lite, ...). Either may be missing. Safe for concurrent use.
type IPLocator struct {
	db                   *maxminddb.Reader
	latHeader, lonHeader string
}

// NewIPLocator opens the database at dbPath (none when "") and uses the two
// headers (latitude first, then longitude) when given.
func NewIPLocator(dbPath string, headers []string) (*IPLocator, error) {
	l := &IPLocator{}
	switch len(headers) {
	case 0:
	case 2:
		l.latHeader, l.lonHeader = headers[0], headers[1]
	default:
		return nil, fmt.Errorf("places: want two location headers (latitude, longitude), got %d", len(headers))
	}
	if dbPath != "" {
		db, err := maxminddb.Open(dbPath)
		if err != nil {
			return nil, fmt.Errorf("places: open IP database %s: %w", dbPath, err)
		}
		var probe ipRecord
		if err := db.Lookup(netip.MustParseAddr("8.8.8.8")).Decode(&probe); err != nil {
			db.Close()
			return nil, fmt.Errorf("places: IP database %s: %w", dbPath, err)
		}
		l.db = db
	}
	return l, nil
}

// Close releases the database.
func (l *IPLocator) Close() error {
	if l == nil || l.db == nil {
		return nil
	}
	return l.db.Close()
}

// HasHeaders reports whether location headers are configured.
func (l *IPLocator) HasHeaders() bool { return l != nil && l.latHeader != "" }

// DatabaseType is the database's type ("GeoLite2-City"), or "" without one.
func (l *IPLocator) DatabaseType() string {
	if l == nil || l.db == nil {
		return ""
	}
	return l.db.Metadata.DatabaseType
}

// FromHeaders reads the configured headers with get (http.Header.Get).
func (l *IPLocator) FromHeaders(get func(string) string) (lat, lon float64, ok bool) {
	if !l.HasHeaders() {
		return 0, 0, false
	}
	lat, err1 := strconv.ParseFloat(strings.TrimSpace(get(l.latHeader)), 64)
	lon, err2 := strconv.ParseFloat(strings.TrimSpace(get(l.lonHeader)), 64)
	if err1 != nil || err2 != nil || !validLatLon(lat, lon) {
		return 0, 0, false
	}
	return lat, lon, true
}

type ipRecord struct {
	Location struct {
		Latitude  *float64 `maxminddb:"latitude"`
		Longitude *float64 `maxminddb:"longitude"`
	} `maxminddb:"location"`
}

// FromIP looks an address up in the database.
func (l *IPLocator) FromIP(ip netip.Addr) (lat, lon float64, ok bool) {
	if l == nil || l.db == nil || !ip.IsValid() {
		return 0, 0, false
	}
	var rec ipRecord
	if err := l.db.Lookup(ip.Unmap()).Decode(&rec); err != nil {
		return 0, 0, false
	}
	if rec.Location.Latitude == nil || rec.Location.Longitude == nil ||
		!validLatLon(*rec.Location.Latitude, *rec.Location.Longitude) {
		return 0, 0, false
	}
	return *rec.Location.Latitude, *rec.Location.Longitude, true
}
