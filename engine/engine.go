package engine

import (
	"context"
	"sync"
	"time"
)

// Config holds the content API settings of config/api.json and i18n.
type Config struct {
	DefaultLimit  int
	MaxLimit      int // 0 means no maximum
	WithCount     bool
	DefaultLocale string
	// Locales are the configured locales (config/plugins.json i18n); the
	// default locale is always one of them.
	Locales []string
	// Limits bound one read request (zero values take DefaultLimits).
	Limits Limits
}

// Access decides whether the caller may perform an action such as
// "api::article.article.find". The auth package implements it.
type Access interface {
	Can(action string) bool
}

// AllowAll is the Access of trusted internal callers (seeding, the admin API).
type AllowAll struct{}

// Can always allows.
func (AllowAll) Can(string) bool { return true }

// Engine is the document service over a registry and a backend.
type Engine struct {
	Registry *Registry
	store    Backend
	cfg      Config
	now      func() time.Time
	files    SchemaFiles
	filesSet bool
	media    Media
	// reloading makes concurrent Reloads (the watcher, writes overtaken by
	// a schema change) build a new version once.
	reloading sync.Mutex
}

// New builds an engine. The schema in reg must already be migrated.
func New(reg *Registry, store Backend, cfg Config) *Engine {
	if cfg.DefaultLimit <= 0 {
		cfg.DefaultLimit = 25
	}
	if cfg.DefaultLocale == "" {
		cfg.DefaultLocale = "en"
	}
	cfg.Limits = cfg.Limits.orDefaults()
	return &Engine{Registry: reg, store: store, cfg: cfg, now: func() time.Time { return time.Now().UTC().Truncate(time.Millisecond) }}
}

// Config returns the engine's settings.
func (e *Engine) Config() Config { return e.cfg }

// Ping checks the backend is reachable.
func (e *Engine) Ping(ctx context.Context) error {
	if p, ok := e.store.(interface{ Ping(context.Context) error }); ok {
		return p.Ping(ctx)
	}
	return nil
}
