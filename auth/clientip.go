package auth

import (
	"net"
	"net/http"
	"net/netip"
	"strings"

	"github.com/stratum-cms/stratum/errs"
)

// ClientIP is the address a request came from, the one function REST,
// GraphQL and the admin API use (rate limits key on it). Without a trusted
// proxy it is the connection's peer. Behind one (server.json "proxy"), it is
// the nearest X-Forwarded-For entry that is not itself a proxy address
// (loopback, private, link-local): entries to its left are whatever the
// client wrote, so taking the leftmost would let a client pick its key.
func ClientIP(r *http.Request, trustProxy bool) string {
	if r == nil {
		return ""
	}
	peer, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		peer = r.RemoteAddr
	}
	if !trustProxy {
		return peer
	}
	var hops []string
	for _, h := range r.Header.Values("X-Forwarded-For") {
		for _, part := range strings.Split(h, ",") {
			if p := strings.TrimSpace(part); p != "" {
				hops = append(hops, p)
			}
		}
	}
	if len(hops) == 0 {
		return peer
	}
	for i := len(hops) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(hops[i])
		if err != nil {
			return hops[i] // not an address: as good a key as any, and not skippable
		}
		if !(a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast()) {
			return a.String()
		}
	}
	return hops[0]
}

// LoginAttempt counts an attempt of a rate-limited action (the paths
// "/api/auth/local", "/api/auth/local/register", "/admin/login",
// "/admin/register-admin"; GraphQL's login and register count as the
// first two) for an identifier from the request's client, and answers 429
// past the limit.
func (s *Service) LoginAttempt(r *http.Request, trustProxy bool, identifier, action string) error {
	if identifier == "" {
		identifier = "unknownIdentifier"
	}
	if !s.limiter.Allow(strings.ToLower(identifier) + ":" + action + ":" + ClientIP(r, trustProxy)) {
		return &errs.Error{Kind: errs.KindRateLimit, Message: "Too many requests, please try again later."}
	}
	return nil
}
