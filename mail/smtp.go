package mail

import (
	"context"
	"fmt"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"
)

// smtpSender sends through an SMTP server, one connection per message:
// account mails are rare, and a held connection would go stale.
type smtpSender struct {
	cfg  Config
	opts []gomail.Option
	host string
}

// sendTimeout bounds one delivery: a slow mail server must not hold the
// request that sends (the reset answer waits for it, as Strapi's does).
const sendTimeout = 15 * time.Second

func newSMTP(c Config) (*smtpSender, error) {
	switch c.Provider {
	case "smtp", "nodemailer":
	default:
		return nil, fmt.Errorf("email.config.provider %q is not supported (supported: smtp, nodemailer)", c.Provider)
	}
	o := c.ProviderOptions
	if o.Host == "" {
		return nil, fmt.Errorf("email.config.providerOptions.host is required for provider %q", c.Provider)
	}
	port := o.Port
	if port == 0 {
		port = 587
		if o.Secure {
			port = 465
		}
	}
	opts := []gomail.Option{gomail.WithPort(port), gomail.WithTimeout(sendTimeout)}
	switch {
	case o.Secure:
		opts = append(opts, gomail.WithSSL())
	case o.IgnoreTLS:
		opts = append(opts, gomail.WithTLSPolicy(gomail.NoTLS))
	case o.RequireTLS:
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSMandatory))
	default:
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSOpportunistic))
	}
	if o.Auth.User != "" {
		var method gomail.SMTPAuthType
		switch strings.ToUpper(o.AuthMethod) {
		case "", "PLAIN":
			method = gomail.SMTPAuthPlain
		case "LOGIN":
			method = gomail.SMTPAuthLogin
		case "CRAM-MD5":
			method = gomail.SMTPAuthCramMD5
		default:
			return nil, fmt.Errorf("email.config.providerOptions.authMethod %q is not supported (PLAIN, LOGIN, CRAM-MD5)", o.AuthMethod)
		}
		opts = append(opts, gomail.WithSMTPAuth(method), gomail.WithUsername(o.Auth.User), gomail.WithPassword(o.Auth.Pass))
	}
	return &smtpSender{cfg: c, opts: opts, host: o.Host}, nil
}

func (s *smtpSender) Send(ctx context.Context, m Message) error {
	m = s.cfg.defaults(m)
	msg := gomail.NewMsg()
	if err := msg.From(m.From); err != nil {
		return fmt.Errorf("mail: from %q: %w", m.From, err)
	}
	if err := msg.To(m.To); err != nil {
		return fmt.Errorf("mail: to %q: %w", m.To, err)
	}
	if m.ReplyTo != "" {
		if err := msg.ReplyTo(m.ReplyTo); err != nil {
			return fmt.Errorf("mail: reply-to %q: %w", m.ReplyTo, err)
		}
	}
	msg.Subject(m.Subject)
	msg.SetBodyString(gomail.TypeTextPlain, m.Text)
	if m.HTML != "" {
		msg.AddAlternativeString(gomail.TypeTextHTML, m.HTML)
	}
	c, err := gomail.NewClient(s.host, s.opts...)
	if err != nil {
		return fmt.Errorf("mail: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, sendTimeout)
	defer cancel()
	if err := c.DialAndSendWithContext(ctx, msg); err != nil {
		return fmt.Errorf("mail: sending to %s: %w", s.host, err)
	}
	return nil
}
