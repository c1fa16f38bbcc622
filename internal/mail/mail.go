// Package mail delivers email without losing any: a message is written to
// the outbox table in the same transaction as the change that causes it,
// and a worker (one per replica; they never send the same message twice at
// once) delivers it over SMTP with retries and backoff. Without SMTP
// configured, messages are written as .eml files instead.
package mail

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"mime"
	"mime/quotedprintable"
	"net/mail"
	"regexp"
	"strings"
	"time"

	"locator/internal/apperr"
	"locator/internal/db"
)

// Message is one email.
type Message struct {
	ID      int64
	To      string
	Subject string
	Text    string // plain-text body
	HTML    string // HTML body
}

// Enqueue writes m to the outbox inside tx: it is sent only if tx commits.
func Enqueue(ctx context.Context, tx *db.Tx, m Message) error {
	if _, err := mail.ParseAddress(m.To); err != nil {
		return apperr.Invalidf("invalid email address")
	}
	now := time.Now().UTC()
	_, err := tx.Exec(ctx, `INSERT INTO outbox (to_addr, subject, text_body, html_body, created_at, next_attempt_at)
		VALUES ($1, $2, $3, $4, $5, $5)`, m.To, m.Subject, m.Text, m.HTML, now)
	if err != nil {
		return fmt.Errorf("enqueue mail: %w", err)
	}
	return nil
}

// Render builds the MIME message (multipart/alternative, text and HTML).
func Render(from string, m Message, now time.Time) []byte {
	var b bytes.Buffer
	boundary := randomHex(12)
	host := "locator.local"
	if _, h, ok := strings.Cut(from, "@"); ok {
		host = strings.Trim(h, "> ")
	}
	hdr := func(k, v string) { fmt.Fprintf(&b, "%s: %s\r\n", k, v) }
	hdr("From", from)
	hdr("To", m.To)
	hdr("Subject", mime.QEncoding.Encode("utf-8", m.Subject))
	hdr("Date", now.Format(time.RFC1123Z))
	hdr("Message-ID", fmt.Sprintf("<outbox-%d-%s@%s>", m.ID, randomHex(6), host))
	hdr("MIME-Version", "1.0")
	hdr("Content-Type", `multipart/alternative; boundary="`+boundary+`"`)
	b.WriteString("\r\n")
	part := func(ctype, body string) {
		fmt.Fprintf(&b, "--%s\r\nContent-Type: %s; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n", boundary, ctype)
		w := quotedprintable.NewWriter(&b)
		_, _ = w.Write([]byte(strings.ReplaceAll(body, "\n", "\r\n")))
		_ = w.Close()
		b.WriteString("\r\n")
	}
	part("text/plain", m.Text)
	part("text/html", m.HTML)
	fmt.Fprintf(&b, "--%s--\r\n", boundary)
	return b.Bytes()
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// linkQuery is the query of an http(s) link in a text or HTML body: where
// every secret a mail carries lives (proof and reset links put their
// token there, "?token=...").
var linkQuery = regexp.MustCompile(`(https?://[^\s"'<>?#]*)\?[^\s"'<>#]*`)

// RemovedQuery stands in a sent message's links for the query removed.
const RemovedQuery = "?(removed once sent)"

// RemoveLinkSecrets returns body with the query of every link replaced by
// RemovedQuery: what the outbox keeps of a message once it is sent, so
// the copy still says what was mailed to whom but opens nothing.
func RemoveLinkSecrets(body string) string {
	return linkQuery.ReplaceAllString(body, "${1}"+RemovedQuery)
}
