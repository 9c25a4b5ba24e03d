package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/stratum-cms/stratum/auth"
	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/graphql"
	"github.com/stratum-cms/stratum/mail"
	"github.com/stratum-cms/stratum/models"
	"github.com/stratum-cms/stratum/realtime"
	"github.com/stratum-cms/stratum/rest"
	"github.com/stratum-cms/stratum/upload"
	"github.com/stratum-cms/stratum/webhooks"
)

// Config is everything a Stratum instance is built from: the project's
// config/*.json with the environment's overrides, resolved into the
// settings of each part. Tests change it through Options.Tune.
type Config struct {
	Dir         string
	Host        string
	Port        int
	Env         string // development, staging or production
	DatabaseURL string
	// Proxy trusts X-Forwarded-For for client addresses (server.json "proxy").
	Proxy bool

	Engine  engine.Config
	Rest    rest.Config
	Auth    auth.Config
	GraphQL graphql.Config
	Upload  upload.Config
	// Webhooks is server.json "webhooks" (defaultHeaders) and delivery
	// timing.
	Webhooks webhooks.Config
	// Realtime tunes /api/realtime's streams.
	Realtime realtime.Config
	// AdminPanelOff stops serving the admin panel at /admin (admin.json
	// "serveAdminPanel": false, as Strapi's); the admin API stays.
	AdminPanelOff bool
	// OpenAPIOff stops serving /openapi.json (server.json "openapi": false).
	OpenAPIOff bool
	// Metrics serves /metrics (server.json "metrics": {"enabled": true,
	// "token": "..."}; STRATUM_METRICS_TOKEN overrides the token).
	Metrics struct {
		Enabled bool
		Token   string
	}
	// Email is config/plugins.json email.config: the mail provider of the
	// account flows.
	Email mail.Config
}

// pluginsConfig is the part of config/plugins.json auth reads.
type pluginsConfig struct {
	UsersPermissions struct {
		Config struct {
			JWT struct {
				ExpiresIn json.RawMessage `json:"expiresIn"`
			} `json:"jwt"`
			Advanced struct {
				AllowRegister                *bool  `json:"allow_register"`
				EmailConfirmation            bool   `json:"email_confirmation"`
				EmailResetPassword           string `json:"email_reset_password"`
				EmailConfirmationRedirection string `json:"email_confirmation_redirection"`
				DefaultRole                  string `json:"default_role"`
			} `json:"advanced"`
			// Email templates, as Strapi's admin keeps them: {object, message, from}.
			Email struct {
				ResetPassword     emailTemplate `json:"reset_password"`
				EmailConfirmation emailTemplate `json:"email_confirmation"`
			} `json:"email"`
			// Minutes a reset code works (default 60).
			ResetPasswordTokenTTL int `json:"resetPasswordTokenTTL"`
			// The extension attributes register accepts.
			Register struct {
				AllowedFields []string `json:"allowedFields"`
			} `json:"register"`
			RateLimit struct {
				Enabled  *bool `json:"enabled"`
				Interval *int  `json:"interval"` // milliseconds
				Max      *int  `json:"max"`
			} `json:"ratelimit"`
		} `json:"config"`
	} `json:"users-permissions"`
	Email struct {
		Config mail.Config `json:"config"`
	} `json:"email"`
	I18n struct {
		Config struct {
			Locales       []string `json:"locales"`
			DefaultLocale string   `json:"defaultLocale"`
		} `json:"config"`
	} `json:"i18n"`
	Upload struct {
		Config struct {
			SizeLimit   int64          `json:"sizeLimit"`
			Breakpoints map[string]int `json:"breakpoints"`
			// Pixels of images decoded and resized at once, across
			// requests (upload.DefaultMaxConcurrentPixels; -1 for none).
			MaxConcurrentPixels int64 `json:"maxConcurrentPixels"`
			// MIME type patterns ("image/*", "application/pdf") checked
			// against the type sniffed from an upload's bytes.
			AllowedTypes []string `json:"allowedTypes"`
			DeniedTypes  []string `json:"deniedTypes"`
			// Provider keeps the bytes: "local" (default) or "aws-s3",
			// with Strapi's providerOptions.
			Provider        string          `json:"provider"`
			ProviderOptions json.RawMessage `json:"providerOptions"`
		} `json:"config"`
	} `json:"upload"`
}

// emailTemplate is one users-permissions mail template in Strapi's form.
type emailTemplate struct {
	Object  string `json:"object"`
	Message string `json:"message"`
	From    struct {
		Name  string `json:"name"`
		Email string `json:"email"`
	} `json:"from"`
	ResponseEmail string `json:"response_email"`
}

func (t emailTemplate) template() auth.EmailTemplate {
	from := t.From.Email
	if from != "" && t.From.Name != "" {
		from = fmt.Sprintf("%q <%s>", t.From.Name, t.From.Email)
	}
	return auth.EmailTemplate{Subject: t.Object, Message: t.Message, From: from, ReplyTo: t.ResponseEmail}
}

// adminConfig is the part of config/admin.json auth reads.
type adminConfig struct {
	ServeAdminPanel *bool `json:"serveAdminPanel"`
	Auth            struct {
		Options struct {
			ExpiresIn json.RawMessage `json:"expiresIn"`
		} `json:"options"`
	} `json:"auth"`
}

type apiConfig struct {
	Rest struct {
		Prefix       string `json:"prefix"`
		DefaultLimit int    `json:"defaultLimit"`
		MaxLimit     *int   `json:"maxLimit"`
		WithCount    *bool  `json:"withCount"`
		MaxBodySize  int64  `json:"maxBodySize"`
		// Limits of one read request (engine.DefaultLimits when unset).
		MaxPopulateDepth int   `json:"maxPopulateDepth"`
		MaxRows          int   `json:"maxRows"`
		MaxResponseBytes int64 `json:"maxResponseBytes"`
	} `json:"rest"`
}

// LoadConfig reads a project's configuration; getenv supplies the
// environment's overrides (HOST, PORT, DATABASE_URL, STRATUM_ENV).
func LoadConfig(dir string, getenv func(string) string) (*Config, error) {
	c := &Config{Dir: dir, Host: "0.0.0.0", Port: 1337, Env: "development"}
	var server struct {
		Host     string `json:"host"`
		Port     int    `json:"port"`
		URL      string `json:"url"`
		Proxy    bool   `json:"proxy"`
		Webhooks struct {
			DefaultHeaders map[string]string `json:"defaultHeaders"`
		} `json:"webhooks"`
		OpenAPI *bool `json:"openapi"`
		Metrics struct {
			Enabled bool   `json:"enabled"`
			Token   string `json:"token"`
		} `json:"metrics"`
		Security struct {
			Headers        *bool  `json:"headers"`
			FrameOptions   string `json:"frameOptions"`
			ReferrerPolicy string `json:"referrerPolicy"`
			HSTS           struct {
				MaxAge int `json:"maxAge"`
			} `json:"hsts"`
		} `json:"security"`
	}
	if err := readJSON(dir, "server.json", &server); err != nil {
		return nil, err
	}
	if server.Host != "" {
		c.Host = server.Host
	}
	if server.Port != 0 {
		c.Port = server.Port
	}
	c.Proxy = server.Proxy
	c.Webhooks.DefaultHeaders = server.Webhooks.DefaultHeaders
	c.OpenAPIOff = server.OpenAPI != nil && !*server.OpenAPI
	c.Metrics.Enabled, c.Metrics.Token = server.Metrics.Enabled, server.Metrics.Token
	var db struct {
		URL string `json:"url"`
	}
	if err := readJSON(dir, "database.json", &db); err != nil {
		return nil, err
	}
	c.DatabaseURL = db.URL
	var api apiConfig
	if err := readJSON(dir, "api.json", &api); err != nil {
		return nil, err
	}
	c.Engine = api.engineConfig()
	sec := server.Security
	c.Rest = rest.Config{Prefix: api.Rest.Prefix, MaxBodyBytes: api.Rest.MaxBodySize, Headers: rest.SecurityHeaders{
		Disabled: sec.Headers != nil && !*sec.Headers, FrameOptions: sec.FrameOptions, ReferrerPolicy: sec.ReferrerPolicy, HSTSMaxAge: sec.HSTS.MaxAge}}
	cors, err := readCORS(dir)
	if err != nil {
		return nil, err
	}
	c.Rest.CORS = cors
	if err := c.readPlugins(dir); err != nil {
		return nil, err
	}
	if v := getenv("HOST"); v != "" {
		c.Host = v
	}
	if v := getenv("PORT"); v != "" {
		p, err := strconv.Atoi(v)
		if err != nil || p < 0 || p > 65535 {
			return nil, fmt.Errorf("PORT=%q is not a port number", v)
		}
		c.Port = p
	}
	if v := getenv("STRATUM_METRICS_TOKEN"); v != "" {
		c.Metrics.Token = v
	}
	if v := getenv("DATABASE_URL"); v != "" {
		c.DatabaseURL = v
	} else if client := getenv("DATABASE_CLIENT"); client != "" {
		u, err := strapiDatabaseURL(dir, client, getenv)
		if err != nil {
			return nil, err
		}
		c.DatabaseURL = u
	}
	if v := getenv("STRATUM_ENV"); v != "" {
		switch v {
		case "development", "staging", "production":
			c.Env = v
		default:
			return nil, fmt.Errorf("STRATUM_ENV=%q: expected development, staging or production", v)
		}
	}
	if c.DatabaseURL == "" {
		c.DatabaseURL = filepath.Join(dir, ".tmp", "data.db")
	}
	if c.DatabaseURL, err = databaseURL(dir, c.DatabaseURL); err != nil {
		return nil, err
	}
	c.Auth.Env, c.GraphQL.Env = c.Env, c.Env
	c.Auth.ServerURL, c.Auth.APIPrefix = server.URL, c.Rest.Prefix
	if c.Auth.ServerURL == "" {
		host := c.Host
		if host == "0.0.0.0" || host == "::" || host == "" {
			host = "localhost"
		}
		c.Auth.ServerURL = "http://" + net.JoinHostPort(host, strconv.Itoa(c.Port))
	}
	c.Auth.Getenv = getenv
	c.Upload.Dir = filepath.Join(dir, "public", "uploads")
	perms, err := auth.LoadPermissions(dir)
	if err != nil {
		return nil, err
	}
	c.Auth.Permissions = perms
	return c, nil
}

// readPlugins reads config/plugins.json (i18n, upload, users-permissions,
// graphql) and the admin JWT lifetime of config/admin.json.
func (c *Config) readPlugins(dir string) error {
	var p pluginsConfig
	if err := readJSON(dir, "plugins.json", &p); err != nil {
		return err
	}
	c.Engine.Locales, c.Engine.DefaultLocale = p.I18n.Config.Locales, p.I18n.Config.DefaultLocale
	uc := p.Upload.Config
	c.Upload.MaxBytes, c.Upload.Breakpoints = uc.SizeLimit, uc.Breakpoints
	c.Upload.MaxConcurrentPixels, c.Upload.AllowedTypes, c.Upload.DeniedTypes = uc.MaxConcurrentPixels, uc.AllowedTypes, uc.DeniedTypes
	for _, t := range append(append([]string{}, uc.AllowedTypes...), uc.DeniedTypes...) {
		if !validTypePattern(t) {
			return fmt.Errorf("config/plugins.json: upload.config: %q is not a MIME type pattern (type/subtype, type/* or *)", t)
		}
	}
	if err := c.readUploadProvider(uc.Provider, uc.ProviderOptions); err != nil {
		return fmt.Errorf("config/plugins.json: upload.config.%w", err)
	}
	if c.Engine.DefaultLocale == "" && len(c.Engine.Locales) > 0 {
		c.Engine.DefaultLocale = c.Engine.Locales[0]
	}
	gcfg, err := graphql.LoadConfig(dir)
	if err != nil {
		return err
	}
	c.GraphQL = gcfg
	up := p.UsersPermissions.Config
	if c.Auth.JWTExpiresIn, err = auth.ParseExpiresIn(up.JWT.ExpiresIn); err != nil {
		return fmt.Errorf("config/plugins.json: users-permissions.config.jwt.%w", err)
	}
	adv := up.Advanced
	c.Auth.Advanced = auth.Advanced{RegisterDisabled: adv.AllowRegister != nil && !*adv.AllowRegister,
		EmailConfirmation: adv.EmailConfirmation, EmailResetPassword: adv.EmailResetPassword,
		EmailConfirmationRedirection: adv.EmailConfirmationRedirection, DefaultRole: adv.DefaultRole}
	c.Auth.RegisterAllowedFields = up.Register.AllowedFields
	c.Auth.ResetPasswordEmail = up.Email.ResetPassword.template()
	c.Auth.EmailConfirmationEmail = up.Email.EmailConfirmation.template()
	if up.ResetPasswordTokenTTL < 0 {
		return fmt.Errorf("config/plugins.json: users-permissions.config.resetPasswordTokenTTL must be a positive number of minutes")
	}
	c.Auth.ResetTokenTTL = time.Duration(up.ResetPasswordTokenTTL) * time.Minute
	c.Email = p.Email.Config
	if c.Email.Configured() {
		if _, err := mail.New(c.Email, false, nil); err != nil {
			return fmt.Errorf("config/plugins.json: %w", err)
		}
	}
	rl := up.RateLimit
	if rl.Enabled != nil && !*rl.Enabled {
		c.Auth.RateLimit.Disabled = true
	}
	if rl.Interval != nil {
		if *rl.Interval <= 0 {
			return fmt.Errorf("config/plugins.json: users-permissions.config.ratelimit.interval must be a positive number of milliseconds")
		}
		c.Auth.RateLimit.Interval = time.Duration(*rl.Interval) * time.Millisecond
	}
	if rl.Max != nil {
		if *rl.Max <= 0 {
			return fmt.Errorf("config/plugins.json: users-permissions.config.ratelimit.max must be positive")
		}
		c.Auth.RateLimit.Max = *rl.Max
	}
	var a adminConfig
	if err := readJSON(dir, "admin.json", &a); err != nil {
		return err
	}
	if c.Auth.AdminJWTExpiresIn, err = auth.ParseExpiresIn(a.Auth.Options.ExpiresIn); err != nil {
		return fmt.Errorf("config/admin.json: auth.options.%w", err)
	}
	c.AdminPanelOff = a.ServeAdminPanel != nil && !*a.ServeAdminPanel
	return nil
}

// readUploadProvider checks the upload provider and reads its options:
// an unknown provider, or options it cannot use, stop the start.
func (c *Config) readUploadProvider(name string, options json.RawMessage) error {
	p, err := upload.ProviderName(name)
	if err != nil {
		return fmt.Errorf("provider: %w", err)
	}
	c.Upload.Provider = p
	if p != upload.ProviderS3 {
		return nil
	}
	if len(options) == 0 {
		return fmt.Errorf("providerOptions: the aws-s3 provider needs providerOptions.s3Options.params.Bucket")
	}
	var s3 upload.S3Config
	if err := json.Unmarshal(options, &s3); err != nil {
		return fmt.Errorf("providerOptions: %w", err)
	}
	if err := s3.Check(); err != nil {
		return err
	}
	c.Upload.S3 = s3
	return nil
}

func validTypePattern(p string) bool {
	if p == "*" {
		return true
	}
	t, sub, ok := strings.Cut(p, "/")
	return ok && t != "" && sub != "" && !strings.ContainsAny(p, " ;,") && !strings.Contains(sub, "/")
}

// readCORS reads strapi::cors from config/middlewares.json, Strapi's
// middleware list: ["strapi::errors", {"name": "strapi::cors", "config":
// {...}}, ...]. Without the file CORS is on with Strapi's defaults; a list
// without strapi::cors turns it off, as in Strapi.
func readCORS(dir string) (rest.CORS, error) {
	var list []json.RawMessage
	if err := readJSON(dir, "middlewares.json", &list); err != nil {
		return rest.CORS{}, err
	}
	if list == nil {
		return rest.CORS{}, nil
	}
	for _, raw := range list {
		var name string
		if json.Unmarshal(raw, &name) == nil {
			if name == "strapi::cors" {
				return rest.CORS{}, nil
			}
			continue
		}
		var m struct {
			Name   string `json:"name"`
			Config struct {
				Origin      stringList `json:"origin"`
				Methods     stringList `json:"methods"`
				Headers     stringList `json:"headers"`
				Expose      stringList `json:"expose"`
				MaxAge      int        `json:"maxAge"`
				Credentials *bool      `json:"credentials"`
			} `json:"config"`
		}
		if err := json.Unmarshal(raw, &m); err != nil {
			return rest.CORS{}, fmt.Errorf("config/middlewares.json: each entry is a name or {name, config}: %w", err)
		}
		if m.Name != "strapi::cors" {
			continue
		}
		cc := m.Config
		return rest.CORS{Origins: cc.Origin, Methods: cc.Methods, Headers: cc.Headers, Expose: cc.Expose,
			MaxAge: cc.MaxAge, NoCredentials: cc.Credentials != nil && !*cc.Credentials}, nil
	}
	return rest.CORS{Disabled: true}, nil
}

// stringList reads Strapi's "a,b" strings and ["a", "b"] lists alike.
type stringList []string

func (l *stringList) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		for _, part := range strings.Split(s, ",") {
			if part = strings.TrimSpace(part); part != "" {
				*l = append(*l, part)
			}
		}
		return nil
	}
	var list []string
	if err := json.Unmarshal(b, &list); err != nil {
		return fmt.Errorf("expected a string or a list of strings")
	}
	*l = list
	return nil
}

// databaseURL checks a database URL: postgres:// (or postgresql://) for
// PostgreSQL; a file path, sqlite:PATH or file:PATH for SQLite (relative
// paths from the working folder). Any other scheme is refused: it would
// otherwise become a SQLite file named after the URL.
func databaseURL(dir, u string) (string, error) {
	if strings.HasPrefix(u, "postgres://") || strings.HasPrefix(u, "postgresql://") {
		return u, nil
	}
	for _, p := range []string{"sqlite://", "sqlite:", "file://", "file:"} {
		if strings.HasPrefix(u, p) {
			if u = strings.TrimPrefix(u, p); u == "" {
				return "", fmt.Errorf("database URL %q names no file", p)
			}
			return u, nil
		}
	}
	if scheme, _, ok := strings.Cut(u, "://"); ok {
		return "", fmt.Errorf("database URL scheme %q is not supported: use postgres://user:pass@host:5432/db for PostgreSQL, or a file path (or sqlite:PATH) for SQLite", scheme)
	}
	return u, nil
}

// strapiDatabaseURL builds the URL from Strapi's DATABASE_* variables
// (config/database.js of a Strapi project reads the same ones).
func strapiDatabaseURL(dir, client string, getenv func(string) string) (string, error) {
	switch client {
	case "postgres", "postgresql", "pg":
		host, port, name := getenv("DATABASE_HOST"), getenv("DATABASE_PORT"), getenv("DATABASE_NAME")
		if host == "" {
			host = "127.0.0.1"
		}
		if port == "" {
			port = "5432"
		}
		if name == "" {
			name = "strapi"
		}
		u := url.URL{Scheme: "postgres", Host: net.JoinHostPort(host, port), Path: "/" + name}
		if user := getenv("DATABASE_USERNAME"); user != "" {
			if pw := getenv("DATABASE_PASSWORD"); pw != "" {
				u.User = url.UserPassword(user, pw)
			} else {
				u.User = url.User(user)
			}
		}
		q := url.Values{}
		if schema := getenv("DATABASE_SCHEMA"); schema != "" {
			q.Set("search_path", schema)
		}
		switch strings.ToLower(getenv("DATABASE_SSL")) {
		case "true", "1", "yes":
			q.Set("sslmode", "require")
		default:
			q.Set("sslmode", "disable")
		}
		u.RawQuery = q.Encode()
		return u.String(), nil
	case "sqlite", "sqlite3", "better-sqlite3":
		f := getenv("DATABASE_FILENAME")
		if f == "" {
			f = filepath.Join(".tmp", "data.db")
		}
		if !filepath.IsAbs(f) {
			f = filepath.Join(dir, f)
		}
		return f, nil
	}
	return "", fmt.Errorf("DATABASE_CLIENT=%q is not supported: use postgres or sqlite", client)
}

// CheckProject refuses a folder that is not a project, before anything is
// created in it (a mistyped --dir would otherwise become an empty project
// with its own database).
func CheckProject(dir string) error {
	st, err := os.Stat(dir)
	if errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("project folder %s does not exist: create a project with `stratum new %s`", dir, dir)
	}
	if err != nil {
		return err
	}
	if !st.IsDir() {
		return fmt.Errorf("%s is not a folder: --dir names a project folder", dir)
	}
	for _, sub := range []string{"src", "config"} {
		if st, err := os.Stat(filepath.Join(dir, sub)); err == nil && st.IsDir() {
			return nil
		}
	}
	return fmt.Errorf("%s holds no project (no src/ or config/ folder): create one with `stratum new DIR`, or point --dir at a Strapi project", dir)
}

// readJSON reads config/<name> if it exists.
func readJSON(dir, name string, v any) error {
	b, err := os.ReadFile(filepath.Join(dir, "config", name))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("config/%s: %w", name, models.JSONError(b, err))
	}
	return nil
}

// engineConfig is the content API's settings of config/api.json.
func (a apiConfig) engineConfig() engine.Config {
	ecfg := engine.Config{DefaultLimit: a.Rest.DefaultLimit, MaxLimit: 100, WithCount: true,
		Limits: engine.Limits{MaxPopulateDepth: a.Rest.MaxPopulateDepth, MaxRows: a.Rest.MaxRows, MaxResponseBytes: a.Rest.MaxResponseBytes}}
	if a.Rest.MaxLimit != nil {
		ecfg.MaxLimit = *a.Rest.MaxLimit
	}
	if a.Rest.WithCount != nil {
		ecfg.WithCount = *a.Rest.WithCount
	}
	return ecfg
}
