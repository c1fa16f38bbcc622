package licences

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"slices"

	"locator/internal/db"
	"locator/internal/stores"
)

// Coverage is where the loaded licence registries list licences: the grid
// cells (coverDeg a side) holding a licence row of a source with a file, by
// the row's own position or, without one, by its matched store's. The
// "Licence verified" filter can only keep a store in such a place; the
// search answer says whether the searched area touches one, so the app can
// say "No licence registry covers this area" instead of an unexplained
// empty list (docs/licences.md, "Where no registry covers the area").
// Enforcement sources (the FDA's) are not licence registries and do not
// count. A Coverage is never changed once made: safe for concurrent use.
type Coverage struct {
	cells map[cell]struct{}
	list  []cell // the same cells, for areas wider than the set
}

// coverDeg is the coverage grid's cell size: 0.1° is 6.9 miles of
// latitude, about a neighbourhood's licences apart in a city registry, so a
// covered city has no holes between its licensed shops.
const coverDeg = 0.1

func coverCell(lat, lon float64) cell {
	return cell{int32(math.Floor(lat / coverDeg)), int32(math.Floor(lon / coverDeg))}
}

// NewCoverage makes a coverage of the given positions (lat, lon pairs).
func NewCoverage(points [][2]float64) *Coverage {
	c := &Coverage{cells: make(map[cell]struct{}, len(points))}
	for _, p := range points {
		k := coverCell(p[0], p[1])
		if _, ok := c.cells[k]; !ok {
			c.cells[k] = struct{}{}
			c.list = append(c.list, k)
		}
	}
	return c
}

// Empty reports whether no registry covers anything.
func (c *Coverage) Empty() bool { return c == nil || len(c.list) == 0 }

// Covers reports whether the search circle's bounding box (centre lat,
// lon, radius in miles) touches a covered cell: a registry covers at least
// part of the searched area.
func (c *Coverage) Covers(lat, lon, radiusMiles float64) bool {
	if c.Empty() {
		return false
	}
	dLat := radiusMiles / 69.0 // miles per degree of latitude
	cos := math.Cos(lat * math.Pi / 180)
	dLon := 180.0
	if cos > 0.01 {
		dLon = min(dLat/cos, 180)
	}
	lo, hi := coverCell(max(lat-dLat, -90), lon-dLon), coverCell(min(lat+dLat, 90), lon+dLon)
	inBox := func(k cell) bool {
		// Longitudes across the antimeridian: compare on both sides.
		for _, shift := range [...]int32{0, -3600, 3600} {
			if k.lat >= lo.lat && k.lat <= hi.lat && k.lon+shift >= lo.lon && k.lon+shift <= hi.lon {
				return true
			}
		}
		return false
	}
	// Probe the box's cells when they are fewer than the covered ones
	// (a city search), else test each covered cell (a wide search).
	if n := int64(hi.lat-lo.lat+1) * int64(hi.lon-lo.lon+1); n <= int64(len(c.list)) {
		for la := lo.lat; la <= hi.lat; la++ {
			for ln := lo.lon; ln <= hi.lon; ln++ {
				if _, ok := c.cells[cell{la, wrapLon(ln)}]; ok {
					return true
				}
			}
		}
		return false
	}
	return slices.ContainsFunc(c.list, inBox)
}

// wrapLon brings a cell's longitude index back into -1800..1799.
func wrapLon(lon int32) int32 {
	const n = int32(360 / coverDeg)
	return ((lon+n/2)%n+n)%n - n/2
}

// Coverage returns where the registries cover, as last refreshed (nil,
// nowhere, before the first RefreshCoverage).
func (g *Registry) Coverage() *Coverage { return g.coverage.Load() }

// RefreshCoverage reads the coverage again when a registry file was
// imported since it was last read (by this process or another: the
// command-line import writes to the same database). Cheap when nothing was:
// one look at the newest file's id. Every replica runs it at the search
// index's poll interval.
func (g *Registry) RefreshCoverage(ctx context.Context) error {
	var newest int64
	if err := g.db.QueryRow(ctx, "SELECT COALESCE(MAX(id), 0) FROM licence_files").Scan(&newest); err != nil {
		return fmt.Errorf("newest licence file: %w", err)
	}
	if g.coverage.Load() != nil && g.coveredFile.Load() == newest {
		return nil
	}
	// Rows with a position, and the matched stores of rows without one.
	rs, err := g.db.Query(ctx, `SELECT r.latitude, r.longitude FROM licence_rows r
		WHERE r.present AND NOT r.is_action AND r.latitude IS NOT NULL AND r.longitude IS NOT NULL`)
	points, err := collectPoints(rs, err)
	if err != nil {
		return err
	}
	rs, err = g.db.Query(ctx, `SELECT DISTINCT m.store_id FROM licence_rows r
		JOIN licence_matches m ON m.row_id = r.id AND m.state IN ('sure', 'accepted', 'owner')
		WHERE r.present AND NOT r.is_action AND (r.latitude IS NULL OR r.longitude IS NULL)`)
	ids, err := db.Collect(rs, err, "read licence positions", func(sc db.Scanner) (*int64, error) {
		var id int64
		return &id, sc.Scan(&id)
	})
	if err != nil {
		return err
	}
	matched, err := stores.Summaries(ctx, g.db, ids)
	if err != nil {
		return fmt.Errorf("read licence positions: %w", err)
	}
	for _, st := range matched {
		points = append(points, [2]float64{st.Latitude, st.Longitude})
	}
	g.coverage.Store(NewCoverage(points))
	g.coveredFile.Store(newest)
	return nil
}

func collectPoints(rs *sql.Rows, err error) ([][2]float64, error) {
	if err != nil {
		return nil, fmt.Errorf("read licence positions: %w", err)
	}
	defer rs.Close()
	var points [][2]float64
	for rs.Next() {
		var p [2]float64
		if err := rs.Scan(&p[0], &p[1]); err != nil {
			return nil, fmt.Errorf("read licence positions: %w", err)
		}
		points = append(points, p)
	}
	if err := rs.Err(); err != nil {
		return nil, fmt.Errorf("read licence positions: %w", err)
	}
	return points, nil
}
