package rest_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stratum-cms/stratum/app"
	"github.com/stratum-cms/stratum/internal/testenv"
)

type sseEvent struct {
	ID, Name string
	Data     map[string]any
}

// sse opens an event stream; events arrive on the channel until the
// stream ends (the channel closes) or the test does.
func sse(t *testing.T, url string, headers ...string) (int, <-chan sseEvent, context.CancelFunc) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	ch := make(chan sseEvent, 100)
	if res.StatusCode != 200 {
		res.Body.Close()
		close(ch)
		return res.StatusCode, ch, cancel
	}
	go func() {
		defer res.Body.Close()
		defer close(ch)
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		var ev sseEvent
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				if ev.Name != "" {
					ch <- ev
				}
				ev = sseEvent{}
			case strings.HasPrefix(line, "id: "):
				ev.ID = line[4:]
			case strings.HasPrefix(line, "event: "):
				ev.Name = line[7:]
			case strings.HasPrefix(line, "data: "):
				_ = json.Unmarshal([]byte(line[6:]), &ev.Data)
			}
		}
	}()
	return res.StatusCode, ch, cancel
}

func next(t *testing.T, ch <-chan sseEvent) sseEvent {
	t.Helper()
	select {
	case ev, ok := <-ch:
		if !ok {
			t.Fatal("the stream ended")
		}
		return ev
	case <-time.After(5 * time.Second):
		t.Fatal("no event within 5 s")
	}
	return sseEvent{}
}

func quiet(t *testing.T, ch <-chan sseEvent, d time.Duration) {
	t.Helper()
	select {
	case ev, ok := <-ch:
		if ok {
			t.Fatalf("unexpected event %s %v", ev.Name, ev.Data)
		}
	case <-time.After(d):
	}
}

// fastRealtime polls often; the gap wait stays long, since on a loaded
// machine a writer's transaction can take a while to commit after its
// event got its id.
func fastRealtime(c *app.Config) {
	c.Realtime.Poll, c.Realtime.GapWait, c.Realtime.MaxPerClient = 20*time.Millisecond, 3*time.Second, 3
}

var realtimePublic = []string{"api::article.article.find", "api::article.article.create", "api::article.article.update",
	"api::author.author.create", "api::tag.tag.find", "api::tag.tag.create"}

func TestRealtime(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		dbURL := db(t)
		a := testenv.Start(t, dbURL, testenv.Options{Public: realtimePublic, Tune: fastRealtime})
		b := testenv.Start(t, dbURL, testenv.Options{Public: realtimePublic, Tune: fastRealtime})
		status, ch, stop := sse(t, a.URL+"/api/realtime?types=articles,authors")
		if status != 200 {
			t.Fatalf("stream: %d", status)
		}
		time.Sleep(100 * time.Millisecond) // the hub has taken its cursor

		// Written on the other node; authors may not be read, drafts are not streamed.
		b.Do("POST", "/api/authors", map[string]any{"data": map[string]any{"name": "Hidden", "email": "h@example.com"}})
		b.Do("POST", "/api/articles?status=draft", map[string]any{"data": map[string]any{"title": "Draft"}})
		r := b.Do("POST", "/api/articles", map[string]any{"data": map[string]any{"title": "Live", "secretNote": "private!"}})
		doc := r.Data()["documentId"].(string)
		ev := next(t, ch)
		if ev.Name != "entry.create" || ev.Data["entry"].(map[string]any)["documentId"] != doc || ev.Data["uid"] != "api::article.article" {
			t.Fatalf("first event: %+v", ev)
		}
		if _, leaked := ev.Data["entry"].(map[string]any)["secretNote"]; leaked {
			t.Fatal("a private attribute in a stream")
		}
		if ev = next(t, ch); ev.Name != "entry.publish" {
			t.Fatalf("second event: %+v", ev)
		}
		quiet(t, ch, 200*time.Millisecond)
		lastID := ev.ID
		stop()

		// Missed while away, then resumed with Last-Event-ID.
		a.Do("PUT", "/api/articles/"+doc, map[string]any{"data": map[string]any{"title": "Live 2"}})
		_, ch, _ = sse(t, a.URL+"/api/realtime?types=articles&documentId="+doc, "Last-Event-ID", lastID)
		if ev = next(t, ch); ev.Name != "entry.update" || ev.Data["entry"].(map[string]any)["title"] != "Live 2" {
			t.Fatalf("resumed: %+v", ev)
		}
		if ev = next(t, ch); ev.Name != "entry.publish" {
			t.Fatalf("resumed second: %+v", ev)
		}
		// documentId keeps one document.
		b.Do("POST", "/api/articles", map[string]any{"data": map[string]any{"title": "Other"}})
		quiet(t, ch, 300*time.Millisecond)

		for _, c := range []struct {
			path   string
			status int
		}{
			{"/api/realtime?types=nope", 400},
			{"/api/realtime?types=authors", 403},
			{"/api/realtime?status=weird", 400},
		} {
			if st, _, _ := sse(t, a.URL+c.path); st != c.status {
				t.Errorf("%s: %d, want %d", c.path, st, c.status)
			}
		}
		// At most MaxPerClient streams per client (3): one is open above.
		sse(t, a.URL+"/api/realtime?types=tags")
		sse(t, a.URL+"/api/realtime?types=tags")
		if st, _, _ := sse(t, a.URL+"/api/realtime?types=tags"); st != 429 {
			t.Fatalf("a fourth stream: %d", st)
		}
	})
}

// A stream follows its credential: a token revoked while the stream is
// open ends it with an error event; the events before still arrive.
func TestRealtimeCredentialRevoked(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := openBlog(t, db, testenv.Options{Public: []string{"api::tag.tag.create"}, Tune: fastRealtime})
		admin := bearer(adminJWT(t, e))
		r := e.Do("POST", "/admin/api-tokens", map[string]any{"name": "reader", "type": "read-only"}, admin...)
		key := r.Data()["accessKey"].(string)
		id := int(r.Data()["id"].(float64))
		status, ch, _ := sse(t, e.URL+"/api/realtime?types=tags", "Authorization", "Bearer "+key)
		if status != 200 {
			t.Fatalf("stream: %d", status)
		}
		time.Sleep(100 * time.Millisecond)
		e.Do("POST", "/api/tags", map[string]any{"data": map[string]any{"name": "seen"}})
		if ev := next(t, ch); ev.Name != "entry.create" {
			t.Fatalf("before: %+v", ev)
		}
		e.Do("DELETE", fmt.Sprintf("/admin/api-tokens/%d", id), nil, admin...)
		time.Sleep(1100 * time.Millisecond) // the credential is checked again at most a second after the last check
		e.Do("POST", "/api/tags", map[string]any{"data": map[string]any{"name": "unseen"}})
		ev := next(t, ch)
		if ev.Name != "error" {
			t.Fatalf("after the revocation: %+v", ev)
		}
		select {
		case _, ok := <-ch:
			if ok {
				t.Fatal("the stream went on")
			}
		case <-time.After(3 * time.Second):
			t.Fatal("the stream did not end")
		}
	})
}
