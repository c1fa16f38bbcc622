package main

import (
	"fmt"
	"log/slog"
	"time"

	"locator/internal/config"
	"locator/internal/maptiles"
	"locator/internal/places"
)

// newPlaces loads the embedded gazetteer, builds its search index and adds
// the upstream geocoder when one is configured.
func newPlaces(cfg config.Config, log *slog.Logger) (*places.Service, error) {
	start := time.Now()
	g, err := places.Load()
	if err != nil {
		return nil, err
	}
	g.BuildIndex()
	var up *places.Upstream
	if cfg.GeocoderURL != "" {
		kind := cfg.GeocoderKind
		if kind == "auto" {
			kind = places.KindAuto
		}
		if up, err = places.NewUpstream(places.UpstreamOptions{URL: cfg.GeocoderURL, Kind: kind, UserAgent: "locator/" + version}); err != nil {
			return nil, &exitError{code: 2, msg: "invalid LOCATOR_GEOCODER_URL: " + err.Error()}
		}
	}
	log.Info("place index ready", "duration", time.Since(start).Round(time.Millisecond),
		"places", len(g.Places()), "zips", len(g.ZIPs()), "upstream_geocoder", cfg.GeocoderURL != "")
	return &places.Service{Gazetteer: g, Upstream: up, Log: log}, nil
}

// newIPLocator opens the IP database and reads the location headers.
func newIPLocator(cfg config.Config) (*places.IPLocator, error) {
	l, err := places.NewIPLocator(cfg.GeoIPDB, cfg.LocationHeaders)
	if err != nil {
		return nil, &exitError{code: 2, msg: "invalid LOCATOR_GEOIP_DB: " + err.Error()}
	}
	return l, nil
}

// basemapCacheBytes bounds the offline basemap's tile cache: about 2,000
// tiles of a city's zooms (docs/performance.md, "Map tiles").
const basemapCacheBytes = 64 << 20

// newBasemap prepares the offline basemap's tiles (labels now; the embedded layers are decoded
// in the background, logged when done).
func newBasemap(g *places.Gazetteer, log *slog.Logger) (*maptiles.Basemap, error) {
	start := time.Now()
	b, err := maptiles.NewBasemap(g.MapPlaces(), basemapCacheBytes)
	if err != nil {
		return nil, err
	}
	log.Info("basemap labels ready", "duration", time.Since(start).Round(time.Millisecond))
	go func() {
		if err := b.Layers(); err != nil {
			log.Error("basemap layers do not decode: the map's tiles answer 500", "err", err)
			return
		}
		log.Info("basemap layers ready", "duration", time.Since(start).Round(time.Millisecond))
	}()
	return b, nil
}

// openStreets opens and checks LOCATOR_PMTILES's archive: a missing,
// truncated or foreign file stops the start with the reason.
func openStreets(cfg config.Config, log *slog.Logger) (*maptiles.PMTiles, error) {
	if cfg.PMTiles == "" {
		return nil, nil
	}
	p, err := maptiles.OpenPMTiles(cfg.PMTiles)
	if err != nil {
		return nil, &exitError{code: 2, msg: "invalid LOCATOR_PMTILES: " + err.Error()}
	}
	h := p.Header
	log.Info("street map tiles", "file", cfg.PMTiles, "zooms", fmt.Sprintf("%d-%d", h.MinZoom, h.MaxZoom),
		"bounds", fmt.Sprintf("%.3f,%.3f,%.3f,%.3f", h.MinLon, h.MinLat, h.MaxLon, h.MaxLat))
	if cfg.MapStyleURL != "" {
		log.Warn("LOCATOR_MAP_STYLE_URL is set: the app uses that style, not the LOCATOR_PMTILES street map")
	}
	return p, nil
}
