// Package mail sends the messages of the account flows (password reset,
// email confirmation) through an SMTP server, or writes them to the log
// where none is configured (development).
package mail

import (
	"context"
	"log/slog"
)

// Message is one mail: plain text and HTML of the same content.
type Message struct {
	To, From, ReplyTo string
	Subject           string
	Text, HTML        string
}

// Sender delivers a message.
type Sender interface {
	Send(ctx context.Context, m Message) error
}

// Config is config/plugins.json "email".config, in Strapi's terms: the
// provider ("smtp" or "nodemailer", whose providerOptions are an SMTP
// server's; "" for none) and the default sender and reply-to addresses.
type Config struct {
	Provider        string      `json:"provider"`
	ProviderOptions SMTPOptions `json:"providerOptions"`
	Settings        struct {
		DefaultFrom    string `json:"defaultFrom"`
		DefaultReplyTo string `json:"defaultReplyTo"`
	} `json:"settings"`
}

// SMTPOptions are nodemailer's SMTP transport options that Stratum reads.
type SMTPOptions struct {
	Host string `json:"host"`
	Port int    `json:"port"`
	// Secure is TLS from the first byte (port 465); otherwise STARTTLS
	// is used when the server offers it, and required with RequireTLS.
	Secure     bool `json:"secure"`
	RequireTLS bool `json:"requireTLS"`
	IgnoreTLS  bool `json:"ignoreTLS"`
	Auth       struct {
		User string `json:"user"`
		Pass string `json:"pass"`
	} `json:"auth"`
	// AuthMethod is PLAIN (default, as nodemailer), LOGIN or CRAM-MD5.
	AuthMethod string `json:"authMethod"`
}

// Configured tells whether a provider is set.
func (c Config) Configured() bool { return c.Provider != "" }

// defaults fills a message's sender and reply-to from the settings.
func (c Config) defaults(m Message) Message {
	if m.From == "" {
		m.From = c.Settings.DefaultFrom
	}
	if m.From == "" {
		m.From = "no-reply@strapi.io" // Strapi's own default
	}
	if m.ReplyTo == "" {
		m.ReplyTo = c.Settings.DefaultReplyTo
	}
	return m
}

// New builds the sender of a configuration: SMTP when a provider is
// configured; otherwise, outside production, one that writes each mail
// (its links included) to the log, and in production one that refuses,
// so that reset links never land in production logs.
func New(c Config, production bool, log *slog.Logger) (Sender, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if c.Configured() {
		return newSMTP(c)
	}
	if production {
		return refuse{log: log}, nil
	}
	return logSender{cfg: c, log: log}, nil
}
