package reports

import (
	"context"
	"fmt"
	"html"
	"strings"
	"time"

	"locator/internal/apperr"
	"locator/internal/audit"
	"locator/internal/db"
	"locator/internal/mail"
	"locator/internal/ownership"
	"locator/internal/schedule"
	"locator/internal/stores"
	"locator/internal/textfield"
)

// Action is a moderator's decision on a store's open reports.
type Action string

const (
	// Dismiss: the store's data is right; nothing changes.
	Dismiss Action = "dismiss"
	// Fix: the moderator corrects the store's data (Fix holds the changes).
	FixStore Action = "fix"
	// Hide: the store leaves search and its page.
	Hide Action = "hide"
	// Close: the store is closed for good: kept and shown as such, never in search.
	Close Action = "close"
)

// Fix is the moderator's correction of a store; nil fields stay as they are.
type Fix struct {
	stores.Details
	PhoneNumber  *string                 `json:"phone_number,omitempty"`
	Hours        *string                 `json:"hours,omitempty"`
	WorkingHours *[]schedule.WorkingHour `json:"-"`
}

func (f *Fix) empty() bool {
	return f == nil || f.Empty() && f.PhoneNumber == nil && f.Hours == nil && f.WorkingHours == nil
}

// apply changes st and returns the fields' old and new values for the audit log.
func (f *Fix) apply(st *stores.Store) (before, after map[string]any) {
	before, after = f.Apply(st)
	stores.SetChanged(before, after, "phone_number", f.PhoneNumber, &st.PhoneNumber)
	stores.SetChanged(before, after, "hours", f.Hours, &st.Hours)
	if f.WorkingHours != nil {
		before["workingHours"], after["workingHours"] = schedule.EncodeSchedule(st.WorkingHours), schedule.EncodeSchedule(*f.WorkingHours)
		st.WorkingHours = *f.WorkingHours
	}
	return before, after
}

// Decision is what Resolve did.
type Decision struct {
	StoreID  int64  `json:"store_id"`
	Action   Action `json:"action"`
	Reports  int    `json:"reports"`  // how many open reports it closed
	Notified bool   `json:"notified"` // the owner was mailed
	Status   string `json:"status"`   // the reports' new status
	Store    string `json:"store_status"`
}

// Resolve decides every open report of store storeID at once, in one
// transaction: the store's change (through stores.Repo.Write, so replicas
// follow within the sync interval), the reports' status, the audit entry and
// the owner's mail commit together or not at all.
func (s *Service) Resolve(ctx context.Context, actor string, storeID int64, action Action, fix *Fix, note string) (*Decision, error) {
	note, fits := textfield.Trim(note, MaxNote)
	if !fits {
		return nil, apperr.Invalidf("The note should be at most 500 characters")
	}
	switch action {
	case Dismiss, Hide, Close:
	case FixStore:
		if fix.empty() {
			return nil, apperr.Invalidf("Say what to change in the store")
		}
	default:
		return nil, apperr.Invalidf("action must be fix, close, hide or dismiss")
	}
	d := &Decision{StoreID: storeID, Action: action, Status: "accepted"}
	if action == Dismiss {
		d.Status = "dismissed"
	}
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		st, err := s.stores.GetTx(ctx, tx, storeID)
		if err != nil {
			return err
		}
		// Merged repeats count as the reports they are (copies).
		var n int64
		if err := tx.QueryRow(ctx, `SELECT COALESCE(SUM(copies), 0) FROM store_reports WHERE store_id = $1 AND status = 'open'`,
			storeID).Scan(&n); err != nil {
			return fmt.Errorf("count open reports of store %d: %w", storeID, err)
		}
		_, err = tx.Exec(ctx, `UPDATE store_reports SET status = $1, resolved_at = $2, resolved_by = $3, resolution = $4
			WHERE store_id = $5 AND status = 'open'`, d.Status, s.now().UTC(), actor, string(action), storeID)
		if err != nil {
			return fmt.Errorf("resolve reports of store %d: %w", storeID, err)
		}
		if n == 0 {
			return apperr.New(apperr.Conflict, "This store has no open reports")
		}
		d.Reports = int(n)
		details := map[string]any{"store_id": storeID, "reports": n}
		if note != "" {
			details["note"] = note
		}
		switch action {
		case Hide:
			if err := s.stores.Write(ctx, tx, func(w *stores.Writer) error { return w.SetStatus(ctx, storeID, stores.Hidden) }); err != nil {
				return err
			}
			st.Status = stores.Hidden
		case Close:
			if !st.PermanentlyClosed {
				st.PermanentlyClosed = true
				if err := s.stores.Write(ctx, tx, func(w *stores.Writer) error { return w.Save(ctx, st) }); err != nil {
					return err
				}
			}
		case FixStore:
			before, after := fix.apply(st)
			// A moderator's correction is a check of the store's details.
			verified := s.now().UTC().Truncate(time.Microsecond)
			before["last_verified_at"], after["last_verified_at"] = st.VerifiedAt, verified
			st.VerifiedAt = &verified
			if err := st.Validate(); err != nil {
				return err
			}
			if err := s.stores.Write(ctx, tx, func(w *stores.Writer) error { return w.Save(ctx, st) }); err != nil {
				return err
			}
			details["before"], details["after"] = before, after
		}
		d.Store = string(st.Status)
		if err := audit.Write(ctx, tx, s.now(), actor, "report."+string(action), 0, storeID, details); err != nil {
			return err
		}
		if action == Dismiss {
			return nil
		}
		emails, err := s.ownerEmails(ctx, tx, storeID)
		if err != nil {
			return err
		}
		for _, email := range emails {
			if err := mail.Enqueue(ctx, tx, acceptedMail(email, st, action, note)); err != nil {
				return err
			}
			d.Notified = true
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return d, nil
}

func acceptedMail(to string, st *stores.Store, action Action, note string) mail.Message {
	what := "corrected its details"
	switch action {
	case Hide:
		what = "hid it from the locator"
	case Close:
		what = "marked it permanently closed"
	}
	text := fmt.Sprintf("Hello,\n\nA shopper reported a problem with %s, and a Locator moderator %s.\n", st.Name, what)
	if note != "" {
		text += "\nModerator's note: " + note + "\n"
	}
	text += "\nIf something is still wrong, sign in to your business account and update the store, or reply to this message.\n\nLocator\n"
	return mail.Message{To: to, Subject: "A report about " + st.Name + " was accepted", Text: text,
		HTML: "<p>" + strings.ReplaceAll(html.EscapeString(text), "\n", "<br>") + "</p>"}
}

// ownerEmails are the addresses told of a moderator's change after a
// report: every owner linked to the store (a co-owner must not be the only
// one to hear, docs/claims.md), else the approved claim's email; the Owner
// hook, when set, names one.
func (s *Service) ownerEmails(ctx context.Context, q db.Querier, storeID int64) ([]string, error) {
	if s.Owner == nil {
		owners, err := ownership.List(ctx, q, storeID)
		if err != nil {
			return nil, err
		}
		if len(owners) > 0 {
			emails := make([]string, len(owners))
			for i, o := range owners {
				emails[i] = o.Email
			}
			return emails, nil
		}
	}
	owner := s.Owner
	if owner == nil {
		owner = OwnerFromClaims
	}
	email, err := owner(ctx, q, storeID)
	if err != nil || email == "" {
		return nil, err
	}
	return []string{email}, nil
}
