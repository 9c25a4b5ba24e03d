package rest

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"
)

// SecurityHeaders are the response headers of a hardened Strapi (its
// security middleware, helmet), on every answer. config/server.json
// "security": {"headers": false} turns them off, for a proxy that sets its
// own.
type SecurityHeaders struct {
	Disabled bool
	// FrameOptions is X-Frame-Options: SAMEORIGIN unless set ("DENY").
	FrameOptions string
	// ReferrerPolicy: no-referrer unless set.
	ReferrerPolicy string
	// HSTSMaxAge is Strict-Transport-Security's max-age in seconds
	// (31536000 unless set; -1 never sends it). It is sent only on
	// requests that came over TLS, or through a trusted proxy that says
	// so with X-Forwarded-Proto: a browser must not learn it over HTTP.
	HSTSMaxAge int
}

func (s *Server) securityHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	h := s.cfg.Headers
	if h.Disabled {
		return next
	}
	frame := h.FrameOptions
	if frame == "" {
		frame = "SAMEORIGIN"
	}
	referrer := h.ReferrerPolicy
	if referrer == "" {
		referrer = "no-referrer"
	}
	maxAge := h.HSTSMaxAge
	if maxAge == 0 {
		maxAge = 31536000
	}
	// The values are built once and shared by every answer (a slice of
	// length = capacity: an Add elsewhere copies it, never writes into it).
	// helmet's legacy headers (X-Download-Options for IE8, ...) are left
	// out: each header costs every answer, and these protect no browser
	// in use.
	fixed := http.Header{
		"X-Content-Type-Options": {"nosniff"},
		"X-Frame-Options":        {frame},
		"Referrer-Policy":        {referrer},
	}
	hsts := []string{"max-age=" + strconv.Itoa(maxAge) + "; includeSubDomains"}
	return func(c echo.Context) error {
		rh := c.Response().Header()
		for k, v := range fixed {
			rh[k] = v
		}
		if maxAge > 0 && s.overTLS(c.Request()) {
			rh["Strict-Transport-Security"] = hsts
		}
		return next(c)
	}
}

// overTLS tells whether the client reached us over HTTPS: directly, or
// through a trusted proxy's X-Forwarded-Proto (the last hop's word).
func (s *Server) overTLS(r *http.Request) bool {
	if r.TLS != nil {
		return true
	}
	if !s.cfg.TrustProxy {
		return false
	}
	proto := r.Header.Get("X-Forwarded-Proto")
	if i := strings.LastIndexByte(proto, ','); i >= 0 {
		proto = proto[i+1:]
	}
	return strings.EqualFold(strings.TrimSpace(proto), "https")
}
