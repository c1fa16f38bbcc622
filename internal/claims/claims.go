// Package claims handles store owners claiming their store: the claim form,
// the business account for the store dashboard, and moderation (approve or
// reject, with an audit log and an email to the owner). Approval publishes
// the store through the stores package, so it shows up in search at once.
package claims

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"
	"unicode/utf8"

	"locator/internal/identity"

	"locator/internal/apperr"
	sysclock "locator/internal/clock" // claims/hours.go has a clock of its own (a time of day)
	"locator/internal/db"
	"locator/internal/ratelimit"
	"locator/internal/schedule"
	"locator/internal/stores"
)

// Status of a claim.
type Status string

const (
	Pending  Status = "pending"
	Approved Status = "approved"
	Rejected Status = "rejected"
)

// Claim is a submitted claim form.
type Claim struct {
	ID int64
	Input
	Status             Status
	RejectReason       string
	LicenceCheck       LicenceCheck // the registries' answer on approval
	DuplicateOfStoreID int64        // a published store that looks like this one (for the moderator)
	StoreID            int64        // the store published on approval
	CreatedAt          time.Time
	UpdatedAt          time.Time
	DecidedAt          *time.Time
	DecidedBy          string
	// WaitingForEmail: approved, and no business account with the claim's
	// email has proven its mailbox yet; the store is linked when one does.
	WaitingForEmail bool
	// Consent: "pending" while the claimant of an approved claim on a store
	// with owners waits for their consent, then "accepted" or "declined";
	// "" when none was needed (internal/consent).
	Consent string
}

// Input is the claim form, as the API takes it and a claim keeps it.
type Input struct {
	BusinessName string `json:"business_name"`
	Email        string `json:"email"`
	Phone        string `json:"phone"`
	Country      string `json:"country"`
	State        string `json:"state"`
	Address1     string `json:"address1"`
	City         string `json:"city"`
	PostalCode   string `json:"postal_code"`
	Website      string `json:"website"`
	WorkingHours string `json:"working_hours"`
	Category     string `json:"category"`
	// LicenceNumber is checked with the registries on approval
	// (licences.VerifyNumber, as in /business).
	LicenceNumber string `json:"licence_number"`
	// Free-text hours per service, read like WorkingHours (ServiceTexts).
	DeliveryHours       string `json:"delivery_hours"`
	CurbsidePickupHours string `json:"curbside_pickup_hours"`
	OnlineOrderHours    string `json:"online_order_hours"`
	// AdultOnly: the store admits adults only (docs/rules.md); an approval
	// sets it on the store, never clears it (the owner does, in /business).
	AdultOnly bool `json:"adult_only"`
	// The pin the owner placed in the wizard (docs/claims.md, "Where the
	// store stands"): both or neither; PinSource says how ("map": dragged
	// or typed on the map, "device": the browser's location at the store).
	PinLatitude  *float64 `json:"pin_latitude"`
	PinLongitude *float64 `json:"pin_longitude"`
	PinSource    string   `json:"pin_source"`
}

// Pin sources.
const (
	PinMap    = "map"
	PinDevice = "device"
)

// ServiceTexts are the claim's free-text hours of each service, indexed
// by schedule.Service.
func (in *Input) ServiceTexts() [schedule.NumServices]*string {
	return [schedule.NumServices]*string{&in.DeliveryHours, &in.CurbsidePickupHours, &in.OnlineOrderHours}
}

// Field limits.
const (
	maxShort   = 255
	maxLong    = 1000
	maxLicence = 64 // as licences.VerifyNumber takes it
)

// Geocoder finds coordinates for an address.
type Geocoder interface {
	Geocode(postalCode, city, state, country string) (lat, lon float64, precision string, ok bool)
}

// AddressGeocoder can also use the street address (an upstream geocoder).
type AddressGeocoder interface {
	GeocodeAddress(address, postalCode, city, state, country string) (lat, lon float64, precision string, ok bool)
}

// Service implements claims.
type Service struct {
	DB       *db.DB
	Stores   *stores.Repo
	Geocoder Geocoder
	ZoneAt   func(lat, lon float64) string
	Log      *slog.Logger
	Now      sysclock.Clock
	// PublicURL (LOCATOR_PUBLIC_URL) makes the link to the store dashboard in
	// the approval mail; empty (a command run without it), the mail names
	// the path only.
	PublicURL string
	// Licences checks a claim's licence number on approval; nil where no
	// registries are kept (the number then stays unchecked).
	Licences LicenceVerifier

	// Moderators are who decide claims: their identity (internal/identity).
	Moderators *identity.Moderators

	// limits counts claims per network in the database, so every replica
	// shares the count (as reports do).
	limits *ratelimit.DB
}

// PerNetworkPerHour is the most new claims one network (an IPv4 /24, an
// IPv6 /64: ratelimit.Network) may submit in an hour, across replicas. A
// shop owner submits one, maybe a few; a per-address limit alone let one
// /24 send 40 and mail a store's owners 40 times.
const PerNetworkPerHour = 10

const tooManyMessage = "Too many claims from your network. Please try again later."

// Options are what a Service needs besides its database and stores; each
// may be left out where a command does not use it.
type Options struct {
	Geocoder  Geocoder                      // places a claimed store; nil: claims keep the coordinates sent
	ZoneAt    func(lat, lon float64) string // the time zone of an approved store
	PublicURL string                        // see Service.PublicURL
	Licences  LicenceVerifier               // see Service.Licences
	Clock     sysclock.Clock                // nil: the system's
	Identity  identity.Options              // the moderators' identity (newApp's one clock and hashing gate)
}

// New returns a service with production defaults.
func New(d *db.DB, sr *stores.Repo, o Options, log *slog.Logger) *Service {
	if o.Clock == nil {
		o.Clock = sysclock.System()
	}
	if o.Identity.Clock == nil {
		o.Identity.Clock = o.Clock
	}
	return &Service{DB: d, Stores: sr, Geocoder: o.Geocoder, ZoneAt: o.ZoneAt, Log: log, Now: o.Clock,
		PublicURL: o.PublicURL, Licences: o.Licences, Moderators: identity.NewModerators(d, log, o.Identity), limits: ratelimit.NewDB(d)}
}

func (s *Service) now() time.Time { return s.Now.Stamp() }

func clean(v string) string { return strings.TrimSpace(v) }

// validate checks the form (docs/product-rules.md, "Store claims") and
// bounds every field.
func (in *Input) validate() error {
	f := []*string{&in.BusinessName, &in.Email, &in.Phone, &in.Country, &in.State, &in.Address1, &in.City, &in.PostalCode, &in.Website, &in.WorkingHours, &in.Category, &in.LicenceNumber}
	services := in.ServiceTexts()
	f = append(f, services[:]...)
	for _, p := range f {
		*p = clean(*p)
	}
	in.Email = strings.ToLower(in.Email)
	required := []struct{ v, msg string }{
		{in.BusinessName, "Business name is required"},
		{in.Email, "Email is required"},
		{in.Phone, "Phone is required"},
		{in.Country, "Country is required"},
		{in.City, "City is required"},
		{in.PostalCode, "Postal code is required"},
		{in.Address1, "Address is required"},
	}
	for _, r := range required {
		if r.v == "" {
			return apperr.Invalidf("%s", r.msg)
		}
	}
	if !strings.Contains(in.Email, "@") {
		return apperr.Invalidf("Email must contain @")
	}
	var err error
	if in.Email, err = identity.ParseEmail(in.Email); err != nil {
		return err
	}
	short := []struct{ name, v string }{
		{"Business name", in.BusinessName}, {"Email", in.Email}, {"Phone", in.Phone}, {"Country", in.Country},
		{"State", in.State}, {"Address", in.Address1}, {"City", in.City}, {"Postal code", in.PostalCode}, {"Category", in.Category},
	}
	for _, f := range short {
		if utf8.RuneCountInString(f.v) > maxShort {
			return apperr.Invalidf("%s must be at most %d characters", f.name, maxShort)
		}
	}
	if len(in.Phone) > 32 || strings.Trim(in.Phone, "+0123456789 -().") != "" {
		return apperr.Invalidf("Phone may contain only digits, spaces, + - ( ) and .")
	}
	if utf8.RuneCountInString(in.WorkingHours) > maxLong || len(in.Website) > 2048 {
		return apperr.Invalidf("Working hours and website must be at most %d characters", maxLong)
	}
	if utf8.RuneCountInString(in.LicenceNumber) > maxLicence {
		return apperr.Invalidf("Licence number must be at most %d characters", maxLicence)
	}
	for k, p := range services {
		if utf8.RuneCountInString(*p) > maxLong {
			return apperr.Invalidf("%s hours must be at most %d characters", serviceLabels[k], maxLong)
		}
	}
	if err := in.validatePin(); err != nil {
		return err
	}
	if in.Website != "" {
		w := in.Website
		if !strings.Contains(w, "://") {
			w = "https://" + w
		}
		if !stores.ValidWebsite(w) {
			return apperr.Invalidf("Website must be a web address, e.g. https://example.com")
		}
		in.Website = w
	}
	return nil
}

// validatePin checks the owner's pin: both coordinates or neither, within
// range, and a known source (map when the pin came without one).
func (in *Input) validatePin() error {
	in.PinSource = clean(in.PinSource)
	if (in.PinLatitude == nil) != (in.PinLongitude == nil) {
		return apperr.Invalidf("Give both pin_latitude and pin_longitude, or neither")
	}
	if in.PinLatitude == nil {
		if in.PinSource != "" {
			return apperr.Invalidf("pin_source needs pin_latitude and pin_longitude")
		}
		return nil
	}
	lat, lon := *in.PinLatitude, *in.PinLongitude
	if lat != lat || lat < -90 || lat > 90 || lon != lon || lon < -180 || lon > 180 {
		return apperr.Invalidf("The pin must have a latitude from -90 to 90 and a longitude from -180 to 180")
	}
	switch in.PinSource {
	case "":
		in.PinSource = PinMap
	case PinMap, PinDevice:
	default:
		return apperr.Invalidf("pin_source must be map or device")
	}
	return nil
}

// dedupeKey identifies a retried submission: same email and business on
// the same day (UTC).
func dedupeKey(in Input, t time.Time) string {
	h := sha256.Sum256([]byte(strings.ToLower(in.Email) + "\x00" + strings.ToLower(in.BusinessName) + "\x00" + t.Format("2006-01-02")))
	return hex.EncodeToString(h[:])
}

// Submit stores a pending claim. A retried identical submission (same email
// and business within a day) returns the first claim instead of a second one.
func (s *Service) Submit(ctx context.Context, in Input, clientIP string) (*Claim, bool, error) {
	if err := in.validate(); err != nil {
		return nil, false, err
	}
	t := s.now()
	if c, err := s.recentDuplicate(ctx, in, t); err != nil || c != nil {
		return c, false, err
	}
	// A retry (above) is answered without counting; a new claim counts
	// against its network before anything is written or mailed.
	ok, wait, err := s.limits.Reserve(ctx, "claim-net:"+ratelimit.Network(clientIP), PerNetworkPerHour, time.Hour)
	if err != nil {
		return nil, false, err
	}
	if !ok {
		return nil, false, &apperr.Error{Code: apperr.TooMany, Message: tooManyMessage, RetryAfter: wait}
	}
	dup, err := s.lookalike(ctx, in)
	if err != nil {
		return nil, false, err
	}
	var id int64
	var c *Claim
	err = s.DB.InTx(ctx, func(tx *db.Tx) error {
		err := tx.QueryRow(ctx, `INSERT INTO claims (business_name, email, phone, country, state, address1, city, postal_code,
			website, working_hours, category, duplicate_of_store_id, dedupe_key, client_ip, created_at, updated_at,
			licence_number, delivery_hours, curbside_pickup_hours, online_order_hours, adult_only,
			pin_latitude, pin_longitude, pin_source)
			VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$15,$16,$17,$18,$19,$20,$21,$22,$23)
			ON CONFLICT (dedupe_key) DO NOTHING RETURNING id`,
			in.BusinessName, in.Email, in.Phone, in.Country, in.State, in.Address1, in.City, in.PostalCode,
			in.Website, in.WorkingHours, in.Category, dup, dedupeKey(in, t), clientIP, t,
			in.LicenceNumber, in.DeliveryHours, in.CurbsidePickupHours, in.OnlineOrderHours, in.AdultOnly,
			in.PinLatitude, in.PinLongitude, in.PinSource).Scan(&id)
		if err != nil {
			return err
		}
		if c, err = getClaim(ctx, tx, id); err != nil {
			return err
		}
		// The owners of the store it matches hear of it in the day's
		// digest (digest.go), not when it is decided.
		owners, err := storeOwners(ctx, tx, c)
		if err != nil {
			return err
		}
		return s.noteOwners(ctx, tx, owners, c, noticeSubmitted)
	})
	if errors.Is(err, sql.ErrNoRows) { // a concurrent identical submission won
		c, err := s.recentDuplicate(ctx, in, t)
		if err == nil && c == nil {
			err = fmt.Errorf("claim vanished after a duplicate insert")
		}
		return c, false, err
	}
	if err != nil {
		return nil, false, fmt.Errorf("insert claim: %w", err)
	}
	return c, true, nil
}

func (s *Service) recentDuplicate(ctx context.Context, in Input, t time.Time) (*Claim, error) {
	var id int64
	err := s.DB.QueryRow(ctx, `SELECT id FROM claims WHERE lower(email) = $1 AND lower(business_name) = $2 AND created_at > $3
		ORDER BY id LIMIT 1`, strings.ToLower(in.Email), strings.ToLower(in.BusinessName), t.Add(-24*time.Hour)).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("find duplicate claim: %w", err)
	}
	return s.Get(ctx, id)
}

// lookalike finds a published store with the same name and postal code:
// probably the store being claimed again, which the moderator should see.
func (s *Service) lookalike(ctx context.Context, in Input) (any, error) {
	id, err := stores.Lookalike(ctx, s.DB, in.BusinessName, in.PostalCode)
	if err != nil || id == 0 {
		return nil, err
	}
	return id, nil
}

const claimColumns = `id, business_name, email, phone, country, state, address1, city, postal_code, website, working_hours,
	category, status, reject_reason, COALESCE(duplicate_of_store_id, 0), COALESCE(store_id, 0), created_at, updated_at,
	decided_at, decided_by, licence_number, licence_check, delivery_hours, curbside_pickup_hours, online_order_hours, adult_only,
	pin_latitude, pin_longitude, pin_source,
	CASE WHEN status = 'approved' AND consent IN ('', 'accepted') AND NOT EXISTS (SELECT 1 FROM business_accounts b
		WHERE b.email = claims.email AND b.email_verified_at IS NOT NULL) THEN 1 ELSE 0 END, consent`

func scanClaim(row interface{ Scan(...any) error }) (*Claim, error) {
	var c Claim
	var status, check string
	var decided sql.NullTime
	var pinLat, pinLon sql.NullFloat64
	if err := row.Scan(&c.ID, &c.BusinessName, &c.Email, &c.Phone, &c.Country, &c.State, &c.Address1, &c.City, &c.PostalCode,
		&c.Website, &c.WorkingHours, &c.Category, &status, &c.RejectReason, &c.DuplicateOfStoreID, &c.StoreID,
		&c.CreatedAt, &c.UpdatedAt, &decided, &c.DecidedBy, &c.LicenceNumber, &check,
		&c.DeliveryHours, &c.CurbsidePickupHours, &c.OnlineOrderHours, &c.AdultOnly, &pinLat, &pinLon, &c.PinSource,
		&c.WaitingForEmail, &c.Consent); err != nil {
		return nil, err
	}
	if pinLat.Valid && pinLon.Valid {
		c.PinLatitude, c.PinLongitude = &pinLat.Float64, &pinLon.Float64
	}
	c.Status, c.LicenceCheck = Status(status), LicenceCheck(check)
	if decided.Valid {
		t := decided.Time
		c.DecidedAt = &t
	}
	return &c, nil
}

// Get returns one claim.
func (s *Service) Get(ctx context.Context, id int64) (*Claim, error) {
	return getClaim(ctx, s.DB, id)
}

func getClaim(ctx context.Context, q db.Querier, id int64) (*Claim, error) {
	c, err := scanClaim(q.QueryRow(ctx, "SELECT "+claimColumns+" FROM claims WHERE id = $1", id))
	return db.Found(c, err, apperr.New(apperr.NotFound, "claim %d not found", id), fmt.Sprintf("get claim %d", id))
}

// List returns claims in a status ("" for all), oldest first, at most limit.
func (s *Service) List(ctx context.Context, status Status, limit int) ([]Claim, error) {
	if limit <= 0 || limit > 1000 {
		limit = 200
	}
	q := "SELECT " + claimColumns + " FROM claims"
	args := []any{limit}
	if status != "" {
		if status != Pending && status != Approved && status != Rejected {
			return nil, apperr.Invalidf("status must be pending, approved or rejected")
		}
		q += " WHERE status = $2"
		args = append(args, string(status))
	}
	rows, err := s.DB.Query(ctx, q+" ORDER BY id LIMIT $1", args...)
	return db.Collect(rows, err, "list claims", scanClaim)
}
