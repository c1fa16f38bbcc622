package medusa

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"locator/internal/apperr"
	"locator/internal/db"
	"locator/internal/licences"
	"locator/internal/stores"
)

// The mapping of Medusa's stock locations to our physical stores, kept in
// medusa_locations and edited by moderators in /admin.

func (s *Syncer) syncLocations(ctx context.Context, rep *Report) error {
	locs, err := s.client.Locations(ctx)
	if err != nil {
		return err
	}
	rep.Locations = len(locs)
	now := s.Now().UTC()
	seen := make(map[string]bool, len(locs))
	for _, l := range locs {
		seen[l.ID] = true
	}
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		for _, l := range locs {
			var a1, city, prov, zip, cc string
			if a := l.Address; a != nil {
				a1 = strings.TrimSpace(strings.TrimSpace(a.Address1) + " " + strings.TrimSpace(a.Address2))
				city, prov, zip, cc = a.City, a.Province, a.PostalCode, strings.ToUpper(a.CountryCode)
			}
			if _, err := tx.Exec(ctx, `INSERT INTO medusa_locations (location_id, name, address, city, province, postal_code,
				country_code, seen_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
				ON CONFLICT (location_id) DO UPDATE SET name = excluded.name, address = excluded.address, city = excluded.city,
				province = excluded.province, postal_code = excluded.postal_code, country_code = excluded.country_code,
				seen_at = excluded.seen_at`,
				l.ID, clip(l.Name), clip(a1), clip(city), clip(prov), clip(zip), clip(cc), now); err != nil {
				return fmt.Errorf("record location %s: %w", l.ID, err)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return s.locationsGone(ctx, seen, rep)
}

// Locations is the mapping as moderators edit it.
type Locations struct {
	db *db.DB
	// Geocode finds a postal code or city (places.Service.Geocode); nil:
	// proposals look only at the postal code.
	Geocode func(postalCode, city, state, country string) (lat, lon float64, precision string, ok bool)
}

// NewLocations returns the mapping kept in d.
func NewLocations(d *db.DB) *Locations { return &Locations{db: d} }

// StoreRef is a store as the mapping shows it.
type StoreRef struct {
	ID         int64  `json:"id"`
	Name       string `json:"name"`
	Address    string `json:"address"`
	City       string `json:"city"`
	PostalCode string `json:"postal_code"`
}

func refOf(s stores.Summary) StoreRef {
	return StoreRef{ID: s.ID, Name: s.Name, Address: s.Address, City: s.City, PostalCode: s.PostalCode}
}

// LocationView is one stock location with the store it is mapped to.
type LocationView struct {
	ID          string     `json:"id"`
	Name        string     `json:"name"`
	Address     string     `json:"address"`
	City        string     `json:"city"`
	Province    string     `json:"province"`
	PostalCode  string     `json:"postal_code"`
	CountryCode string     `json:"country_code"`
	Store       *StoreRef  `json:"store"`
	MappedBy    string     `json:"mapped_by"`
	SeenAt      time.Time  `json:"seen_at"`  // when a sync last read it
	GoneAt      *time.Time `json:"gone_at"`  // when a sync first missed it in Medusa's list (deleted there); null while it is there
	StockAt     *string    `json:"stock_at"` // the newest stock change read (Medusa's time), null before the first
}

const locationColumns = `location_id, name, address, city, province, postal_code, country_code, store_id, mapped_by, seen_at, stock_after, gone_at`

func scanLocation(sc db.Scanner) (*LocationView, error) {
	var v LocationView
	var store sql.NullInt64
	var after string
	var gone sql.NullTime
	if err := sc.Scan(&v.ID, &v.Name, &v.Address, &v.City, &v.Province, &v.PostalCode, &v.CountryCode, &store,
		&v.MappedBy, &v.SeenAt, &after, &gone); err != nil {
		return nil, err
	}
	v.GoneAt = timeOrNil(gone)
	if store.Valid {
		v.Store = &StoreRef{ID: store.Int64}
	}
	if after != "" {
		v.StockAt = &after
	}
	return &v, nil
}

// List returns every stock location a sync has read, by name, with the
// stores they are mapped to.
func (l *Locations) List(ctx context.Context) ([]LocationView, error) {
	rows, err := l.db.Query(ctx, "SELECT "+locationColumns+" FROM medusa_locations ORDER BY name, location_id")
	out, err := db.Collect(rows, err, "read stock locations", scanLocation)
	if err != nil {
		return nil, err
	}
	var ids []int64
	for _, v := range out {
		if v.Store != nil {
			ids = append(ids, v.Store.ID)
		}
	}
	m, err := stores.SummaryMap(ctx, l.db, ids)
	if err != nil {
		return nil, err
	}
	for i := range out {
		if st := out[i].Store; st != nil {
			if sum, ok := m[st.ID]; ok {
				r := refOf(sum)
				out[i].Store = &r
			}
		}
	}
	return out, nil
}

// ErrNoLocation is the error of a location no sync has read.
var ErrNoLocation = apperr.New(apperr.NotFound, "no such stock location (run a sync first)")

func (l *Locations) get(ctx context.Context, id string) (*LocationView, error) {
	v, err := scanLocation(l.db.QueryRow(ctx, "SELECT "+locationColumns+" FROM medusa_locations WHERE location_id = $1", id))
	return db.Found(v, err, ErrNoLocation, "read stock location")
}

// Map maps location id to store (0: unmaps it). Its stock is then read
// whole at the next sync. A store takes one location: mapping a second
// one to it is a conflict.
func (l *Locations) Map(ctx context.Context, id string, store int64, by string) (*LocationView, error) {
	if _, err := l.get(ctx, id); err != nil {
		return nil, err
	}
	var target any
	if store != 0 {
		ok, err := stores.Exists(ctx, l.db, store)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, apperr.New(apperr.NotFound, "no store %d", store)
		}
		var other string
		err = l.db.QueryRow(ctx, `SELECT location_id FROM medusa_locations WHERE store_id = $1 AND location_id <> $2`, store, id).Scan(&other)
		if err == nil {
			return nil, apperr.New(apperr.Conflict, "store %d is already mapped to location %s", store, other)
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return nil, fmt.Errorf("read the mapping: %w", err)
		}
		target = store
	}
	_, err := l.db.Exec(ctx, `UPDATE medusa_locations SET store_id = $1, mapped_by = $2, mapped_at = $3, stock_after = '', full_at = NULL
		WHERE location_id = $4`, target, by, time.Now().UTC(), id)
	if db.UniqueViolation(err) {
		return nil, apperr.New(apperr.Conflict, "store %d is already mapped to another location", store)
	}
	if err != nil {
		return nil, fmt.Errorf("map location %s: %w", id, err)
	}
	out, err := l.List(ctx)
	if err != nil {
		return nil, err
	}
	for i := range out {
		if out[i].ID == id {
			return &out[i], nil
		}
	}
	return nil, ErrNoLocation
}

// Proposal is a store a location may be: the same street address (and
// postal code), else near the location's postal code or city.
type Proposal struct {
	Store       StoreRef `json:"store"`
	SameAddress bool     `json:"same_address"`
	NameMatch   float64  `json:"name_match"`  // licences.NameSimilarity of the names, 0 to 1
	DistanceKm  *float64 `json:"distance_km"` // from the postal code's or city's centre; null when it is not known
}

// proposalRadiusKm is how far from the postal code's centre proposals look.
const proposalRadiusKm = 5

// MaxProposals is how many stores a proposal lists.
const MaxProposals = 5

// Propose returns the stores location id probably is, best first: those at
// the same street address (and postal code), then by how alike the names
// are, then nearest.
func (l *Locations) Propose(ctx context.Context, id string) ([]Proposal, error) {
	v, err := l.get(ctx, id)
	if err != nil {
		return nil, err
	}
	lat, lon, known := 0.0, 0.0, false
	if l.Geocode != nil {
		lat, lon, _, known = l.Geocode(v.PostalCode, v.City, v.Province, v.CountryCode)
	}
	radius := float64(proposalRadiusKm)
	if !known {
		lat, lon, radius = 0, 0, 0 // the postal code alone
	}
	near, err := stores.SummariesNear(ctx, l.db, lat, lon, radius, v.PostalCode, 200)
	if err != nil {
		return nil, err
	}
	key := licences.AddressKey(v.Address)
	zip := zip5(v.PostalCode)
	out := make([]Proposal, 0, len(near))
	for _, st := range near {
		p := Proposal{Store: refOf(st), NameMatch: licences.NameSimilarity(v.Name, st.Name)}
		p.SameAddress = key != "" && licences.AddressKey(st.Address) == key && (zip == "" || zip5(st.PostalCode) == "" || zip5(st.PostalCode) == zip)
		if known {
			d := stores.DistanceKm(lat, lon, st.Latitude, st.Longitude)
			p.DistanceKm = &d
		}
		out = append(out, p)
	}
	slices.SortStableFunc(out, func(a, b Proposal) int {
		if a.SameAddress != b.SameAddress {
			if a.SameAddress {
				return -1
			}
			return 1
		}
		if c := cmp.Compare(b.NameMatch, a.NameMatch); c != 0 {
			return c
		}
		if a.DistanceKm != nil && b.DistanceKm != nil {
			return cmp.Compare(*a.DistanceKm, *b.DistanceKm)
		}
		return cmp.Compare(a.Store.ID, b.Store.ID)
	})
	if len(out) > MaxProposals {
		out = out[:MaxProposals]
	}
	return out, nil
}

func zip5(z string) string {
	z = strings.TrimSpace(z)
	if len(z) > 5 {
		return z[:5]
	}
	return z
}
