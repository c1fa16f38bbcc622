// Package partners keeps the locator's partners (docs/partners.md): brands,
// point-of-sale vendors and chains that embed the widget on their sites,
// read the API with their keys and hear of changes by webhooks. A partner
// has a random id, a slug (its name in URLs and insights), a kind, the
// origins that may frame the widget, and, for a brand, its products and
// brand names. Moderators create, edit and disable partners in /admin.
package partners

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"locator/internal/apperr"
	"locator/internal/audit"
	"locator/internal/clock"
	"locator/internal/db"
	"locator/internal/textfield"
)

// The partners' kinds.
const (
	KindBrand = "brand" // a brand: its products and brand names, a where-to-buy button
	KindPOS   = "pos"   // a point-of-sale vendor
	KindChain = "chain" // a chain of stores
)

// Kinds are the kinds a partner may have, in the order /admin offers them.
var Kinds = []string{KindBrand, KindPOS, KindChain}

// Bounds of a partner's fields.
const (
	MaxName       = 100
	MaxSlug       = 40
	MaxOrigins    = 20
	MaxBrands     = 50
	MaxBrand      = 100
	MaxProducts   = 1000
	MaxProductID  = 100
	idRandomBytes = 8
)

// IDPrefix starts every partner id.
const IDPrefix = "pt_"

// ErrNotFound answers a partner that does not exist.
var ErrNotFound = apperr.New(apperr.NotFound, "No such partner.")

// Partner is one partner with its lists.
type Partner struct {
	ID             string    `json:"id"`
	Name           string    `json:"name"`
	Slug           string    `json:"slug"`
	Kind           string    `json:"kind"`
	AllowedOrigins []string  `json:"allowed_origins"`
	Brands         []string  `json:"brands"`
	ProductIDs     []string  `json:"product_ids"`
	Disabled       bool      `json:"disabled"`
	CreatedAt      time.Time `json:"created_at"`
}

// AllowsOrigin says whether origin (as a browser sends it) is on the
// partner's list, after normalisation: an exact match of scheme, host and
// port. A disabled partner allows none.
func (p Partner) AllowsOrigin(origin string) bool {
	o, ok := NormalizeOrigin(origin)
	return ok && !p.Disabled && slices.Contains(p.AllowedOrigins, o)
}

// Sells says whether a product is the partner's: its id is on the
// partner's product list, or its brand on the brand list (brand names
// compare without case and surrounding space).
func (p Partner) Sells(productID, brand string) bool {
	if productID != "" && slices.Contains(p.ProductIDs, productID) {
		return true
	}
	return p.HasBrand(brand)
}

// HasBrand says whether brand is on the partner's brand list (without
// case and surrounding space).
func (p Partner) HasBrand(brand string) bool {
	brand = strings.TrimSpace(brand)
	return brand != "" && slices.ContainsFunc(p.Brands, func(b string) bool { return strings.EqualFold(b, brand) })
}

// BrandAllowed says whether the partner's widget may open on brand (the
// widget's brand option, docs/embed.md): a brand with a brand list may
// name only those brands; any other partner any brand.
func (p Partner) BrandAllowed(brand string) bool {
	return p.Kind != KindBrand || len(p.Brands) == 0 || p.HasBrand(brand)
}

// Input is a partner as a moderator writes it. Slug empty: made from the
// name. Actor, when set, names who made the change in the audit log.
type Input struct {
	Name           string   `json:"name"`
	Slug           string   `json:"slug"`
	Kind           string   `json:"kind"`
	AllowedOrigins []string `json:"allowed_origins"`
	Brands         []string `json:"brands"`
	ProductIDs     []string `json:"product_ids"`
	Actor          string   `json:"-"`
}

// Service keeps the partners.
type Service struct {
	db    *db.DB
	clock clock.Clock
}

// New returns the partners kept in d.
func New(d *db.DB, c clock.Clock) *Service { return &Service{db: d, clock: c} }

var slugPattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// MakeSlug turns a name into a slug candidate: lower-case ASCII letters
// and digits joined by single hyphens, at most MaxSlug characters.
func MakeSlug(name string) string {
	var b strings.Builder
	hyphen := false
	for _, r := range strings.ToLower(name) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			if hyphen && b.Len() > 0 {
				b.WriteByte('-')
			}
			hyphen = false
			b.WriteRune(r)
		default:
			hyphen = true
		}
		if b.Len() >= MaxSlug {
			break
		}
	}
	return strings.TrimRight(b.String()[:min(b.Len(), MaxSlug)], "-")
}

// clean checks and normalises the input of partner id: the first broken
// rule is a 400 naming the field. Without a slug, the name's is taken, or
// "partner-" and the id's random part when the name has too few ASCII
// letters or digits for one.
func clean(in Input, id string) (Input, error) {
	name, ok := textfield.Trim(in.Name, MaxName)
	switch {
	case name == "":
		return in, apperr.Invalidf("name: give the partner's name.")
	case !ok:
		return in, apperr.Invalidf("name: at most %d characters.", MaxName)
	case textfield.HasNUL(name):
		return in, apperr.Invalidf("name: must not contain the character U+0000 (NUL).")
	}
	in.Name = name
	in.Slug = strings.TrimSpace(in.Slug)
	if in.Slug == "" {
		in.Slug = MakeSlug(name)
		if len(in.Slug) < 2 {
			in.Slug = "partner-" + strings.TrimPrefix(id, IDPrefix)
		}
	}
	if len(in.Slug) < 2 || len(in.Slug) > MaxSlug || !slugPattern.MatchString(in.Slug) {
		return in, apperr.Invalidf("slug: 2 to %d lower-case letters, digits and single hyphens (like acme-vapes).", MaxSlug)
	}
	if !slices.Contains(Kinds, in.Kind) {
		return in, apperr.Invalidf("kind: one of brand, pos, chain.")
	}
	if len(in.AllowedOrigins) > MaxOrigins {
		return in, apperr.Invalidf("allowed_origins: at most %d sites.", MaxOrigins)
	}
	origins := []string{}
	for _, raw := range in.AllowedOrigins {
		o, ok := NormalizeOrigin(raw)
		if !ok {
			return in, apperr.Invalidf("allowed_origins: %q is not a site's origin (https://shop.example; http only for localhost and 127.0.0.1).", trunc(raw))
		}
		if !slices.Contains(origins, o) {
			origins = append(origins, o)
		}
	}
	in.AllowedOrigins = origins
	if len(in.Brands) > MaxBrands {
		return in, apperr.Invalidf("brands: at most %d brand names.", MaxBrands)
	}
	brands := []string{}
	for _, raw := range in.Brands {
		b, ok := textfield.Trim(raw, MaxBrand)
		if b == "" || !ok || textfield.HasNUL(b) {
			return in, apperr.Invalidf("brands: each brand name has 1 to %d characters.", MaxBrand)
		}
		if !slices.ContainsFunc(brands, func(x string) bool { return strings.EqualFold(x, b) }) {
			brands = append(brands, b)
		}
	}
	in.Brands = brands
	if len(in.ProductIDs) > MaxProducts {
		return in, apperr.Invalidf("product_ids: at most %d products.", MaxProducts)
	}
	ids := []string{}
	for _, raw := range in.ProductIDs {
		id := strings.TrimSpace(raw)
		if id == "" || len(id) > MaxProductID || strings.ContainsAny(id, "\x00/\n\r") {
			return in, apperr.Invalidf("product_ids: each product id has 1 to %d characters, without / or line breaks.", MaxProductID)
		}
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	in.ProductIDs = ids
	return in, nil
}

func trunc(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}

func newID() (string, error) {
	b := make([]byte, idRandomBytes)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("partner id: %w", err)
	}
	return IDPrefix + hex.EncodeToString(b), nil
}

// slugTaken is the answer when another partner holds the slug.
func slugTaken(slug string) error {
	return apperr.New(apperr.Conflict, "slug: another partner is named %q.", slug)
}

// Create adds a partner.
func (s *Service) Create(ctx context.Context, in Input) (Partner, error) {
	id, err := newID()
	if err != nil {
		return Partner{}, err
	}
	if in, err = clean(in, id); err != nil {
		return Partner{}, err
	}
	now := s.clock.Stamp()
	return s.save(ctx, id, in, "partner.create", func(tx *db.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO partners (id, name, slug, kind, allowed_origins, created_at)
			VALUES ($1, $2, $3, $4, $5, $6)`, id, in.Name, in.Slug, in.Kind, strings.Join(in.AllowedOrigins, "\n"), now); err != nil {
			return fmt.Errorf("create partner: %w", err)
		}
		return nil
	})
}

// Update replaces a partner's fields and lists with in.
func (s *Service) Update(ctx context.Context, id string, in Input) (Partner, error) {
	in, err := clean(in, id)
	if err != nil {
		return Partner{}, err
	}
	return s.save(ctx, id, in, "partner.update", func(tx *db.Tx) error {
		res, err := tx.Exec(ctx, `UPDATE partners SET name = $1, slug = $2, kind = $3, allowed_origins = $4 WHERE id = $5`,
			in.Name, in.Slug, in.Kind, strings.Join(in.AllowedOrigins, "\n"), id)
		if err != nil {
			return fmt.Errorf("update partner: %w", err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return fmt.Errorf("update partner: %w", err)
		} else if n == 0 {
			return ErrNotFound
		}
		for _, q := range []string{"DELETE FROM partner_products WHERE partner_id = $1", "DELETE FROM partner_brands WHERE partner_id = $1"} {
			if _, err := tx.Exec(ctx, q, id); err != nil {
				return fmt.Errorf("update partner lists: %w", err)
			}
		}
		return nil
	})
}

// save runs row (the partner's INSERT or UPDATE; a slug another partner
// holds answers slugTaken), then writes in's lists and the audit entry
// action, all in one transaction, and answers the partner as stored.
func (s *Service) save(ctx context.Context, id string, in Input, action string, row func(*db.Tx) error) (Partner, error) {
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		if err := row(tx); err != nil {
			if db.UniqueViolation(err) {
				return slugTaken(in.Slug)
			}
			return err
		}
		if err := writeLists(ctx, tx, id, in); err != nil {
			return err
		}
		return s.audit(ctx, tx, in.Actor, action, id, in)
	})
	if err != nil {
		return Partner{}, err
	}
	return s.Get(ctx, id)
}

func writeLists(ctx context.Context, tx *db.Tx, id string, in Input) error {
	for _, p := range in.ProductIDs {
		if _, err := tx.Exec(ctx, "INSERT INTO partner_products (partner_id, product_id) VALUES ($1, $2)", id, p); err != nil {
			return fmt.Errorf("partner products: %w", err)
		}
	}
	for _, b := range in.Brands {
		if _, err := tx.Exec(ctx, "INSERT INTO partner_brands (partner_id, brand) VALUES ($1, $2)", id, b); err != nil {
			return fmt.Errorf("partner brands: %w", err)
		}
	}
	return nil
}

func (s *Service) audit(ctx context.Context, tx *db.Tx, actor, action, id string, details any) error {
	if actor == "" {
		return nil
	}
	return audit.Write(ctx, tx, s.clock.Now(), actor, action, 0, 0, map[string]any{"partner": id, "input": details})
}

// Disable turns a partner off (idempotent): its widget, keys and webhooks
// stop; the row stays.
func (s *Service) Disable(ctx context.Context, id string) error { return s.DisableBy(ctx, id, "") }

// DisableBy is Disable with the actor for the audit log.
func (s *Service) DisableBy(ctx context.Context, id, actor string) error {
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		var disabled sql.NullTime
		if err := tx.QueryRow(ctx, "SELECT disabled_at FROM partners WHERE id = $1", id).Scan(&disabled); err != nil {
			if errors.Is(err, sql.ErrNoRows) {
				return ErrNotFound
			}
			return fmt.Errorf("read partner: %w", err)
		}
		if disabled.Valid {
			return nil
		}
		if _, err := tx.Exec(ctx, "UPDATE partners SET disabled_at = $1 WHERE id = $2", s.clock.Stamp(), id); err != nil {
			return fmt.Errorf("disable partner: %w", err)
		}
		return s.audit(ctx, tx, actor, "partner.disable", id, nil)
	})
}

const partnerColumns = "id, name, slug, kind, allowed_origins, created_at, disabled_at"

func scanPartner(sc db.Scanner) (*Partner, error) {
	p := &Partner{}
	var origins string
	var disabled sql.NullTime
	if err := sc.Scan(&p.ID, &p.Name, &p.Slug, &p.Kind, &origins, &p.CreatedAt, &disabled); err != nil {
		return nil, err
	}
	p.CreatedAt = p.CreatedAt.UTC()
	p.Disabled = disabled.Valid
	p.AllowedOrigins = []string{}
	for _, o := range strings.Split(origins, "\n") {
		if o != "" {
			p.AllowedOrigins = append(p.AllowedOrigins, o)
		}
	}
	p.Brands, p.ProductIDs = []string{}, []string{}
	return p, nil
}

// Get returns one partner (ErrNotFound when there is none).
func (s *Service) Get(ctx context.Context, id string) (Partner, error) {
	return s.one(ctx, "id", id)
}

// BySlug returns the partner of a slug (ErrNotFound when there is none).
func (s *Service) BySlug(ctx context.Context, slug string) (Partner, error) {
	return s.one(ctx, "slug", slug)
}

func (s *Service) one(ctx context.Context, column, value string) (Partner, error) {
	if value == "" || len(value) > 100 {
		return Partner{}, ErrNotFound
	}
	p, err := scanPartner(s.db.QueryRow(ctx, "SELECT "+partnerColumns+" FROM partners WHERE "+column+" = $1", value))
	if p, err = db.Found(p, err, ErrNotFound, "read partner"); err != nil {
		return Partner{}, err
	}
	ps := []Partner{*p}
	if err := s.lists(ctx, ps, "WHERE partner_id = $1", p.ID); err != nil {
		return Partner{}, err
	}
	return ps[0], nil
}

// List returns every partner, enabled ones first, by name.
func (s *Service) List(ctx context.Context) ([]Partner, error) {
	rows, err := s.db.Query(ctx, "SELECT "+partnerColumns+` FROM partners
		ORDER BY CASE WHEN disabled_at IS NULL THEN 0 ELSE 1 END, name, id`)
	ps, err := db.Collect(rows, err, "list partners", scanPartner)
	if err != nil {
		return nil, err
	}
	return ps, s.lists(ctx, ps, "")
}

// lists fills the partners' products and brands from the rows where
// (a WHERE clause with its arguments, or every row).
func (s *Service) lists(ctx context.Context, ps []Partner, where string, args ...any) error {
	at := make(map[string]int, len(ps))
	for i, p := range ps {
		at[p.ID] = i
	}
	type pair struct{ partner, value string }
	scan := func(sc db.Scanner) (*pair, error) {
		var v pair
		return &v, sc.Scan(&v.partner, &v.value)
	}
	rows, err := s.db.Query(ctx, "SELECT partner_id, product_id FROM partner_products "+where+" ORDER BY product_id", args...)
	products, err := db.Collect(rows, err, "partner products", scan)
	if err != nil {
		return err
	}
	for _, v := range products {
		if i, ok := at[v.partner]; ok {
			ps[i].ProductIDs = append(ps[i].ProductIDs, v.value)
		}
	}
	rows, err = s.db.Query(ctx, "SELECT partner_id, brand FROM partner_brands "+where+" ORDER BY brand", args...)
	brands, err := db.Collect(rows, err, "partner brands", scan)
	if err != nil {
		return err
	}
	for _, v := range brands {
		if i, ok := at[v.partner]; ok {
			ps[i].Brands = append(ps[i].Brands, v.value)
		}
	}
	return nil
}
