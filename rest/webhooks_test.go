package rest_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stratum-cms/stratum/app"
	"github.com/stratum-cms/stratum/internal/testenv"
	"github.com/stratum-cms/stratum/webhooks"
)

// receiver is a real HTTP server that records what it is sent and answers
// with the statuses it is told to, in turn (then 200).
type receiver struct {
	*httptest.Server
	mu      sync.Mutex
	got     []received
	answers []int
}

type received struct {
	Header  http.Header
	Body    []byte
	Payload map[string]any
}

func newReceiver(t *testing.T, answers ...int) *receiver {
	r := &receiver{answers: answers}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		b, _ := io.ReadAll(req.Body)
		var p map[string]any
		_ = json.Unmarshal(b, &p)
		r.mu.Lock()
		r.got = append(r.got, received{Header: req.Header.Clone(), Body: b, Payload: p})
		status := 200
		if len(r.answers) > 0 {
			status, r.answers = r.answers[0], r.answers[1:]
		}
		r.mu.Unlock()
		w.WriteHeader(status)
	}))
	t.Cleanup(r.Close)
	return r
}

func (r *receiver) received() []received {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]received(nil), r.got...)
}

// wait returns once n requests arrived (or fails after 10 s).
func (r *receiver) wait(t *testing.T, n int) []received {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if got := r.received(); len(got) >= n {
			return got
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("the receiver got %d requests, want %d", len(r.received()), n)
	return nil
}

func fastWebhooks(poll time.Duration) func(*app.Config) {
	return func(c *app.Config) {
		c.Webhooks.Poll, c.Webhooks.FirstRetry, c.Webhooks.MaxAttempts = poll, 50*time.Millisecond, 3
		c.Webhooks.DefaultHeaders = map[string]string{"X-Default": "yes"}
	}
}

var articleWrites = []string{"api::article.article.find", "api::article.article.create", "api::article.article.update",
	"api::article.article.delete", "api::tag.tag.create"}

func TestWebhooksAdminAPI(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := openBlog(t, db, testenv.Options{})
		admin := bearer(adminJWT(t, e))
		if r := e.Do("GET", "/admin/webhooks", nil); r.Status != 401 {
			t.Fatalf("without an admin: %d", r.Status)
		}
		body := map[string]any{"name": "site build", "url": "https://build.example.com/hook", "headers": map[string]any{"Authorization": "Bearer x"},
			"events": []any{"entry.create", "entry.publish"}, "secret": "s3cret"}
		r := e.Do("POST", "/admin/webhooks", body, admin...)
		if r.Status != 201 {
			t.Fatalf("create: %d %s", r.Status, r.Body)
		}
		testenv.Golden(t, "webhook_created", r.Body)
		id := int(r.Data()["id"].(float64))
		for _, c := range []struct {
			name string
			body map[string]any
			msg  string
		}{
			{"unknown event", map[string]any{"name": "x", "url": "https://a.example", "events": []any{"entry.explode"}}, "events[0] must be one of"},
			{"bad url", map[string]any{"name": "x", "url": "ftp://a.example", "events": []any{}}, "url must be a valid http or https URL"},
			{"no name", map[string]any{"url": "https://a.example", "events": []any{}}, "name is a required field"},
			{"reserved header", map[string]any{"name": "x", "url": "https://a.example", "events": []any{}, "headers": map[string]any{"X-Strapi-Event": "x"}}, "X-Strapi-Event cannot be a webhook header"},
			{"header injection", map[string]any{"name": "x", "url": "https://a.example", "events": []any{}, "headers": map[string]any{"X-A": "a\r\nX-B: b"}}, "headers.X-A is not a valid header value"},
			{"unknown key", map[string]any{"name": "x", "url": "https://a.example", "events": []any{}, "nope": 1}, "Invalid key nope"},
		} {
			r := e.Do("POST", "/admin/webhooks", c.body, admin...)
			if r.Status != 400 || !strings.Contains(string(r.Body), c.msg) {
				t.Errorf("%s: %d %s", c.name, r.Status, r.Body)
			}
		}
		r = e.Do("PUT", fmt.Sprintf("/admin/webhooks/%d", id), map[string]any{"name": "site build", "url": "https://build.example.com/v2",
			"events": []any{"entry.delete"}, "isEnabled": false}, admin...)
		if r.Status != 200 || r.Data()["url"] != "https://build.example.com/v2" || r.Data()["isEnabled"] != false || r.Data()["hasSecret"] != true {
			t.Fatalf("update: %d %s", r.Status, r.Body)
		}
		if r := e.Do("GET", "/admin/webhooks", nil, admin...); r.Status != 200 || len(r.List()) != 1 || strings.Contains(string(r.Body), "s3cret") {
			t.Fatalf("list: %d %s", r.Status, r.Body)
		}
		if r := e.Do("GET", "/admin/webhooks/999", nil, admin...); r.Status != 404 {
			t.Fatalf("unknown: %d", r.Status)
		}
		if r := e.Do("DELETE", fmt.Sprintf("/admin/webhooks/%d", id), nil, admin...); r.Status != 200 {
			t.Fatalf("delete: %d", r.Status)
		}
		if r := e.Do("GET", fmt.Sprintf("/admin/webhooks/%d", id), nil, admin...); r.Status != 404 {
			t.Fatalf("deleted: %d", r.Status)
		}
	})
}

func TestWebhookDelivery(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		rec := newReceiver(t, 500) // the first attempt fails: the retry delivers
		e := openBlog(t, db, testenv.Options{Public: articleWrites, Tune: fastWebhooks(20 * time.Millisecond)})
		admin := bearer(adminJWT(t, e))
		r := e.Do("POST", "/admin/webhooks", map[string]any{"name": "rec", "url": rec.URL, "secret": "s3cret",
			"headers": map[string]any{"X-Custom": "c"}, "events": []any{"entry.create", "entry.update", "entry.delete", "entry.publish"}}, admin...)
		id := int(r.Data()["id"].(float64))

		r = e.Do("POST", "/api/articles?status=draft", map[string]any{"data": map[string]any{"title": "Hooked", "secretNote": "private!"}})
		if r.Status != 201 {
			t.Fatalf("create: %d %s", r.Status, r.Body)
		}
		doc := r.Data()["documentId"].(string)
		got := rec.wait(t, 2)
		first, second := got[0], got[1]
		if string(first.Body) != string(second.Body) {
			t.Fatalf("the retry sent another body")
		}
		p := second.Payload
		entry, _ := p["entry"].(map[string]any)
		if p["event"] != "entry.create" || p["model"] != "article" || p["uid"] != "api::article.article" || entry["documentId"] != doc ||
			entry["title"] != "Hooked" || p["createdAt"] == nil {
			t.Fatalf("payload: %s", second.Body)
		}
		if strings.Contains(string(second.Body), "private!") || strings.Contains(string(second.Body), "secretNote") {
			t.Fatalf("a private attribute left in a webhook: %s", second.Body)
		}
		h := second.Header
		if h.Get("X-Strapi-Event") != "entry.create" || h.Get("X-Custom") != "c" || h.Get("X-Default") != "yes" ||
			h.Get("Content-Type") != "application/json" {
			t.Fatalf("headers: %v", h)
		}
		sig := h.Get("X-Stratum-Signature")
		ts, _, _ := strings.Cut(strings.TrimPrefix(sig, "t="), ",")
		var sec int64
		fmt.Sscan(ts, &sec)
		if sig != webhooks.Sign("s3cret", time.Unix(sec, 0), second.Body) {
			t.Fatalf("signature %q does not verify", sig)
		}

		// Updates, a publish, a delete: in order, each once.
		e.Do("PUT", "/api/articles/"+doc+"?status=draft", map[string]any{"data": map[string]any{"title": "Hooked 2"}})
		e.Do("PUT", "/api/articles/"+doc, map[string]any{"data": map[string]any{"title": "Hooked 3"}}) // publishes
		e.Do("DELETE", "/api/articles/"+doc, nil)
		got = rec.wait(t, 6)
		var events []string
		for _, g := range got[2:] {
			events = append(events, g.Payload["event"].(string))
		}
		if strings.Join(events, ",") != "entry.update,entry.update,entry.publish,entry.delete" {
			t.Fatalf("events in order: %v", events)
		}
		// A write that fails sends nothing.
		e.Do("POST", "/api/articles", map[string]any{"data": map[string]any{"title": 12}})
		time.Sleep(200 * time.Millisecond)
		if n := len(rec.received()); n != 6 {
			t.Fatalf("a refused write was delivered: %d", n)
		}
		r = e.Do("GET", fmt.Sprintf("/admin/webhooks/%d/deliveries", id), nil, admin...)
		list := r.List()
		if len(list) != 5 || list[4]["attempts"] != float64(2) || list[4]["status"] != "delivered" || list[4]["lastStatus"] != float64(200) {
			t.Fatalf("deliveries: %s", r.Body)
		}
		// trigger sends a test event at once.
		r = e.Do("POST", fmt.Sprintf("/admin/webhooks/%d/trigger", id), nil, admin...)
		if r.Status != 200 || r.Data()["statusCode"] != float64(200) || rec.wait(t, 7)[6].Payload["event"] != "trigger-test" {
			t.Fatalf("trigger: %d %s", r.Status, r.Body)
		}
	})
}

// A receiver that keeps failing is given up after MaxAttempts, recorded.
func TestWebhookGivenUp(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		rec := newReceiver(t, 500, 502, 503, 500)
		e := openBlog(t, db, testenv.Options{Public: articleWrites, Tune: fastWebhooks(20 * time.Millisecond)})
		admin := bearer(adminJWT(t, e))
		r := e.Do("POST", "/admin/webhooks", map[string]any{"name": "down", "url": rec.URL, "events": []any{"entry.create"}}, admin...)
		id := int(r.Data()["id"].(float64))
		e.Do("POST", "/api/tags", map[string]any{"data": map[string]any{"name": "t1"}})
		rec.wait(t, 3)
		deadline := time.Now().Add(5 * time.Second)
		for time.Now().Before(deadline) {
			list := e.Do("GET", fmt.Sprintf("/admin/webhooks/%d/deliveries", id), nil, admin...).List()
			if len(list) == 1 && list[0]["status"] == "failed" {
				if list[0]["attempts"] != float64(3) || list[0]["lastStatus"] != float64(503) {
					t.Fatalf("given up: %v", list[0])
				}
				time.Sleep(200 * time.Millisecond)
				if n := len(rec.received()); n != 3 {
					t.Fatalf("attempts after giving up: %d", n)
				}
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Fatal("the delivery was never given up")
	})
}

// An event written by a node that stops before delivering it is
// delivered by the next node to start; two running nodes deliver each
// event once.
func TestWebhookOutboxAcrossNodes(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		rec := newReceiver(t)
		dbURL := db(t)
		asleep := testenv.Start(t, dbURL, testenv.Options{Public: articleWrites, Tune: fastWebhooks(time.Hour)})
		admin := bearer(adminJWT(t, asleep))
		asleep.Do("POST", "/admin/webhooks", map[string]any{"name": "rec", "url": rec.URL, "events": []any{"entry.create"}}, admin...)
		if r := asleep.Do("POST", "/api/tags", map[string]any{"data": map[string]any{"name": "before the crash"}}); r.Status != 201 {
			t.Fatalf("write: %d %s", r.Status, r.Body)
		}
		asleep.App.Close() // stops before its next delivery round
		if n := len(rec.received()); n != 0 {
			t.Fatalf("delivered before the restart: %d", n)
		}
		a := testenv.Start(t, dbURL, testenv.Options{Public: articleWrites, Tune: fastWebhooks(10 * time.Millisecond)})
		b := testenv.Start(t, dbURL, testenv.Options{Public: articleWrites, Tune: fastWebhooks(10 * time.Millisecond)})
		if got := rec.wait(t, 1); got[0].Payload["entry"].(map[string]any)["name"] != "before the crash" {
			t.Fatalf("after the restart: %s", got[0].Body)
		}
		var wg sync.WaitGroup
		for i := range 20 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				node := a
				if i%2 == 1 {
					node = b
				}
				if r := node.Do("POST", "/api/tags", map[string]any{"data": map[string]any{"name": fmt.Sprintf("tag %d", i)}}); r.Status != 201 {
					t.Errorf("write %d: %d %s", i, r.Status, r.Body)
				}
			}()
		}
		wg.Wait()
		rec.wait(t, 21)
		time.Sleep(300 * time.Millisecond) // a second delivery would arrive by now
		seen := map[string]int{}
		for _, g := range rec.received() {
			seen[g.Payload["entry"].(map[string]any)["documentId"].(string)]++
		}
		if len(seen) != 21 {
			t.Fatalf("%d documents delivered, want 21", len(seen))
		}
		for id, n := range seen {
			if n != 1 {
				t.Errorf("%s delivered %d times", id, n)
			}
		}
	})
}

// Media events: an upload, its info update and its deletion.
func TestMediaWebhooks(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		rec := newReceiver(t)
		e := openBlog(t, db, testenv.Options{Public: uploadActions, Tune: fastWebhooks(20 * time.Millisecond)})
		admin := bearer(adminJWT(t, e))
		e.Do("POST", "/admin/webhooks", map[string]any{"name": "media", "url": rec.URL,
			"events": []any{"media.create", "media.update", "media.delete"}}, admin...)
		status, body := uploadFiles(t, e, "", map[string][]byte{"notes.txt": []byte("hello")}, "")
		if status != 201 {
			t.Fatalf("upload: %d %s", status, body)
		}
		var files []map[string]any
		_ = json.Unmarshal(body, &files)
		id := int(files[0]["id"].(float64))
		if status, body := uploadFiles(t, e, fmt.Sprintf("?id=%d", id), nil, `{"caption":"Notes"}`); status != 200 {
			t.Fatalf("update: %d %s", status, body)
		}
		if r := e.Do("DELETE", fmt.Sprintf("/api/upload/files/%d", id), nil); r.Status != 200 {
			t.Fatalf("delete: %d %s", r.Status, r.Body)
		}
		got := rec.wait(t, 3)
		for i, want := range []string{"media.create", "media.update", "media.delete"} {
			p := got[i].Payload
			media, _ := p["media"].(map[string]any)
			if p["event"] != want || got[i].Header.Get("X-Strapi-Event") != want || media["name"] != "notes.txt" || media["id"] != float64(id) {
				t.Fatalf("%s: %s", want, got[i].Body)
			}
		}
		if got[1].Payload["media"].(map[string]any)["caption"] != "Notes" {
			t.Fatalf("update payload: %s", got[1].Body)
		}
	})
}
