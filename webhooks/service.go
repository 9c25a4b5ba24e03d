package webhooks

import (
	"context"
	"log/slog"
	"net/http"
	"time"
)

// Config tunes delivery; zero values take the defaults.
type Config struct {
	// DefaultHeaders are sent with every delivery (Strapi's
	// server.webhooks.defaultHeaders), under a webhook's own headers.
	DefaultHeaders map[string]string
	// Poll is how often a node looks for new events and due deliveries
	// (500 ms).
	Poll time.Duration
	// FirstRetry is the wait after the first failure (1 s); each next
	// one doubles, up to MaxRetryDelay (10 min).
	FirstRetry, MaxRetryDelay time.Duration
	// MaxAttempts before a delivery is given up and recorded failed (10:
	// about 17 minutes of retries with the default delays).
	MaxAttempts int
	// Timeout of one attempt (10 s), Lease how long a claimed delivery is
	// a node's before another may take it (2 × Timeout).
	Timeout, Lease time.Duration
	// Retention of delivered events and finished deliveries (7 days).
	Retention time.Duration
	// Concurrency is how many deliveries a node sends at once (4).
	Concurrency int
	Log         *slog.Logger
	// Client sends the deliveries (tests); default: no redirects followed.
	Client *http.Client
	// Now is the clock (tests).
	Now func() time.Time
}

func (c *Config) defaults() {
	if c.Poll <= 0 {
		c.Poll = 500 * time.Millisecond
	}
	if c.FirstRetry <= 0 {
		c.FirstRetry = time.Second
	}
	if c.MaxRetryDelay <= 0 {
		c.MaxRetryDelay = 10 * time.Minute
	}
	if c.MaxAttempts <= 0 {
		c.MaxAttempts = 10
	}
	if c.Timeout <= 0 {
		c.Timeout = 10 * time.Second
	}
	if c.Lease <= 0 {
		c.Lease = 2 * c.Timeout
	}
	if c.Retention <= 0 {
		c.Retention = 7 * 24 * time.Hour
	}
	if c.Concurrency <= 0 {
		c.Concurrency = 4
	}
	if c.Log == nil {
		c.Log = slog.New(slog.DiscardHandler)
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Client == nil {
		// A receiver's redirect is its answer: following it would let a
		// webhook's target bounce deliveries elsewhere.
		c.Client = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	}
}

// Service is the webhooks of an instance: their admin operations and the
// delivery loop.
type Service struct {
	st  Store
	cfg Config
}

// New makes the service; Run delivers.
func New(st Store, cfg Config) *Service {
	cfg.defaults()
	return &Service{st: st, cfg: cfg}
}

func (s *Service) now() int64 { return nowMilli(s.cfg.Now()) }

// List is GET /admin/webhooks.
func (s *Service) List(ctx context.Context) ([]Webhook, error) { return s.st.Webhooks(ctx) }

// Get is GET /admin/webhooks/:id.
func (s *Service) Get(ctx context.Context, id int64) (*Webhook, error) {
	w, err := s.st.Webhook(ctx, id)
	if err == nil && w == nil {
		err = notFound()
	}
	return w, err
}

// Create is POST /admin/webhooks.
func (s *Service) Create(ctx context.Context, in Input) (*Webhook, error) {
	now := s.now()
	w := &Webhook{Name: in.Name, URL: in.URL, Headers: in.Headers, Events: in.Events, IsEnabled: true, CreatedAt: now, UpdatedAt: now}
	if in.IsEnabled != nil {
		w.IsEnabled = *in.IsEnabled
	}
	if in.Secret != nil {
		w.Secret = *in.Secret
	}
	w.HasSecret = w.Secret != ""
	if err := s.st.CreateWebhook(ctx, w); err != nil {
		return nil, err
	}
	return w, nil
}

// Update is PUT /admin/webhooks/:id: the whole webhook, as Strapi; a
// secret not given stays.
func (s *Service) Update(ctx context.Context, id int64, in Input) (*Webhook, error) {
	w, err := s.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	w.Name, w.URL, w.Headers, w.Events, w.UpdatedAt = in.Name, in.URL, in.Headers, in.Events, s.now()
	if in.IsEnabled != nil {
		w.IsEnabled = *in.IsEnabled
	}
	if in.Secret != nil {
		w.Secret = *in.Secret
	}
	w.HasSecret = w.Secret != ""
	return w, s.st.SaveWebhook(ctx, w)
}

// Delete is DELETE /admin/webhooks/:id: the deleted webhook.
func (s *Service) Delete(ctx context.Context, id int64) (*Webhook, error) {
	w, err := s.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	return w, s.st.DeleteWebhook(ctx, id)
}

// Deliveries is GET /admin/webhooks/:id/deliveries: the latest 50.
func (s *Service) Deliveries(ctx context.Context, id int64) ([]Delivery, error) {
	if _, err := s.Get(ctx, id); err != nil {
		return nil, err
	}
	return s.st.Deliveries(ctx, id, 50)
}

// Backlog counts the deliveries waiting to be sent.
func (s *Service) Backlog(ctx context.Context) (int64, error) { return s.st.Backlog(ctx) }
