package members_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"locator/internal/apperr"
	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/identity"
	"locator/internal/members"
	"locator/internal/ratelimit"
	"locator/internal/secret"
)

// fast keeps argon2id but cheap, so tests run quickly under -race.
var fast = secret.Hasher{Memory: 64, Time: 1, Threads: 1}

func newService(d *db.DB) *members.Service {
	s := members.New(d, "http://locator.test", slog.New(slog.NewTextHandler(io.Discard, nil)), identity.Options{})
	s.Hasher = fast
	return s
}

// eachService runs fn once per engine with a service on a database of its own.
func eachService(t *testing.T, fn func(t *testing.T, ctx context.Context, d *db.DB, s *members.Service)) {
	t.Helper()
	dbtest.Each(t, func(t *testing.T, d *db.DB) { fn(t, context.Background(), d, newService(d)) })
}

func signUp(t *testing.T, s *members.Service, email string) *members.Customer {
	t.Helper()
	c, err := s.SignUp(context.Background(), members.SignUpInput{FirstName: " Ann ", LastName: "Lee", Phone: "+12125550100", Email: email, Password: "tulip-lamp-7"})
	dbtest.Must(t, err, "sign up %s", email)
	return c
}

func TestSignUpValidation(t *testing.T) {
	t.Parallel()
	eachService(t, func(t *testing.T, ctx context.Context, d *db.DB, s *members.Service) {
		c := signUp(t, s, "  Ann@Example.COM ")
		if c.Email != "ann@example.com" || c.FirstName != "Ann" {
			t.Fatalf("%+v", c)
		}
		long := strings.Repeat("a", 256)
		cases := []struct {
			in   members.SignUpInput
			want string
		}{
			{members.SignUpInput{LastName: "L", Phone: "1", Email: "a@b.co", Password: "tulip-lamp-7"}, "First name is required"},
			{members.SignUpInput{FirstName: "   ", LastName: "L", Phone: "1", Email: "a@b.co", Password: "tulip-lamp-7"}, "First name is required"},
			{members.SignUpInput{FirstName: "F", Phone: "1", Email: "a@b.co", Password: "tulip-lamp-7"}, "Last name is required"},
			{members.SignUpInput{FirstName: "F", LastName: "L", Email: "a@b.co", Password: "tulip-lamp-7"}, "Phone is required"},
			{members.SignUpInput{FirstName: "F", LastName: "L", Phone: "1", Password: "tulip-lamp-7"}, "Email is required"},
			{members.SignUpInput{FirstName: "F", LastName: "L", Phone: "1", Email: "a@b.co"}, "Password is required"},
			{members.SignUpInput{FirstName: long, LastName: "L", Phone: "1", Email: "a@b.co", Password: "tulip-lamp-7"}, "Name must be less than 255 symbols"},
			{members.SignUpInput{FirstName: "F", LastName: long, Phone: "1", Email: "a@b.co", Password: "tulip-lamp-7"}, "Last name must be less than 255 symbols"},
			{members.SignUpInput{FirstName: "F", LastName: "L", Phone: "+1234567890123", Email: "a@b.co", Password: "tulip-lamp-7"}, "Phone should be less thant 12 symbols"},
			{members.SignUpInput{FirstName: "F", LastName: "L", Phone: "12+34", Email: "a@b.co", Password: "tulip-lamp-7"}, "only digits"},
			{members.SignUpInput{FirstName: "F", LastName: "L", Phone: "call me", Email: "a@b.co", Password: "tulip-lamp-7"}, "only digits"},
			{members.SignUpInput{FirstName: "F", LastName: "L", Phone: "1", Email: "not-an-email", Password: "tulip-lamp-7"}, "Email is invalid"},
			{members.SignUpInput{FirstName: "F", LastName: "L", Phone: "1", Email: "a@b.co", Password: "short"}, "at least 8"},
			{members.SignUpInput{FirstName: "F", LastName: "L", Phone: "1", Email: "a@b.co", Password: "12345678"}, secret.MsgPasswordCommon},
			{members.SignUpInput{FirstName: "F", LastName: "L", Phone: "1", Email: "a@b.co", Password: long}, "Password is too big"},
			{members.SignUpInput{FirstName: "F", LastName: "L", Phone: "1", Email: "ANN@example.com", Password: "tulip-lamp-7"}, "already exists"},
		}
		// The walk's number (issue 39, M7): 14 characters, 10 digits; stored as the profile stores it.
		ok, err := s.SignUp(ctx, members.SignUpInput{FirstName: "F", LastName: "L", Phone: "(212) 555-0199", Email: "paren@b.co", Password: "tulip-lamp-7"})
		dbtest.Must(t, err, "sign up with (212) 555-0199")
		if ok.Phone != "+12125550199" {
			t.Errorf("phone stored as %q, want +12125550199", ok.Phone)
		}
		for _, c := range cases {
			_, err := s.SignUp(ctx, c.in)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%+v: %v, want %q", c.in, err, c.want)
			}
		}
	})
}

func TestConcurrentSignUpsCreateOne(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s := newService(d)
		var wg sync.WaitGroup
		var mu sync.Mutex
		ok, conflicts := 0, 0
		for i := 0; i < 5; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := s.SignUp(context.Background(), members.SignUpInput{FirstName: "A", LastName: "B", Phone: "1", Email: "race@example.com", Password: "tulip-lamp-7"})
				mu.Lock()
				defer mu.Unlock()
				switch apperr.CodeOf(err) {
				case "":
					ok++
				case apperr.Conflict, apperr.TooMany:
					conflicts++
				default:
					t.Errorf("sign up: %v", err)
				}
			}()
		}
		wg.Wait()
		var n int
		dbtest.Must(t, d.QueryRow(context.Background(), "SELECT COUNT(*) FROM customers").Scan(&n), "count")
		if ok != 1 || n != 1 {
			t.Fatalf("%d succeeded, %d rows", ok, n)
		}
	})
}

func TestSessions(t *testing.T) {
	t.Parallel()
	eachService(t, func(t *testing.T, ctx context.Context, d *db.DB, s *members.Service) {
		c := signUp(t, s, "ann@example.com")
		_, _, err1 := s.SignIn(ctx, "ann@example.com", "wrong-password", "")
		_, _, err2 := s.SignIn(ctx, "nobody@example.com", "tulip-lamp-7", "")
		if err1 != members.ErrBadCredentials || err2 != members.ErrBadCredentials {
			t.Fatalf("bad credentials: %v / %v", err1, err2)
		}
		got, tok1, err := s.SignIn(ctx, " ANN@example.com", "tulip-lamp-7", "")
		dbtest.Must(t, err, "sign in")
		if got.ID != c.ID || len(tok1) < 43 {
			t.Fatalf("sign in: %+v %q", got, tok1)
		}
		// The token is stored hashed.
		var stored string
		dbtest.Must(t, d.QueryRow(ctx, "SELECT token_hash FROM sessions").Scan(&stored), "session")
		if stored == tok1 || strings.Contains(stored, tok1) {
			t.Fatal("session token stored in clear")
		}
		// Rotation: signing in again with the old cookie ends the old session.
		_, tok2, err := s.SignIn(ctx, "ann@example.com", "tulip-lamp-7", tok1)
		dbtest.Must(t, err, "sign in again")
		if _, err := s.Authenticate(ctx, tok1); err != members.ErrNoSession {
			t.Fatalf("old session alive: %v", err)
		}
		_, tok3, _ := s.SignIn(ctx, "ann@example.com", "tulip-lamp-7", "") // another device
		me, err := s.Authenticate(ctx, tok2)
		dbtest.Must(t, err, "authenticate")
		pw, old, wrong := "new-password", "tulip-lamp-7", "password2"
		// The current password is required, and must be right.
		if _, err := s.UpdateProfile(ctx, me, members.Update{Password: &pw}, tok2); err != members.ErrOldPasswordRequired {
			t.Fatalf("change without the current password: %v", err)
		}
		if _, err := s.UpdateProfile(ctx, me, members.Update{Password: &pw, OldPassword: &wrong}, tok2); err != members.ErrOldPasswordWrong {
			t.Fatalf("change with a wrong current password: %v", err)
		}
		_, err = s.UpdateProfile(ctx, me, members.Update{Password: &pw, OldPassword: &old}, tok2)
		dbtest.Must(t, err, "change password")
		// The member is told, by mail written with the change.
		var to, subject, body string
		dbtest.Must(t, d.QueryRow(ctx, "SELECT to_addr, subject, text_body FROM outbox").Scan(&to, &subject, &body), "mail")
		if to != "ann@example.com" || subject != "Your Locator password was changed" || !strings.Contains(body, "http://locator.test") || strings.Contains(body, pw) {
			t.Fatalf("password-change mail to %q: %q %q", to, subject, body)
		}
		if _, err := s.Authenticate(ctx, tok2); err != nil {
			t.Fatalf("current session ended by its own password change: %v", err)
		}
		if _, err := s.Authenticate(ctx, tok3); err != members.ErrNoSession {
			t.Fatalf("other session survived a password change: %v", err)
		}
		if _, _, err := s.SignIn(ctx, "ann@example.com", "new-password", ""); err != nil {
			t.Fatalf("new password: %v", err)
		}
		dbtest.Must(t, s.SignOut(ctx, tok2), "sign out")
		if _, err := s.Authenticate(ctx, tok2); err != members.ErrNoSession {
			t.Fatalf("signed-out session alive: %v", err)
		}
	})
}

func TestFailedSignInsLockTheAccountForEveryReplica(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		a, b := newService(d), newService(d) // two replicas
		ctx := context.Background()
		signUp(t, a, "ann@example.com")
		for i := 0; i < ratelimit.MaxSignInAttempts; i++ {
			if _, _, err := []*members.Service{a, b}[i%2].SignIn(ctx, "ann@example.com", "guess", ""); err != members.ErrBadCredentials {
				t.Fatalf("guess %d: %v", i, err)
			}
		}
		_, _, err := b.SignIn(ctx, "ann@example.com", "tulip-lamp-7", "")
		e, ok := apperr.As(err)
		if !ok || e.Code != apperr.TooMany || e.RetryAfter <= 0 {
			t.Fatalf("after %d failures: %v", ratelimit.MaxSignInAttempts, err)
		}
	})
}

func TestProfileUpdates(t *testing.T) {
	t.Parallel()
	eachService(t, func(t *testing.T, ctx context.Context, d *db.DB, s *members.Service) {
		c := signUp(t, s, "ann@example.com")
		str := func(v string) *string { return &v }
		got, err := s.UpdateProfile(ctx, c, members.Update{FirstName: str(" Anna "), LastName: str("Lee-Park")}, "")
		dbtest.Must(t, err, "name")
		if got.FirstName != "Anna" || got.LastName != "Lee-Park" {
			t.Fatalf("%+v", got)
		}
		got, err = s.UpdateProfile(ctx, c, members.Update{Phone: str("+4930123")}, "")
		dbtest.Must(t, err, "phone")
		if got.Phone != "+4930123" {
			t.Fatalf("%+v", got)
		}
		// The profile takes the spellings sign-up takes and stores them the same way (issue 39, M7).
		got, err = s.UpdateProfile(ctx, c, members.Update{Phone: str(" (212) 555-0199 ")}, "")
		dbtest.Must(t, err, "phone with separators")
		if got.Phone != "+12125550199" {
			t.Fatalf("profile phone stored as %q, want +12125550199", got.Phone)
		}
		for _, c2 := range []struct {
			u    members.Update
			want string
		}{
			{members.Update{FirstName: str(" "), LastName: str("x")}, "First name cant be empty"},
			{members.Update{FirstName: str("x"), LastName: str("")}, "First name cant be empty"},
			{members.Update{FirstName: str(strings.Repeat("x", 256)), LastName: str("x")}, "Name must be less than 255 symbols"},
			{members.Update{FirstName: str("x"), LastName: str(strings.Repeat("x", 256))}, "Last name must be less than 255 symbols"},
			{members.Update{Phone: str("1234567890123")}, "Phone should be less thant 12 symbols"},
			{members.Update{Phone: str("")}, "Phone is required"},
			{members.Update{Password: str("")}, "Password is required"},
			{members.Update{Password: str(strings.Repeat("x", 256))}, "Password is too big"},
			{members.Update{}, "Send first_name"},
			{members.Update{Phone: str("1"), Password: str("tulip-lamp-7")}, "Send first_name"},
			{members.Update{Phone: str("1"), OldPassword: str("tulip-lamp-7")}, "Send first_name"},
			{members.Update{OldPassword: str("tulip-lamp-7")}, "Password is required"},
			{members.Update{Password: str("qwertyuiop"), OldPassword: str("tulip-lamp-7")}, secret.MsgPasswordCommon},
		} {
			if _, err := s.UpdateProfile(ctx, c, c2.u, ""); err == nil || !strings.Contains(err.Error(), c2.want) {
				t.Errorf("%+v: %v, want %q", c2.u, err, c2.want)
			}
		}
	})
}

func TestPasswordReset(t *testing.T) {
	t.Parallel()
	eachService(t, func(t *testing.T, ctx context.Context, d *db.DB, s *members.Service) {
		signUp(t, s, "ann@example.com")
		_, tok, _ := s.SignIn(ctx, "ann@example.com", "tulip-lamp-7", "")

		// Unknown emails get the same answer and no mail.
		dbtest.Must(t, s.RequestReset(ctx, "nobody@example.com", "locator"), "unknown email")
		dbtest.Must(t, s.RequestReset(ctx, " Ann@Example.com ", "locator"), "reset request")
		s.Wait()
		var n int
		var to, body string
		dbtest.Must(t, d.QueryRow(ctx, "SELECT COUNT(*) FROM outbox").Scan(&n), "outbox")
		dbtest.Must(t, d.QueryRow(ctx, "SELECT to_addr, text_body FROM outbox").Scan(&to, &body), "mail")
		if n != 1 || to != "ann@example.com" {
			t.Fatalf("%d mails to %q", n, to)
		}
		_, after, ok := strings.Cut(body, "http://locator.test/reset-password?token=")
		if !ok {
			t.Fatalf("no link in %q", body)
		}
		token := strings.Fields(after)[0]
		var stored string
		dbtest.Must(t, d.QueryRow(ctx, "SELECT token_hash FROM password_resets").Scan(&stored), "token")
		if stored == token || len(token) < 22 { // >= 128 bits
			t.Fatal("reset token stored in clear or too short")
		}
		if err := s.ResetPassword(ctx, "other@example.com", "brand-new-1", token); err != members.ErrBadResetToken {
			t.Fatalf("token for another email: %v", err)
		}
		if err := s.ResetPassword(ctx, "ann@example.com", "short", token); apperr.CodeOf(err) != apperr.Invalid {
			t.Fatalf("short password: %v", err)
		}
		dbtest.Must(t, s.ResetPassword(ctx, "ann@example.com", "brand-new-1", token), "reset")
		if err := s.ResetPassword(ctx, "ann@example.com", "brand-new-2", token); err != members.ErrBadResetToken {
			t.Fatalf("token used twice: %v", err)
		}
		if _, err := s.Authenticate(ctx, tok); err != members.ErrNoSession {
			t.Fatalf("session survived a reset: %v", err)
		}
		if _, _, err := s.SignIn(ctx, "ann@example.com", "brand-new-1", ""); err != nil {
			t.Fatalf("sign in with the new password: %v", err)
		}
		// A newer link ends the older ones.
		lastToken := func() string {
			t.Helper()
			s.Wait()
			dbtest.Must(t, d.QueryRow(ctx, "SELECT text_body FROM outbox ORDER BY id DESC LIMIT 1").Scan(&body), "last mail")
			_, after, _ := strings.Cut(body, "token=")
			return strings.Fields(after)[0]
		}
		dbtest.Must(t, s.RequestReset(ctx, "ann@example.com", "locator"), "second request")
		older := lastToken()
		dbtest.Must(t, s.RequestReset(ctx, "ann@example.com", "locator"), "third request")
		token2 := lastToken()
		if err := s.ResetPassword(ctx, "ann@example.com", "brand-new-3", older); err != members.ErrBadResetToken {
			t.Fatalf("older token after a newer request: %v", err)
		}
		// Expired tokens fail.
		_, err := d.Exec(ctx, "UPDATE password_resets SET expires_at = $1", time.Now().UTC().Add(-time.Minute))
		dbtest.Must(t, err, "expire")
		if err := s.ResetPassword(ctx, "ann@example.com", "brand-new-3", token2); err != members.ErrBadResetToken {
			t.Fatalf("expired token: %v", err)
		}
		// Per-email request limit.
		var last error
		for i := 0; i < members.MaxResetsPerEmail+1; i++ {
			last = s.RequestReset(ctx, "limit@example.com", "locator")
		}
		if apperr.CodeOf(last) != apperr.TooMany {
			t.Fatalf("reset flood: %v", last)
		}
	})
}

// TestResetRequestAnswersBeforeTheWork: a known and an unknown email take
// the same steps before the answer (validation, the per-email limit, one
// job handed to Later); the lookup, token and mail happen in the job, so
// the answer cannot tell them apart by its timing.
func TestResetRequestAnswersBeforeTheWork(t *testing.T) {
	t.Parallel()
	eachService(t, func(t *testing.T, ctx context.Context, d *db.DB, s *members.Service) {
		signUp(t, s, "ann@example.com")
		var jobs []func(context.Context)
		s.Later = func(job func(context.Context)) error { jobs = append(jobs, job); return nil }
		count := func(table string) (n int) {
			t.Helper()
			dbtest.Must(t, d.QueryRow(ctx, "SELECT COUNT(*) FROM "+table).Scan(&n), "count %s", table)
			return n
		}
		for i, email := range []string{"ann@example.com", "nobody@example.com"} {
			dbtest.Must(t, s.RequestReset(ctx, email, "locator"), "request for %s", email)
			if len(jobs) != i+1 || count("password_resets") != 0 || count("outbox") != 0 {
				t.Fatalf("%s: %d jobs, work done before the answer", email, len(jobs))
			}
		}
		for _, job := range jobs {
			job(ctx)
		}
		var to string
		dbtest.Must(t, d.QueryRow(ctx, "SELECT to_addr FROM outbox").Scan(&to), "mail")
		if count("outbox") != 1 || to != "ann@example.com" || count("password_resets") != 1 {
			t.Fatalf("after the jobs: %d mails to %q", count("outbox"), to)
		}
		// No room for the work: refused, the same way for any email.
		s.Later = func(func(context.Context)) error { return secret.ErrBusy }
		for _, email := range []string{"bob@example.com", "nobody2@example.com"} {
			if err := s.RequestReset(ctx, email, "locator"); err != secret.ErrBusy {
				t.Fatalf("%s: %v", email, err)
			}
		}
		// By default the job runs after the answer, in a context of its own:
		// the request's ending does not stop it.
		s.Later = nil
		reqCtx, cancel := context.WithCancel(ctx)
		dbtest.Must(t, s.RequestReset(reqCtx, "ann@example.com", "locator"), "request")
		cancel()
		s.Wait()
		if count("outbox") != 2 {
			t.Fatalf("%d mails after a request whose context ended", count("outbox"))
		}
	})
}

// TestResetRequestsAcrossReplicas sends 30 reset requests for one email at
// once through two replicas: exactly MaxResetsPerEmail mails.
func TestResetRequestsAcrossReplicas(t *testing.T) {
	t.Parallel()
	dbtest.EachPair(t, func(t *testing.T, da, dbb *db.DB) {
		replicas := []*members.Service{newService(da), newService(dbb)}
		signUp(t, replicas[0], "ann@example.com")
		var wg sync.WaitGroup
		for i := range 30 {
			wg.Go(func() {
				err := replicas[i%2].RequestReset(context.Background(), "ann@example.com", "locator")
				if err != nil && apperr.CodeOf(err) != apperr.TooMany {
					t.Errorf("request %d: %v", i, err)
				}
			})
		}
		wg.Wait()
		replicas[0].Wait()
		replicas[1].Wait()
		var n int
		dbtest.Must(t, da.QueryRow(context.Background(), "SELECT COUNT(*) FROM outbox").Scan(&n), "count")
		if n != members.MaxResetsPerEmail {
			t.Fatalf("%d mails for 30 concurrent requests, want %d", n, members.MaxResetsPerEmail)
		}
	})
}

// TestResetLinkLogging: the reset link reaches the log only when the
// operator turns LogResetLinks on.
func TestResetLinkLogging(t *testing.T) {
	t.Parallel()
	d := dbtest.SQLite(t)
	for _, on := range []bool{false, true} {
		var logged bytes.Buffer
		s := newService(d)
		s.Log = slog.New(slog.NewTextHandler(&logged, nil))
		s.LogResetLinks = on
		email := fmt.Sprintf("log-%v@example.com", on)
		signUp(t, s, email)
		dbtest.Must(t, s.RequestReset(context.Background(), email, "locator"), "request")
		s.Wait()
		var body string
		dbtest.Must(t, d.QueryRow(context.Background(), "SELECT text_body FROM outbox WHERE to_addr = $1", email).Scan(&body), "mail")
		_, after, _ := strings.Cut(body, "token=")
		token := strings.Fields(after)[0]
		if got := strings.Contains(logged.String(), token); got != on {
			t.Fatalf("LogResetLinks=%v: token in the log: %v\n%s", on, got, logged.String())
		}
	}
}
