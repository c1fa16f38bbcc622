package httpapi

import (
	"math"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"unicode/utf8"

	"locator/internal/apperr"
	"locator/internal/places"
)

// PlaceSearchLimit is how many places a search answers at most.
const PlaceSearchLimit = 10

type placeDTO struct {
	DisplayName string  `json:"display_name"`
	Lat         float64 `json:"lat"`
	Lon         float64 `json:"lon"`
}

type placeSearchAnswer struct {
	Code int        `json:"code"`
	Data []placeDTO `json:"data"`
	Note string     `json:"note,omitempty"`
}

// searchPlaces answers the search box: {"code": 200, "data": [...]}, best
// first; nothing matches: an empty list. lat and lon, the map's centre,
// break near-ties; note says when a street address could not be looked up.
func (s *Server) searchPlaces(w http.ResponseWriter, r *http.Request) error {
	q := strings.TrimSpace(r.URL.Query().Get("q"))
	if utf8.RuneCountInString(q) > places.MaxQueryLength {
		return apperr.Invalidf("q must be at most %d characters", places.MaxQueryLength)
	}
	near, err := mapCentre(r.URL.Query().Get("lat"), r.URL.Query().Get("lon"))
	if err != nil {
		return err
	}
	out := placeSearchAnswer{Code: http.StatusOK, Data: []placeDTO{}}
	if q != "" && s.Places != nil {
		a := s.Places.Find(r.Context(), q, PlaceSearchLimit, near)
		for _, p := range a.Results {
			out.Data = append(out.Data, placeDTO{DisplayName: p.DisplayName, Lat: p.Lat, Lon: p.Lon})
		}
		out.Note = a.Note
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// mapCentre reads the optional lat and lon of a place search: both or
// neither.
func mapCentre(lat, lon string) (*places.Near, error) {
	if lat == "" && lon == "" {
		return nil, nil
	}
	la, err1 := strconv.ParseFloat(lat, 64)
	lo, err2 := strconv.ParseFloat(lon, 64)
	if err1 != nil || err2 != nil || math.IsNaN(la) || math.IsNaN(lo) || la < -90 || la > 90 || lo < -180 || lo > 180 {
		return nil, apperr.Invalidf("lat and lon must be given together, lat from -90 to 90 and lon from -180 to 180")
	}
	return &places.Near{Lat: la, Lon: lo}, nil
}

type ipLocationDTO struct {
	Latitude  float64 `json:"latitude"`
	Longitude float64 `json:"longitude"`
}

// ipLocation locates the caller: trusted CDN headers first, then the IP
// database; 404 when neither knows.
func (s *Server) ipLocation(w http.ResponseWriter, r *http.Request) error {
	peer := peerAddr(r)
	if s.IPLocator.HasHeaders() && (len(s.TrustedProxies) == 0 || trusted(s.TrustedProxies, peer)) {
		if lat, lon, ok := s.IPLocator.FromHeaders(r.Header.Get); ok {
			writeJSON(w, http.StatusOK, ipLocationDTO{lat, lon})
			return nil
		}
	}
	if lat, lon, ok := s.IPLocator.FromIP(callerAddr(r, s.TrustedProxies)); ok {
		writeJSON(w, http.StatusOK, ipLocationDTO{lat, lon})
		return nil
	}
	return apperr.New(apperr.NotFound, "location unknown")
}

type sourceDTO struct {
	Name       string `json:"name"`
	License    string `json:"license"`
	URL        string `json:"url"`
	LicenseURL string `json:"license_url,omitempty"`
}

// attribution lists the data sources the map must credit.
func (s *Server) attribution(w http.ResponseWriter, r *http.Request) error {
	o := places.AttributionOptions{
		UpstreamGeocoder: s.Places != nil && s.Places.Upstream != nil,
		MapStyle:         s.MapStyleURL != "" || s.Streets != nil,
		IPDatabaseType:   s.IPLocator.DatabaseType(),
	}
	out := struct {
		Sources []sourceDTO `json:"sources"`
	}{Sources: []sourceDTO{}}
	for _, src := range places.Attribution(o) {
		out.Sources = append(out.Sources, sourceDTO(src))
	}
	w.Header().Set("Cache-Control", "public, max-age=3600")
	writeJSON(w, http.StatusOK, out)
	return nil
}

// peerAddr is the address of the connection's other end.
func peerAddr(r *http.Request) netip.Addr {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	a, _ := netip.ParseAddr(host)
	return a.Unmap()
}

func trusted(proxies []netip.Prefix, a netip.Addr) bool {
	if !a.IsValid() {
		return false
	}
	for _, p := range proxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// callerAddr is the client's address: the peer, unless the peer is a
// trusted proxy, in which case X-Forwarded-For is read from the right,
// skipping trusted proxies, and the first untrusted address is the client.
// Addresses an untrusted peer claims are never believed.
func callerAddr(r *http.Request, proxies []netip.Prefix) netip.Addr {
	addr := peerAddr(r)
	if !trusted(proxies, addr) {
		return addr
	}
	var hops []string
	for _, h := range r.Header.Values("X-Forwarded-For") {
		for f := range strings.SplitSeq(h, ",") {
			hops = append(hops, strings.TrimSpace(f))
		}
	}
	for i := len(hops) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(hops[i])
		if err != nil {
			break // a malformed hop: trust nothing before it
		}
		addr = a.Unmap()
		if !trusted(proxies, addr) {
			break
		}
	}
	return addr
}
