package mail_test

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/mail"
	"locator/internal/mail/smtptest"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

func enqueue(t *testing.T, d *db.DB, to, subject string) {
	t.Helper()
	dbtest.Must(t, d.InTx(context.Background(), func(tx *db.Tx) error {
		return mail.Enqueue(context.Background(), tx, mail.Message{To: to, Subject: subject, Text: "Hello " + to + "\nLink: https://x.test/a?b=c", HTML: "<p>Hello</p>"})
	}), "enqueue")
}

func TestDeliverOverSTARTTLSWithAuth(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		serverTLS, pool, err := smtptest.SelfSigned()
		dbtest.Must(t, err, "cert")
		sink, err := smtptest.Start(smtptest.Options{User: "mailer", Pass: "s3cret", TLS: serverTLS})
		dbtest.Must(t, err, "sink")
		defer sink.Stop()
		sender, err := mail.ParseSMTPURL("smtp://mailer:s3cret@"+sink.Addr()+"?starttls=required", "Locator <no-reply@locator.test>")
		dbtest.Must(t, err, "url")
		sender.TLSConfig = &tls.Config{RootCAs: pool, ServerName: "127.0.0.1"}

		// A message whose transaction rolls back is never sent.
		_ = d.InTx(ctx, func(tx *db.Tx) error {
			_ = mail.Enqueue(ctx, tx, mail.Message{To: "ghost@example.com", Subject: "ghost"})
			return errors.New("roll back")
		})
		enqueue(t, d, "ann@example.com", "Réinitialiser")
		w := &mail.Worker{DB: d, Sender: sender, From: sender.From, Log: quiet}
		n, err := w.DeliverDue(ctx)
		dbtest.Must(t, err, "deliver")
		if n != 1 {
			t.Fatalf("sent %d, want 1", n)
		}
		msgs := sink.Messages()
		if len(msgs) != 1 || msgs[0].To[0] != "ann@example.com" || msgs[0].From != "no-reply@locator.test" {
			t.Fatalf("received %+v", msgs)
		}
		m := msgs[0]
		if m.Header("Subject") != "Réinitialiser" || !strings.Contains(m.Part("text/plain"), "Link: https://x.test/a?b=c") || m.Part("text/html") != "<p>Hello</p>" {
			t.Fatalf("message: %q %q %q", m.Header("Subject"), m.Part("text/plain"), m.Part("text/html"))
		}
		// Nothing is due any more.
		if n, _ := w.DeliverDue(ctx); n != 0 {
			t.Fatalf("resent %d", n)
		}
	})
}

func TestRefusesCredentialsWithoutTLS(t *testing.T) {
	t.Parallel()
	sink, err := smtptest.Start(smtptest.Options{User: "u", Pass: "p"})
	if err != nil {
		t.Fatal(err)
	}
	defer sink.Stop()
	s, _ := mail.ParseSMTPURL("smtp://u:p@"+sink.Addr(), "a@b.test")
	if err := s.Send(context.Background(), "x@y.test", []byte("Subject: x\r\n\r\nx")); err == nil || !strings.Contains(err.Error(), "without TLS") {
		t.Fatalf("plain-text credentials: %v", err)
	}
	s, _ = mail.ParseSMTPURL("smtp://u:p@"+sink.Addr()+"?insecure_auth=1", "a@b.test")
	if err := s.Send(context.Background(), "x@y.test", []byte("Subject: x\r\n\r\nx")); err != nil {
		t.Fatalf("local relay with insecure_auth: %v", err)
	}
	for _, bad := range []string{"http://x", "smtp://", "smtp://h:port", "smtp://h:25?starttls=maybe"} {
		if _, err := mail.ParseSMTPURL(bad, "a@b.test"); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// fastClock runs speed times faster than real time from now on: the
// workers' leases, backoff and due times follow it, so a long outage plays
// out in a fraction of the time while the SMTP conversations stay real.
// Mail enqueued in real time is due at once by it (it is never behind).
func fastClock(speed int) func() time.Time {
	start := time.Now()
	return func() time.Time { return start.Add(time.Since(start) * time.Duration(speed)) }
}

// TestOutageLosesNothing stops the SMTP server for 60 s (by the workers'
// clock, 1.2 s of real time) while mail keeps coming: every message arrives
// exactly once after it is back.
func TestOutageLosesNothing(t *testing.T) {
	t.Parallel()
	const speed = 50
	sleep := func(d time.Duration) { time.Sleep(d / speed) } // d by the workers' clock
	for _, engine := range []string{"sqlite", "postgres"} {
		t.Run(engine, func(t *testing.T) {
			t.Parallel()
			var d *db.DB
			if engine == "sqlite" {
				d = dbtest.SQLite(t)
			} else {
				d = dbtest.Postgres(t)
			}
			sink, err := smtptest.Start(smtptest.Options{})
			dbtest.Must(t, err, "sink")
			defer sink.Stop()
			sender, _ := mail.ParseSMTPURL("smtp://"+sink.Addr()+"?starttls=off", "no-reply@locator.test")
			sender.Timeout = 2 * time.Second
			ctx, cancel := context.WithCancel(context.Background())
			// Two workers, as two replicas would run, with the default backoff
			// (5 s doubling) and a lease far longer than a real send takes.
			clock := fastClock(speed)
			var workers sync.WaitGroup
			for range 2 {
				w := &mail.Worker{DB: d, Sender: sender, From: sender.From, Log: quiet, Poll: 10 * time.Millisecond, Lease: time.Hour, Now: clock}
				workers.Go(func() { w.Run(ctx) })
			}
			defer workers.Wait()
			defer cancel()
			enqueue(t, d, "before@example.com", "before")
			if got := sink.Wait(1, 10*time.Second); len(got) != 1 {
				t.Fatalf("before the outage: %d messages", len(got))
			}
			sink.Stop()
			for range 5 {
				enqueue(t, d, "during@example.com", "during")
				sleep(10 * time.Second)
			}
			sleep(10 * time.Second) // 60 s down in all
			var failed int
			dbtest.Must(t, d.QueryRow(context.Background(), "SELECT COUNT(*) FROM outbox WHERE last_error <> ''").Scan(&failed), "count failures")
			if failed == 0 {
				t.Fatal("no delivery was tried during the outage")
			}
			dbtest.Must(t, sink.Restart(), "restart")
			enqueue(t, d, "after@example.com", "after")
			if got := sink.Wait(7, 20*time.Second); len(got) != 7 {
				t.Fatalf("%d messages within 20 s after the outage, want 7", len(got))
			}
			sleep(30 * time.Second) // many more polls by both workers: would a duplicate follow?
			got := sink.Messages()
			count := map[string]int{}
			for _, m := range got {
				count[m.To[0]]++
			}
			if len(got) != 7 || count["before@example.com"] != 1 || count["during@example.com"] != 5 || count["after@example.com"] != 1 {
				t.Fatalf("%d messages after the outage, want 7, each once: %v", len(got), count)
			}
			var pending int
			dbtest.Must(t, d.QueryRow(context.Background(), "SELECT COUNT(*) FROM outbox WHERE sent_at IS NULL").Scan(&pending), "count")
			if pending != 0 {
				t.Fatalf("%d messages still pending", pending)
			}
		})
	}
}

// TestPruneSentMail deletes sent mail past the retention and keeps the
// rest, above all mail not sent yet.
func TestPruneSentMail(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		now := time.Now().UTC()
		for _, to := range []string{"old@example.com", "recent@example.com", "unsent@example.com", "failed@example.com"} {
			enqueue(t, d, to, to)
		}
		set := func(q string, args ...any) {
			t.Helper()
			_, err := d.Exec(ctx, q, args...)
			dbtest.Must(t, err, "%s", q)
		}
		set("UPDATE outbox SET sent_at = $1, created_at = $1 WHERE to_addr = 'old@example.com'", now.Add(-8*24*time.Hour))
		set("UPDATE outbox SET sent_at = $1 WHERE to_addr = 'recent@example.com'", now.Add(-6*24*time.Hour))
		set("UPDATE outbox SET created_at = $1 WHERE to_addr = 'unsent@example.com'", now.Add(-30*24*time.Hour))
		set("UPDATE outbox SET failed_at = $1, created_at = $1 WHERE to_addr = 'failed@example.com'", now.Add(-30*24*time.Hour))
		n, err := mail.Prune(ctx, d, 7*24*time.Hour, now)
		dbtest.Must(t, err, "prune")
		left := dbtest.Texts(t, d, "", "SELECT to_addr FROM outbox ORDER BY to_addr")
		if n != 1 || strings.Join(left, " ") != "failed@example.com recent@example.com unsent@example.com" {
			t.Fatalf("pruned %d, left %v", n, left)
		}
	})
}

func TestFilesSender(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	f := mail.Files{Dir: filepath.Join(dir, "mail")}
	raw := mail.Render("no-reply@locator.test", mail.Message{ID: 1, To: "a@b.test", Subject: "Hi", Text: "t", HTML: "<b>h</b>"}, time.Now())
	if err := f.Send(context.Background(), "a@b.test", raw); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "mail", "*.eml"))
	if len(files) != 1 {
		t.Fatalf("%d files", len(files))
	}
	b, _ := os.ReadFile(files[0])
	if !strings.Contains(string(b), "To: a@b.test") || !strings.Contains(string(b), "multipart/alternative") {
		t.Fatalf("eml: %s", b)
	}
}

// TestSentMailKeepsNoLinkSecrets: the message goes out with its link
// whole, and the copy the outbox keeps (for up to 7 days) has the link's
// query removed, so a reader of the database finds no live token in it.
// A message given up is kept the same way.
func TestSentMailKeepsNoLinkSecrets(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		const link = "http://locator.test/reset-password?token=Zm9vYmFyLXNlY3JldC10b2tlbg&x=1"
		for _, to := range []string{"ann@example.com", "bob@example.com"} {
			dbtest.Must(t, d.InTx(ctx, func(tx *db.Tx) error {
				return mail.Enqueue(ctx, tx, mail.Message{To: to, Subject: "Reset", Text: "Open " + link + "\nwithin 30 minutes.",
					HTML: `<p><a href="` + link + `">Reset</a> (` + link + `)</p>`})
			}), "enqueue")
		}
		sink, err := smtptest.Start(smtptest.Options{})
		dbtest.Must(t, err, "sink")
		defer sink.Stop()
		sender, _ := mail.ParseSMTPURL("smtp://"+sink.Addr()+"?starttls=off", "no-reply@locator.test")
		// bob's server refuses him for good: one attempt is the most.
		w := &mail.Worker{DB: d, Sender: refuse{sender, "bob@example.com"}, From: sender.From, Log: quiet, MaxAttempts: 1}
		n, err := w.DeliverDue(ctx)
		dbtest.Must(t, err, "deliver")
		msgs := sink.Wait(1, 5*time.Second)
		if n != 1 || len(msgs) != 1 || !strings.Contains(msgs[0].Part("text/plain"), link) {
			t.Fatalf("sent %d, received %+v", n, msgs)
		}
		for _, to := range []string{"ann@example.com", "bob@example.com"} {
			var text, html string
			dbtest.Must(t, d.QueryRow(ctx, "SELECT text_body, html_body FROM outbox WHERE to_addr = $1", to).Scan(&text, &html), "kept copy")
			want := "http://locator.test/reset-password" + mail.RemovedQuery
			if strings.Contains(text+html, "Zm9vYmFy") || !strings.Contains(text, "Open "+want+"\nwithin") || !strings.Contains(html, `href="`+want+`"`) {
				t.Fatalf("%s: kept copy %q / %q", to, text, html)
			}
		}
	})
}

// refuse sends through s except to one address, which always fails.
type refuse struct {
	s  mail.Sender
	to string
}

func (r refuse) Send(ctx context.Context, to string, msg []byte) error {
	if to == r.to {
		return errors.New("550 no such user")
	}
	return r.s.Send(ctx, to, msg)
}
