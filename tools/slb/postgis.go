package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"locator/internal/bench"
	"locator/internal/db"
	"locator/internal/httpbody"
	"locator/internal/search"
	"locator/internal/stores"
)

// cmdPostGISSetup builds the baseline's table from the loaded stores: a
// geography point with a GiST index, the three flags and the same
// pre-rendered documents the locator serves.
func cmdPostGISSetup(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("postgis-setup", flag.ContinueOnError)
	u := fs.String("database-url", "", "postgres://... loaded with slb load")
	if err := fs.Parse(args); err != nil {
		return err
	}
	conn, err := db.Open(ctx, *u)
	if err != nil {
		return err
	}
	defer conn.Close()
	start := time.Now()
	for _, q := range []string{
		"CREATE EXTENSION IF NOT EXISTS postgis",
		"DROP TABLE IF EXISTS slb_postgis",
		`CREATE TABLE slb_postgis AS SELECT id,
			ST_SetSRID(ST_MakePoint(longitude, latitude), 4326)::geography AS geog,
			is_delivery_available AS delivery, is_order_online_available AS online,
			is_curbside_pickup_available AS curbside, search_doc AS doc
			FROM stores WHERE status = 'published'`,
		"ALTER TABLE slb_postgis ADD PRIMARY KEY (id)",
		"CREATE INDEX slb_postgis_geog ON slb_postgis USING GIST (geog)",
		"VACUUM ANALYZE slb_postgis",
	} {
		if _, err := conn.Exec(ctx, q); err != nil {
			return fmt.Errorf("%s: %w", strings.Fields(q)[0], err)
		}
	}
	fmt.Printf("slb_postgis built in %s\n", time.Since(start).Round(time.Millisecond))
	return nil
}

// cmdPostGISServe answers the search endpoint from PostGIS with the same
// HTTP layer shape as the locator: net/http, the same parameters and
// checks, the same pre-rendered documents' list parts (stores.ListEnd)
// with "distance" appended (no rules nor live fields), the
// same buffer pooling and gzip rule. Only the search itself differs:
// ST_DWithin + ORDER BY geog <-> point LIMIT n on a GiST index (sphere
// distances, as the locator's haversine).
func cmdPostGISServe(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("postgis-serve", flag.ContinueOnError)
	u := fs.String("database-url", "", "postgres://... with slb_postgis")
	addr := fs.String("addr", "127.0.0.1:18090", "listen address")
	conns := fs.Int("pool", 16, "PostgreSQL connections")
	if err := fs.Parse(args); err != nil {
		return err
	}
	cfg, err := pgxpool.ParseConfig(*u)
	if err != nil {
		return fmt.Errorf("parse %s: %w", *u, err)
	}
	cfg.MaxConns = int32(*conns)
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	defer pool.Close()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("ok")) })
	mux.HandleFunc("GET "+bench.Path, func(w http.ResponseWriter, r *http.Request) {
		q, err := search.ParseQuery(r.URL.RawQuery)
		if err != nil {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			_ = json.NewEncoder(w).Encode(map[string]string{"message": err.Error()})
			return
		}
		bp := bufPool.Get().(*[]byte)
		body, err := searchPostGIS(r.Context(), pool, (*bp)[:0], q)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		httpbody.JSON(w, r, body)
		*bp = body
		bufPool.Put(bp)
	})
	srv := &http.Server{Addr: *addr, Handler: mux, ReadHeaderTimeout: 5 * time.Second, IdleTimeout: 120 * time.Second}
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}()
	if err := srv.ListenAndServe(); err != nil && err != http.ErrServerClosed {
		return fmt.Errorf("serve: %w", err)
	}
	return nil
}

func searchPostGIS(ctx context.Context, pool *pgxpool.Pool, dst []byte, q search.Query) ([]byte, error) {
	var b strings.Builder
	b.WriteString(`WITH p AS (SELECT ST_SetSRID(ST_MakePoint($1, $2), 4326)::geography AS g)
		SELECT t.doc, ST_Distance(t.geog, p.g, false) FROM slb_postgis t, p
		WHERE ST_DWithin(t.geog, p.g, $3, false)`)
	if q.Delivery {
		b.WriteString(" AND t.delivery")
	}
	if q.OrderOnline {
		b.WriteString(" AND t.online")
	}
	if q.Curbside {
		b.WriteString(" AND t.curbside")
	}
	b.WriteString(" ORDER BY t.geog <-> p.g LIMIT $4")
	rows, err := pool.Query(ctx, b.String(), q.Longitude, q.Latitude, q.RadiusMiles*1609.344, q.Limit+1)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	defer rows.Close()
	dst = append(dst, `{"physical_stores":[`...)
	n, more := 0, false
	for rows.Next() {
		var doc []byte
		var meters float64
		if err := rows.Scan(&doc, &meters); err != nil {
			return nil, fmt.Errorf("search: %w", err)
		}
		if n == q.Limit {
			more = true
			break
		}
		if n > 0 {
			dst = append(dst, ',')
		}
		n++
		dst = append(dst, doc[:stores.ListEnd(doc[:len(doc)-1])]...) // the list part, as the locator lists it
		dst = append(dst, `,"distance":`...)
		dst = strconv.AppendFloat(dst, math.Round(meters/1609.344*100)/100, 'f', -1, 64)
		dst = append(dst, '}')
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	dst = append(dst, `],"has_more":`...)
	dst = strconv.AppendBool(dst, more)
	return append(dst, `,"rules":[]}`...), nil
}

var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 64<<10); return &b }}
