package claims

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"slices"
	"strings"

	"locator/internal/apperr"
	"locator/internal/audit"
	"locator/internal/consent"
	"locator/internal/db"
	"locator/internal/mail"
	"locator/internal/ownership"
	"locator/internal/schedule"
	"locator/internal/stores"
	"locator/internal/textfield"
)

// Approval is a moderator's approval of a claim. Latitude and Longitude
// (both or neither) place the store; without them a new store goes to its
// geocoded address and a store that is already listed keeps its position.
// Fields names the values of the claim to apply to a store that is already
// listed (keys of CompareFields); a claim for a new store takes none.
type Approval struct {
	Latitude, Longitude *float64
	Fields              []string
}

// Suggestion is the geocoded position of a claim's address, for the moderator.
type Suggestion struct {
	Latitude, Longitude float64
	Precision           string
	Found               bool
}

// Suggest geocodes a claim's address.
func (s *Service) Suggest(c *Claim) Suggestion {
	if s.Geocoder == nil {
		return Suggestion{}
	}
	var lat, lon float64
	var precision string
	var ok bool
	if ag, can := s.Geocoder.(AddressGeocoder); can {
		lat, lon, precision, ok = ag.GeocodeAddress(c.Address1, c.PostalCode, c.City, c.State, countryCode(c.Country))
	} else {
		lat, lon, precision, ok = s.Geocoder.Geocode(c.PostalCode, c.City, c.State, countryCode(c.Country))
	}
	return Suggestion{Latitude: lat, Longitude: lon, Precision: precision, Found: ok}
}

// Approve publishes the claimed store in one transaction with the claim's
// new status, the audit entries and the mail to the claimant and to every
// owner of the store. A claim for a new store publishes it at its geocoded
// address (or the moderator's coordinates); a claim matching a store that is
// already listed (DuplicateOfStoreID) changes only the fields in a.Fields
// and never removes the store's owners (approveExisting).
func (s *Service) Approve(ctx context.Context, id int64, actor string, a Approval) (*Claim, error) {
	if (a.Latitude == nil) != (a.Longitude == nil) {
		return nil, apperr.Invalidf("give both latitude and longitude, or neither")
	}
	var out *Claim
	err := s.DB.InTx(ctx, func(tx *db.Tx) error {
		c, err := pendingClaim(ctx, tx, id)
		if err != nil {
			return err
		}
		var st *stores.Store
		var details map[string]any
		var owners []ownership.Owner
		if c.DuplicateOfStoreID != 0 {
			st, details, err = s.approveExisting(ctx, tx, c, a)
			if err == nil {
				owners, err = ownership.List(ctx, tx, st.ID)
			}
		} else {
			st, details, err = s.approveNew(ctx, tx, c, a)
		}
		if err != nil {
			return err
		}
		t := s.now()
		if _, err := tx.Exec(ctx, `UPDATE claims SET status = 'approved', store_id = $1, decided_at = $2, decided_by = $3, updated_at = $2
			WHERE id = $4`, st.ID, t, actor, id); err != nil {
			return fmt.Errorf("approve claim %d: %w", id, err)
		}
		// A stranger to a store that has owners becomes a pending co-owner:
		// no link until an owner or a moderator consents (internal/consent).
		ask := needsConsent(owners, c)
		if ask {
			if _, err := tx.Exec(ctx, "UPDATE claims SET consent = 'pending' WHERE id = $1", id); err != nil {
				return fmt.Errorf("approve claim %d: %w", id, err)
			}
			details["consent"] = consent.Pending
		} else if err := s.linkAndAudit(ctx, tx, st.ID, c, actor); err != nil {
			return err
		}
		details["store_id"] = st.ID
		if err := s.audit(ctx, tx, actor, "claim.approve", id, details); err != nil {
			return err
		}
		if err := mail.Enqueue(ctx, tx, approvedMail(c, s.PublicURL, ask)); err != nil {
			return err
		}
		applied, _ := details["applied"].([]string)
		if ask {
			err = s.askOwners(ctx, tx, owners, c, st, applied)
		} else {
			err = s.mailOwners(ctx, tx, owners, c, func(o ownership.Owner) mail.Message { return ownerApprovedMail(o, c, st, applied) })
		}
		if err != nil {
			return err
		}
		out, err = getClaim(ctx, tx, id)
		return err
	})
	if err == nil {
		s.checkLicence(ctx, out, actor)
	}
	return out, err
}

// approveNew publishes a new store from the claim.
func (s *Service) approveNew(ctx context.Context, tx *db.Tx, c *Claim, a Approval) (*stores.Store, map[string]any, error) {
	if len(a.Fields) > 0 {
		return nil, nil, apperr.Invalidf("fields apply only to a claim that matches a store already listed; claim %d is for a new store", c.ID)
	}
	st := &stores.Store{Name: c.BusinessName, PhoneNumber: c.Phone, CountryCode: countryCode(c.Country), CountryName: countryName(c.Country),
		State: c.State, City: c.City, PostalCode: c.PostalCode, Address: c.Address1, Website: c.Website,
		StoreID: fmt.Sprintf("claim_%06d", c.ID), Status: stores.Published, AdultOnly: c.AdultOnly}
	applyHours(st, c.WorkingHours, s.now())
	var services []string
	for k, text := range c.ServiceTexts() {
		if applyServiceHours(st, schedule.Service(k), *text, s.now()) {
			services = append(services, schedule.Service(k).String())
		}
	}
	placed, err := s.placeNew(c, a)
	if err != nil {
		return nil, nil, err
	}
	st.Latitude, st.Longitude, st.GeoPrecision = placed.Latitude, placed.Longitude, placed.Precision
	precision := placed.Precision
	verified := s.now() // a moderator checked every detail of the new store
	st.VerifiedAt = &verified
	if s.ZoneAt != nil {
		st.TimeZone = s.ZoneAt(st.Latitude, st.Longitude)
	}
	if err := st.Validate(); err != nil {
		return nil, nil, err
	}
	if err := s.Stores.Write(ctx, tx, func(w *stores.Writer) error { return w.Save(ctx, st) }); err != nil {
		return nil, nil, err
	}
	return st, map[string]any{"latitude": st.Latitude, "longitude": st.Longitude, "precision": precision,
		"placed_by": placed.By, "updated_existing_store": false, "hours_parsed": len(st.WorkingHours) > 0, "service_hours": services}, nil
}

// Placement is where an approval puts a new store, and who placed it.
type Placement struct {
	Latitude, Longitude float64
	Precision           string // stores.Precision*
	By                  string // "moderator", "owner" (the wizard's pin) or "geocoder"
}

// placeNew decides where a new store stands: at the moderator's
// coordinates, else at the pin its owner placed in the wizard (both exact:
// a person put it there), else at its geocoded address. A geocoded
// position that is only the centre of the postal code or city is refused:
// it can be miles from the door (issue 39: a Williamsburg store published
// in East Flatbush), so a person must place the pin first.
func (s *Service) placeNew(c *Claim, a Approval) (Placement, error) {
	switch {
	case a.Latitude != nil:
		return Placement{*a.Latitude, *a.Longitude, stores.PrecisionExact, "moderator"}, nil
	case c.PinLatitude != nil:
		return Placement{*c.PinLatitude, *c.PinLongitude, stores.PrecisionExact, "owner"}, nil
	}
	sg := s.Suggest(c)
	if !sg.Found {
		return Placement{}, apperr.Invalidf("The address of claim %d could not be placed on the map: place the pin on the store (or give latitude and longitude) before approving", c.ID)
	}
	if stores.Approximate(sg.Precision) {
		return Placement{}, apperr.Invalidf("The address of claim %d is found only at its %s (%s), not at the store, and nobody placed the pin: place the pin on the store (or give latitude and longitude) before approving",
			c.ID, centreName(sg.Precision, countryCode(c.Country)), placeOf(c, sg.Precision))
	}
	return Placement{sg.Latitude, sg.Longitude, sg.Precision, "geocoder"}, nil
}

// centreName names the centre a precision stands for, in a sentence.
func centreName(precision, country string) string {
	if precision == stores.PrecisionCity {
		return "city's centre"
	}
	if country == "US" {
		return "ZIP code's centre"
	}
	return "postal code's centre"
}

func placeOf(c *Claim, precision string) string {
	if precision == stores.PrecisionCity {
		return c.City
	}
	return c.PostalCode
}

// approveExisting applies the picked fields of the claim to the store it
// matches. The position changes only to the moderator's coordinates. The
// store is marked verified only when, after the approval, every field of
// the comparison holds what the moderator saw in the claim: every differing
// field was picked (docs/claims.md, "Verified").
func (s *Service) approveExisting(ctx context.Context, tx *db.Tx, c *Claim, a Approval) (*stores.Store, map[string]any, error) {
	picked, err := checkPicked(c, a.Fields, s.now())
	if err != nil {
		return nil, nil, err
	}
	var st *stores.Store
	var diff map[string]valueChange
	verified := false
	err = s.Stores.Write(ctx, tx, func(w *stores.Writer) error {
		if st, err = s.Stores.GetTx(ctx, tx, c.DuplicateOfStoreID); err != nil {
			return err
		}
		now := s.now()
		diff = applyPicked(st, c, picked, now)
		if c.AdultOnly && !st.AdultOnly {
			diff["adult_only"] = valueChange{false, true}
			st.AdultOnly = true
		}
		if a.Latitude == nil && stores.Approximate(st.GeoPrecision) && c.PinLatitude != nil {
			// The listed store stands only at a centre and the claimant
			// placed a pin: the pin is the better position.
			a.Latitude, a.Longitude = c.PinLatitude, c.PinLongitude
		}
		if a.Latitude != nil && (*a.Latitude != st.Latitude || *a.Longitude != st.Longitude || st.GeoPrecision != "exact") {
			diff["position"] = valueChange{[]float64{st.Latitude, st.Longitude}, []float64{*a.Latitude, *a.Longitude}}
			st.Latitude, st.Longitude, st.GeoPrecision = *a.Latitude, *a.Longitude, "exact"
			if s.ZoneAt != nil {
				st.TimeZone = s.ZoneAt(st.Latitude, st.Longitude)
			}
		}
		verified = true
		for _, f := range CompareFields {
			if !sameValue(st, c, f, now) && !slices.Contains(picked, f) {
				verified = false
			}
		}
		if verified {
			diff["last_verified_at"] = valueChange{st.VerifiedAt, now}
			st.VerifiedAt = &now
		}
		if len(diff) == 0 {
			return nil
		}
		if err := st.Validate(); err != nil {
			return err
		}
		return w.Save(ctx, st)
	})
	if err != nil {
		return nil, nil, err
	}
	if picked == nil {
		picked = []string{}
	}
	return st, map[string]any{"updated_existing_store": true, "applied": picked, "changes": diff, "verified": verified,
		"latitude": st.Latitude, "longitude": st.Longitude, "precision": st.GeoPrecision}, nil
}

// Reject records the reason; nothing is published.
func (s *Service) Reject(ctx context.Context, id int64, actor, reason string) (*Claim, error) {
	reason, fits := textfield.Trim(reason, maxLong)
	if reason == "" {
		return nil, apperr.Invalidf("a reason is required to reject a claim")
	}
	if !fits {
		return nil, apperr.Invalidf("the reason must be at most %d characters", maxLong)
	}
	var out *Claim
	err := s.DB.InTx(ctx, func(tx *db.Tx) error {
		c, err := pendingClaim(ctx, tx, id)
		if err != nil {
			return err
		}
		t := s.now()
		if _, err := tx.Exec(ctx, `UPDATE claims SET status = 'rejected', reject_reason = $1, decided_at = $2, decided_by = $3, updated_at = $2
			WHERE id = $4`, reason, t, actor, id); err != nil {
			return fmt.Errorf("reject claim %d: %w", id, err)
		}
		details := map[string]any{"reason": reason}
		if c.DuplicateOfStoreID != 0 {
			details["store_id"] = c.DuplicateOfStoreID // part of the matched store's history
		}
		if err := s.audit(ctx, tx, actor, "claim.reject", id, details); err != nil {
			return err
		}
		if err := mail.Enqueue(ctx, tx, rejectedMail(c, reason)); err != nil {
			return err
		}
		owners, err := storeOwners(ctx, tx, c)
		if err != nil {
			return err
		}
		if err := s.noteOwners(ctx, tx, owners, c, noticeRejected); err != nil {
			return err
		}
		out, err = getClaim(ctx, tx, id)
		return err
	})
	return out, err
}

// AuditEntry is one line of the audit log.
type AuditEntry struct {
	ID      int64
	At      string
	Actor   string
	Action  string
	ClaimID int64
	Details json.RawMessage
}

func (s *Service) audit(ctx context.Context, q db.Querier, actor, action string, claimID int64, details map[string]any) error {
	var storeID int64
	if id, ok := details["store_id"].(int64); ok {
		storeID = id // an approval is also part of the store's history
	}
	return audit.Write(ctx, q, s.now(), actor, action, claimID, storeID, details)
}

// Audit returns the audit entries of a claim (0: all), newest first.
func (s *Service) Audit(ctx context.Context, claimID int64) ([]AuditEntry, error) {
	q := "SELECT id, at, actor, action, COALESCE(claim_id, 0), details FROM audit_log"
	var args []any
	if claimID != 0 {
		q += " WHERE claim_id = $1"
		args = append(args, claimID)
	}
	rows, err := s.DB.Query(ctx, q+" ORDER BY id DESC LIMIT 500", args...)
	return db.Collect(rows, err, "read audit log", func(r db.Scanner) (*AuditEntry, error) {
		var e AuditEntry
		var at any
		var details string
		err := r.Scan(&e.ID, &at, &e.Actor, &e.Action, &e.ClaimID, &details)
		e.At, e.Details = fmt.Sprint(at), json.RawMessage(details)
		return &e, err
	})
}

// approvedMail tells the claimant, with the way to the store dashboard
// (/business): the store is there once its business account is signed in
// (a second store of an account too).
// With pending (the store has owners, who must consent first) it says
// the claimant waits for them instead.
func approvedMail(c *Claim, publicURL string, pending bool) mail.Message {
	dashboard := strings.TrimRight(publicURL, "/") + "/business"
	news := "Good news: your claim for %s was approved. Your store is now listed on the Locator map."
	if pending {
		news = "Your claim for %s was approved, but the store already has an owner. You can change it in the store dashboard once an owner (or a moderator) accepts you as a co-owner; we will mail you their answer."
	}
	text := fmt.Sprintf("Hello,\n\n"+news+"\n"+
		"Sign in to the store dashboard with %s and the password of your business account:\n%s\n", c.BusinessName, c.Email, dashboard)
	h := html.EscapeString
	link := h(dashboard)
	if publicURL != "" {
		link = fmt.Sprintf(`<a href="%s">%s</a>`, h(dashboard), h(dashboard))
	}
	return mail.Message{To: c.Email, Subject: "Your store claim was approved", Text: text,
		HTML: fmt.Sprintf("<p>Hello,</p><p>"+news+"</p>"+
			"<p>Sign in to the store dashboard with %s and the password of your business account: %s</p>", "<b>"+h(c.BusinessName)+"</b>", h(c.Email), link)}
}

func rejectedMail(c *Claim, reason string) mail.Message {
	text := fmt.Sprintf("Hello,\n\nWe could not approve your claim for %s.\nReason: %s\n\nYou can submit a new claim with corrected details.\n", c.BusinessName, reason)
	h := html.EscapeString
	return mail.Message{To: c.Email, Subject: "Your store claim was not approved", Text: text,
		HTML: fmt.Sprintf("<p>Hello,</p><p>We could not approve your claim for <b>%s</b>.</p><p>Reason: %s</p><p>You can submit a new claim with corrected details.</p>", h(c.BusinessName), h(reason))}
}

// countryCode turns the free country field into an ISO code.
func countryCode(country string) string {
	c := strings.ToUpper(strings.TrimSpace(strings.ReplaceAll(country, ".", "")))
	switch c {
	case "US", "USA", "UNITED STATES", "UNITED STATES OF AMERICA", "AMERICA":
		return "US"
	case "CA", "CANADA":
		return "CA"
	case "MX", "MEXICO":
		return "MX"
	case "GB", "UK", "UNITED KINGDOM", "GREAT BRITAIN", "ENGLAND":
		return "GB"
	}
	if len(c) == 2 && c[0] >= 'A' && c[0] <= 'Z' && c[1] >= 'A' && c[1] <= 'Z' {
		return c
	}
	return "ZZ" // unknown: the display name keeps what the owner typed
}

func countryName(country string) string {
	if code := countryCode(country); code != "ZZ" {
		if n := stores.CountryName(code); n != code {
			return n
		}
	}
	return strings.TrimSpace(country)
}

// pendingClaim reads claim id for a decision: a Conflict when it has
// already been decided.
func pendingClaim(ctx context.Context, tx *db.Tx, id int64) (*Claim, error) {
	c, err := getClaim(ctx, tx, id)
	if err != nil {
		return nil, err
	}
	if c.Status != Pending {
		return nil, apperr.New(apperr.Conflict, "claim %d is already %s", id, c.Status)
	}
	return c, nil
}
