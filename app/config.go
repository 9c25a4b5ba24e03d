package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/stratum-cms/stratum/auth"
	"github.com/stratum-cms/stratum/engine"
)

// config is the project's config/*.json with environment overrides.
type config struct {
	Dir         string
	Host        string
	Port        int
	Env         string
	DatabaseURL string
	API         apiConfig
	// Proxy trusts X-Forwarded-For for client addresses (server.json "proxy").
	Proxy bool
	// Auth settings from plugins.json (users-permissions) and admin.json.
	// Upload is the upload plugin's limits (plugins.json): the bytes of one
	// upload request and the responsive image breakpoints.
	Upload struct {
		SizeLimit   int64
		Breakpoints map[string]int
	}
	// I18n is the i18n plugin's locales (plugins.json), default ["en"].
	I18n struct {
		Locales       []string
		DefaultLocale string
	}
	JWTExpiresIn      time.Duration
	AdminJWTExpiresIn time.Duration
	RateLimit         auth.RateLimitConfig
}

// pluginsConfig is the part of config/plugins.json auth reads.
type pluginsConfig struct {
	UsersPermissions struct {
		Config struct {
			JWT struct {
				ExpiresIn json.RawMessage `json:"expiresIn"`
			} `json:"jwt"`
			RateLimit struct {
				Enabled  *bool `json:"enabled"`
				Interval *int  `json:"interval"` // milliseconds
				Max      *int  `json:"max"`
			} `json:"ratelimit"`
		} `json:"config"`
	} `json:"users-permissions"`
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
		} `json:"config"`
	} `json:"upload"`
}

// adminConfig is the part of config/admin.json auth reads.
type adminConfig struct {
	Auth struct {
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
	} `json:"rest"`
}

func loadConfig(dir string) (*config, error) {
	c := &config{Dir: dir, Host: "0.0.0.0", Port: 1337, Env: "development"}
	var server struct {
		Host  string `json:"host"`
		Port  int    `json:"port"`
		Proxy bool   `json:"proxy"`
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
	var db struct {
		URL string `json:"url"`
	}
	if err := readJSON(dir, "database.json", &db); err != nil {
		return nil, err
	}
	c.DatabaseURL = db.URL
	if err := readJSON(dir, "api.json", &c.API); err != nil {
		return nil, err
	}
	if err := c.readAuth(dir); err != nil {
		return nil, err
	}
	if v := os.Getenv("HOST"); v != "" {
		c.Host = v
	}
	if v := os.Getenv("PORT"); v != "" {
		p, err := strconv.Atoi(v)
		if err != nil || p < 0 || p > 65535 {
			return nil, fmt.Errorf("PORT=%q is not a port number", v)
		}
		c.Port = p
	}
	if v := os.Getenv("DATABASE_URL"); v != "" {
		c.DatabaseURL = v
	}
	if v := os.Getenv("STRATUM_ENV"); v != "" {
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
	return c, nil
}

// readAuth reads the users-permissions settings of plugins.json and the
// admin JWT lifetime of admin.json.
func (c *config) readAuth(dir string) error {
	var p pluginsConfig
	if err := readJSON(dir, "plugins.json", &p); err != nil {
		return err
	}
	c.I18n.Locales, c.I18n.DefaultLocale = p.I18n.Config.Locales, p.I18n.Config.DefaultLocale
	c.Upload.SizeLimit, c.Upload.Breakpoints = p.Upload.Config.SizeLimit, p.Upload.Config.Breakpoints
	if c.I18n.DefaultLocale == "" && len(c.I18n.Locales) > 0 {
		c.I18n.DefaultLocale = c.I18n.Locales[0]
	}
	up := p.UsersPermissions.Config
	var err error
	if c.JWTExpiresIn, err = auth.ParseExpiresIn(up.JWT.ExpiresIn); err != nil {
		return fmt.Errorf("config/plugins.json: users-permissions.config.jwt.%w", err)
	}
	rl := up.RateLimit
	if rl.Enabled != nil && !*rl.Enabled {
		c.RateLimit.Disabled = true
	}
	if rl.Interval != nil {
		if *rl.Interval <= 0 {
			return fmt.Errorf("config/plugins.json: users-permissions.config.ratelimit.interval must be a positive number of milliseconds")
		}
		c.RateLimit.Interval = time.Duration(*rl.Interval) * time.Millisecond
	}
	if rl.Max != nil {
		if *rl.Max <= 0 {
			return fmt.Errorf("config/plugins.json: users-permissions.config.ratelimit.max must be positive")
		}
		c.RateLimit.Max = *rl.Max
	}
	var a adminConfig
	if err := readJSON(dir, "admin.json", &a); err != nil {
		return err
	}
	if c.AdminJWTExpiresIn, err = auth.ParseExpiresIn(a.Auth.Options.ExpiresIn); err != nil {
		return fmt.Errorf("config/admin.json: auth.options.%w", err)
	}
	return nil
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
		return fmt.Errorf("config/%s: %w", name, err)
	}
	return nil
}

// engineConfig is the content API's settings from config/api.json and the
// i18n plugin's from config/plugins.json.
func (c *config) engineConfig() engine.Config {
	ecfg := engine.Config{DefaultLimit: c.API.Rest.DefaultLimit, MaxLimit: 100, WithCount: true,
		DefaultLocale: c.I18n.DefaultLocale, Locales: c.I18n.Locales}
	if c.API.Rest.MaxLimit != nil {
		ecfg.MaxLimit = *c.API.Rest.MaxLimit
	}
	if c.API.Rest.WithCount != nil {
		ecfg.WithCount = *c.API.Rest.WithCount
	}
	return ecfg
}
