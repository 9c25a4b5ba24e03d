package rest

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"
)

// CORS is Strapi's strapi::cors (koa's @koa/cors under it), with its
// defaults: any origin, credentials allowed, the request's origin echoed
// back (a browser refuses "*" with credentials), preflights answered 204.
type CORS struct {
	// Disabled sends no CORS headers (config/middlewares.json without
	// "strapi::cors", as removing it from Strapi's list does).
	Disabled bool
	// Origins allowed; empty or ["*"] means any.
	Origins []string
	// Methods and Headers allowed in preflights; Expose the headers a
	// browser may read.
	Methods, Headers, Expose []string
	// MaxAge of a preflight in seconds (a year unless set).
	MaxAge int
	// NoCredentials turns Access-Control-Allow-Credentials off.
	NoCredentials bool
}

var (
	defaultCORSMethods = []string{"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"}
	defaultCORSHeaders = []string{"Content-Type", "Authorization", "Origin", "Accept"}
)

// corsPolicy is CORS made once.
type corsPolicy struct {
	CORS
	anyOrigin                        bool
	methods, headers, expose, maxAge string
}

func newCORSPolicy(c CORS) *corsPolicy {
	if c.Disabled {
		return nil
	}
	p := &corsPolicy{CORS: c, anyOrigin: len(c.Origins) == 0 || slices.Contains(c.Origins, "*"),
		methods: strings.Join(orDefault(c.Methods, defaultCORSMethods), ","),
		headers: strings.Join(orDefault(c.Headers, defaultCORSHeaders), ","),
		expose:  strings.Join(c.Expose, ","), maxAge: "31536000"}
	if c.MaxAge > 0 {
		p.maxAge = strconv.Itoa(c.MaxAge)
	}
	return p
}

// apply runs before routing, so every path (GraphQL's included) has CORS;
// done tells that it answered a preflight.
func (p *corsPolicy) apply(ctx echo.Context) (done bool, err error) {
	if p == nil {
		return false, nil
	}
	r, h := ctx.Request(), ctx.Response().Header()
	h.Add("Vary", "Origin")
	origin := r.Header.Get("Origin")
	if origin == "" {
		return false, nil
	}
	allow := origin
	switch {
	case p.anyOrigin && p.NoCredentials:
		allow = "*"
	case p.anyOrigin:
	case !slices.Contains(p.Origins, origin):
		return false, nil // not an allowed origin: no CORS headers, the browser refuses
	}
	h.Set("Access-Control-Allow-Origin", allow)
	if !p.NoCredentials {
		h.Set("Access-Control-Allow-Credentials", "true")
	}
	if r.Method != http.MethodOptions || r.Header.Get("Access-Control-Request-Method") == "" {
		if p.expose != "" {
			h.Set("Access-Control-Expose-Headers", p.expose)
		}
		return false, nil
	}
	h.Set("Access-Control-Max-Age", p.maxAge)
	h.Set("Access-Control-Allow-Methods", p.methods)
	h.Set("Access-Control-Allow-Headers", p.headers)
	return true, ctx.NoContent(http.StatusNoContent)
}

func orDefault(v, d []string) []string {
	if len(v) == 0 {
		return d
	}
	return v
}

// httpManners answers HEAD on every GET route (as the GET, with the body
// dropped by net/http) and a path with a trailing slash as without it;
// head tells that the request is a HEAD routed as a GET, whose method the
// caller sets back before the server finishes the answer.
func httpManners(c echo.Context) (head bool) {
	r := c.Request()
	if p := r.URL.Path; len(p) > 1 && strings.HasSuffix(p, "/") {
		trimmed := strings.TrimRight(p, "/")
		if trimmed == "" {
			trimmed = "/"
		}
		r.URL.Path = trimmed
		if r.URL.RawPath != "" {
			r.URL.RawPath = strings.TrimRight(r.URL.RawPath, "/")
		}
	}
	if r.Method != http.MethodHead {
		return false
	}
	// Routed and handled as the GET (echo routes on the request itself),
	// the body dropped here.
	r.Method = http.MethodGet
	res := c.Response()
	res.Writer = headWriter{res.Writer}
	return true
}

// headWriter drops the body of a HEAD answer and keeps its headers.
type headWriter struct{ http.ResponseWriter }

func (w headWriter) Write(b []byte) (int, error) { return len(b), nil }
