package mail

import (
	"context"
	"errors"
	"log/slog"
)

// logSender writes mails to the log: development without an SMTP server
// still shows the reset and confirmation links.
type logSender struct {
	cfg Config
	log *slog.Logger
}

func (s logSender) Send(_ context.Context, m Message) error {
	m = s.cfg.defaults(m)
	s.log.Info("mail (no email provider configured: written here instead of sent)",
		"to", m.To, "from", m.From, "subject", m.Subject, "text", m.Text)
	return nil
}

// ErrNoProvider is returned in production when no provider is configured.
var ErrNoProvider = errors.New("mail: no email provider is configured (config/plugins.json email.config)")

type refuse struct{ log *slog.Logger }

func (r refuse) Send(_ context.Context, m Message) error {
	r.log.Error("a mail could not be sent: no email provider is configured (config/plugins.json email.config)",
		"to", m.To, "subject", m.Subject)
	return ErrNoProvider
}
