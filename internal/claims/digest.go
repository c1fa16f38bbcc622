package claims

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"html"
	"log/slog"
	"slices"
	"strings"
	"time"

	"locator/internal/apperr"
	"locator/internal/db"
	"locator/internal/mail"
	"locator/internal/ownership"
)

// An owner hears of the claims on their stores (one submitted, one
// rejected) in one mail a day at most: each is a row of
// owner_claim_notices, and the day's rows of an owner become one digest
// once the day (UTC) is over. A flood of look-alike claims is then one
// mail, not forty. The rows live in the database, so a restart loses
// none and the replicas, which all run SendDigests, send each once: the
// UPDATE that marks a row sent is what hands it to one replica.
// An approval is not gathered: it asks the owners' consent, which the
// claimant waits for (askOwners). docs/claims.md, "One mail a day".

// Kinds of notices.
const (
	noticeSubmitted = "submitted"
	noticeRejected  = "rejected"
)

// noteOwners records a notice of claim c for each owner of its store but
// the claimant, inside tx.
func (s *Service) noteOwners(ctx context.Context, tx *db.Tx, owners []ownership.Owner, c *Claim, kind string) error {
	now := s.now()
	for _, o := range owners {
		if strings.EqualFold(o.Email, c.Email) {
			continue
		}
		if _, err := tx.Exec(ctx, `INSERT INTO owner_claim_notices (business_id, claim_id, store_id, kind, day, created_at)
			VALUES ($1, $2, $3, $4, $5, $6)`, o.BusinessID, c.ID, c.DuplicateOfStoreID, kind, now.Format(time.DateOnly), now); err != nil {
			return fmt.Errorf("notice of claim %d for owner %d: %w", c.ID, o.BusinessID, err)
		}
	}
	return nil
}

type notice struct {
	id, businessID, claimID, storeID int64
	kind, day                        string
}

// SendDigests mails each owner one digest per past day (UTC) holding
// notices, through the outbox in the transaction that marks them sent,
// and returns the number of mails. A notice about a store the owner no
// longer owns, or one since removed, is dropped.
func (s *Service) SendDigests(ctx context.Context) (int, error) {
	now := s.now()
	mails := 0
	err := s.DB.InTx(ctx, func(tx *db.Tx) error {
		mails = 0
		rows, err := tx.Query(ctx, `UPDATE owner_claim_notices SET sent_at = $1 WHERE sent_at IS NULL AND day < $2
			RETURNING id, business_id, claim_id, store_id, kind, day`, now, now.Format(time.DateOnly))
		due, err := db.Collect(rows, err, "due claim notices", func(r db.Scanner) (*notice, error) {
			var n notice
			return &n, r.Scan(&n.id, &n.businessID, &n.claimID, &n.storeID, &n.kind, &n.day)
		})
		if err != nil {
			return err
		}
		slices.SortFunc(due, func(a, b notice) int {
			return cmp.Or(cmp.Compare(a.businessID, b.businessID), strings.Compare(a.day, b.day), cmp.Compare(a.id, b.id))
		})
		for start := 0; start < len(due); {
			end := start + 1
			for end < len(due) && due[end].businessID == due[start].businessID && due[end].day == due[start].day {
				end++
			}
			sent, err := s.digest(ctx, tx, due[start:end])
			if err != nil {
				return err
			}
			if sent {
				mails++
			}
			start = end
		}
		return nil
	})
	return mails, err
}

// digest mails one owner the notices of one day (all of the same owner
// and day); false when none of them is still about one of their stores.
func (s *Service) digest(ctx context.Context, tx *db.Tx, day []notice) (bool, error) {
	var email string
	err := tx.QueryRow(ctx, "SELECT email FROM business_accounts WHERE id = $1", day[0].businessID).Scan(&email)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("owner %d: %w", day[0].businessID, err)
	}
	var lines []string
	for _, n := range day {
		owner, err := ownership.Owns(ctx, tx, n.businessID, n.storeID)
		if err != nil {
			return false, err
		}
		if !owner {
			continue
		}
		st, err := s.Stores.GetTx(ctx, tx, n.storeID)
		if apperr.CodeOf(err) == apperr.NotFound {
			continue
		}
		if err != nil {
			return false, err
		}
		line := fmt.Sprintf("Claim #%d was submitted; it matches %s. Nothing changes until a moderator decides.", n.claimID, listed(st))
		if n.kind == noticeRejected {
			var reason string
			if err := tx.QueryRow(ctx, "SELECT reject_reason FROM claims WHERE id = $1", n.claimID).Scan(&reason); err != nil {
				return false, fmt.Errorf("claim %d: %w", n.claimID, err)
			}
			line = fmt.Sprintf("Claim #%d, which matched %s, was rejected by a moderator. Nothing was changed. Reason: %s", n.claimID, listed(st), reason)
		}
		lines = append(lines, line)
	}
	if len(lines) == 0 {
		return false, nil
	}
	return true, mail.Enqueue(ctx, tx, digestMail(email, day[0].day, lines, s.PublicURL))
}

// digestMail is the day's digest: fixed text, the claims' numbers and
// the stores' published data, and the moderators' reasons.
func digestMail(to, day string, lines []string, publicURL string) mail.Message {
	date := day
	if t, err := time.Parse(time.DateOnly, day); err == nil {
		date = t.Format("Jan 2, 2006")
	}
	noun := "claim"
	if len(lines) > 1 {
		noun = "claims"
	}
	intro := fmt.Sprintf("On %s (UTC), %d %s concerned stores you own. We gather these notices into one mail a day:", date, len(lines), noun)
	after := "If a moderator approves a claim on your store, you are mailed at once: its claimant cannot change the store until you (or another owner, or a moderator) accept them as a co-owner."
	m := ownerMail(to, "Claims on your stores on "+date, intro)
	var text, htm strings.Builder
	for _, l := range lines {
		text.WriteString("- " + l + "\n")
		htm.WriteString("<li>" + html.EscapeString(l) + "</li>")
	}
	dashboard := strings.TrimRight(publicURL, "/") + "/business"
	m.Text += "\n" + text.String() + "\n" + after + "\n\n" + ownersNote + "\n\nStore dashboard: " + dashboard + "\n"
	m.HTML += "<ul>" + htm.String() + "</ul><p>" + html.EscapeString(after) + "</p><p>" + html.EscapeString(ownersNote) + "</p><p>Store dashboard: " +
		dashboardLink(publicURL, dashboard) + "</p>"
	return m
}

// FollowDigests runs SendDigests every interval until ctx ends; every
// replica runs it, and the first after midnight (UTC) sends the day's.
func (s *Service) FollowDigests(ctx context.Context, every time.Duration, log *slog.Logger) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		if n, err := s.SendDigests(ctx); err != nil && ctx.Err() == nil {
			log.Warn("claim digests not sent", "err", err)
		} else if n > 0 {
			log.Info("claim digests mailed to owners", "mails", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// DigestEvery is how often a replica looks for a finished day's notices:
// one index probe when there are none.
const DigestEvery = 5 * time.Minute
