package identity_test

import (
	"context"
	"strings"
	"testing"

	"locator/internal/apperr"
	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/identity"
	"locator/internal/identity/identitytest"
	"locator/internal/mail"
	"locator/internal/ratelimit"
)

// memberArea names the members' tables and page as members.Area does
// (identity may not import members); its mail carries the link as text.
func memberArea() identity.Area {
	return identity.Area{Name: "member", Accounts: "customers", Sessions: "sessions", SessionOwner: "customer_id", LinkPath: "/verify-email",
		Mail: func(to, link string) mail.Message {
			return mail.Message{To: to, Subject: "Confirm", Text: link, HTML: link}
		}}
}

// A mailed link asks for the account's password, so it must not be a way
// round the sign-in lockout: its wrong guesses count against the same
// lockout as the sign-in form's, and a locked account is locked on both.
func TestProofLinkGuessesCountAgainstTheLockout(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		h := fast
		hash := fastHash(t, "tulip-lamp-7")
		id := identitytest.Member(t, d, "ann@example.com")
		_, err := d.Exec(ctx, "UPDATE customers SET password_hash = $1 WHERE id = $2", hash, id)
		dbtest.Must(t, err, "set password")
		limits := ratelimit.NewDB(d)
		m := &identity.Mailbox{DB: d, Limits: limits, PublicURL: "http://locator.test", Hasher: &h,
			Area: memberArea()}
		link := func() string {
			t.Helper()
			dbtest.Must(t, d.InTx(ctx, func(tx *db.Tx) error { return m.Issue(ctx, tx, id, "ann@example.com", "") }), "issue")
			var body string
			dbtest.Must(t, d.QueryRow(ctx, "SELECT text_body FROM outbox ORDER BY id DESC LIMIT 1").Scan(&body), "mail")
			_, token, _ := strings.Cut(body, "?token=")
			return token
		}
		signIn := identity.Credentials{Hasher: &h, Lockout: ratelimit.NewLockout(limits, "member")}
		find := func() (string, error) { return hash, nil }

		token := link()
		for i := range ratelimit.MaxSignInAttempts {
			if _, err := m.Confirm(ctx, token, "wrong-password"); err != identity.ErrProofPassword {
				t.Fatalf("wrong guess %d on the link: %v", i+1, err)
			}
		}
		// The link's guesses used up the account's attempts: the right
		// password is refused on the link and on the sign-in form alike.
		if _, err := m.Confirm(ctx, token, "tulip-lamp-7"); apperr.CodeOf(err) != apperr.TooMany {
			t.Fatalf("link after %d wrong guesses: %v", ratelimit.MaxSignInAttempts, err)
		}
		if _, err := signIn.Check(ctx, "ann@example.com", "tulip-lamp-7", find); apperr.CodeOf(err) != apperr.TooMany {
			t.Fatalf("sign-in after the link's wrong guesses: %v", err)
		}

		// Once the lock is over (cleared here), a right answer proves the
		// mailbox and clears the count, so sign-in starts afresh.
		dbtest.Must(t, limits.Clear(ctx, "member-signin:ann@example.com"), "clear")
		for range ratelimit.MaxSignInAttempts - 1 {
			_, _ = signIn.Check(ctx, "ann@example.com", "wrong-password", find)
		}
		if got, err := m.Confirm(ctx, token, "tulip-lamp-7"); err != nil || got != id {
			t.Fatalf("right password after 9 wrong sign-ins: %d %v", got, err)
		}
		for i := range ratelimit.MaxSignInAttempts - 1 {
			if ok, err := signIn.Check(ctx, "ann@example.com", "wrong-password", find); ok || err != nil {
				t.Fatalf("sign-in %d after the count was cleared: %v %v", i+1, ok, err)
			}
		}
	})
}
