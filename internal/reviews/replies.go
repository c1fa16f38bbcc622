package reviews

import (
	"context"
	"fmt"
	"html"
	"strings"

	"locator/internal/apperr"
	"locator/internal/db"
	"locator/internal/mail"
	"locator/internal/ownership"
	"locator/internal/textfield"
)

// Owners answer in public (docs/reviews.md, "Owners' replies"): one reply
// per published review, written, edited (dated) and deleted by a proven
// owner of the store; the caller (the HTTP layer, through
// business.Service.Owns) has checked the owner. An owner has no call that
// hides, edits or orders a review.

// MaxReplyLen bounds a reply's text (characters, trimmed).
const MaxReplyLen = 1000

// ErrNoSuchReview answers a reply to a review that is not a published
// review of that store.
var ErrNoSuchReview = apperr.New(apperr.NotFound, "Review not found among the published reviews of this store")

// SetReply writes (or, when there is one, edits) the reply to review
// reviewID of store storeID.
func (r *Repo) SetReply(ctx context.Context, storeID, reviewID int64, text string) (*Review, error) {
	text, ok := textfield.Trim(text, MaxReplyLen)
	if !ok || text == "" {
		return nil, apperr.Invalidf("text must be 1 to %d characters", MaxReplyLen)
	}
	if textfield.HasNUL(text) {
		return nil, apperr.Invalidf("text must not hold NUL characters")
	}
	now := r.clock.Stamp()
	var out *Review
	err := r.db.InTx(ctx, func(tx *db.Tx) error {
		rv, err := published(ctx, tx, storeID, reviewID)
		if err != nil {
			return err
		}
		if rv.Reply.Text == "" {
			_, err = tx.Exec(ctx, `UPDATE reviews SET reply_text = $1, reply_at = $2, reply_edited_at = NULL WHERE id = $3`, text, now, reviewID)
			rv.Reply.At = now
		} else {
			_, err = tx.Exec(ctx, `UPDATE reviews SET reply_text = $1, reply_edited_at = $2 WHERE id = $3`, text, now, reviewID)
			rv.Reply.EditedAt = now
		}
		if err != nil {
			return fmt.Errorf("reply to review %d: %w", reviewID, err)
		}
		rv.Reply.Text = text
		out = rv
		return nil
	})
	return out, err
}

// DeleteReply removes the reply to review reviewID of store storeID.
func (r *Repo) DeleteReply(ctx context.Context, storeID, reviewID int64) error {
	return r.db.InTx(ctx, func(tx *db.Tx) error {
		rv, err := published(ctx, tx, storeID, reviewID)
		if err != nil {
			return err
		}
		if rv.Reply.Text == "" {
			return apperr.New(apperr.NotFound, "This review has no reply")
		}
		if _, err := tx.Exec(ctx, `UPDATE reviews SET reply_text = '', reply_at = NULL, reply_edited_at = NULL WHERE id = $1`, reviewID); err != nil {
			return fmt.Errorf("delete the reply to review %d: %w", reviewID, err)
		}
		return nil
	})
}

// published reads review reviewID when it is a published review of store
// storeID (ErrNoSuchReview otherwise).
func published(ctx context.Context, q db.Querier, storeID, reviewID int64) (*Review, error) {
	rv, err := get(ctx, q, reviewID)
	if apperr.CodeOf(err) == apperr.NotFound || (err == nil && (rv.StoreID != storeID || rv.Status != Approved)) {
		return nil, ErrNoSuchReview
	}
	return rv, err
}

// MailEnabled reads whether business account id is mailed new reviews.
func (r *Repo) MailEnabled(ctx context.Context, id int64) (bool, error) {
	var on bool
	if err := r.db.QueryRow(ctx, `SELECT review_mail FROM business_accounts WHERE id = $1`, id).Scan(&on); err != nil {
		return false, fmt.Errorf("review mail of account %d: %w", id, err)
	}
	return on, nil
}

// SetMailEnabled switches the new-review mail of business account id.
func (r *Repo) SetMailEnabled(ctx context.Context, id int64, on bool) error {
	if _, err := r.db.Exec(ctx, `UPDATE business_accounts SET review_mail = $1 WHERE id = $2`, on, id); err != nil {
		return fmt.Errorf("review mail of account %d: %w", id, err)
	}
	return nil
}

// mailOwners tells each proven owner of store storeID who has not switched
// it off that the store has a new published review, in the transaction
// that publishes it (through the outbox: sent only if it commits). The
// mail says the rating and links to the dashboard; it does not quote the
// review (text a stranger typed does not go out under our name).
func (r *Repo) mailOwners(ctx context.Context, tx *db.Tx, storeID int64, name string, rating int) error {
	owners, err := ownership.List(ctx, tx, storeID)
	if err != nil {
		return err
	}
	for _, o := range owners {
		var on, proven bool
		if err := tx.QueryRow(ctx, `SELECT review_mail, email_verified_at IS NOT NULL FROM business_accounts WHERE id = $1`,
			o.BusinessID).Scan(&on, &proven); err != nil {
			return fmt.Errorf("review mail of account %d: %w", o.BusinessID, err)
		}
		if !on || !proven {
			continue
		}
		link := r.publicURL + "/business"
		stars := strings.Repeat("★", rating) + strings.Repeat("☆", 5-rating)
		text := fmt.Sprintf("%s has a new review: %d of 5 stars (%s).\n\nRead it and reply in public from your dashboard: %s\n\n"+
			"You can switch these mails off in the dashboard.\n", name, rating, stars, link)
		body := fmt.Sprintf("<p>%s has a new review: %d of 5 stars (%s).</p><p>Read it and reply in public from <a href=\"%s\">your dashboard</a>.</p>"+
			"<p>You can switch these mails off in the dashboard.</p>", html.EscapeString(name), rating, stars, html.EscapeString(link))
		if err := mail.Enqueue(ctx, tx, mail.Message{To: o.Email, Subject: "New review of " + name, Text: text, HTML: body}); err != nil {
			return err
		}
	}
	return nil
}
