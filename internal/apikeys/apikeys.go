// Package apikeys keeps API keys: the point-of-sale keys of business
// accounts (docs/products.md, "Point-of-sale API"), created and revoked by
// the account's owner in /business, and the read keys of partners
// (docs/partners.md, "Read API keys"), created and revoked by moderators in
// /admin. Either kind is shown once, stored as a SHA-256 (a key is
// 256 random bits, so a fast hash is as safe as a password hash here and
// costs nothing per request), at most MaxActive active per account, each
// limited to RequestsPerMinute on every replica together (the counter is
// in the database). A point-of-sale key is allowed only the stores its
// account owns (internal/ownership decides, at each request); a partner's
// key only the partner's reads (httpapi decides). A key opens only the
// calls of its own kind.
package apikeys

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"locator/internal/apperr"
	"locator/internal/clock"
	"locator/internal/db"
	"locator/internal/ownership"
	"locator/internal/ratelimit"
	"locator/internal/secret"
	"locator/internal/textfield"
)

// MaxActive is how many keys an account may have that are not revoked.
const MaxActive = 10

// RequestsPerMinute is a key's default rate: a till that sends a batch a
// second is well inside it.
const RequestsPerMinute = 60

// MaxName bounds a key's name, in characters.
const MaxName = 60

// KeyPrefix starts every point-of-sale key, and PartnerKeyPrefix every
// partner's read key, so a leaked one is recognisable (secret scanners,
// logs) and its kind is known before any lookup.
const (
	KeyPrefix        = "lpos_"
	PartnerKeyPrefix = "lpar_"
)

// Owner is whose a key is: a business account (a point-of-sale key) or a
// partner (a read key); exactly one is set.
type Owner struct {
	Business int64
	Partner  string
}

// BusinessOwner is the owner of a business account's keys.
func BusinessOwner(id int64) Owner { return Owner{Business: id} }

// PartnerOwner is the owner of a partner's keys.
func PartnerOwner(id string) Owner { return Owner{Partner: id} }

// where is the owner's condition on api_keys, its argument numbered n.
func (o Owner) where(n int) (string, any) {
	if o.Partner != "" {
		return fmt.Sprintf("partner_id = $%d", n), o.Partner
	}
	return fmt.Sprintf("business_id = $%d", n), o.Business
}

// prefix is what the owner's keys start with.
func (o Owner) prefix() string {
	if o.Partner != "" {
		return PartnerKeyPrefix
	}
	return KeyPrefix
}

// shownChars is how much of a key its list shows: the prefix and a few
// random characters, enough to tell keys apart, far too few to guess one.
const shownChars = len(KeyPrefix) + 6

// Key is one API key as its owner sees it: never the key itself.
type Key struct {
	ID         int64      `json:"id"`
	BusinessID int64      `json:"-"`
	PartnerID  string     `json:"-"`
	Name       string     `json:"name"`
	Prefix     string     `json:"prefix"`
	CreatedAt  time.Time  `json:"created_at"`
	LastUsedAt *time.Time `json:"last_used_at"`
	RevokedAt  *time.Time `json:"revoked_at"`
}

// Service keeps the keys.
type Service struct {
	db       *db.DB
	clock    clock.Clock
	limits   *ratelimit.DB
	perMin   int
	touchGap time.Duration
}

// New returns the keys of d; perMinute is each key's rate (0:
// RequestsPerMinute).
func New(d *db.DB, c clock.Clock, perMinute int) *Service {
	if perMinute <= 0 {
		perMinute = RequestsPerMinute
	}
	return &Service{db: d, clock: c, limits: ratelimit.NewDB(d), perMin: perMinute, touchGap: time.Minute}
}

// PerMinute is each key's rate.
func (s *Service) PerMinute() int { return s.perMin }

const keyColumns = "id, COALESCE(business_id, 0), COALESCE(partner_id, ''), name, prefix, created_at, last_used_at, revoked_at"

func scanKey(sc db.Scanner) (*Key, error) {
	k := &Key{}
	var used, revoked sql.NullTime
	if err := sc.Scan(&k.ID, &k.BusinessID, &k.PartnerID, &k.Name, &k.Prefix, &k.CreatedAt, &used, &revoked); err != nil {
		return nil, err
	}
	k.CreatedAt = k.CreatedAt.UTC()
	if used.Valid {
		t := used.Time.UTC()
		k.LastUsedAt = &t
	}
	if revoked.Valid {
		t := revoked.Time.UTC()
		k.RevokedAt = &t
	}
	return k, nil
}

// List returns an account's keys, active ones first, newest first.
func (s *Service) List(ctx context.Context, businessID int64) ([]Key, error) {
	return s.ListOf(ctx, BusinessOwner(businessID))
}

// ListOf returns an owner's keys, active ones first, newest first.
func (s *Service) ListOf(ctx context.Context, o Owner) ([]Key, error) {
	cond, arg := o.where(1)
	rows, err := s.db.Query(ctx, "SELECT "+keyColumns+" FROM api_keys WHERE "+cond+`
		ORDER BY CASE WHEN revoked_at IS NULL THEN 0 ELSE 1 END, created_at DESC, id DESC`, arg)
	return db.Collect(rows, err, "list api keys", scanKey)
}

// Create makes a key named name for the account and returns it with the
// key itself, which is never shown again.
func (s *Service) Create(ctx context.Context, businessID int64, name string) (Key, string, error) {
	return s.CreateFor(ctx, BusinessOwner(businessID), name)
}

// CreateFor makes a key named name for an owner and returns it with the
// key itself, which is never shown again.
func (s *Service) CreateFor(ctx context.Context, o Owner, name string) (Key, string, error) {
	name, ok := textfield.Trim(name, MaxName)
	switch {
	case name == "":
		return Key{}, "", apperr.Invalidf("Give the key a name (the till or system that will use it).")
	case !ok:
		return Key{}, "", apperr.Invalidf("A key's name has at most %d characters.", MaxName)
	case textfield.HasNUL(name):
		return Key{}, "", apperr.Invalidf("Text must not contain the character U+0000 (NUL)")
	}
	token, err := secret.NewToken()
	if err != nil {
		return Key{}, "", err
	}
	plain := o.prefix() + token
	now := s.clock.Stamp()
	// Two creations at once may pick the same free slot: the unique index
	// refuses the second, which tries again with the slots then taken.
	// Each refusal means another key took a slot, so after MaxActive of
	// them the account is full (409) unless keys were revoked meanwhile.
	for attempt := 0; ; attempt++ {
		var k *Key
		err := s.db.InTx(ctx, func(tx *db.Tx) error {
			slot, err := freeSlot(ctx, tx, o)
			if err != nil {
				return err
			}
			var business, partner any
			if o.Partner != "" {
				partner = o.Partner
			} else {
				business = o.Business
			}
			k, err = scanKey(tx.QueryRow(ctx, `INSERT INTO api_keys (business_id, partner_id, name, prefix, key_hash, slot, created_at)
				VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING `+keyColumns, business, partner, name, plain[:shownChars], secret.HashToken(plain), slot, now))
			if err != nil {
				return fmt.Errorf("create api key: %w", err)
			}
			return nil
		})
		if err == nil {
			return *k, plain, nil
		}
		if !db.UniqueViolation(err) || attempt == 2*MaxActive {
			return Key{}, "", err
		}
	}
}

// freeSlot is the lowest slot no active key of the owner holds.
func freeSlot(ctx context.Context, tx *db.Tx, o Owner) (int, error) {
	cond, arg := o.where(1)
	rows, err := tx.Query(ctx, "SELECT slot FROM api_keys WHERE "+cond+" AND revoked_at IS NULL", arg)
	slots, err := db.Collect(rows, err, "api key slots", func(sc db.Scanner) (*int, error) {
		var n int
		return &n, sc.Scan(&n)
	})
	if err != nil {
		return 0, err
	}
	taken := map[int]bool{}
	for _, n := range slots {
		taken[n] = true
	}
	for n := 1; n <= MaxActive; n++ {
		if !taken[n] {
			return n, nil
		}
	}
	return 0, apperr.New(apperr.Conflict, "An account may have %d active keys: revoke one first.", MaxActive)
}

// Revoke ends one of the account's keys at once; a key of another account
// is not found. Revoking a revoked key changes nothing.
func (s *Service) Revoke(ctx context.Context, businessID, id int64) (Key, error) {
	return s.RevokeOf(ctx, BusinessOwner(businessID), id)
}

// RevokeOf ends one of the owner's keys at once; a key of another owner is
// not found. Revoking a revoked key changes nothing.
func (s *Service) RevokeOf(ctx context.Context, o Owner, id int64) (Key, error) {
	cond, arg := o.where(3)
	if _, err := s.db.Exec(ctx, "UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND "+cond+" AND revoked_at IS NULL",
		s.clock.Stamp(), id, arg); err != nil {
		return Key{}, fmt.Errorf("revoke api key: %w", err)
	}
	cond, arg = o.where(2)
	k, err := scanKey(s.db.QueryRow(ctx, "SELECT "+keyColumns+" FROM api_keys WHERE id = $1 AND "+cond, id, arg))
	if errors.Is(err, sql.ErrNoRows) {
		return Key{}, apperr.New(apperr.NotFound, "No such key.")
	}
	if err != nil {
		return Key{}, fmt.Errorf("read api key: %w", err)
	}
	return *k, nil
}

// errUnauthorized is every refusal of a key: missing, malformed, unknown
// or revoked read the same, so a caller learns nothing from the answer.
var errUnauthorized = apperr.New(apperr.Unauthorized, "A valid API key is required (Authorization: Bearer KEY).")

// Authenticate returns the active point-of-sale key of an Authorization
// header's bearer token, and counts the request against the key's rate
// (429 past it, counted on every replica). It notes when the key was last
// used, at most once a minute. A partner's key is refused here.
func (s *Service) Authenticate(ctx context.Context, authorization string) (Key, error) {
	return s.authenticate(ctx, authorization, KeyPrefix)
}

// AuthenticatePartner is Authenticate for partners' read keys: a
// point-of-sale key is refused here. Whether the partner is enabled is the
// caller's to check.
func (s *Service) AuthenticatePartner(ctx context.Context, authorization string) (Key, error) {
	return s.authenticate(ctx, authorization, PartnerKeyPrefix)
}

func (s *Service) authenticate(ctx context.Context, authorization, prefix string) (Key, error) {
	scheme, plain, ok := strings.Cut(strings.TrimSpace(authorization), " ")
	plain = strings.TrimSpace(plain)
	if !ok || !strings.EqualFold(scheme, "Bearer") || !strings.HasPrefix(plain, prefix) || len(plain) > 200 {
		return Key{}, errUnauthorized
	}
	k, err := scanKey(s.db.QueryRow(ctx, "SELECT "+keyColumns+" FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL", secret.HashToken(plain)))
	if errors.Is(err, sql.ErrNoRows) {
		return Key{}, errUnauthorized
	}
	if err != nil {
		return Key{}, fmt.Errorf("find api key: %w", err)
	}
	if err := s.limits.Take(ctx, fmt.Sprintf("%skey:%d", prefix, k.ID), s.perMin, time.Minute); err != nil {
		return Key{}, err
	}
	now := s.clock.Stamp()
	if k.LastUsedAt == nil || now.Sub(*k.LastUsedAt) >= s.touchGap {
		if _, err := s.db.Exec(ctx, "UPDATE api_keys SET last_used_at = $1 WHERE id = $2", now, k.ID); err != nil {
			return Key{}, fmt.Errorf("note api key use: %w", err)
		}
		k.LastUsedAt = &now
	}
	return *k, nil
}

// Owns says whether the key's account owns a store now (a link removed
// after the key was made takes the store out of the key's reach at once).
func (s *Service) Owns(k Key) func(ctx context.Context, storeID int64) (bool, error) {
	return func(ctx context.Context, storeID int64) (bool, error) {
		return ownership.Owns(ctx, s.db, k.BusinessID, storeID)
	}
}
