package identity

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"locator/internal/db"
	"locator/internal/mail"
	"locator/internal/secret"
)

// Resets are the password reset links of one area. A link carries a random
// 256-bit token stored only as its SHA-256 hash; it works once, for TTL,
// and only the newest one of an account works. Each area keeps its table
// (token_hash, the owner column, created_at, expires_at, used_at), its
// request and answer texts, its mail and its link.
type Resets struct {
	DB *db.DB
	// Table and Owner name the area's reset table and the column naming
	// the account; Accounts is the accounts table (id, email).
	Table, Owner, Accounts string
	TTL                    time.Duration
	// Link makes the mailed link of a token.
	Link func(token string) string
	// Sessions end and Mailbox is proven when a reset completes.
	Sessions *Sessions
	Mailbox  *Mailbox
	// Hasher points at the owning service's hasher (tests make it cheap).
	Hasher *secret.Hasher
	Now    func() time.Time
}

func (r *Resets) now() time.Time { return stamp(r.Now) }

// Issue makes a new link for the account, ending its older unused ones
// (a mailbox read later holds no live older link), and queues the mail
// message makes of it in the same transaction. It returns the link.
func (r *Resets) Issue(ctx context.Context, owner int64, message func(link string) mail.Message) (string, error) {
	token, err := secret.NewToken()
	if err != nil {
		return "", err
	}
	link := r.Link(token)
	t := r.now()
	err = r.DB.InTx(ctx, func(tx *db.Tx) error {
		if _, err := tx.Exec(ctx, "DELETE FROM "+r.Table+" WHERE "+r.Owner+" = $1 AND used_at IS NULL", owner); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "INSERT INTO "+r.Table+" (token_hash, "+r.Owner+", created_at, expires_at) VALUES ($1, $2, $3, $4)",
			secret.HashToken(token), owner, t, t.Add(r.TTL)); err != nil {
			return err
		}
		return mail.Enqueue(ctx, tx, message(link))
	})
	if err != nil {
		return "", fmt.Errorf("issue reset link in %s: %w", r.Table, err)
	}
	return link, nil
}

// Complete sets password (it must pass the password policy: that error
// comes first) with token, which must be a live, unused link. The token
// alone names the account (256 random bits, only its hash stored), so
// email may be empty; when given (older clients send it) it must be the
// account's (normalised) email. In one transaction it spends the
// account's links, runs set (which stores the new password's hash), ends
// every session of the account and proves its mailbox: the link came by
// mail. ok is false, and nothing changes, when the token is not such a
// link or a second click spent it meanwhile.
func (r *Resets) Complete(ctx context.Context, email, password, token string, set func(tx *db.Tx, id int64, hash string, at time.Time) error) (ok bool, err error) {
	if err := secret.CheckPassword(password); err != nil {
		return false, err
	}
	if !WellFormedToken(token) {
		return false, nil
	}
	hash, err := r.Hasher.Hash(ctx, password)
	if err != nil {
		return false, err
	}
	t := r.now()
	err = r.DB.InTx(ctx, func(tx *db.Tx) error {
		var id int64
		var owner string
		err := tx.QueryRow(ctx, "SELECT r."+r.Owner+", a.email FROM "+r.Table+" r JOIN "+r.Accounts+" a ON a.id = r."+r.Owner+
			" WHERE r.token_hash = $1 AND r.used_at IS NULL AND r.expires_at > $2",
			secret.HashToken(token), t).Scan(&id, &owner)
		if errors.Is(err, sql.ErrNoRows) || err == nil && email != "" && email != owner {
			return nil
		}
		if err != nil {
			return err
		}
		// Spend the links only if nobody spent them meanwhile (two clicks at once).
		res, err := tx.Exec(ctx, "UPDATE "+r.Table+" SET used_at = $1 WHERE "+r.Owner+" = $2 AND used_at IS NULL", t, id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil
		}
		if err := set(tx, id, hash, t); err != nil {
			return err
		}
		if _, err := r.Sessions.EndAll(ctx, tx, id, ""); err != nil {
			return err
		}
		ok = true
		return r.Mailbox.Prove(ctx, tx, id)
	})
	if err != nil {
		return false, fmt.Errorf("complete reset in %s: %w", r.Table, err)
	}
	return ok, nil
}

// Prune deletes links expired a day ago or more (run now and then).
func (r *Resets) Prune(ctx context.Context) error {
	if _, err := r.DB.Exec(ctx, "DELETE FROM "+r.Table+" WHERE expires_at < $1", r.now().Add(-24*time.Hour)); err != nil {
		return fmt.Errorf("prune %s: %w", r.Table, err)
	}
	return nil
}
