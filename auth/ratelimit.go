package auth

import (
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// RateLimitConfig is users-permissions' `ratelimit` setting
// (config/plugins.json users-permissions.config.ratelimit).
type RateLimitConfig struct {
	// Disabled turns limiting off ({"enabled": false}).
	Disabled bool
	// Interval and Max: at most Max requests per Interval for one key
	// (default 10 per minute).
	Interval time.Duration
	Max      int
}

// maxLimiterKeys bounds the memory the limiter may hold.
const maxLimiterKeys = 100_000

// Limiter counts login and register attempts per key (identifier, path and
// client address, as Strapi keys them). Each key is a token bucket of Max
// tokens refilled over Interval: Max attempts at once, then one each
// Interval/Max. It is per node, like Strapi's default in-memory store.
type Limiter struct {
	cfg RateLimitConfig
	now func() time.Time

	mu        sync.Mutex
	buckets   map[string]*bucket
	lastSweep time.Time
}

type bucket struct {
	lim  *rate.Limiter
	seen time.Time
}

// NewLimiter builds a limiter; now is the clock (nil: time.Now).
func NewLimiter(cfg RateLimitConfig, now func() time.Time) *Limiter {
	if cfg.Interval <= 0 {
		cfg.Interval = time.Minute
	}
	if cfg.Max <= 0 {
		cfg.Max = 10
	}
	if now == nil {
		now = time.Now
	}
	return &Limiter{cfg: cfg, now: now, buckets: map[string]*bucket{}}
}

// Allow records an attempt for key and reports whether it may go on.
func (l *Limiter) Allow(key string) bool {
	if l == nil || l.cfg.Disabled {
		return true
	}
	if len(key) > 512 {
		key = key[:512]
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.lastSweep) >= l.cfg.Interval || len(l.buckets) >= maxLimiterKeys {
		l.sweep(now)
	}
	b := l.buckets[key]
	if b == nil {
		b = &bucket{lim: rate.NewLimiter(rate.Every(l.cfg.Interval/time.Duration(l.cfg.Max)), l.cfg.Max)}
		l.buckets[key] = b
	}
	b.seen = now
	return b.lim.AllowN(now, 1)
}

// sweep forgets buckets unused for an interval (they are full again).
func (l *Limiter) sweep(now time.Time) {
	l.lastSweep = now
	for k, b := range l.buckets {
		if now.Sub(b.seen) >= l.cfg.Interval {
			delete(l.buckets, k)
		}
	}
	if len(l.buckets) >= maxLimiterKeys { // a flood of distinct keys: start over rather than grow
		l.buckets = map[string]*bucket{}
	}
}
