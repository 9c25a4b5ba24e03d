package main

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// node is a real HTTP server standing for a Stratum node: it answers its
// name and the body it was sent, or, when dying, drops the connection
// without an answer (a process killed in the middle of a request).
type node struct {
	name  string
	srv   *httptest.Server
	dying atomic.Bool
	hits  atomic.Int64
}

func newNode(t *testing.T, name string) *node {
	n := &node{name: name}
	n.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.dying.Load() {
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				conn.Close()
			}
			return
		}
		n.hits.Add(1)
		body, _ := io.ReadAll(r.Body)
		_, _ = io.WriteString(w, n.name+" "+r.Method+" "+string(body)+" host="+r.Host+" xff="+r.Header.Get("X-Forwarded-For"))
	}))
	t.Cleanup(n.srv.Close)
	return n
}

func u(t *testing.T, s string) *url.URL {
	p, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func lb(t *testing.T, urls ...*url.URL) (*balancer, string) {
	b := newBalancer(urls, slog.New(slog.DiscardHandler))
	srv := httptest.NewServer(b.handler())
	t.Cleanup(srv.Close)
	return b, srv.URL
}

func send(t *testing.T, method, url, body string) (int, string, string) {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	if body == "" {
		req.Body = nil
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b), res.Header.Get("X-Upstream")
}

// freeAddr is an address nothing listens on (a node that is down).
func freeAddr(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// TestBalancer: requests alternate between nodes with the client's Host
// and X-Forwarded-For; a node that refuses connections costs no request
// (POST bodies included); a GET whose node dies while answering is
// answered by the other node; a POST in that case is a 502 (it may have
// been applied), never sent twice.
func TestBalancer(t *testing.T) {
	a, b := newNode(t, "a"), newNode(t, "b")
	_, addr := lb(t, u(t, a.srv.URL), u(t, b.srv.URL))

	seen := map[string]int{}
	for i := 0; i < 10; i++ {
		st, body, up := send(t, "GET", addr+"/api/x", "")
		if st != 200 || !strings.Contains(body, "host="+strings.TrimPrefix(addr, "http://")) || !strings.Contains(body, "xff=127.0.0.1") {
			t.Fatalf("GET: %d %q", st, body)
		}
		seen[body[:1]]++
		if up == "" {
			t.Fatal("no X-Upstream")
		}
	}
	if seen["a"] != 5 || seen["b"] != 5 {
		t.Fatalf("not in turn: %v", seen)
	}

	// A node that is down (connection refused): every request, a POST
	// with its body too, is answered by the other.
	dead := "http://" + freeAddr(t)
	_, addr2 := lb(t, u(t, dead), u(t, b.srv.URL))
	for i := 0; i < 6; i++ {
		if st, body, _ := send(t, "POST", addr2+"/api/x", "payload"); st != 200 || body[:1] != "b" || !strings.Contains(body, "POST payload") {
			t.Fatalf("POST with a node down: %d %q", st, body)
		}
		if st, body, _ := send(t, "GET", addr2+"/api/x", ""); st != 200 || body[:1] != "b" {
			t.Fatalf("GET with a node down: %d %q", st, body)
		}
	}

	// A node that dies while answering: GETs go to the other node; a POST
	// it had is a 502, and is not sent again.
	c, d := newNode(t, "c"), newNode(t, "d")
	_, addr3 := lb(t, u(t, c.srv.URL), u(t, d.srv.URL))
	c.dying.Store(true)
	for i := 0; i < 4; i++ {
		if st, body, _ := send(t, "GET", addr3+"/api/x", ""); st != 200 || body[:1] != "d" {
			t.Fatalf("GET while a node dies: %d %q", st, body)
		}
	}
	c.dying.Store(false)
	bal := newBalancer([]*url.URL{u(t, c.srv.URL)}, slog.New(slog.DiscardHandler))
	srv := httptest.NewServer(bal.handler())
	defer srv.Close()
	c.dying.Store(true)
	before := d.hits.Load()
	if st, body, _ := send(t, "POST", srv.URL+"/api/x", "once"); st != 502 || !strings.Contains(body, `"status":502`) {
		t.Fatalf("POST whose node died: %d %q", st, body)
	}
	if d.hits.Load() != before {
		t.Fatal("the POST was sent to another node")
	}
}

// TestHealthCheck: a node whose health check fails is skipped (no request
// waits on it), and taken back when it answers again.
func TestHealthCheck(t *testing.T) {
	var healthy atomic.Bool
	healthy.Store(true)
	var hits atomic.Int64
	a := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/_ready" {
			if !healthy.Load() {
				w.WriteHeader(503)
			}
			return
		}
		hits.Add(1)
		_, _ = io.WriteString(w, "a")
	}))
	defer a.Close()
	bn := newNode(t, "b")
	bal, addr := lb(t, u(t, a.URL), u(t, bn.srv.URL))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go bal.check(ctx, "/_ready", 20*time.Millisecond)

	healthy.Store(false)
	waitFor(t, func() bool { return !bal.backends[0].up(time.Now()) })
	before := hits.Load()
	for i := 0; i < 6; i++ {
		if st, body, _ := send(t, "GET", addr+"/", ""); st != 200 || body[:1] != "b" {
			t.Fatalf("with a unhealthy: %d %q", st, body)
		}
	}
	if hits.Load() != before {
		t.Fatal("an unhealthy node got requests")
	}
	healthy.Store(true)
	waitFor(t, func() bool { return bal.backends[0].up(time.Now()) })
	got := map[string]bool{}
	for i := 0; i < 4; i++ {
		_, body, _ := send(t, "GET", addr+"/", "")
		got[body[:1]] = true
	}
	if !got["a"] || !got["b"] {
		t.Fatalf("a not taken back: %v", got)
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached within 5s")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
