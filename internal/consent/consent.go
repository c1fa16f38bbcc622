// Package consent keeps a store's owners in charge of who joins them. A
// moderator's approval of a claim on a store that already has owners makes
// the claimant a pending co-owner (claims.consent = 'pending'), who cannot
// change the store until an owner accepts (by the link mailed at the
// approval, or in /business) or a moderator does; a decline ends the claim's
// hold on the store for good (docs/claims.md, "Consent of the owners").
//
// The pending co-owner is not an owner (internal/ownership), so everything
// that counts owners (the dashboard's rights, the owners' mail, reports,
// insights) is unchanged until the consent: only Accept links it.
package consent

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"html"
	"strings"
	"time"

	"locator/internal/apperr"
	"locator/internal/audit"
	"locator/internal/db"
	"locator/internal/mail"
	"locator/internal/ownership"
	"locator/internal/secret"
	"locator/internal/stores"
)

// TokenTTL is how long a mailed consent link works. The owner can still
// accept or decline in /business afterwards, and so can a moderator.
const TokenTTL = 7 * 24 * time.Hour

// States of claims.consent.
const (
	None     = ""
	Pending  = "pending"
	Accepted = "accepted"
	Declined = "declined"
)

// Pending co-owner of a store as its owners see it: the approved claim,
// the address it was made with and since when it waits.
type PendingOwner struct {
	ClaimID int64     `json:"claim_id"`
	Email   string    `json:"email"`
	Since   time.Time `json:"since"`
}

// Waiting is a store an account has claimed and waits to change: the
// claimant's side of a PendingOwner.
type Waiting struct {
	ClaimID    int64     `json:"claim_id"`
	StoreID    int64     `json:"store_id"`
	Name       string    `json:"name"`
	Address    string    `json:"address"`
	City       string    `json:"city"`
	PostalCode string    `json:"postal_code"`
	Since      time.Time `json:"since"`
}

// Request is what a mailed link opens before the owner decides: the store
// it is about (its published data) and who asks.
type Request struct {
	ClaimID    int64     `json:"claim_id"`
	StoreID    int64     `json:"store_id"`
	StoreName  string    `json:"store_name"`
	Address    string    `json:"address"`
	City       string    `json:"city"`
	PostalCode string    `json:"postal_code"`
	Email      string    `json:"email"`
	Since      time.Time `json:"since"`
	ExpiresAt  time.Time `json:"expires_at"`
}

// ErrBadLink answers a link that is unknown, used, expired, or whose owner
// no longer owns the store: all alike, so a guess learns nothing.
var ErrBadLink = apperr.New(apperr.Invalid,
	"This link is not valid any more (it works once, for 7 days, and only while the request waits): open the store dashboard to see who can change your store.")

// ErrNotPending answers a decision on a co-owner nobody waits for.
var ErrNotPending = apperr.New(apperr.NotFound, "Nobody waits for consent with that claim on this store")

// NewLink stores a link for owner businessID to decide on claim claimID
// inside tx and returns its token (only its hash is kept).
func NewLink(ctx context.Context, tx *db.Tx, at time.Time, claimID, businessID int64) (string, error) {
	token, err := secret.NewToken()
	if err != nil {
		return "", err
	}
	if _, err := tx.Exec(ctx, `INSERT INTO consent_tokens (token_hash, claim_id, business_id, created_at, expires_at)
		VALUES ($1, $2, $3, $4, $5)`, secret.HashToken(token), claimID, businessID, at, at.Add(TokenTTL)); err != nil {
		return "", fmt.Errorf("consent link of claim %d: %w", claimID, err)
	}
	return token, nil
}

// LinkURL is the address of a consent link in the owner's mail: a page of
// the web app that shows the request and asks to confirm (opening it
// decides nothing: mail scanners follow links).
func LinkURL(publicURL, token string) string {
	return strings.TrimRight(publicURL, "/") + "/business/consent?token=" + token
}

// link is a valid token's row.
type link struct {
	claimID, businessID, storeID int64
	email                        string
	expires                      time.Time
}

// readLink finds a usable link: unused, not expired, its claim still
// pending and its owner still an owner of the claim's store.
func readLink(ctx context.Context, q db.Querier, at time.Time, token string) (link, error) {
	if token == "" || len(token) > 200 {
		return link{}, ErrBadLink
	}
	var l link
	err := q.QueryRow(ctx, `SELECT t.claim_id, t.business_id, c.store_id, b.email, t.expires_at FROM consent_tokens t
		JOIN claims c ON c.id = t.claim_id
		JOIN business_accounts b ON b.id = t.business_id
		WHERE t.token_hash = $1 AND t.used_at IS NULL AND c.consent = 'pending'`, secret.HashToken(token)).
		Scan(&l.claimID, &l.businessID, &l.storeID, &l.email, &l.expires)
	if errors.Is(err, sql.ErrNoRows) {
		return link{}, ErrBadLink
	}
	if err != nil {
		return link{}, fmt.Errorf("consent link: %w", err)
	}
	if !at.Before(l.expires) {
		return link{}, ErrBadLink
	}
	owner, err := ownership.Owns(ctx, q, l.businessID, l.storeID)
	if err != nil {
		return link{}, err
	}
	if !owner {
		return link{}, ErrBadLink
	}
	return l, nil
}

// Lookup reads what a link asks, changing nothing.
func Lookup(ctx context.Context, q db.Querier, at time.Time, token string) (Request, error) {
	r, _, err := lookup(ctx, q, at, token)
	return r, err
}

func lookup(ctx context.Context, q db.Querier, at time.Time, token string) (Request, link, error) {
	l, err := readLink(ctx, q, at, token)
	if err != nil {
		return Request{}, link{}, err
	}
	r := Request{ClaimID: l.claimID, StoreID: l.storeID, ExpiresAt: l.expires.UTC()}
	if err := q.QueryRow(ctx, "SELECT email, decided_at FROM claims WHERE id = $1", l.claimID).Scan(&r.Email, &r.Since); err != nil {
		return Request{}, link{}, fmt.Errorf("consent request of claim %d: %w", l.claimID, err)
	}
	r.Since = r.Since.UTC()
	found, err := stores.Summaries(ctx, q, []int64{l.storeID})
	if err != nil {
		return Request{}, link{}, err
	}
	if len(found) == 0 {
		return Request{}, link{}, ErrBadLink // the store is gone
	}
	st := found[0]
	r.StoreName, r.Address, r.City, r.PostalCode = st.Name, st.Address, st.City, st.PostalCode
	return r, l, nil
}

// ByLink decides with a mailed link inside tx, in the name of the owner it
// was mailed to; the link is used up whatever the decision.
func ByLink(ctx context.Context, tx *db.Tx, at time.Time, token string, accept bool, publicURL string) (Request, error) {
	r, l, err := lookup(ctx, tx, at, token)
	if err != nil {
		return Request{}, err
	}
	res, err := tx.Exec(ctx, "UPDATE consent_tokens SET used_at = $1 WHERE token_hash = $2 AND used_at IS NULL", at, secret.HashToken(token))
	if err != nil {
		return Request{}, fmt.Errorf("use consent link: %w", err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return Request{}, ErrBadLink // used by a concurrent request
	}
	return r, Decide(ctx, tx, at, l.claimID, accept, audit.BusinessActor(l.businessID, l.email), "mail link", publicURL)
}

// Decide accepts or declines the pending co-owner of claim claimID inside
// tx: the claim's consent, the audit line "claim.consent", the end of every
// link of the claim and the claimant's mail. Accepting links the claimant's
// proven account to the store (one without a proven account gets it when
// its owner proves the address, as any approved claim); declining never
// links it. via says how the decision came ("mail link", "store dashboard",
// "moderator").
func Decide(ctx context.Context, tx *db.Tx, at time.Time, claimID int64, accept bool, actor, via, publicURL string) error {
	state := Declined
	if accept {
		state = Accepted
	}
	var storeID int64
	var email string
	err := tx.QueryRow(ctx, `UPDATE claims SET consent = $1, consent_decided_at = $2, consent_decided_by = $3, updated_at = $2
		WHERE id = $4 AND consent = 'pending' RETURNING store_id, email`, state, at, actor, claimID).Scan(&storeID, &email)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotPending
	}
	if err != nil {
		return fmt.Errorf("consent of claim %d: %w", claimID, err)
	}
	if _, err := tx.Exec(ctx, "UPDATE consent_tokens SET used_at = $1 WHERE claim_id = $2 AND used_at IS NULL", at, claimID); err != nil {
		return fmt.Errorf("end consent links of claim %d: %w", claimID, err)
	}
	details := map[string]any{"decision": state, "via": via, "email": email}
	if accept {
		var businessID int64
		err := tx.QueryRow(ctx, "SELECT id FROM business_accounts WHERE email = $1 AND email_verified_at IS NOT NULL", email).Scan(&businessID)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("account of claim %d: %w", claimID, err)
		}
		// Without a proven account yet, the store waits for the proof
		// (internal/business links approved claims then).
		if err == nil {
			linked, err := ownership.Link(ctx, tx, businessID, storeID, at, actor)
			if err != nil {
				return err
			}
			if linked {
				details["business_id"] = businessID
				if err := audit.Write(ctx, tx, at, actor, "store.link", claimID, storeID,
					map[string]any{"email": email, "business_id": businessID, "reason": "owner's consent"}); err != nil {
					return err
				}
			}
		}
	}
	if err := audit.Write(ctx, tx, at, actor, "claim.consent", claimID, storeID, details); err != nil {
		return err
	}
	return mail.Enqueue(ctx, tx, decisionMail(email, claimID, storeID, accept, publicURL))
}

// ForStore lists the pending co-owners of a store, the oldest first.
func ForStore(ctx context.Context, q db.Querier, storeID int64) ([]PendingOwner, error) {
	rows, err := q.Query(ctx, `SELECT id, email, decided_at FROM claims WHERE store_id = $1 AND consent = 'pending'
		ORDER BY decided_at, id LIMIT 100`, storeID)
	list, err := db.Collect(rows, err, fmt.Sprintf("pending co-owners of store %d", storeID), func(r db.Scanner) (*PendingOwner, error) {
		var p PendingOwner
		err := r.Scan(&p.ClaimID, &p.Email, &p.Since)
		p.Since = p.Since.UTC()
		return &p, err
	})
	if list == nil {
		list = []PendingOwner{}
	}
	return list, err
}

// WaitingFor lists the stores whose owners' consent the account with email
// waits for.
func WaitingFor(ctx context.Context, q db.Querier, email string) ([]Waiting, error) {
	rows, err := q.Query(ctx, `SELECT id, store_id, decided_at FROM claims WHERE email = $1 AND consent = 'pending' ORDER BY id LIMIT 100`,
		strings.ToLower(email))
	list, err := db.Collect(rows, err, "stores waiting for consent", func(r db.Scanner) (*Waiting, error) {
		var w Waiting
		err := r.Scan(&w.ClaimID, &w.StoreID, &w.Since)
		w.Since = w.Since.UTC()
		return &w, err
	})
	if err != nil {
		return nil, err
	}
	ids := make([]int64, len(list))
	for i, w := range list {
		ids[i] = w.StoreID
	}
	byID, err := stores.SummaryMap(ctx, q, ids)
	if err != nil {
		return nil, err
	}
	out := []Waiting{}
	for _, w := range list {
		st, ok := byID[w.StoreID]
		if !ok {
			continue // the store is gone
		}
		w.Name, w.Address, w.City, w.PostalCode = st.Name, st.Address, st.City, st.PostalCode
		out = append(out, w)
	}
	return out, nil
}

// Waits says whether the account with email waits for consent to change
// store storeID.
func Waits(ctx context.Context, q db.Querier, email string, storeID int64) (bool, error) {
	var one int
	err := q.QueryRow(ctx, "SELECT 1 FROM claims WHERE email = $1 AND store_id = $2 AND consent = 'pending' LIMIT 1",
		strings.ToLower(email), storeID).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("consent of store %d: %w", storeID, err)
	}
	return true, nil
}

// ClaimOfStore checks that claim claimID is a pending co-owner of store
// storeID (ErrNotPending otherwise): an owner decides only on their own
// store's requests.
func ClaimOfStore(ctx context.Context, q db.Querier, storeID, claimID int64) error {
	var one int
	err := q.QueryRow(ctx, "SELECT 1 FROM claims WHERE id = $1 AND store_id = $2 AND consent = 'pending'", claimID, storeID).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotPending
	}
	if err != nil {
		return fmt.Errorf("pending co-owner of store %d: %w", storeID, err)
	}
	return nil
}

// ErrWaiting answers a pending co-owner's call about the store it waits for.
var ErrWaiting = apperr.New(apperr.Forbidden,
	"Your claim on this store was approved, but the store has an owner: you can change it once an owner (or a moderator) accepts you as a co-owner.")

func decisionMail(to string, claimID, storeID int64, accept bool, publicURL string) mail.Message {
	dashboard := strings.TrimRight(publicURL, "/") + "/business"
	subject := "You can now change your store"
	para := fmt.Sprintf("Your approved claim #%d on store #%d was accepted by its owner: sign in to the store dashboard to change the store.", claimID, storeID)
	if !accept {
		subject = "Your claim on a store with an owner was declined"
		para = fmt.Sprintf("Your claim #%d on store #%d was approved by a moderator, but the store already has an owner, who declined to share it (or a moderator declined for them). You cannot change the store.", claimID, storeID)
	}
	h := html.EscapeString(dashboard)
	link := h
	if publicURL != "" {
		link = `<a href="` + h + `">` + h + `</a>`
	}
	return mail.Message{To: to, Subject: subject,
		Text: "Hello,\n\n" + para + "\n\nStore dashboard: " + dashboard + "\n",
		HTML: "<p>Hello,</p><p>" + html.EscapeString(para) + "</p><p>Store dashboard: " + link + "</p>"}
}
