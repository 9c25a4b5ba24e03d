package auth

import (
	"container/list"
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
// At most maxKeys keys are kept: past that the least recently used one is
// forgotten (a flood of fresh keys never resets anyone else's count).
type Limiter struct {
	cfg     RateLimitConfig
	now     func() time.Time
	maxKeys int

	mu      sync.Mutex
	buckets map[string]*list.Element // of *bucket, most recent first
	order   *list.List
}

type bucket struct {
	key  string
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
	return &Limiter{cfg: cfg, now: now, maxKeys: maxLimiterKeys, buckets: map[string]*list.Element{}, order: list.New()}
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
	// Buckets unused for an interval are full again: forget them.
	for e := l.order.Back(); e != nil && now.Sub(e.Value.(*bucket).seen) >= l.cfg.Interval; e = l.order.Back() {
		l.remove(e)
	}
	el := l.buckets[key]
	if el == nil {
		if l.order.Len() >= l.maxKeys {
			l.remove(l.order.Back())
		}
		el = l.order.PushFront(&bucket{key: key, lim: rate.NewLimiter(rate.Every(l.cfg.Interval/time.Duration(l.cfg.Max)), l.cfg.Max)})
		l.buckets[key] = el
	} else {
		l.order.MoveToFront(el)
	}
	b := el.Value.(*bucket)
	b.seen = now
	return b.lim.AllowN(now, 1)
}

func (l *Limiter) remove(e *list.Element) {
	l.order.Remove(e)
	delete(l.buckets, e.Value.(*bucket).key)
}
