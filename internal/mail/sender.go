package mail

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"net/smtp"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Sender delivers one rendered message.
type Sender interface {
	Send(ctx context.Context, to string, msg []byte) error
}

// SMTP sends through an SMTP server described by a URL:
//
//	smtp://user:pass@host:587            STARTTLS when offered (required with ?starttls=required)
//	smtp://host:25?starttls=off           plain
//	smtps://user:pass@host:465            implicit TLS
//
// Credentials are sent only over TLS unless ?insecure_auth=1 (a local relay).
type SMTP struct {
	addr, host   string
	implicitTLS  bool
	starttls     string // "opportunistic", "required" or "off"
	user, pass   string
	insecureAuth bool
	From         string
	TLSConfig    *tls.Config // nil: system roots and the server name
	Timeout      time.Duration
}

// ParseSMTPURL validates an SMTP URL (LOCATOR_SMTP_URL).
func ParseSMTPURL(raw, from string) (*SMTP, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || (u.Scheme != "smtp" && u.Scheme != "smtps") {
		return nil, fmt.Errorf("want smtp://[user:pass@]host:port or smtps://...")
	}
	s := &SMTP{host: u.Hostname(), implicitTLS: u.Scheme == "smtps", From: from, Timeout: 20 * time.Second}
	port := u.Port()
	if port == "" {
		port = map[bool]string{true: "465", false: "587"}[s.implicitTLS]
	}
	if _, err := strconv.Atoi(port); err != nil {
		return nil, fmt.Errorf("bad port %q", port)
	}
	s.addr = net.JoinHostPort(s.host, port)
	if u.User != nil {
		s.user = u.User.Username()
		s.pass, _ = u.User.Password()
	}
	q := u.Query()
	s.starttls = q.Get("starttls")
	switch s.starttls {
	case "":
		s.starttls = "opportunistic"
	case "opportunistic", "required", "off":
	default:
		return nil, fmt.Errorf("starttls must be opportunistic, required or off")
	}
	s.insecureAuth = q.Get("insecure_auth") == "1"
	return s, nil
}

// Send delivers msg to one recipient.
func (s *SMTP) Send(ctx context.Context, to string, msg []byte) error {
	d := net.Dialer{Timeout: s.Timeout}
	conn, err := d.DialContext(ctx, "tcp", s.addr)
	if err != nil {
		return fmt.Errorf("connect to %s: %w", s.addr, err)
	}
	_ = conn.SetDeadline(time.Now().Add(s.Timeout))
	tlsCfg := s.TLSConfig
	if tlsCfg == nil {
		tlsCfg = &tls.Config{ServerName: s.host, MinVersion: tls.VersionTLS12}
	}
	secure := s.implicitTLS
	if s.implicitTLS {
		conn = tls.Client(conn, tlsCfg)
	}
	c, err := smtp.NewClient(conn, s.host)
	if err != nil {
		conn.Close()
		return fmt.Errorf("smtp greeting from %s: %w", s.addr, err)
	}
	defer c.Close()
	if err := c.Hello("localhost"); err != nil {
		return fmt.Errorf("smtp hello: %w", err)
	}
	if !s.implicitTLS && s.starttls != "off" {
		if ok, _ := c.Extension("STARTTLS"); ok {
			if err := c.StartTLS(tlsCfg); err != nil {
				return fmt.Errorf("smtp starttls: %w", err)
			}
			secure = true
		} else if s.starttls == "required" {
			return fmt.Errorf("smtp server %s does not offer STARTTLS", s.addr)
		}
	}
	if s.user != "" {
		if !secure && !s.insecureAuth {
			return fmt.Errorf("refusing to send SMTP credentials without TLS (add ?insecure_auth=1 for a local relay)")
		}
		if err := c.Auth(plainAuth{user: s.user, pass: s.pass}); err != nil {
			return fmt.Errorf("smtp auth: %w", err)
		}
	}
	if err := c.Mail(bareAddress(s.From)); err != nil {
		return fmt.Errorf("smtp mail from: %w", err)
	}
	if err := c.Rcpt(to); err != nil {
		return fmt.Errorf("smtp rcpt to: %w", err)
	}
	wc, err := c.Data()
	if err != nil {
		return fmt.Errorf("smtp data: %w", err)
	}
	if _, err := wc.Write(msg); err != nil {
		return fmt.Errorf("smtp data: %w", err)
	}
	if err := wc.Close(); err != nil {
		return fmt.Errorf("smtp data: %w", err)
	}
	// The server accepted the message with its reply to DATA: it is
	// delivered. A failed QUIT must not make the worker send it again.
	_ = c.Quit()
	return nil
}

// plainAuth is PLAIN without net/smtp's own TLS check: Send already decided
// whether credentials may go out.
type plainAuth struct{ user, pass string }

func (a plainAuth) Start(*smtp.ServerInfo) (string, []byte, error) {
	return "PLAIN", []byte("\x00" + a.user + "\x00" + a.pass), nil
}

func (a plainAuth) Next(_ []byte, more bool) ([]byte, error) {
	if more {
		return nil, fmt.Errorf("unexpected server challenge")
	}
	return nil, nil
}

func bareAddress(a string) string {
	if i := strings.LastIndex(a, "<"); i >= 0 {
		return strings.TrimSuffix(a[i+1:], ">")
	}
	return a
}

// Files writes each message as an .eml file under Dir (no SMTP configured).
type Files struct{ Dir string }

// Send writes msg to Dir.
func (f Files) Send(_ context.Context, to string, msg []byte) error {
	if err := os.MkdirAll(f.Dir, 0o750); err != nil {
		return fmt.Errorf("create mail folder: %w", err)
	}
	name := fmt.Sprintf("%s-%s.eml", time.Now().UTC().Format("20060102T150405.000000000"), randomHex(4))
	tmp := filepath.Join(f.Dir, "."+name)
	if err := os.WriteFile(tmp, msg, 0o640); err != nil {
		return fmt.Errorf("write mail file: %w", err)
	}
	return os.Rename(tmp, filepath.Join(f.Dir, name))
}
