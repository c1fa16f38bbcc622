package reviews

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"locator/internal/apperr"
	"locator/internal/db"
	"locator/internal/ownership"
	"locator/internal/stores"
	"locator/internal/textfield"
)

// Who may write, and how much (docs/reviews.md, "Who may write" and
// "Limits"). The counts are read from the reviews themselves, inside the
// transaction that writes the new one and after stores.Repo.Write has
// taken the search version's row, so on PostgreSQL two replicas' writes
// are counted one after the other.
const (
	MinTextLen = 10   // characters of a review's text, after trimming
	MaxTextLen = 2000 // characters of a review's text

	// LimitWindow is the window of every limit: the last 24 hours.
	LimitWindow = 24 * time.Hour
	// MemberDailyCap: reviews a member may write in LimitWindow; the next is refused (429).
	MemberDailyCap = 5
	// NetworkDailyCap: reviews written from one network (IPv4 /24, IPv6 /64) in LimitWindow; the next is refused (429).
	NetworkDailyCap = 20
	// NewAccountAge: an account younger than this is new.
	NewAccountAge = 7 * 24 * time.Hour
	// BurstPublished: once this many reviews of one store by new accounts
	// were published in LimitWindow, a new account's next review of it is
	// held for a moderator.
	BurstPublished = 3
)

// Author is the member who writes: who internal/members says is signed in.
type Author struct {
	ID        int64
	Email     string // as accounts keep it (lower case): the insider check compares it with owners'
	FirstName string
	LastName  string
	Proven    bool      // the mailbox is proven
	Since     time.Time // the account's creation
}

// Input is what a member types: a rating and a text.
type Input struct {
	Rating  int
	Content string
}

// Answers of the write calls.
var (
	ErrUnproven = apperr.New(apperr.Forbidden, "Prove your email address before writing a review: follow the link we mailed you (your profile can send a new one)")
	ErrInsider  = apperr.New(apperr.Forbidden, "Owners and co-owners of a store may not review it (an insider review)")
	ErrTwice    = apperr.New(apperr.Conflict, "You have already reviewed this store: edit or delete your review instead")
	ErrNoReview = apperr.New(apperr.NotFound, "You have not reviewed this store")
	ErrRemoved  = apperr.New(apperr.Conflict, "A moderator removed this review; it cannot be edited, only deleted")
)

// check validates a member's input: a whole rating 1 to 5 (the HTTP layer
// refuses "5" and 4.5 as the wrong type) and a text of MinTextLen to
// MaxTextLen characters once trimmed, without NUL or other control
// characters than line breaks and tabs.
func (in *Input) check() error {
	if in.Rating < 1 || in.Rating > 5 {
		return apperr.Invalidf("rating must be a whole number from 1 to 5")
	}
	content, ok := textfield.Trim(in.Content, MaxTextLen)
	in.Content = content
	if !ok || utf8.RuneCountInString(content) < MinTextLen {
		return apperr.Invalidf("content must be %d to %d characters", MinTextLen, MaxTextLen)
	}
	if !utf8.ValidString(in.Content) {
		return apperr.Invalidf("content must be UTF-8 text")
	}
	for _, r := range in.Content {
		if unicode.IsControl(r) && r != '\n' && r != '\t' && r != '\r' {
			return apperr.Invalidf("content must not hold control characters")
		}
	}
	return nil
}

// byline is how a review names its author: the first name and the last
// name's initial ("Ann", "L."); the date shows beside it.
func byline(a Author) (first, last string) {
	first = strings.TrimSpace(a.FirstName)
	if _, ok := textfield.Trim(first, 60); !ok {
		first = string([]rune(first)[:60])
	}
	last = ""
	if r, _ := utf8.DecodeRuneInString(strings.TrimSpace(a.LastName)); r != utf8.RuneError {
		last = string(unicode.ToUpper(r)) + "."
	}
	return first, last
}

// mayWrite checks (and trims) a review or an edit: refused when its input
// is out of bounds, or when its author has not proven their address.
func (a Author) mayWrite(in *Input) error {
	if err := in.check(); err != nil {
		return err
	}
	if !a.Proven {
		return ErrUnproven
	}
	return nil
}

// Write stores a member's review of a published store: published at once,
// or held for a moderator (screening or the burst rule, HeldReason says
// why), or refused (not proven, an insider, a second review, a limit).
// network is the caller's network (ratelimit.Network).
func (r *Repo) Write(ctx context.Context, a Author, storeID int64, in Input, network string) (*Review, error) {
	if err := a.mayWrite(&in); err != nil {
		return nil, err
	}
	now := r.clock.Stamp()
	var out *Review
	err := r.db.InTx(ctx, func(tx *db.Tx) error {
		name, err := publishedName(ctx, tx, storeID, now)
		if err != nil {
			return err
		}
		if owner, err := ownership.OwnerByEmail(ctx, tx, storeID, strings.ToLower(a.Email)); err != nil {
			return err
		} else if owner != 0 {
			return ErrInsider
		}
		if _, err := r.mine(ctx, tx, a.ID, storeID); err == nil {
			return ErrTwice
		} else if !errors.Is(err, ErrNoReview) {
			return err
		}
		return r.stores.Write(ctx, tx, func(w *stores.Writer) error {
			if err := limits(ctx, tx, a.ID, network, now); err != nil {
				return err
			}
			newAccount := now.Sub(a.Since) < NewAccountAge
			status, why := Approved, Screen(in.Content)
			if why == "" && newAccount {
				why, err = burst(ctx, tx, storeID, now)
				if err != nil {
					return err
				}
			}
			if why != "" {
				status = Held
			}
			first, last := byline(a)
			rv := &Review{StoreID: storeID, MemberID: a.ID, Status: status, Rating: in.Rating, Content: in.Content,
				Product: []byte("{}"), CustomerFirstName: first, CustomerLastName: last, CustomerHasAccount: true,
				CreatedAt: now, UpdatedAt: now, HeldReason: why}
			err := tx.QueryRow(ctx, `INSERT INTO reviews (store_id, member_id, status, rating, content, customer_first_name,
				customer_last_name, customer_has_account, created_at, updated_at, held_reason, network, new_account)
				VALUES ($1,$2,$3,$4,$5,$6,$7,TRUE,$8,$8,$9,$10,$11) RETURNING id`,
				storeID, a.ID, status, in.Rating, in.Content, first, last, now, why, network, newAccount).Scan(&rv.ID)
			if db.UniqueViolation(err) {
				return ErrTwice
			}
			if err != nil {
				return fmt.Errorf("write review of store %d: %w", storeID, err)
			}
			out = rv
			if status != Approved {
				return nil
			}
			if err := rate(ctx, tx, w, storeID); err != nil {
				return err
			}
			return r.mailOwners(ctx, tx, storeID, name, in.Rating)
		})
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// publishedName returns the name of store id when it is published, a
// NotFound error otherwise (unknown, hidden, pending: the same answer).
func publishedName(ctx context.Context, q db.Querier, id int64, now time.Time) (string, error) {
	docs, err := stores.PublishedDocs(ctx, q, []int64{id}, now)
	if err != nil {
		return "", err
	}
	if _, ok := docs[id]; !ok {
		return "", apperr.New(apperr.NotFound, "store %d not found", id)
	}
	m, err := stores.SummaryMap(ctx, q, []int64{id})
	if err != nil {
		return "", err
	}
	return m[id].Name, nil
}

// limits refuses a review over the member's or the network's daily cap.
// Every review written in the window counts, published or held.
func limits(ctx context.Context, tx *db.Tx, memberID int64, network string, now time.Time) error {
	since := now.Add(-LimitWindow)
	var n int
	if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM reviews WHERE member_id = $1 AND created_at > $2`, memberID, since).Scan(&n); err != nil {
		return fmt.Errorf("reviews of member %d: %w", memberID, err)
	}
	if n >= MemberDailyCap {
		return &apperr.Error{Code: apperr.TooMany, RetryAfter: time.Hour,
			Message: fmt.Sprintf("You have written %d reviews in the last 24 hours, the most a member may; please come back tomorrow", MemberDailyCap)}
	}
	if network == "" {
		return nil
	}
	if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM reviews WHERE network = $1 AND created_at > $2`, network, since).Scan(&n); err != nil {
		return fmt.Errorf("reviews of a network: %w", err)
	}
	if n >= NetworkDailyCap {
		return &apperr.Error{Code: apperr.TooMany, RetryAfter: time.Hour,
			Message: "Too many reviews were written from your network in the last 24 hours; please try again tomorrow"}
	}
	return nil
}

// ForgetNetworks blanks the network of the reviews written before the
// limits' window: it counts only for its day (a housekeeping job runs it).
func (r *Repo) ForgetNetworks(ctx context.Context) error {
	if _, err := r.db.Exec(ctx, `UPDATE reviews SET network = '' WHERE network <> '' AND created_at <= $1`,
		r.clock.Stamp().Add(-LimitWindow)); err != nil {
		return fmt.Errorf("forget the networks of old reviews: %w", err)
	}
	return nil
}

// burst is the held reason of a new account's review of a store that
// already has BurstPublished reviews by new accounts published in the
// window ("" when it may be published).
func burst(ctx context.Context, tx *db.Tx, storeID int64, now time.Time) (string, error) {
	var n int
	if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM reviews WHERE store_id = $1 AND new_account AND status = 'Approved'
		AND created_at > $2`, storeID, now.Add(-LimitWindow)).Scan(&n); err != nil {
		return "", fmt.Errorf("recent reviews of store %d: %w", storeID, err)
	}
	if n >= BurstPublished {
		return HeldBurst, nil
	}
	return "", nil
}

// mine returns member memberID's review of store storeID (ErrNoReview).
func (r *Repo) mine(ctx context.Context, q db.Querier, memberID, storeID int64) (*Review, error) {
	rv, err := scanReview(q.QueryRow(ctx, `SELECT `+reviewColumns+` FROM reviews WHERE member_id = $1 AND store_id = $2`,
		memberID, storeID))
	return db.Found(rv, err, ErrNoReview, fmt.Sprintf("review of store %d", storeID))
}

// Mine returns the member's review of a store, whatever its status (its
// author sees a held review and why).
func (r *Repo) Mine(ctx context.Context, memberID, storeID int64) (*Review, error) {
	return r.mine(ctx, r.db, memberID, storeID)
}

// Edit changes the member's review of a store: the edit is dated, and
// screened again (a published review whose new text trips the screening
// is held). An edit never publishes a held review: a moderator does.
func (r *Repo) Edit(ctx context.Context, a Author, storeID int64, in Input) (*Review, error) {
	if err := a.mayWrite(&in); err != nil {
		return nil, err
	}
	now := r.clock.Stamp()
	var out *Review
	err := r.db.InTx(ctx, func(tx *db.Tx) error {
		old, err := r.mine(ctx, tx, a.ID, storeID)
		if err != nil {
			return err
		}
		if old.Status == Removed {
			return ErrRemoved
		}
		status, why := old.Status, old.HeldReason
		if s := Screen(in.Content); s != "" {
			status, why = Held, s
		}
		return r.stores.Write(ctx, tx, func(w *stores.Writer) error {
			if _, err := tx.Exec(ctx, `UPDATE reviews SET rating = $1, content = $2, status = $3, held_reason = $4,
				edited_at = $5, updated_at = $5 WHERE id = $6`, in.Rating, in.Content, status, why, now, old.ID); err != nil {
				return fmt.Errorf("edit review %d: %w", old.ID, err)
			}
			out = old
			wasPublished := old.Status == Approved
			out.Rating, out.Content, out.Status, out.HeldReason, out.EditedAt, out.UpdatedAt = in.Rating, in.Content, status, why, now, now
			if !wasPublished {
				return nil
			}
			return rate(ctx, tx, w, storeID)
		})
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Delete removes the member's review of a store (and its reply and flags).
// A moderator's decision on it stays counted on the public page.
func (r *Repo) Delete(ctx context.Context, memberID, storeID int64) error {
	return r.db.InTx(ctx, func(tx *db.Tx) error {
		old, err := r.mine(ctx, tx, memberID, storeID)
		if err != nil {
			return err
		}
		return r.stores.Write(ctx, tx, func(w *stores.Writer) error {
			if _, err := tx.Exec(ctx, `DELETE FROM reviews WHERE id = $1`, old.ID); err != nil {
				return fmt.Errorf("delete review %d: %w", old.ID, err)
			}
			if old.Status != Approved {
				return nil
			}
			return rate(ctx, tx, w, storeID)
		})
	})
}

// get reads review id (NotFound when there is none).
func get(ctx context.Context, q db.Querier, id int64) (*Review, error) {
	rv, err := scanReview(q.QueryRow(ctx, `SELECT `+reviewColumns+` FROM reviews WHERE id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "review %d not found", id)
	}
	if err != nil {
		return nil, fmt.Errorf("review %d: %w", id, err)
	}
	return rv, nil
}
