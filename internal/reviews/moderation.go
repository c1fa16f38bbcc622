package reviews

import (
	"context"
	"fmt"
	"slices"
	"time"

	"locator/internal/apperr"
	"locator/internal/audit"
	"locator/internal/db"
	"locator/internal/stores"
)

// Kept honest (docs/reviews.md, "Flags and moderation"): anyone flags a
// published review with a reason from FlagReasons; a moderator's queue
// holds the held and the flagged reviews; the moderator removes one with a
// reason from RemovalReasons or keeps it with one from KeepReasons, and the
// removals per month and reason are public (Removals).

// Reason is one entry of a published list: its code and what it means.
type Reason struct {
	Code  string `json:"code"`
	Label string `json:"label"`
}

// FlagReasons are the reasons anyone may flag a review for.
var FlagReasons = []Reason{
	{"off-topic", "Off-topic: not about this store or a visit to it"},
	{"hateful", "Hateful, harassing or threatening"},
	{"personal-information", "Personal information: a phone number, an address, an email, a full name"},
	{"health-claim", "A health or quit-smoking claim"},
	{"conflict-of-interest", "Conflict of interest: by the store's owners, staff or competitors, or paid for"},
	{"sale-to-minor", "Describes a sale to a minor"},
}

// RemovalReasons are the only reasons a moderator may remove a review for.
// A negative opinion is not one of them.
var RemovalReasons = []Reason{
	{"off-topic", "Not about this store or a visit to it"},
	{"hateful", "Hateful, harassing or threatening"},
	{"personal-information", "Published someone's personal information"},
	{"health-claim", "Made a health or quit-smoking claim the FDA has not authorized"},
	{"conflict-of-interest", "Written by an insider or a competitor, or paid for"},
	{"sale-to-minor", "Described a sale to a minor"},
	{"fake", "Not a genuine experience of the store (a fake review)"},
}

// KeepReasons are the reasons a moderator keeps (or, held, publishes) a review for.
var KeepReasons = []Reason{
	{"within-policy", "Nothing in the review breaks the policy"},
	{"honest-opinion", "An honest opinion, however negative, stays"},
	{"screen-mistake", "The screening held it by mistake"},
}

// Flag limits: a network flags a review once, and at most FlagDailyCap
// reviews in LimitWindow.
const FlagDailyCap = 10

func known(list []Reason, code string) bool {
	return slices.ContainsFunc(list, func(r Reason) bool { return r.Code == code })
}

// Flag records a flag on a published review from network.
func (r *Repo) Flag(ctx context.Context, reviewID int64, reason, network string) error {
	if !known(FlagReasons, reason) {
		return apperr.Invalidf("reason must be one of the listed reasons (GET /api/reviews/policy)")
	}
	now := r.clock.Stamp()
	return r.db.InTx(ctx, func(tx *db.Tx) error {
		rv, err := get(ctx, tx, reviewID)
		if err != nil {
			return err
		}
		if rv.Status != Approved {
			return apperr.New(apperr.NotFound, "review %d not found", reviewID)
		}
		var n int
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM review_flags WHERE network = $1 AND created_at > $2`,
			network, now.Add(-LimitWindow)).Scan(&n); err != nil {
			return fmt.Errorf("flags of a network: %w", err)
		}
		if n >= FlagDailyCap {
			return &apperr.Error{Code: apperr.TooMany, RetryAfter: time.Hour,
				Message: "Too many flags from your network in the last 24 hours; please try again tomorrow"}
		}
		_, err = tx.Exec(ctx, `INSERT INTO review_flags (review_id, reason, network, created_at) VALUES ($1, $2, $3, $4)`,
			reviewID, reason, network, now)
		if db.UniqueViolation(err) {
			return apperr.New(apperr.Conflict, "This review was already flagged from your network; a moderator will read it")
		}
		if err != nil {
			return fmt.Errorf("flag review %d: %w", reviewID, err)
		}
		return nil
	})
}

// Queued is one review in the moderators' queue: held, or flagged and not
// decided since.
type Queued struct {
	Review
	StoreName string
	Flags     map[string]int // open flags by reason
	FlagCount int
}

// Queue returns the held reviews (oldest first) and then the flagged ones
// (most flags first), at most limit.
func (r *Repo) Queue(ctx context.Context, limit int) ([]Queued, error) {
	rows, err := r.db.Query(ctx, `SELECT `+reviewColumns+` FROM reviews WHERE status = 'Held'
		OR (status = 'Approved' AND id IN (SELECT review_id FROM review_flags WHERE resolved_at IS NULL))
		ORDER BY created_at, id LIMIT $1`, limit)
	list, err := db.Collect(rows, err, "review queue", scanReview)
	if err != nil {
		return nil, err
	}
	out := make([]Queued, 0, len(list))
	ids := make([]int64, 0, len(list))
	storeIDs := make([]int64, 0, len(list))
	for _, rv := range list {
		out = append(out, Queued{Review: rv, Flags: map[string]int{}})
		ids = append(ids, rv.ID)
		storeIDs = append(storeIDs, rv.StoreID)
	}
	if len(ids) == 0 {
		return out, nil
	}
	frows, err := r.db.Query(ctx, `SELECT review_id, reason, COUNT(*) FROM review_flags WHERE resolved_at IS NULL
		AND review_id IN (`+db.IDList(r.db, 1)+`) GROUP BY review_id, reason`, db.IDs(ids))
	type count struct {
		id     int64
		reason string
		n      int
	}
	counts, err := db.Collect(frows, err, "review flags", func(sc db.Scanner) (*count, error) {
		var c count
		return &c, sc.Scan(&c.id, &c.reason, &c.n)
	})
	if err != nil {
		return nil, err
	}
	names, err := stores.SummaryMap(ctx, r.db, storeIDs)
	if err != nil {
		return nil, err
	}
	for i := range out {
		out[i].StoreName = names[out[i].StoreID].Name
		for _, c := range counts {
			if c.id == out[i].ID {
				out[i].Flags[c.reason] += c.n
				out[i].FlagCount += c.n
			}
		}
	}
	// Held first (as read, oldest first), then the most flagged.
	slices.SortStableFunc(out, func(a, b Queued) int {
		ha, hb := a.Status == Held, b.Status == Held
		switch {
		case ha && !hb:
			return -1
		case hb && !ha:
			return 1
		case !ha && !hb:
			return b.FlagCount - a.FlagCount
		}
		return 0
	})
	return out, nil
}

// Decide is a moderator's decision on review id: "remove" (with a reason
// from RemovalReasons) or "keep" (with one from KeepReasons: a held review
// is then published). Either closes the review's open flags. actor names
// the moderator (audit.ModeratorActor).
func (r *Repo) Decide(ctx context.Context, id int64, action, reason, actor string) (*Review, error) {
	switch action {
	case "remove":
		if !known(RemovalReasons, reason) {
			return nil, apperr.Invalidf("reason must be one of the published removal reasons")
		}
	case "keep":
		if !known(KeepReasons, reason) {
			return nil, apperr.Invalidf("reason must be one of the published reasons to keep a review")
		}
	default:
		return nil, apperr.Invalidf("action must be remove or keep")
	}
	now := r.clock.Stamp()
	var out *Review
	err := r.db.InTx(ctx, func(tx *db.Tx) error {
		rv, err := get(ctx, tx, id)
		if err != nil {
			return err
		}
		if rv.Status == Removed {
			return apperr.New(apperr.Conflict, "This review was removed already")
		}
		status, why := rv.Status, rv.HeldReason
		if action == "remove" {
			status, why = Removed, reasonLabel(RemovalReasons, reason)
		} else if status == Held {
			status, why = Approved, ""
		}
		return r.stores.Write(ctx, tx, func(w *stores.Writer) error {
			if _, err := tx.Exec(ctx, `UPDATE reviews SET status = $1, held_reason = $2 WHERE id = $3`, status, why, id); err != nil {
				return fmt.Errorf("decide review %d: %w", id, err)
			}
			if _, err := tx.Exec(ctx, `UPDATE review_flags SET resolved_at = $1 WHERE review_id = $2 AND resolved_at IS NULL`, now, id); err != nil {
				return fmt.Errorf("close the flags of review %d: %w", id, err)
			}
			if _, err := tx.Exec(ctx, `INSERT INTO review_decisions (review_id, action, reason, moderator, created_at)
				VALUES ($1, $2, $3, $4, $5)`, id, action, reason, actor, now); err != nil {
				return fmt.Errorf("decide review %d: %w", id, err)
			}
			if err := audit.Write(ctx, tx, now, actor, "review."+action, 0, rv.StoreID,
				map[string]any{"review_id": id, "reason": reason, "was": rv.Status}); err != nil {
				return err
			}
			wasPublished, published := rv.Status == Approved, status == Approved
			if wasPublished != published {
				if err := rate(ctx, tx, w, rv.StoreID); err != nil {
					return err
				}
			}
			rv.Status, rv.HeldReason = status, why
			out = rv
			if published && !wasPublished {
				if err := publishedEvent(ctx, tx, rv); err != nil {
					return err
				}
				name, err := publishedName(ctx, tx, rv.StoreID, now)
				if apperr.CodeOf(err) == apperr.NotFound {
					return nil // the store was hidden since: nobody to tell
				}
				if err != nil {
					return err
				}
				return r.mailOwners(ctx, tx, rv.StoreID, name, rv.Rating)
			}
			return nil
		})
	})
	return out, err
}

func reasonLabel(list []Reason, code string) string {
	for _, r := range list {
		if r.Code == code {
			return r.Label
		}
	}
	return code
}

// MonthCount is the removals of one month for one reason.
type MonthCount struct {
	Month  string `json:"month"` // YYYY-MM, UTC
	Reason string `json:"reason"`
	Count  int    `json:"count"`
}

// Removals returns the reviews removed per month and reason over the last
// months months (the current one included), the newest month first, then
// by reason as RemovalReasons lists them.
func (r *Repo) Removals(ctx context.Context, months int) ([]MonthCount, error) {
	now := r.clock.Now().UTC()
	from := time.Date(now.Year(), now.Month()-time.Month(months-1), 1, 0, 0, 0, 0, time.UTC)
	rows, err := r.db.Query(ctx, `SELECT reason, created_at FROM review_decisions WHERE action = 'remove' AND created_at >= $1`, from)
	type row struct {
		reason string
		at     time.Time
	}
	list, err := db.Collect(rows, err, "review removals", func(sc db.Scanner) (*row, error) {
		var x row
		return &x, sc.Scan(&x.reason, &x.at)
	})
	if err != nil {
		return nil, err
	}
	counts := map[MonthCount]int{}
	for _, x := range list {
		counts[MonthCount{Month: x.at.UTC().Format("2006-01"), Reason: x.reason}]++
	}
	out := make([]MonthCount, 0, len(counts))
	for k, n := range counts {
		k.Count = n
		out = append(out, k)
	}
	order := func(code string) int {
		return slices.IndexFunc(RemovalReasons, func(r Reason) bool { return r.Code == code })
	}
	slices.SortFunc(out, func(a, b MonthCount) int {
		if a.Month != b.Month {
			if a.Month > b.Month {
				return -1
			}
			return 1
		}
		return order(a.Reason) - order(b.Reason)
	})
	return out, nil
}
