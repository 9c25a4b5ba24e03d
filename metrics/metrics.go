// Package metrics exposes a node's Prometheus metrics: requests by route
// and status with their latency, the database pools, the schema version
// and the webhook backlog. Each App has its own registry, so several in
// one process (tests) do not collide.
package metrics

import (
	"context"
	"crypto/subtle"
	"database/sql"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Sources are what the gauges read.
type Sources struct {
	// Pools are the database pools by name ("read", "write").
	Pools map[string]*sql.DB
	// SchemaVersion is the snapshot this node serves.
	SchemaVersion func() int64
	// WebhookBacklog counts the deliveries waiting.
	WebhookBacklog func(context.Context) (int64, error)
}

// Metrics is one node's registry and its request instruments.
type Metrics struct {
	reg      *prometheus.Registry
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
}

// New registers the instruments.
func New(src Sources) *Metrics {
	reg := prometheus.NewRegistry()
	m := &Metrics{reg: reg,
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "stratum_http_requests_total",
			Help: "HTTP requests by route template, method and status."}, []string{"route", "method", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "stratum_http_request_duration_seconds",
			Help:    "HTTP request latency by route template and method.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}}, []string{"route", "method"}),
	}
	reg.MustRegister(m.requests, m.latency, collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	for name, db := range src.Pools {
		reg.MustRegister(collectors.NewDBStatsCollector(db, name))
	}
	if src.SchemaVersion != nil {
		reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "stratum_schema_version",
			Help: "The schema snapshot version this node serves."}, func() float64 { return float64(src.SchemaVersion()) }))
	}
	if src.WebhookBacklog != nil {
		reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "stratum_webhook_backlog",
			Help: "Webhook deliveries waiting to be sent."}, func() float64 {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			n, err := src.WebhookBacklog(ctx)
			if err != nil {
				return -1
			}
			return float64(n)
		}))
	}
	return m
}

// Middleware counts and times every request by its route template (not
// its path: the label set stays bounded whatever clients ask).
func (m *Metrics) Middleware(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		start := time.Now()
		err := next(c)
		if err != nil {
			c.Error(err)
		}
		route := c.Path()
		if route == "" {
			route = "unmatched"
		}
		method := c.Request().Method
		m.requests.WithLabelValues(route, method, strconv.Itoa(c.Response().Status)).Inc()
		m.latency.WithLabelValues(route, method).Observe(time.Since(start).Seconds())
		return nil
	}
}

// Handler serves the metrics: with a token, to requests that bear it;
// without one, to loopback clients only (a scraper on the same host or a
// sidecar), never to the internet by default.
func (m *Metrics) Handler(token string) http.Handler {
	h := promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if token != "" {
			got := r.Header.Get("Authorization")
			if subtle.ConstantTimeCompare([]byte(got), []byte("Bearer "+token)) != 1 {
				refuse(w, http.StatusUnauthorized, `{"data":null,"error":{"status":401,"name":"UnauthorizedError","message":"Missing or invalid credentials","details":{}}}`)
				return
			}
		} else if !loopback(r.RemoteAddr) {
			refuse(w, http.StatusForbidden, `{"data":null,"error":{"status":403,"name":"ForbiddenError","message":"Forbidden","details":{}}}`)
			return
		}
		h.ServeHTTP(w, r)
	})
}

func loopback(remote string) bool {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func refuse(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(body))
}
