package identity_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/identity"
	"locator/internal/identity/identitytest"
	"locator/internal/mail"
	"locator/internal/ratelimit"
)

func TestResets(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		clock := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
		now := func() time.Time { return clock }
		h := fast
		sessions := &identity.Sessions{DB: d, Table: "sessions", Owner: "customer_id", TTL: time.Hour, Now: now}
		r := &identity.Resets{DB: d, Table: "password_resets", Owner: "customer_id", Accounts: "customers", TTL: 30 * time.Minute,
			Link:     func(token string) string { return "http://locator.test/reset-password?token=" + token },
			Sessions: sessions, Now: now, Hasher: &h,
			Mailbox: &identity.Mailbox{DB: d, Limits: ratelimit.NewDB(d), Area: memberArea(), PublicURL: "http://locator.test", Hasher: &h, Now: now}}
		ann, bob := identitytest.Member(t, d, "ann@example.com"), identitytest.Member(t, d, "bob@example.com")
		issue := func(id int64, to string) string {
			t.Helper()
			link, err := r.Issue(ctx, id, func(link string) mail.Message {
				return mail.Message{To: to, Subject: "Reset", Text: link, HTML: link}
			})
			dbtest.Must(t, err, "issue")
			token, ok := strings.CutPrefix(link, "http://locator.test/reset-password?token=")
			if !ok {
				t.Fatalf("link %q", link)
			}
			var mailed int
			dbtest.Must(t, d.QueryRow(ctx, "SELECT COUNT(*) FROM outbox WHERE to_addr = $1 AND text_body = $2", to, link).Scan(&mailed), "outbox")
			if mailed != 1 {
				t.Fatalf("link mailed %d times", mailed)
			}
			var stored int
			dbtest.Must(t, d.QueryRow(ctx, "SELECT COUNT(*) FROM password_resets WHERE token_hash = $1", token).Scan(&stored), "raw token")
			if stored != 0 {
				t.Fatal("the token is stored as is")
			}
			return token
		}
		set := func(tx *db.Tx, id int64, hash string, at time.Time) error {
			_, err := tx.Exec(ctx, "UPDATE customers SET password_hash = $1, updated_at = $2 WHERE id = $3", hash, at, id)
			return err
		}
		complete := func(email, token, password string) bool {
			t.Helper()
			ok, err := r.Complete(ctx, email, password, token, set)
			dbtest.Must(t, err, "complete")
			return ok
		}
		// hashOf says which password the account has now ("old": none set).
		hashOf := func(id int64) (string, bool) {
			var hash string
			var proven *time.Time
			dbtest.Must(t, d.QueryRow(ctx, "SELECT password_hash, email_verified_at FROM customers WHERE id = $1", id).Scan(&hash, &proven), "read")
			for _, pw := range []string{"tulip-lamp-7", "tulip-lamp-8"} {
				if ok, _ := h.Verify(ctx, hash, pw); ok {
					return pw, proven != nil
				}
			}
			return hash, proven != nil
		}

		older := issue(ann, "ann@example.com")
		token := issue(ann, "ann@example.com")
		bobs := issue(bob, "bob@example.com")
		s1, err := sessions.Start(ctx, ann, "")
		dbtest.Must(t, err, "session")
		bobSession, err := sessions.Start(ctx, bob, "")
		dbtest.Must(t, err, "bob's session")

		// Only the newest link works, not for another account's email, not malformed.
		for _, c := range [][2]string{{"ann@example.com", older}, {"bob@example.com", token}, {"", older},
			{"ann@example.com", ""}, {"ann@example.com", strings.Repeat("a", 101)}, {"ann@example.com", "unknown"}} {
			if complete(c[0], c[1], "tulip-lamp-7") {
				t.Fatalf("completed with %q %q", c[0], c[1])
			}
		}
		// A password the policy refuses is refused first.
		if _, err := r.Complete(ctx, "ann@example.com", "short", token, set); err == nil {
			t.Fatal("a short password was accepted")
		}
		if hash, proven := hashOf(ann); hash != "old" || proven {
			t.Fatalf("a refused reset changed the account: %q %v", hash, proven)
		}

		// Completing sets the password, ends every session and proves the mailbox.
		if !complete("ann@example.com", token, "tulip-lamp-7") {
			t.Fatal("the newest link did not work")
		}
		if hash, proven := hashOf(ann); hash != "tulip-lamp-7" || !proven {
			t.Fatalf("after reset: %q proven %v", hash, proven)
		}
		if _, ok, _ := sessions.Lookup(ctx, s1); ok {
			t.Fatal("a session survived the reset")
		}
		if _, ok, _ := sessions.Lookup(ctx, bobSession); !ok {
			t.Fatal("another account's session ended")
		}
		// Single use, with or without the email.
		if complete("ann@example.com", token, "tulip-lamp-8") || complete("", token, "tulip-lamp-8") {
			t.Fatal("a spent link worked twice")
		}

		// The token alone names the account: the reset page does not ask for the email.
		if !complete("", issue(ann, "ann@example.com"), "tulip-lamp-8") {
			t.Fatal("a link without the email did not work")
		}
		if hash, _ := hashOf(ann); hash != "tulip-lamp-8" {
			t.Fatalf("after a reset by token alone: %q", hash)
		}

		// A link works for TTL only; Prune deletes it a day after.
		clock = clock.Add(30 * time.Minute)
		if complete("bob@example.com", bobs, "tulip-lamp-7") {
			t.Fatal("an expired link worked")
		}
		count := func() int {
			var n int
			dbtest.Must(t, d.QueryRow(ctx, "SELECT COUNT(*) FROM password_resets").Scan(&n), "count")
			return n
		}
		before := count()
		dbtest.Must(t, r.Prune(ctx), "prune")
		if count() != before {
			t.Fatal("prune deleted a link expired less than a day ago")
		}
		clock = clock.Add(24*time.Hour + time.Second)
		dbtest.Must(t, r.Prune(ctx), "prune")
		if count() != 0 {
			t.Fatalf("prune kept %d links", count())
		}
	})
}
