// Package smtptest runs a real SMTP server on 127.0.0.1 for tests: it keeps
// what it receives, can require STARTTLS and a password, and can be stopped
// and restarted on the same port to simulate an outage.
package smtptest

import (
	"bytes"
	"crypto/tls"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net"
	"net/mail"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// Received is one delivered message.
type Received struct {
	From string
	To   []string
	Data []byte
}

// Header returns a header of the message.
func (r Received) Header(key string) string {
	m, err := mail.ReadMessage(bytes.NewReader(r.Data))
	if err != nil {
		return ""
	}
	v := m.Header.Get(key)
	if dec, err := new(mime.WordDecoder).DecodeHeader(v); err == nil {
		return dec
	}
	return v
}

// Part returns the decoded body part of the given type (text/plain, text/html).
func (r Received) Part(ctype string) string {
	m, err := mail.ReadMessage(bytes.NewReader(r.Data))
	if err != nil {
		return ""
	}
	_, params, err := mime.ParseMediaType(m.Header.Get("Content-Type"))
	if err != nil {
		return ""
	}
	mr := multipart.NewReader(m.Body, params["boundary"])
	for {
		p, err := mr.NextPart() // decodes quoted-printable
		if err != nil {
			return ""
		}
		if t, _, _ := mime.ParseMediaType(p.Header.Get("Content-Type")); t == ctype {
			b, _ := io.ReadAll(p)
			return strings.ReplaceAll(string(b), "\r\n", "\n")
		}
	}
}

// Options configure a Server.
type Options struct {
	User, Pass string      // require AUTH PLAIN with these
	TLS        *tls.Config // offer STARTTLS
}

// Server is a running sink.
type Server struct {
	opts Options
	addr string
	mu   sync.Mutex
	msgs []Received
	srv  *smtp.Server
}

// Start listens on a free port of 127.0.0.1.
func Start(o Options) (*Server, error) {
	s := &Server{opts: o}
	if err := s.listen("127.0.0.1:0"); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *Server) listen(addr string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) { return &session{s: s}, nil }))
	srv.Domain = "sink.test"
	srv.AllowInsecureAuth = s.opts.TLS == nil
	srv.TLSConfig = s.opts.TLS
	srv.ReadTimeout = 10 * time.Second
	srv.WriteTimeout = 10 * time.Second
	s.mu.Lock()
	s.addr, s.srv = ln.Addr().String(), srv
	s.mu.Unlock()
	go srv.Serve(ln) //nolint:errcheck // ends with Close
	return nil
}

// Addr is host:port.
func (s *Server) Addr() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addr
}

// Stop closes the listener and every connection: an outage.
func (s *Server) Stop() {
	s.mu.Lock()
	srv := s.srv
	s.srv = nil
	s.mu.Unlock()
	if srv != nil {
		_ = srv.Close()
	}
}

// Restart listens again on the same port.
func (s *Server) Restart() error {
	var err error
	for i := 0; i < 50; i++ { // the port may linger briefly
		if err = s.listen(s.Addr()); err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return err
}

// Messages returns what was received so far.
func (s *Server) Messages() []Received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Received(nil), s.msgs...)
}

// Wait blocks until at least n messages arrived or the timeout passes.
func (s *Server) Wait(n int, timeout time.Duration) []Received {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if m := s.Messages(); len(m) >= n {
			return m
		}
		time.Sleep(20 * time.Millisecond)
	}
	return s.Messages()
}

type session struct {
	s      *Server
	authed bool
	cur    Received
}

func (ss *session) AuthMechanisms() []string {
	if ss.s.opts.User == "" {
		return nil
	}
	return []string{sasl.Plain}
}

func (ss *session) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, user, pass string) error {
		if user != ss.s.opts.User || pass != ss.s.opts.Pass {
			return errors.New("bad credentials")
		}
		ss.authed = true
		return nil
	}), nil
}

func (ss *session) Mail(from string, _ *smtp.MailOptions) error {
	if ss.s.opts.User != "" && !ss.authed {
		return smtp.ErrAuthRequired
	}
	ss.cur = Received{From: from}
	return nil
}

func (ss *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	ss.cur.To = append(ss.cur.To, to)
	return nil
}

func (ss *session) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	ss.cur.Data = b
	ss.s.mu.Lock()
	ss.s.msgs = append(ss.s.msgs, ss.cur)
	ss.s.mu.Unlock()
	return nil
}

func (ss *session) Reset()        { ss.cur = Received{} }
func (ss *session) Logout() error { return nil }
