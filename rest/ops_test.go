package rest_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stratum-cms/stratum/app"
	"github.com/stratum-cms/stratum/internal/testenv"
)

func TestReadyAndRequestIDs(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := testenv.Start(t, db(t), testenv.Options{Public: []string{"api::article.article.find"}})
		r := e.Do("GET", "/_ready", nil)
		if r.Status != 200 || r.JSON["status"] != "ready" {
			t.Fatalf("ready: %d %s", r.Status, r.Body)
		}
		r = e.Do("GET", "/api/articles", nil, "X-Request-Id", "lb-123.abc")
		if r.Header.Get("X-Request-Id") != "lb-123.abc" {
			t.Fatalf("kept id: %q", r.Header.Get("X-Request-Id"))
		}
		r = e.Do("GET", "/api/articles", nil, "X-Request-Id", "<script>")
		if id := r.Header.Get("X-Request-Id"); id == "" || id == "<script>" {
			t.Fatalf("replaced id: %q", id)
		}
		e.App.Store.Close()
		if r := e.Do("GET", "/_ready", nil); r.Status != 503 {
			t.Fatalf("ready without a database: %d", r.Status)
		}
	})
}

func TestMetrics(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := testenv.Start(t, db(t), testenv.Options{Public: []string{"api::article.article.find"}, Tune: func(c *app.Config) {
			c.Metrics.Enabled, c.Metrics.Token = true, "scrape-token"
		}})
		e.Do("GET", "/api/articles", nil)
		e.Do("GET", "/api/articles/abc", nil)
		e.Do("GET", "/api/nope/x/y", nil)
		if r := e.Do("GET", "/metrics", nil); r.Status != 401 {
			t.Fatalf("metrics without the token: %d", r.Status)
		}
		req, _ := http.NewRequest("GET", e.URL+"/metrics", nil)
		req.Header.Set("Authorization", "Bearer scrape-token")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		body := string(b)
		for _, want := range []string{
			`stratum_http_requests_total{method="GET",route="/api/:name",status="200"} 1`,
			`stratum_http_requests_total{method="GET",route="/api/:name/:documentId",status="404"} 1`,
			`stratum_http_request_duration_seconds_bucket{method="GET",route="/api/:name",le="+Inf"} 1`,
			`stratum_schema_version `, `stratum_webhook_backlog 0`, `go_sql_open_connections{db_name=`,
		} {
			if !strings.Contains(body, want) {
				t.Errorf("metrics lack %q", want)
			}
		}
		if strings.Contains(body, "/api/nope/x/y") {
			t.Error("a path (not a route template) became a label")
		}
		// Without a token, only loopback clients are served: the test
		// client is one.
		open := testenv.Start(t, db(t), testenv.Options{Tune: func(c *app.Config) { c.Metrics.Enabled = true }})
		if r := open.Do("GET", "/metrics", nil); r.Status != 200 {
			t.Fatalf("loopback without a token: %d", r.Status)
		}
		off := testenv.Start(t, db(t), testenv.Options{})
		if r := off.Do("GET", "/metrics", nil); r.Status == 200 {
			t.Fatal("metrics served without being enabled")
		}
	})
}
