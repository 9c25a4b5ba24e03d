package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stratum-cms/stratum/auth"
	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/errs"
	"github.com/stratum-cms/stratum/internal/testenv"
	"github.com/stratum-cms/stratum/models"
	"github.com/stratum-cms/stratum/rest"
	"github.com/stratum-cms/stratum/store"
)

// node is one Stratum node: engine + REST over a database URL.
type node struct {
	eng *engine.Engine
	env *testenv.Env
}

func startNode(t *testing.T, dbURL string) *node {
	t.Helper()
	types, comps, err := models.ReadDir(filepath.Join(testenv.Root(), "examples", "blog"))
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	eng, err := engine.Boot(context.Background(), st, engine.SchemaFiles{Types: types, Components: comps}, engine.Config{MaxLimit: 100, WithCount: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go eng.Watch(ctx, func(err error) { t.Logf("reload: %v", err) })
	srv := httptest.NewServer(rest.New(rest.Config{}, eng, allowAll{}, slog.New(slog.NewTextHandler(io.Discard, nil))))
	t.Cleanup(srv.Close)
	return &node{eng: eng, env: &testenv.Env{T: t, URL: srv.URL, Engine: eng, Store: st, DB: st.Dialect()}}
}

// allowAll lets every request do everything: these tests are about schemas.
type allowAll struct{}

func (allowAll) Authenticate(*http.Request) (*auth.Principal, error) {
	return auth.NewPrincipal("test", []string{
		"api::note.note.find", "api::note.note.findOne", "api::note.note.create", "api::note.note.update", "api::note.note.delete",
		"api::tag.tag.find", "api::tag.tag.create"}), nil
}

const noteV1 = `{"kind":"collectionType","collectionName":"notes","info":{"singularName":"note","pluralName":"notes"},
"options":{"draftAndPublish":false},"attributes":{"title":{"type":"string","required":true},"count":{"type":"integer"},"label":{"type":"string"}}}`

func change(t *testing.T, n *node, mode engine.ChangeMode, body string, force bool) error {
	t.Helper()
	var b []byte
	if body != "" {
		b = []byte(body)
	}
	_, err := n.eng.ChangeSchema(context.Background(), engine.SchemaChange{Mode: mode, Kind: engine.KindContentType, UID: "api::note.note", Body: b, Force: force})
	return err
}

func kindOf(err error) errs.Kind {
	return errs.From(err).Kind
}

func TestLiveContentTypes(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		url := db(t)
		a := startNode(t, url)
		if err := change(t, a, engine.ChangeCreate, noteV1, false); err != nil {
			t.Fatal(err)
		}
		if err := change(t, a, engine.ChangeCreate, noteV1, false); kindOf(err) != errs.KindConflict {
			t.Fatalf("create twice: %v", err)
		}
		r := a.env.Do("POST", "/api/notes", map[string]any{"data": map[string]any{"title": "first", "count": 3, "label": "x"}})
		if r.Status != 201 {
			t.Fatalf("new type not served at once: %d %s", r.Status, r.Body)
		}
		id := r.Data()["documentId"].(string)

		// Rename count to total (values move), count becomes float, label is dropped: data loss refused.
		v2 := strings.Replace(noteV1, `"count":{"type":"integer"},"label":{"type":"string"}`, `"total":{"type":"float","renamedFrom":"count"}`, 1)
		err := change(t, a, engine.ChangeReplace, v2, false)
		if kindOf(err) != errs.KindConflict || !strings.Contains(err.Error(), `"label" is removed`) {
			t.Fatalf("dropping values without force: %v", err)
		}
		if got := a.env.Do("GET", "/api/notes/"+id, nil).Data(); got["count"] != 3.0 || got["label"] != "x" {
			t.Fatalf("a refused change must change nothing: %v", got)
		}
		if err := change(t, a, engine.ChangeReplace, v2, true); err != nil {
			t.Fatal(err)
		}
		got := a.env.Do("GET", "/api/notes/"+id, nil).Data()
		if got["total"] != 3.0 || got["count"] != nil || got["label"] != nil {
			t.Fatalf("after rename: %v", got)
		}
		// A type change whose values do not convert is refused.
		v3 := strings.Replace(noteV1, `"count":{"type":"integer"},"label":{"type":"string"}`, `"total":{"type":"float"},"title2":{"type":"integer","renamedFrom":"title"}`, 1)
		v3 = strings.Replace(v3, `"title":{"type":"string","required":true},`, ``, 1)
		if err := change(t, a, engine.ChangeReplace, v3, false); kindOf(err) != errs.KindConflict || !strings.Contains(err.Error(), "do not become integer") {
			t.Fatalf("unconvertible values: %v", err)
		}
		// Draft & publish turned on: existing documents get their draft.
		v4 := strings.Replace(v2, `"draftAndPublish":false`, `"draftAndPublish":true`, 1)
		if err := change(t, a, engine.ChangeReplace, v4, false); err != nil {
			t.Fatal(err)
		}
		if d := a.env.Do("GET", "/api/notes/"+id+"?status=draft", nil); d.Status != 200 || d.Data()["publishedAt"] != nil {
			t.Fatalf("draft after turning D&P on: %d %s", d.Status, d.Body)
		}
		for _, status := range []string{"draft", "published"} {
			l := a.env.Do("GET", "/api/notes?status="+status, nil)
			if total := l.JSON["meta"].(map[string]any)["pagination"].(map[string]any)["total"]; total != 1.0 || len(l.List()) != 1 {
				t.Fatalf("%s total after turning D&P on: %v, %d listed", status, total, len(l.List()))
			}
		}
		// Bad definitions are a 400 naming the attribute.
		bad := strings.Replace(v4, `"type":"float"`, `"type":"floaty"`, 1)
		if err := change(t, a, engine.ChangeReplace, bad, false); kindOf(err) != errs.KindValidation || !strings.Contains(err.Error(), `"total"`) {
			t.Fatalf("bad definition: %v", err)
		}
		// File types are read-only here.
		if _, err := a.eng.ChangeSchema(context.Background(), engine.SchemaChange{Mode: engine.ChangeDelete, Kind: engine.KindContentType, UID: "api::tag.tag"}); kindOf(err) != errs.KindConflict {
			t.Fatalf("file type changed: %v", err)
		}
		// Deleting a type with documents needs force.
		if err := change(t, a, engine.ChangeDelete, "", false); kindOf(err) != errs.KindConflict {
			t.Fatalf("delete with rows: %v", err)
		}
		if err := change(t, a, engine.ChangeDelete, "", true); err != nil {
			t.Fatal(err)
		}
		if r := a.env.Do("GET", "/api/notes", nil); r.Status != 404 {
			t.Fatalf("deleted type still served: %d", r.Status)
		}
		if err := change(t, a, engine.ChangeDelete, "", true); kindOf(err) != errs.KindNotFound {
			t.Fatalf("delete twice: %v", err)
		}
	})
}

// TestTwoNodes: a type created through node A is served by node B within a
// second, then edited and deleted.
func TestTwoNodes(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		url := db(t)
		a, b := startNode(t, url), startNode(t, url)
		if err := change(t, a, engine.ChangeCreate, noteV1, false); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		waitFor(t, func() bool { return b.env.Do("GET", "/api/notes", nil).Status == 200 })
		if d := time.Since(start); d > time.Second {
			t.Errorf("node B saw the new type after %v", d)
		}
		r := b.env.Do("POST", "/api/notes", map[string]any{"data": map[string]any{"title": "via B", "count": 1}})
		if r.Status != 201 {
			t.Fatalf("write through B: %d %s", r.Status, r.Body)
		}
		if l := a.env.Do("GET", "/api/notes", nil).List(); len(l) != 1 || l[0]["title"] != "via B" {
			t.Fatalf("read through A: %v", l)
		}
		v2 := strings.Replace(noteV1, `"label":{"type":"string"}`, `"label":{"type":"string"},"flag":{"type":"boolean","default":true}`, 1)
		if err := change(t, a, engine.ChangeReplace, v2, false); err != nil {
			t.Fatal(err)
		}
		waitFor(t, func() bool {
			l := b.env.Do("GET", "/api/notes", nil).List()
			return len(l) == 1 && l[0]["flag"] == true
		})
		if err := change(t, b, engine.ChangeDelete, "", true); err != nil {
			t.Fatal(err)
		}
		waitFor(t, func() bool { return a.env.Do("GET", "/api/notes", nil).Status == 404 })
	})
}

// stream sends requests from four goroutines, send(w, i) being worker w's
// i-th, until the returned stop is called; stop reports how many were
// answered below 300 and the first failures of each worker.
func stream(send func(w, i int) *testenv.Response) (stop func() (ok int, failed []string)) {
	ctx, cancel := context.WithCancel(context.Background())
	type result struct {
		ok     int
		failed []string
	}
	results := make(chan result, 4)
	for w := 0; w < 4; w++ {
		go func() {
			var res result
			for i := 0; ctx.Err() == nil && i < 100000; i++ {
				if r := send(w, i); r.Status < 300 {
					res.ok++
				} else {
					res.failed = append(res.failed, fmt.Sprintf("%d %s", r.Status, r.ErrorMessage()))
				}
			}
			results <- res
		}()
	}
	return func() (int, []string) {
		cancel()
		ok, failed := 0, []string(nil)
		for w := 0; w < 4; w++ {
			res := <-results
			ok += res.ok
			failed = append(failed, res.failed[:min(3, len(res.failed))]...)
		}
		return ok, failed
	}
}

func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for time.Now().Before(deadline) {
		if ok() {
			return
		}
		time.Sleep(25 * time.Millisecond)
	}
	t.Fatal("condition not reached within 3s")
}

var _ = json.Marshal

// TestChangesUnderLoad adds, edits and removes types while other goroutines
// send a steady stream of reads and writes: no request fails because of a
// change.
func TestChangesUnderLoad(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		a := startNode(t, db(t))
		if err := change(t, a, engine.ChangeCreate, noteV1, false); err != nil {
			t.Fatal(err)
		}
		stop := stream(func(w, i int) *testenv.Response {
			switch i % 4 {
			case 0:
				return a.env.Do("POST", "/api/notes", map[string]any{"data": map[string]any{"title": "load"}})
			case 1:
				return a.env.Do("GET", "/api/notes?sort=title&pagination[pageSize]=5", nil)
			case 2:
				return a.env.Do("GET", "/api/tags", nil)
			}
			return a.env.Do("POST", "/api/tags", map[string]any{"data": map[string]any{"name": "t" + time.Now().Format("150405.000000") + string(rune('a'+w))}})
		})
		ctx := context.Background()
		steps := []string{
			strings.Replace(noteV1, `"label":{"type":"string"}`, `"label":{"type":"string"},"flag":{"type":"boolean"}`, 1),
			strings.Replace(noteV1, `"label":{"type":"string"}`, `"label":{"type":"text"},"flag":{"type":"boolean"},"n":{"type":"float","renamedFrom":"count"}`, 1),
			strings.Replace(noteV1, `"draftAndPublish":false`, `"draftAndPublish":false`, 1),
		}
		other := `{"kind":"collectionType","collectionName":"memos","info":{"singularName":"memo","pluralName":"memos"},"attributes":{"body":{"type":"text"}}}`
		for i := 0; i < 3; i++ {
			for _, s := range steps {
				time.Sleep(20 * time.Millisecond) // let the stream run between changes
				if err := change(t, a, engine.ChangeReplace, s, true); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := a.eng.ChangeSchema(ctx, engine.SchemaChange{Mode: engine.ChangeCreate, Kind: engine.KindContentType, UID: "api::memo.memo", Body: []byte(other)}); err != nil {
				t.Fatal(err)
			}
			if _, err := a.eng.ChangeSchema(ctx, engine.SchemaChange{Mode: engine.ChangeDelete, Kind: engine.KindContentType, UID: "api::memo.memo", Force: true}); err != nil {
				t.Fatal(err)
			}
		}
		ok, failed := stop()
		for _, f := range failed {
			t.Errorf("failed request: %s", f)
		}
		if len(failed) > 0 || ok < 100 {
			t.Fatalf("%d requests answered, some failed (first ones above)", ok)
		}
		t.Logf("%d requests during %d schema changes, none failed", ok, 15)
	})
}

// TestDraftAndPublishToggleUnderWrites turns draft & publish on and off
// through node A while documents are created through both nodes. Without
// the write fence a create checked against the old snapshot committed
// after the change: the change then failed on a duplicate, or a type
// without drafts kept draft rows. Every change and every create succeeds,
// and the rows are exactly the creates, published, without drafts.
func TestDraftAndPublishToggleUnderWrites(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		url := db(t)
		a, b := startNode(t, url), startNode(t, url)
		if err := change(t, a, engine.ChangeCreate, noteV1, false); err != nil {
			t.Fatal(err)
		}
		waitFor(t, func() bool { return b.env.Do("GET", "/api/notes", nil).Status == 200 })
		withDrafts := strings.Replace(noteV1, `"draftAndPublish":false`, `"draftAndPublish":true`, 1)

		stop := stream(func(w, i int) *testenv.Response {
			n := a
			if w%2 == 1 {
				n = b
			}
			return n.env.Do("POST", "/api/notes", map[string]any{"data": map[string]any{"title": fmt.Sprintf("w%d-%d", w, i)}})
		})
		for i := 0; i < 8; i++ {
			time.Sleep(15 * time.Millisecond)
			body := withDrafts
			if i%2 == 1 {
				body = noteV1
			}
			if err := change(t, a, engine.ChangeReplace, body, true); err != nil {
				t.Errorf("change %d (draft & publish %v): %v", i, i%2 == 0, err)
			}
		}
		time.Sleep(15 * time.Millisecond)
		created, failed := stop()
		for _, f := range failed {
			t.Errorf("failed create: %s", f)
		}
		var rows, docs, drafts int64
		g := a.env.Store.GORM()
		g.Raw("SELECT COUNT(*) FROM notes").Scan(&rows)
		g.Raw("SELECT COUNT(DISTINCT document_id) FROM notes").Scan(&docs)
		g.Raw("SELECT COUNT(*) FROM notes WHERE published_at IS NULL").Scan(&drafts)
		if created < 20 || rows != int64(created) || docs != int64(created) || drafts != 0 {
			t.Fatalf("%d creates answered 201; the table holds %d rows of %d documents, %d of them drafts", created, rows, docs, drafts)
		}
		meta, _ := a.env.Do("GET", "/api/notes?pagination[pageSize]=1", nil).JSON["meta"].(map[string]any)
		if pg, _ := meta["pagination"].(map[string]any); pg["total"] != float64(created) {
			t.Fatalf("the list's meta is %v, want a total of %d", meta, created)
		}
		t.Logf("%d creates during 8 draft & publish changes", created)
	})
}
