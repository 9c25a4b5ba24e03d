// Package testsmtp is a real SMTP server for tests (emersion/go-smtp,
// in-process on a loopback port) that keeps the mails it receives, decoded:
// the account flows' tests read their links from it.
package testsmtp

import (
	"bytes"
	"encoding/base64"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net"
	netmail "net/mail"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// Mail is one received message.
type Mail struct {
	From    string
	To      []string
	Subject string
	Header  netmail.Header
	Text    string
	HTML    string
}

// Server is a running SMTP server.
type Server struct {
	Host string
	Port int
	// User and Pass are the credentials it requires (AUTH PLAIN).
	User, Pass string

	mu    sync.Mutex
	mails []Mail
	added chan struct{}
}

// Start runs a server until the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	s := &Server{User: "mailer", Pass: "mail-secret", added: make(chan struct{}, 100)}
	srv := smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) { return &session{s: s}, nil }))
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = true // loopback only
	srv.ReadTimeout, srv.WriteTimeout = 10*time.Second, 10*time.Second
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().(*net.TCPAddr)
	s.Host, s.Port = "127.0.0.1", addr.Port
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(func() { _ = srv.Close() })
	return s
}

// Mails is what arrived so far.
func (s *Server) Mails() []Mail {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Mail(nil), s.mails...)
}

// Wait returns the n-th mail (from 1), waiting up to five seconds for it.
func (s *Server) Wait(t testing.TB, n int) Mail {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		if m := s.Mails(); len(m) >= n {
			return m[n-1]
		}
		select {
		case <-s.added:
		case <-deadline:
			t.Fatalf("mail %d did not arrive (got %d)", n, len(s.Mails()))
		}
	}
}

type session struct {
	s    *Server
	auth bool
	from string
	to   []string
}

func (x *session) AuthMechanisms() []string { return []string{sasl.Plain} }

func (x *session) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, user, pass string) error {
		if user != x.s.User || pass != x.s.Pass {
			return errors.New("invalid credentials")
		}
		x.auth = true
		return nil
	}), nil
}

func (x *session) Mail(from string, _ *smtp.MailOptions) error {
	if !x.auth {
		return smtp.ErrAuthRequired
	}
	x.from = from
	return nil
}

func (x *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	x.to = append(x.to, to)
	return nil
}

func (x *session) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	m, err := decode(raw)
	if err != nil {
		return err
	}
	m.From, m.To = x.from, x.to
	x.s.mu.Lock()
	x.s.mails = append(x.s.mails, m)
	x.s.mu.Unlock()
	select {
	case x.s.added <- struct{}{}:
	default:
	}
	return nil
}

func (x *session) Reset()        { x.from, x.to = "", nil }
func (x *session) Logout() error { return nil }

// decode reads a message's subject and its text and HTML parts.
func decode(raw []byte) (Mail, error) {
	msg, err := netmail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return Mail{}, err
	}
	var m Mail
	m.Header = msg.Header
	dec := new(mime.WordDecoder)
	if m.Subject, err = dec.DecodeHeader(msg.Header.Get("Subject")); err != nil {
		return m, err
	}
	return m, walk(&m, msg.Header.Get("Content-Type"), msg.Header.Get("Content-Transfer-Encoding"), msg.Body)
}

func walk(m *Mail, ctype, enc string, body io.Reader) error {
	mt, params, err := mime.ParseMediaType(ctype)
	if err != nil {
		return err
	}
	if strings.HasPrefix(mt, "multipart/") {
		mr := multipart.NewReader(body, params["boundary"])
		for {
			p, err := mr.NextRawPart()
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
			if err := walk(m, p.Header.Get("Content-Type"), p.Header.Get("Content-Transfer-Encoding"), p); err != nil {
				return err
			}
		}
	}
	switch strings.ToLower(enc) {
	case "quoted-printable":
		body = quotedprintable.NewReader(body)
	case "base64":
		body = base64.NewDecoder(base64.StdEncoding, body)
	}
	b, err := io.ReadAll(body)
	if err != nil {
		return err
	}
	switch mt {
	case "text/plain":
		m.Text = string(b)
	case "text/html":
		m.HTML = string(b)
	}
	return nil
}
