package httpapi

import (
	"context"
	"crypto/subtle"
	"net/http"

	"locator/internal/mail"
	"locator/internal/metrics"
)

// metricSources are the parts of this server a scrape reads
// (internal/metrics).
func (s *Server) metricSources() metrics.Sources {
	src := metrics.Sources{Photos: s.PhotoGate.Queue}
	if s.Syncer != nil {
		src.Search = s.Syncer.Metrics
	}
	if s.Stores != nil {
		d := s.Stores.DB()
		src.DB = d.SQL()
		src.Outbox = func(ctx context.Context) (metrics.Outbox, error) { return mail.Pending(ctx, d) }
	}
	if s.Basemap != nil {
		c := s.Basemap.Cache()
		src.Tiles = func() metrics.TileCache {
			st := c.Stats()
			return metrics.TileCache{Hits: st.Hits, Misses: st.Misses, Bytes: st.Bytes}
		}
	}
	if s.Answers != nil {
		src.Answers = func() metrics.AnswerCache {
			st := s.Answers.Stats()
			return metrics.AnswerCache{Hits: st.Hits, Misses: st.Misses, Bytes: st.Bytes}
		}
	}
	return src
}

// Metrics serves this server's metrics without asking for a token, for a
// listener of its own (LOCATOR_METRICS_ADDR) that only the monitoring
// network reaches.
func (s *Server) Metrics() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", s.metrics.Handler())
	return mux
}

// mountMetrics serves /metrics on the main listener when a token is set
// (LOCATOR_METRICS_TOKEN), to callers that send it as a bearer token;
// without one the path is the web app's 404 like any unknown path.
func (s *Server) mountMetrics(root *http.ServeMux) {
	if s.MetricsToken == "" {
		return
	}
	want := []byte("Bearer " + s.MetricsToken)
	h := s.metrics.Handler()
	root.HandleFunc("GET /metrics", func(w http.ResponseWriter, r *http.Request) {
		if subtle.ConstantTimeCompare([]byte(r.Header.Get("Authorization")), want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="metrics"`)
			writeMessage(w, http.StatusUnauthorized, "/metrics needs the bearer token set in LOCATOR_METRICS_TOKEN")
			return
		}
		h.ServeHTTP(w, r)
	})
}
