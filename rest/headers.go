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

// securityHeaderSet is SecurityHeaders made once: the values are shared
// by every answer (slices of length = capacity: an Add elsewhere copies
// them, never writes into them). helmet's legacy headers
// (X-Download-Options for IE8, ...) are left out: each header costs every
// answer, and these protect no browser in use.
type securityHeaderSet struct {
	fixed http.Header
	hsts  []string // nil: never sent
}

func newSecurityHeaders(h SecurityHeaders) *securityHeaderSet {
	if h.Disabled {
		return nil
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
	set := &securityHeaderSet{fixed: http.Header{
		"X-Content-Type-Options": {"nosniff"},
		"X-Frame-Options":        {frame},
		"Referrer-Policy":        {referrer},
	}}
	if maxAge > 0 {
		set.hsts = []string{"max-age=" + strconv.Itoa(maxAge) + "; includeSubDomains"}
	}
	return set
}

func (set *securityHeaderSet) apply(s *Server, c echo.Context) {
	if set == nil {
		return
	}
	rh := c.Response().Header()
	for k, v := range set.fixed {
		rh[k] = v
	}
	if set.hsts != nil && s.overTLS(c.Request()) {
		rh["Strict-Transport-Security"] = set.hsts
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
