package main

import (
	"log/slog"
	"time"

	"locator/internal/config"
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
	svc := &places.Service{Gazetteer: g, Log: log}
	if cfg.GeocoderURL != "" {
		kind := cfg.GeocoderKind
		if kind == "auto" {
			kind = places.KindAuto
		}
		up, err := places.NewUpstream(places.UpstreamOptions{URL: cfg.GeocoderURL, Kind: kind, UserAgent: "locator/" + version})
		if err != nil {
			return nil, &exitError{code: 2, msg: "invalid LOCATOR_GEOCODER_URL: " + err.Error()}
		}
		svc.Upstream = up
	}
	log.Info("place index ready", "duration", time.Since(start).Round(time.Millisecond),
		"places", len(g.Places()), "zips", len(g.ZIPs()), "upstream_geocoder", cfg.GeocoderURL != "")
	return svc, nil
}

// newIPLocator opens the IP database and reads the location headers.
func newIPLocator(cfg config.Config) (*places.IPLocator, error) {
	l, err := places.NewIPLocator(cfg.GeoIPDB, cfg.LocationHeaders)
	if err != nil {
		return nil, &exitError{code: 2, msg: "invalid LOCATOR_GEOIP_DB: " + err.Error()}
	}
	return l, nil
}
