package mail_test

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"

	"github.com/stratum-cms/stratum/internal/testsmtp"
	"github.com/stratum-cms/stratum/mail"
)

func smtpConfig(srv *testsmtp.Server) mail.Config {
	c := mail.Config{Provider: "smtp"}
	c.ProviderOptions.Host, c.ProviderOptions.Port = srv.Host, srv.Port
	c.ProviderOptions.Auth.User, c.ProviderOptions.Auth.Pass = srv.User, srv.Pass
	c.Settings.DefaultFrom = "no-reply@example.com"
	return c
}

func TestSMTPDelivers(t *testing.T) {
	srv := testsmtp.Start(t)
	s, err := mail.New(smtpConfig(srv), true, nil)
	if err != nil {
		t.Fatal(err)
	}
	html := mail.Render("<p>Hi <%= USER.username %>, <%= URL %>?code=<%= TOKEN %></p>", map[string]string{
		"USER.username": "<script>x</script>", "URL": "https://a.example/r", "TOKEN": "abc"}, true)
	err = s.Send(t.Context(), mail.Message{To: "kai@example.com", Subject: "Reset password", HTML: html, Text: mail.Text(html)})
	if err != nil {
		t.Fatal(err)
	}
	m := srv.Wait(t, 1)
	if m.From != "no-reply@example.com" || m.To[0] != "kai@example.com" || m.Subject != "Reset password" {
		t.Fatalf("envelope: %+v", m)
	}
	if !strings.Contains(m.HTML, "Hi &lt;script&gt;x&lt;/script&gt;, https://a.example/r?code=abc") {
		t.Fatalf("html: %s", m.HTML)
	}
	if strings.TrimSpace(m.Text) != "Hi <script>x</script>, https://a.example/r?code=abc" {
		t.Fatalf("text: %q", m.Text)
	}
}

func TestSMTPWrongPassword(t *testing.T) {
	srv := testsmtp.Start(t)
	c := smtpConfig(srv)
	c.ProviderOptions.Auth.Pass = "wrong"
	s, _ := mail.New(c, false, nil)
	if err := s.Send(t.Context(), mail.Message{To: "kai@example.com", Subject: "x", Text: "y"}); err == nil {
		t.Fatal("sent with a wrong password")
	}
	if n := len(srv.Mails()); n != 0 {
		t.Fatalf("mails: %d", n)
	}
}

func TestNoProvider(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&buf, nil))
	dev, _ := mail.New(mail.Config{}, false, log)
	if err := dev.Send(t.Context(), mail.Message{To: "kai@example.com", Subject: "Reset password", Text: "https://x.example/?code=123"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "code=123") {
		t.Fatalf("development log without the link: %s", buf.String())
	}
	buf.Reset()
	prod, _ := mail.New(mail.Config{}, true, log)
	if err := prod.Send(t.Context(), mail.Message{To: "kai@example.com", Subject: "Reset password", Text: "https://x.example/?code=123"}); err != mail.ErrNoProvider {
		t.Fatalf("production without a provider: %v", err)
	}
	if strings.Contains(buf.String(), "code=123") {
		t.Fatalf("production log holds the link: %s", buf.String())
	}
}

func TestUnsupportedProvider(t *testing.T) {
	if _, err := mail.New(mail.Config{Provider: "sendgrid"}, false, nil); err == nil || !strings.Contains(err.Error(), "smtp, nodemailer") {
		t.Fatalf("err = %v", err)
	}
	if _, err := mail.New(mail.Config{Provider: "smtp"}, false, nil); err == nil {
		t.Fatal("no host accepted")
	}
}
