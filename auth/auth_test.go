package auth

import (
	"encoding/json"
	"net/http/httptest"
	"testing"
	"time"
)

func TestParseExpiresIn(t *testing.T) {
	for in, want := range map[string]time.Duration{
		`"30d"`: 30 * 24 * time.Hour, `"12h"`: 12 * time.Hour, `"90 minutes"`: 90 * time.Minute, `"2 weeks"`: 14 * 24 * time.Hour,
		`"1.5h"`: 90 * time.Minute, `"5000"`: 5 * time.Second, `3600`: time.Hour, `"10s"`: 10 * time.Second, `null`: 0, ``: 0,
	} {
		got, err := ParseExpiresIn(json.RawMessage(in))
		if err != nil || got != want {
			t.Errorf("%s: %v %v, want %v", in, got, err, want)
		}
	}
	for _, in := range []string{`"soon"`, `"-1d"`, `0`, `"3 fortnights"`, `true`} {
		if _, err := ParseExpiresIn(json.RawMessage(in)); err == nil {
			t.Errorf("%s: no error", in)
		}
	}
}

func TestLimiter(t *testing.T) {
	now := time.Unix(0, 0)
	l := NewLimiter(RateLimitConfig{Max: 2, Interval: time.Minute}, func() time.Time { return now })
	if !l.Allow("a") || !l.Allow("a") || l.Allow("a") {
		t.Fatal("two attempts, then refused")
	}
	if !l.Allow("b") {
		t.Fatal("keys are counted apart")
	}
	now = now.Add(30 * time.Second) // one token back
	if !l.Allow("a") || l.Allow("a") {
		t.Fatal("refill")
	}
	now = now.Add(2 * time.Minute)
	l.Allow("c")
	if len(l.buckets) != 1 {
		t.Fatalf("idle buckets are swept: %d left", len(l.buckets))
	}
	off := NewLimiter(RateLimitConfig{Disabled: true}, nil)
	for range 100 {
		if !off.Allow("a") {
			t.Fatal("disabled limiter refused")
		}
	}
}

func TestBearerAndShapes(t *testing.T) {
	for h, want := range map[string]string{"Bearer abc": "abc", "bearer abc": "abc", "BEARER  abc": "abc"} {
		if got, ok := bearer(h); !ok || got != want {
			t.Errorf("%q: %q %v", h, got, ok)
		}
	}
	for _, h := range []string{"", "abc", "Basic abc", "Bearer a b", "Bearer"} {
		if _, ok := bearer(h); ok {
			t.Errorf("%q accepted", h)
		}
	}
	if roleType("Content Editors!") != "content_editors" || roleType("  ") != "" {
		t.Fatal("roleType")
	}
	s, err := newTokenString()
	if err != nil || !isTokenString(s) || isTokenString(s[:255]) || isTokenString(s[:255]+"G") {
		t.Fatal("token string shape")
	}
}

func TestPrincipalScopes(t *testing.T) {
	ro := &Principal{Kind: KindAPIToken, scope: scopeReadOnly}
	for a, want := range map[string]bool{
		"api::article.article.find": true, "api::article.article.findOne": true, "plugin::users-permissions.user.find": true,
		"api::article.article.create": false, "plugin::users-permissions.user.me": false, "api::x.x.refind": false,
	} {
		if ro.Can(a) != want {
			t.Errorf("read-only %s: %v", a, !want)
		}
	}
	if !(&Principal{scope: scopeFull}).Can("anything") || (*Principal)(nil).Can("x") {
		t.Fatal("full access / nil")
	}
}

// TestLimiterEvictsTheOldest: past its size the limiter forgets the least
// recently used key, so a flood of fresh keys never resets the count of a
// key in use.
func TestLimiterEvictsTheOldest(t *testing.T) {
	now := time.Unix(0, 0)
	l := NewLimiter(RateLimitConfig{Max: 2, Interval: time.Minute}, func() time.Time { return now })
	l.maxKeys = 3
	if !l.Allow("a") || !l.Allow("a") || l.Allow("a") {
		t.Fatal("a: two attempts, then refused")
	}
	for i, k := range []string{"b", "c", "d", "e", "f"} {
		l.Allow(k)
		if l.Allow("a") {
			t.Fatalf("after %d fresh keys the count of a was reset", i+1)
		}
		if n := l.order.Len(); n > 3 || len(l.buckets) != n {
			t.Fatalf("%d keys kept (map %d), at most 3", n, len(l.buckets))
		}
	}
	now = now.Add(time.Minute)
	if !l.Allow("a") {
		t.Fatal("a is refilled after an interval")
	}
}

func TestClientIP(t *testing.T) {
	cases := []struct {
		trust bool
		xff   []string
		want  string
	}{
		{false, []string{"203.0.113.9"}, "192.0.2.1"},
		{true, nil, "192.0.2.1"},
		{true, []string{"203.0.113.9"}, "203.0.113.9"},
		{true, []string{"1.2.3.4, 203.0.113.9"}, "203.0.113.9"},   // the client wrote 1.2.3.4
		{true, []string{"203.0.113.9, 10.0.0.2"}, "203.0.113.9"},  // 10.0.0.2 is a proxy
		{true, []string{"1.2.3.4", "203.0.113.9"}, "203.0.113.9"}, // two header lines
		{true, []string{"10.0.0.1, 127.0.0.1"}, "10.0.0.1"},
		{true, []string{"2001:db8::1, ::1"}, "2001:db8::1"},
		{true, []string{"1.2.3.4, junk"}, "junk"},
	}
	for _, c := range cases {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = "192.0.2.1:5555"
		for _, h := range c.xff {
			r.Header.Add("X-Forwarded-For", h)
		}
		if got := ClientIP(r, c.trust); got != c.want {
			t.Errorf("trust %v, %q: %q, want %q", c.trust, c.xff, got, c.want)
		}
	}
}
