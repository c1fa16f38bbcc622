package business

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"time"

	"locator/internal/apperr"
	"locator/internal/audit"
	"locator/internal/db"
	mailbox "locator/internal/mail"
	"locator/internal/stores"
	"locator/internal/textfield"
)

// A change request holds an owner's new name, address or position of a
// store until a moderator approves it (published through
// stores.Repo.Write, the store marked verified) or rejects it with a
// reason. A newer request for the same store replaces a pending one.

// ChangeRequestView is a change request as the dashboard, the admin API
// and `locator claims changes --json` show it.
type ChangeRequestView struct {
	ID            int64      `json:"id"`
	StoreID       int64      `json:"store_id"`
	StoreName     string     `json:"store_name"`
	BusinessEmail string     `json:"business_email"`
	Proposed      Details    `json:"proposed"`
	Previous      Details    `json:"previous"`
	Status        string     `json:"status"`
	RejectReason  string     `json:"reject_reason"`
	CreatedAt     time.Time  `json:"created_at"`
	DecidedAt     *time.Time `json:"decided_at"`
	DecidedBy     string     `json:"decided_by"`
}

// previousOf is the store's current value of each field d changes.
func previousOf(st *stores.Store, d Details) Details {
	var p Details
	if d.Name != nil {
		p.Name = &st.Name
	}
	if d.Address != nil {
		p.Address = &st.Address
	}
	if d.City != nil {
		p.City = &st.City
	}
	if d.State != nil {
		p.State = &st.State
	}
	if d.PostalCode != nil {
		p.PostalCode = &st.PostalCode
	}
	if d.Latitude != nil {
		p.Latitude, p.Longitude = &st.Latitude, &st.Longitude
	}
	return p
}

// unchanged drops the fields of d that equal the store's current values.
func unchanged(st *stores.Store, d Details) Details {
	same := func(v *string, cur string) *string {
		if v == nil || *v == cur {
			return nil
		}
		return v
	}
	d.Name, d.Address, d.City = same(d.Name, st.Name), same(d.Address, st.Address), same(d.City, st.City)
	d.State, d.PostalCode = same(d.State, st.State), same(d.PostalCode, st.PostalCode)
	if d.Latitude != nil && *d.Latitude == st.Latitude && *d.Longitude == st.Longitude {
		d.Latitude, d.Longitude = nil, nil
	}
	return d
}

func (s *Service) requestChange(ctx context.Context, tx *db.Tx, a *Account, st *stores.Store, d Details) (*ChangeRequestView, error) {
	d = unchanged(st, d)
	if d.Empty() {
		return nil, nil
	}
	proposed, err := json.Marshal(d)
	if err != nil {
		return nil, fmt.Errorf("change request: %w", err)
	}
	previous, err := json.Marshal(previousOf(st, d))
	if err != nil {
		return nil, fmt.Errorf("change request: %w", err)
	}
	t := s.now()
	if _, err := tx.Exec(ctx, `UPDATE store_change_requests SET status = 'rejected', reject_reason = 'Replaced by a newer request',
		decided_at = $1, decided_by = $2 WHERE store_id = $3 AND status = 'pending'`, t, actor(a), st.ID); err != nil {
		return nil, fmt.Errorf("change request: %w", err)
	}
	var id int64
	if err := tx.QueryRow(ctx, `INSERT INTO store_change_requests (store_id, business_id, proposed, previous, created_at)
		VALUES ($1, $2, $3, $4, $5) RETURNING id`, st.ID, a.ID, string(proposed), string(previous), t).Scan(&id); err != nil {
		return nil, fmt.Errorf("change request: %w", err)
	}
	if err := audit.Write(ctx, tx, t, actor(a), "store.change_request", 0, st.ID, map[string]any{"change_request_id": id, "proposed": d}); err != nil {
		return nil, err
	}
	return getChange(ctx, tx, id)
}

// The store's name comes from internal/stores (storeNames), the owner of
// its table.
const changeColumns = `r.id, r.store_id, b.email, r.proposed, r.previous, r.status, r.reject_reason, r.created_at, r.decided_at, r.decided_by
	FROM store_change_requests r JOIN business_accounts b ON b.id = r.business_id`

func scanChange(row interface{ Scan(...any) error }) (*ChangeRequestView, error) {
	var c ChangeRequestView
	var proposed, previous string
	if err := row.Scan(&c.ID, &c.StoreID, &c.BusinessEmail, &proposed, &previous, &c.Status, &c.RejectReason,
		&c.CreatedAt, &c.DecidedAt, &c.DecidedBy); err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(proposed), &c.Proposed); err != nil {
		return nil, fmt.Errorf("change request %d: %w", c.ID, err)
	}
	if err := json.Unmarshal([]byte(previous), &c.Previous); err != nil {
		return nil, fmt.Errorf("change request %d: %w", c.ID, err)
	}
	return &c, nil
}

// storeNames fills in the StoreName of each change request; one whose
// store is gone is left out, as a join would.
func storeNames(ctx context.Context, q db.Querier, cs []ChangeRequestView) ([]ChangeRequestView, error) {
	ids := make([]int64, len(cs))
	for i, c := range cs {
		ids[i] = c.StoreID
	}
	named, err := stores.SummaryMap(ctx, q, ids)
	if err != nil {
		return nil, fmt.Errorf("change requests: %w", err)
	}
	out := cs[:0]
	for _, c := range cs {
		if st, ok := named[c.StoreID]; ok {
			c.StoreName = st.Name
			out = append(out, c)
		}
	}
	return out, nil
}

// oneChange reads the change request the query row gives (nil, nil when
// none) with its store's name.
func oneChange(ctx context.Context, q db.Querier, row *sql.Row) (*ChangeRequestView, error) {
	c, err := scanChange(row)
	if err != nil {
		return nil, err
	}
	cs, err := storeNames(ctx, q, []ChangeRequestView{*c})
	if err != nil || len(cs) == 0 {
		return nil, err
	}
	return &cs[0], nil
}

func getChange(ctx context.Context, q db.Querier, id int64) (*ChangeRequestView, error) {
	c, err := oneChange(ctx, q, q.QueryRow(ctx, "SELECT "+changeColumns+" WHERE r.id = $1", id))
	if err == nil && c == nil {
		err = sql.ErrNoRows
	}
	return db.Found(c, err, apperr.New(apperr.NotFound, "change request %d not found", id), fmt.Sprintf("change request %d", id))
}

func pendingChange(ctx context.Context, q db.Querier, storeID int64) (*ChangeRequestView, error) {
	c, err := oneChange(ctx, q, q.QueryRow(ctx, "SELECT "+changeColumns+" WHERE r.store_id = $1 AND r.status = 'pending' ORDER BY r.id DESC LIMIT 1", storeID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("pending change of store %d: %w", storeID, err)
	}
	return c, nil
}

// ChangeRequest returns one change request (for moderators).
func (s *Service) ChangeRequest(ctx context.Context, id int64) (*ChangeRequestView, error) {
	return getChange(ctx, s.DB, id)
}

// ChangeRequests lists change requests in status ("" for all), oldest
// pending first, for moderators.
func (s *Service) ChangeRequests(ctx context.Context, status string, limit int) ([]ChangeRequestView, error) {
	q := "SELECT " + changeColumns
	var args []any
	switch status {
	case "":
	case "pending", "approved", "rejected":
		q += " WHERE r.status = $1"
		args = append(args, status)
	default:
		return nil, apperr.Invalidf("status must be pending, approved, rejected or all")
	}
	rows, err := s.DB.Query(ctx, q+fmt.Sprintf(" ORDER BY r.id LIMIT %d", limit), args...)
	cs, err := db.Collect(rows, err, "change requests", scanChange)
	if err != nil {
		return nil, err
	}
	return storeNames(ctx, s.DB, cs)
}

// decidable reads a pending change request inside tx.
func decidable(ctx context.Context, tx *db.Tx, id int64) (*ChangeRequestView, error) {
	c, err := getChange(ctx, tx, id)
	if err != nil {
		return nil, err
	}
	if c.Status != "pending" {
		return nil, apperr.New(apperr.Conflict, "change request %d is already %s", id, c.Status)
	}
	return c, nil
}

// ApproveChange publishes a change request: the store gets the proposed
// name, address or position (a moved store gets the time zone of its new
// place) and is marked verified, in one transaction with the audit entry.
func (s *Service) ApproveChange(ctx context.Context, id int64, moderator string) (*ChangeRequestView, error) {
	var out *ChangeRequestView
	err := s.DB.InTx(ctx, func(tx *db.Tx) error {
		err := s.Stores.Write(ctx, tx, func(w *stores.Writer) error {
			c, err := decidable(ctx, tx, id)
			if err != nil {
				return err
			}
			st, err := s.Stores.GetTx(ctx, tx, c.StoreID)
			if err != nil {
				return err
			}
			old := previousOf(st, c.Proposed)
			oldJSON, _ := json.Marshal(old) // copies: st changes below
			p := c.Proposed
			p.Apply(st)
			if p.Latitude != nil && p.Longitude != nil {
				st.GeoPrecision = "exact"
				if s.ZoneAt != nil {
					st.TimeZone = s.ZoneAt(st.Latitude, st.Longitude)
				}
			}
			t := s.now()
			st.VerifiedAt = &t
			if err := st.Validate(); err != nil {
				return err
			}
			if err := w.Save(ctx, st); err != nil {
				return err
			}
			res, err := tx.Exec(ctx, "UPDATE store_change_requests SET status = 'approved', decided_at = $1, decided_by = $2 WHERE id = $3 AND status = 'pending'",
				t, moderator, id)
			if err != nil {
				return fmt.Errorf("approve change request %d: %w", id, err)
			}
			if n, _ := res.RowsAffected(); n == 0 {
				return apperr.New(apperr.Conflict, "change request %d was decided meanwhile", id)
			}
			if err := audit.Write(ctx, tx, t, moderator, "change_request.approve", 0, c.StoreID, map[string]any{
				"change_request_id": id, "old": json.RawMessage(oldJSON), "new": p, "business_email": c.BusinessEmail}); err != nil {
				return err
			}
			if err := mailbox.Enqueue(ctx, tx, decisionMail(c, "")); err != nil {
				return err
			}
			// The requester has the decision mail; every other owner is told.
			var requester int64
			if err := tx.QueryRow(ctx, "SELECT business_id FROM store_change_requests WHERE id = $1", id).Scan(&requester); err != nil {
				return fmt.Errorf("change request %d: %w", id, err)
			}
			return s.mailChange(ctx, tx, st, requester, true, detailFields(p))
		})
		if err != nil {
			return err
		}
		out, err = getChange(ctx, tx, id)
		return err
	})
	return out, err
}

// RejectChange records the reason; the store stays as it is.
func (s *Service) RejectChange(ctx context.Context, id int64, moderator, reason string) (*ChangeRequestView, error) {
	reason, fits := textfield.Trim(reason, 1000)
	if reason == "" {
		return nil, apperr.Invalidf("a reason is required to reject a change request")
	}
	if !fits {
		return nil, apperr.Invalidf("the reason must be at most 1000 characters")
	}
	var out *ChangeRequestView
	err := s.DB.InTx(ctx, func(tx *db.Tx) error {
		c, err := decidable(ctx, tx, id)
		if err != nil {
			return err
		}
		t := s.now()
		res, err := tx.Exec(ctx, `UPDATE store_change_requests SET status = 'rejected', reject_reason = $1, decided_at = $2, decided_by = $3
			WHERE id = $4 AND status = 'pending'`, reason, t, moderator, id)
		if err != nil {
			return fmt.Errorf("reject change request %d: %w", id, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return apperr.New(apperr.Conflict, "change request %d was decided meanwhile", id)
		}
		if err := audit.Write(ctx, tx, t, moderator, "change_request.reject", 0, c.StoreID, map[string]any{"change_request_id": id, "reason": reason}); err != nil {
			return err
		}
		if err := mailbox.Enqueue(ctx, tx, decisionMail(c, reason)); err != nil {
			return err
		}
		out, err = getChange(ctx, tx, id)
		return err
	})
	return out, err
}

// decisionMail tells the owner what a moderator decided about their change
// request (reason "" for an approval).
func decisionMail(c *ChangeRequestView, reason string) mailbox.Message {
	h := html.EscapeString
	if reason == "" {
		text := fmt.Sprintf("Hello,\n\nThe changes you asked for %s were approved and are now shown on the Locator map.\n", c.StoreName)
		return mailbox.Message{To: c.BusinessEmail, Subject: "Your store changes were approved", Text: text,
			HTML: fmt.Sprintf("<p>Hello,</p><p>The changes you asked for <b>%s</b> were approved and are now shown on the Locator map.</p>", h(c.StoreName))}
	}
	text := fmt.Sprintf("Hello,\n\nThe changes you asked for %s were not approved.\nReason: %s\n\nThe store stays as it was; you can send corrected details from the store dashboard.\n", c.StoreName, reason)
	return mailbox.Message{To: c.BusinessEmail, Subject: "Your store changes were not approved", Text: text,
		HTML: fmt.Sprintf("<p>Hello,</p><p>The changes you asked for <b>%s</b> were not approved.</p><p>Reason: %s</p><p>The store stays as it was; you can send corrected details from the store dashboard.</p>", h(c.StoreName), h(reason))}
}

// detailFields names the fields d gives, as the owners' mail lists them.
func detailFields(d Details) []string {
	var f []string
	for _, x := range []struct {
		name  string
		given bool
	}{{"name", d.Name != nil}, {"address", d.Address != nil}, {"city", d.City != nil}, {"state", d.State != nil},
		{"postal_code", d.PostalCode != nil}, {"position", d.Latitude != nil || d.Longitude != nil}} {
		if x.given {
			f = append(f, x.name)
		}
	}
	return f
}
