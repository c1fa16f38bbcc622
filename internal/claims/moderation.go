package claims

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"strings"
	"unicode/utf8"

	"locator/internal/apperr"
	"locator/internal/audit"
	"locator/internal/db"
	"locator/internal/mail"
	"locator/internal/stores"
)

// Placement is where an approved store goes: the moderator's coordinates,
// or (nil) the geocoded ones.
type Placement struct {
	Latitude, Longitude *float64
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

// Approve publishes the claimed store (a new one, or the look-alike store
// found at submission, updated) in one transaction with the claim's new
// status, the audit entry and the email to the owner.
func (s *Service) Approve(ctx context.Context, id int64, actor string, p Placement) (*Claim, error) {
	if (p.Latitude == nil) != (p.Longitude == nil) {
		return nil, apperr.Invalidf("give both latitude and longitude, or neither")
	}
	var out *Claim
	err := s.DB.InTx(ctx, func(tx *db.Tx) error {
		c, err := getClaim(ctx, tx, id)
		if err != nil {
			return err
		}
		if c.Status != Pending {
			return apperr.New(apperr.Conflict, "claim %d is already %s", id, c.Status)
		}
		st := &stores.Store{}
		if c.DuplicateOfStoreID != 0 {
			if st, err = s.Stores.GetTx(ctx, tx, c.DuplicateOfStoreID); err != nil {
				return err
			}
		}
		st.Name, st.PhoneNumber = c.BusinessName, c.Phone
		st.CountryCode, st.CountryName = countryCode(c.Country), countryName(c.Country)
		st.State, st.City, st.PostalCode, st.Address = c.State, c.City, c.PostalCode, c.Address1
		if st.StoreID == "" {
			st.StoreID = fmt.Sprintf("claim_%06d", c.ID)
		}
		st.Status = stores.Published
		// The text may name special dates and a temporary closure too: the
		// approval keeps them (a date the claim names replaces the store's).
		if hours, special, closure, ok := ParseFreeSchedule(c.WorkingHours, s.now()); ok {
			if len(hours) > 0 {
				st.WorkingHours = hours
			}
			st.SpecialHours = mergeSpecial(st.SpecialHours, special)
			if closure != nil {
				st.TemporarilyClosed = closure
			}
		}
		st.Hours = c.WorkingHours
		precision := "exact"
		if p.Latitude != nil {
			st.Latitude, st.Longitude = *p.Latitude, *p.Longitude
		} else {
			sg := s.Suggest(c)
			if !sg.Found {
				return apperr.Invalidf("the address of claim %d could not be placed on the map: give latitude and longitude", id)
			}
			st.Latitude, st.Longitude, precision = sg.Latitude, sg.Longitude, sg.Precision
		}
		st.GeoPrecision = precision
		verified := s.now() // a moderator checked the details
		st.VerifiedAt = &verified
		if s.ZoneAt != nil {
			st.TimeZone = s.ZoneAt(st.Latitude, st.Longitude)
		}
		if err := st.Validate(); err != nil {
			return err
		}
		if err := s.Stores.Write(ctx, tx, func(w *stores.Writer) error { return w.Save(ctx, st) }); err != nil {
			return err
		}
		t := s.now()
		if _, err := tx.Exec(ctx, `UPDATE claims SET status = 'approved', store_id = $1, decided_at = $2, decided_by = $3, updated_at = $2
			WHERE id = $4`, st.ID, t, actor, id); err != nil {
			return fmt.Errorf("approve claim %d: %w", id, err)
		}
		if err := s.linkClaimStore(ctx, tx, st.ID, c.Email, actor); err != nil {
			return err
		}
		if err := s.audit(ctx, tx, actor, "claim.approve", id, map[string]any{
			"store_id": st.ID, "latitude": st.Latitude, "longitude": st.Longitude, "precision": precision,
			"updated_existing_store": c.DuplicateOfStoreID != 0, "hours_parsed": len(st.WorkingHours) > 0,
		}); err != nil {
			return err
		}
		if err := mail.Enqueue(ctx, tx, approvedMail(c)); err != nil {
			return err
		}
		out, err = getClaim(ctx, tx, id)
		return err
	})
	return out, err
}

// Reject records the reason; nothing is published.
func (s *Service) Reject(ctx context.Context, id int64, actor, reason string) (*Claim, error) {
	reason = strings.TrimSpace(reason)
	if reason == "" {
		return nil, apperr.Invalidf("a reason is required to reject a claim")
	}
	if utf8.RuneCountInString(reason) > maxLong {
		return nil, apperr.Invalidf("the reason must be at most %d characters", maxLong)
	}
	var out *Claim
	err := s.DB.InTx(ctx, func(tx *db.Tx) error {
		c, err := getClaim(ctx, tx, id)
		if err != nil {
			return err
		}
		if c.Status != Pending {
			return apperr.New(apperr.Conflict, "claim %d is already %s", id, c.Status)
		}
		t := s.now()
		if _, err := tx.Exec(ctx, `UPDATE claims SET status = 'rejected', reject_reason = $1, decided_at = $2, decided_by = $3, updated_at = $2
			WHERE id = $4`, reason, t, actor, id); err != nil {
			return fmt.Errorf("reject claim %d: %w", id, err)
		}
		if err := s.audit(ctx, tx, actor, "claim.reject", id, map[string]any{"reason": reason}); err != nil {
			return err
		}
		if err := mail.Enqueue(ctx, tx, rejectedMail(c, reason)); err != nil {
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
	if err != nil {
		return nil, fmt.Errorf("read audit log: %w", err)
	}
	defer rows.Close()
	var out []AuditEntry
	for rows.Next() {
		var e AuditEntry
		var at any
		var details string
		if err := rows.Scan(&e.ID, &at, &e.Actor, &e.Action, &e.ClaimID, &details); err != nil {
			return nil, fmt.Errorf("read audit log: %w", err)
		}
		e.At = fmt.Sprint(at)
		e.Details = json.RawMessage(details)
		out = append(out, e)
	}
	return out, rows.Err()
}

func approvedMail(c *Claim) mail.Message {
	text := fmt.Sprintf("Hello,\n\nGood news: your claim for %s was approved. Your store is now listed on the Locator map.\n"+
		"Sign in to the store dashboard with %s and the password you chose.\n", c.BusinessName, c.Email)
	h := html.EscapeString
	return mail.Message{To: c.Email, Subject: "Your store claim was approved", Text: text,
		HTML: fmt.Sprintf("<p>Hello,</p><p>Good news: your claim for <b>%s</b> was approved. Your store is now listed on the Locator map.</p><p>Sign in to the store dashboard with %s and the password you chose.</p>", h(c.BusinessName), h(c.Email))}
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
