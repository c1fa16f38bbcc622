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

// TestOutageLosesNothing stops the SMTP server for 60 s while mail keeps
// coming: every message arrives exactly once after it is back.
func TestOutageLosesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("60 s outage")
	}
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
			defer cancel()
			// Two workers, as two replicas would run.
			for i := 0; i < 2; i++ {
				w := &mail.Worker{DB: d, Sender: sender, From: sender.From, Log: quiet, Poll: 100 * time.Millisecond, Base: 500 * time.Millisecond, Max: 4 * time.Second}
				go w.Run(ctx)
			}
			enqueue(t, d, "before@example.com", "before")
			if got := sink.Wait(1, 10*time.Second); len(got) != 1 {
				t.Fatalf("before the outage: %d messages", len(got))
			}
			sink.Stop()
			for i := 0; i < 5; i++ {
				enqueue(t, d, "during@example.com", "during")
				time.Sleep(10 * time.Second)
			}
			time.Sleep(10 * time.Second) // 60 s down in all
			dbtest.Must(t, sink.Restart(), "restart")
			enqueue(t, d, "after@example.com", "after")
			got := sink.Wait(7, 20*time.Second)
			time.Sleep(time.Second) // would a duplicate follow?
			got = sink.Messages()
			if len(got) != 7 {
				t.Fatalf("%d messages after the outage, want 7", len(got))
			}
			var pending int
			dbtest.Must(t, d.QueryRow(context.Background(), "SELECT COUNT(*) FROM outbox WHERE sent_at IS NULL").Scan(&pending), "count")
			if pending != 0 {
				t.Fatalf("%d messages still pending", pending)
			}
		})
	}
}

func TestFilesSender(t *testing.T) {
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
