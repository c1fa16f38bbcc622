package places

import (
	"container/list"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Upstream geocoder kinds.
const (
	KindAuto      = ""          // guessed from the URL; answers are read by their shape
	KindNominatim = "nominatim" // GET {url}?q=...&format=jsonv2&limit=N: [{"lat": "..", "lon": "..", "display_name": ".."}]
	KindPhoton    = "photon"    // GET {url}?q=...&limit=N: GeoJSON features
)

// UpstreamOptions configures an Upstream.
type UpstreamOptions struct {
	URL       string        // the search endpoint: https://nominatim.example/search or https://photon.example/api
	Kind      string        // KindAuto, KindNominatim or KindPhoton
	Timeout   time.Duration // per request; default 2 s
	CacheSize int           // answers kept; default 4096
	CacheTTL  time.Duration // how long an answer is kept; default 24 h
	Cooldown  time.Duration // after a failure, how long the upstream is skipped; default 30 s
	UserAgent string        // sent with every request (Nominatim's usage policy asks for one)
	Client    *http.Client  // default: a client with Timeout
}

// Upstream is a Nominatim- or Photon-compatible geocoder over HTTP, for full
// street addresses the embedded gazetteer cannot place. Answers are kept in
// an in-process LRU cache with a time-to-live. The cache is per replica:
// it is a pure cache of a deterministic look-up, so replicas that disagree
// about what is cached still give the same answers, and a cold replica only
// costs a few upstream requests.
//
// After a failure the upstream is skipped for Cooldown, so an outage costs
// one timeout, not one per request; callers fall back to the gazetteer.
type Upstream struct {
	o         UpstreamOptions
	base      *url.URL
	cache     *lruCache
	downUntil atomic.Int64 // unix nanoseconds
}

// NewUpstream checks the options.
func NewUpstream(o UpstreamOptions) (*Upstream, error) {
	u, err := url.Parse(o.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("places: geocoder URL %q: want an absolute http(s) URL", o.URL)
	}
	switch o.Kind {
	case KindAuto:
		if p := strings.TrimRight(u.Path, "/"); strings.HasSuffix(p, "/api") || strings.Contains(u.Host, "photon") {
			o.Kind = KindPhoton
		} else {
			o.Kind = KindNominatim
		}
	case KindNominatim, KindPhoton:
	default:
		return nil, fmt.Errorf("places: geocoder kind %q: want nominatim or photon", o.Kind)
	}
	if o.Timeout <= 0 {
		o.Timeout = 2 * time.Second
	}
	if o.CacheSize <= 0 {
		o.CacheSize = 4096
	}
	if o.CacheTTL <= 0 {
		o.CacheTTL = 24 * time.Hour
	}
	if o.Cooldown <= 0 {
		o.Cooldown = 30 * time.Second
	}
	if o.UserAgent == "" {
		o.UserAgent = "locator"
	}
	if o.Client == nil {
		o.Client = &http.Client{Timeout: o.Timeout}
	}
	return &Upstream{o: o, base: u, cache: newLRU(o.CacheSize, o.CacheTTL)}, nil
}

// Kind is the protocol in use (nominatim or photon).
func (u *Upstream) Kind() string { return u.o.Kind }

// ErrUpstreamDown is returned while the upstream is skipped after a failure.
var ErrUpstreamDown = errors.New("places: upstream geocoder skipped after a recent failure")

// Search asks the upstream for up to limit places. Answers, empty ones
// included, are cached; failures are not.
func (u *Upstream) Search(ctx context.Context, q string, limit int) ([]Result, error) {
	q = strings.Join(strings.Fields(q), " ")
	key := strconv.Itoa(limit) + "\x00" + strings.ToLower(q)
	if res, ok := u.cache.get(key); ok {
		return res, nil
	}
	if time.Now().UnixNano() < u.downUntil.Load() {
		return nil, ErrUpstreamDown
	}
	res, err := u.fetch(ctx, q, limit)
	if err != nil {
		if ctx.Err() == nil { // the caller giving up is not the upstream's fault
			u.downUntil.Store(time.Now().Add(u.o.Cooldown).UnixNano())
		}
		return nil, err
	}
	u.cache.put(key, res)
	return res, nil
}

func (u *Upstream) fetch(ctx context.Context, q string, limit int) ([]Result, error) {
	ctx, cancel := context.WithTimeout(ctx, u.o.Timeout)
	defer cancel()
	target := *u.base
	v := target.Query()
	v.Set("q", q)
	v.Set("limit", strconv.Itoa(limit))
	if u.o.Kind == KindNominatim {
		v.Set("format", "jsonv2")
	}
	target.RawQuery = v.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target.String(), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("User-Agent", u.o.UserAgent)
	req.Header.Set("Accept", "application/json")
	resp, err := u.o.Client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("places: upstream geocoder: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4096))
		return nil, fmt.Errorf("places: upstream geocoder: status %d", resp.StatusCode)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return nil, fmt.Errorf("places: upstream geocoder: %w", err)
	}
	res, err := parseUpstream(body)
	if err != nil {
		return nil, fmt.Errorf("places: upstream geocoder: %w", err)
	}
	if len(res) > limit {
		res = res[:limit]
	}
	return res, nil
}

// parseUpstream reads a Nominatim answer (a JSON array) or a Photon answer
// (a GeoJSON FeatureCollection), whichever it is.
func parseUpstream(body []byte) ([]Result, error) {
	trimmed := strings.TrimSpace(string(body))
	switch {
	case strings.HasPrefix(trimmed, "["):
		var rows []struct {
			Lat         json.Number `json:"lat"`
			Lon         json.Number `json:"lon"`
			DisplayName string      `json:"display_name"`
		}
		if err := json.Unmarshal(body, &rows); err != nil {
			return nil, fmt.Errorf("nominatim answer: %w", err)
		}
		out := make([]Result, 0, len(rows))
		for _, r := range rows {
			lat, err1 := strconv.ParseFloat(string(r.Lat), 64)
			lon, err2 := strconv.ParseFloat(string(r.Lon), 64)
			if err1 != nil || err2 != nil || !validLatLon(lat, lon) || r.DisplayName == "" {
				continue
			}
			out = append(out, Result{DisplayName: r.DisplayName, Lat: lat, Lon: lon, Kind: KindAddress})
		}
		return out, nil
	case strings.HasPrefix(trimmed, "{"):
		var fc struct {
			Features []struct {
				Geometry struct {
					Coordinates []float64 `json:"coordinates"`
				} `json:"geometry"`
				Properties map[string]any `json:"properties"`
			} `json:"features"`
		}
		if err := json.Unmarshal(body, &fc); err != nil {
			return nil, fmt.Errorf("photon answer: %w", err)
		}
		out := make([]Result, 0, len(fc.Features))
		for _, f := range fc.Features {
			if len(f.Geometry.Coordinates) < 2 {
				continue
			}
			lon, lat := f.Geometry.Coordinates[0], f.Geometry.Coordinates[1]
			name := photonName(f.Properties)
			if !validLatLon(lat, lon) || name == "" {
				continue
			}
			out = append(out, Result{DisplayName: name, Lat: lat, Lon: lon, Kind: KindAddress})
		}
		return out, nil
	}
	return nil, errors.New("answer is neither a Nominatim list nor a Photon feature collection")
}

// photonName builds "350 5th Avenue, New York, New York, United States".
func photonName(p map[string]any) string {
	str := func(k string) string { s, _ := p[k].(string); return strings.TrimSpace(s) }
	var parts []string
	street := strings.TrimSpace(str("housenumber") + " " + str("street"))
	if n := str("name"); n != "" && n != str("street") {
		parts = append(parts, n)
	}
	if street != "" {
		parts = append(parts, street)
	}
	for _, k := range []string{"city", "state", "country"} {
		if v := str(k); v != "" && (len(parts) == 0 || parts[len(parts)-1] != v) {
			parts = append(parts, v)
		}
	}
	return strings.Join(parts, ", ")
}

func validLatLon(lat, lon float64) bool {
	return lat >= -90 && lat <= 90 && lon >= -180 && lon <= 180 && !(lat == 0 && lon == 0)
}

// lruCache is a fixed-size least-recently-used cache whose entries expire.
type lruCache struct {
	mu    sync.Mutex
	size  int
	ttl   time.Duration
	order *list.List // front: most recent
	at    map[string]*list.Element
	now   func() time.Time
}

type lruItem struct {
	key     string
	value   []Result
	expires time.Time
}

func newLRU(size int, ttl time.Duration) *lruCache {
	return &lruCache{size: size, ttl: ttl, order: list.New(), at: map[string]*list.Element{}, now: time.Now}
}

func (c *lruCache) get(key string) ([]Result, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.at[key]
	if !ok {
		return nil, false
	}
	it := el.Value.(*lruItem)
	if c.now().After(it.expires) {
		c.order.Remove(el)
		delete(c.at, key)
		return nil, false
	}
	c.order.MoveToFront(el)
	return it.value, true
}

func (c *lruCache) put(key string, value []Result) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.at[key]; ok {
		it := el.Value.(*lruItem)
		it.value, it.expires = value, c.now().Add(c.ttl)
		c.order.MoveToFront(el)
		return
	}
	c.at[key] = c.order.PushFront(&lruItem{key: key, value: value, expires: c.now().Add(c.ttl)})
	for c.order.Len() > c.size {
		old := c.order.Back()
		c.order.Remove(old)
		delete(c.at, old.Value.(*lruItem).key)
	}
}

func (c *lruCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}
