package auth

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// Config holds the settings of users-permissions, API tokens and admins.
type Config struct {
	// Env is "development", "staging" or "production"; production requires
	// the secrets in the environment.
	Env string
	// JWTExpiresIn is the lifetime of users' JWTs (default 30 days);
	// AdminJWTExpiresIn the lifetime of admins' (default 30 days).
	JWTExpiresIn      time.Duration
	AdminJWTExpiresIn time.Duration
	// RateLimit applies to login and register (users and admins).
	RateLimit RateLimitConfig
	// Permissions is config/permissions.json, applied to the roles at start
	// (nil: the roles keep what the database holds).
	Permissions Permissions
	// Actions lists the content-API actions of the current schema
	// (api::<name>.<name>.find, ...); permissions are checked against it.
	Actions func() []string
	// Getenv reads the environment (secrets, STRATUM_ADMIN_*); default os.Getenv.
	Getenv func(string) string
	// RoleCacheTTL bounds how long a node serves roles' permissions from
	// memory before reading them again (default 2 s): changes made on
	// another node reach this one within it; changes made here at once.
	RoleCacheTTL time.Duration
	// Changed tells the other nodes that roles changed (a NOTIFY).
	Changed func()
	Log     *slog.Logger
	// Now is the clock (tests); default time.Now.
	Now func() time.Time

	// Advanced is users-permissions' advanced settings.
	Advanced Advanced
	// RegisterAllowedFields are the extension attributes register accepts
	// (users-permissions' register.allowedFields); others are refused.
	RegisterAllowedFields []string
	// Extension handles the attributes a users-permissions extension adds
	// to the user (the engine); nil: none.
	Extension Extension
	// Mailer sends the account flows' mails; nil sends none (the flows
	// then fail where a mail is needed).
	Mailer Mailer
	// ServerURL is this server's public address (config/server.json
	// "url", or http://host:port), APIPrefix the content API's prefix:
	// the confirmation link is built from them.
	ServerURL, APIPrefix string
	// ResetTokenTTL is how long a reset code works (default one hour).
	ResetTokenTTL time.Duration
	// The mails' templates (Strapi's when empty).
	ResetPasswordEmail, EmailConfirmationEmail EmailTemplate
}

// Service is users-permissions, API tokens and admin users over the
// database. It implements Authenticator for the content API.
type Service struct {
	st      Store
	cfg     Config
	secrets Secrets
	limiter *Limiter
	log     *slog.Logger

	roles   atomic.Pointer[roleSnapshot]
	rolesMu sync.Mutex
}

var _ Authenticator = (*Service)(nil)

// New, over the store of auth's tables, loads (or, outside production,
// generates) the secrets, makes sure the Public and Authenticated roles
// exist and applies config/permissions.json to the roles.
func New(ctx context.Context, st Store, cfg Config) (*Service, error) {
	if cfg.Getenv == nil {
		cfg.Getenv = os.Getenv
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.JWTExpiresIn <= 0 {
		cfg.JWTExpiresIn = 30 * 24 * time.Hour
	}
	if cfg.AdminJWTExpiresIn <= 0 {
		cfg.AdminJWTExpiresIn = 30 * 24 * time.Hour
	}
	if cfg.RoleCacheTTL <= 0 {
		cfg.RoleCacheTTL = 2 * time.Second
	}
	if cfg.ResetTokenTTL <= 0 {
		cfg.ResetTokenTTL = defaultResetTTL
	}
	if cfg.APIPrefix == "" {
		cfg.APIPrefix = "/api"
	}
	if cfg.Advanced.DefaultRole == "" {
		cfg.Advanced.DefaultRole = RoleAuthenticated
	}
	cfg.ResetPasswordEmail = cfg.ResetPasswordEmail.or(DefaultResetPasswordTemplate)
	cfg.EmailConfirmationEmail = cfg.EmailConfirmationEmail.or(DefaultEmailConfirmationTemplate)
	if cfg.Actions == nil {
		cfg.Actions = func() []string { return nil }
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Env == "production" {
		// Refuse before touching the database.
		if err := checkProductionSecrets(cfg.Getenv); err != nil {
			return nil, err
		}
	}
	s := &Service{st: st, cfg: cfg, log: cfg.Log, limiter: NewLimiter(cfg.RateLimit, cfg.Now)}
	var err error
	if s.secrets, err = loadSecrets(ctx, st.Auth(), cfg.Env, cfg.Getenv); err != nil {
		return nil, err
	}
	if err := s.ensureDefaultRoles(ctx); err != nil {
		return nil, err
	}
	if cfg.Permissions != nil {
		if err := s.ApplyPermissions(ctx, cfg.Permissions); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// Limiter is the rate limiter of login and register.
func (s *Service) Limiter() *Limiter { return s.limiter }

func (s *Service) now() time.Time { return s.cfg.Now().UTC().Truncate(time.Millisecond) }

// EnsureAdminFromEnv creates the first admin from STRATUM_ADMIN_EMAIL and
// STRATUM_ADMIN_PASSWORD when both are set and no admin exists yet.
func (s *Service) EnsureAdminFromEnv(ctx context.Context) error {
	email, pw := s.cfg.Getenv("STRATUM_ADMIN_EMAIL"), s.cfg.Getenv("STRATUM_ADMIN_PASSWORD")
	switch {
	case email == "" && pw == "":
		return nil
	case email == "":
		return fmt.Errorf("STRATUM_ADMIN_PASSWORD is set but STRATUM_ADMIN_EMAIL is not: set both to create the first admin")
	case pw == "":
		return fmt.Errorf("STRATUM_ADMIN_EMAIL is set but STRATUM_ADMIN_PASSWORD is not: set both to create the first admin")
	}
	n, err := s.AdminCount(ctx)
	if err != nil || n > 0 {
		return err
	}
	if _, err := s.CreateAdmin(ctx, AdminInput{Email: email, Password: pw}); err != nil {
		if isUniqueViolation(err) { // another node created it first
			return nil
		}
		return fmt.Errorf("STRATUM_ADMIN_EMAIL/STRATUM_ADMIN_PASSWORD: %w", err)
	}
	s.log.Info("created the first admin", "email", email)
	return nil
}
