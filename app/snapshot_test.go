package app_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stratum-cms/stratum/app"
	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/graphql"
	"github.com/stratum-cms/stratum/internal/testenv"
)

// A collection type whose GraphQL name is a component's (Component +
// category + name) can be stored and served by REST, but not by GraphQL.
const clashSchema = `{"kind":"collectionType","collectionName":"clashes","info":{"singularName":"component-shared-seo",
"pluralName":"component-shared-seos","displayName":"Clash"},"options":{"draftAndPublish":false},"attributes":{"title":{"type":"string"}}}`

const memoSchema = `{"kind":"collectionType","collectionName":"memos","info":{"singularName":"memo","pluralName":"memos","displayName":"Memo"},
"options":{"draftAndPublish":false},"attributes":{"text":{"type":"string"}}}`

func admin(t *testing.T, e *testenv.Env) []string {
	t.Helper()
	r := e.Do("POST", "/admin/register-admin", map[string]any{"email": "ada@example.com", "password": "Admin-Passw0rd", "firstname": "Ada"})
	if r.Status != 200 {
		t.Fatalf("register-admin: %d %s", r.Status, r.Body)
	}
	return []string{"Authorization", "Bearer " + r.Data()["token"].(string)}
}

func gqlQuery(t *testing.T, e *testenv.Env, q string, h ...string) *testenv.Response {
	t.Helper()
	return e.Do("POST", "/graphql", map[string]any{"query": q}, h...)
}

func gqlErrorCode(r *testenv.Response) string {
	errs, _ := r.JSON["errors"].([]any)
	if len(errs) == 0 {
		return ""
	}
	ext, _ := errs[0].(map[string]any)["extensions"].(map[string]any)
	code, _ := ext["code"].(string)
	return code
}

// TestChangeRefusedWhenGraphQLCannotBuildIt: the whole snapshot is built
// before anything is written, so a change GraphQL cannot serve is a 400
// naming the problem, and both APIs keep the old schema; a valid change
// after it is served by both at once.
func TestChangeRefusedWhenGraphQLCannotBuildIt(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := testenv.Start(t, db(t), testenv.Options{})
		h := admin(t, e)
		before := e.Engine.Registry.Current()

		r := e.Do("POST", "/admin/content-types", clashSchema, h...)
		if r.Status != 400 || r.ErrorName() != "ValidationError" || !strings.Contains(r.ErrorMessage(), "GraphQL") ||
			!strings.Contains(r.ErrorMessage(), "ComponentSharedSeo") {
			t.Fatalf("clash: %d %s", r.Status, r.Body)
		}
		if cur := e.Engine.Registry.Current(); cur != before {
			t.Fatalf("the snapshot changed: version %d -> %d", before.Version, cur.Version)
		}
		if r := e.Do("GET", "/admin/content-types/api::component-shared-seo.component-shared-seo", nil, h...); r.Status != 404 {
			t.Fatalf("the refused definition was stored: %d %s", r.Status, r.Body)
		}
		if r := e.Do("GET", "/api/component-shared-seos", nil); r.Status != 404 {
			t.Fatalf("REST serves the refused type: %d %s", r.Status, r.Body)
		}
		if r := gqlQuery(t, e, `{ articles { data { id } } }`); r.Status != 200 || r.JSON["errors"] != nil {
			t.Fatalf("GraphQL after the refusal: %d %s", r.Status, r.Body)
		}

		// A valid change is in REST and GraphQL at once (no lazy rebuild).
		if r := e.Do("POST", "/admin/content-types", memoSchema, h...); r.Status != 201 {
			t.Fatalf("memo: %d %s", r.Status, r.Body)
		}
		if r := e.Do("PUT", "/admin/users-permissions/roles/2", map[string]any{"permissions": []string{
			"api::memo.memo.find", "api::memo.memo.create", "api::article.article.find"}}, h...); r.Status != 200 {
			t.Fatalf("open memos to the public: %d %s", r.Status, r.Body)
		}
		if r := e.Do("POST", "/api/memos", map[string]any{"data": map[string]any{"text": "hi"}}); r.Status != 201 {
			t.Fatalf("REST create memo: %d %s", r.Status, r.Body)
		}
		r = gqlQuery(t, e, `{ memos { data { attributes { text } } } }`)
		if r.Status != 200 || !strings.Contains(string(r.Body), `"text":"hi"`) {
			t.Fatalf("GraphQL memos: %d %s", r.Status, r.Body)
		}
		// The same clash is still refused after a good change.
		if r := e.Do("POST", "/admin/content-types", clashSchema, h...); r.Status != 400 {
			t.Fatalf("clash again: %d %s", r.Status, r.Body)
		}
		if r := e.Do("GET", "/_health", nil); r.JSON["status"] != "ok" {
			t.Fatalf("health: %s", r.Body)
		}
	})
}

// TestNodeThatCannotBuildKeepsServing: a node whose GraphQL cannot serve a
// version another node stored keeps its snapshot for both APIs, logs why
// and says so in /_health; it follows again once a version builds.
func TestNodeThatCannotBuildKeepsServing(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		dbURL := db(t)
		dir := t.TempDir()
		open := func() *app.App {
			a, err := app.Open(testenv.Root()+"/examples/blog", app.Options{Getenv: func(string) string { return "" },
				Tune: func(c *app.Config) { c.DatabaseURL, c.Upload.Dir = dbURL, dir }})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { a.Close() })
			return a
		}
		a, b := open(), open()
		// Only node b has a customisation that fails once Query.memos exists.
		b.GraphQL.Extensions().Use(graphql.Extension{ResolversConfig: map[string]graphql.ResolverConfig{
			"Query.memos": {Policies: []graphql.Policy{{Name: "nope"}}}}})
		ctx, cancel := context.WithCancel(context.Background())
		t.Cleanup(cancel)
		go b.Follow(ctx)
		sb := httptest.NewServer(b.HTTP)
		t.Cleanup(sb.Close)
		eb := &testenv.Env{T: t, URL: sb.URL}

		old := b.Engine.Registry.Current().Version
		if _, err := a.Engine.ChangeSchema(context.Background(), changeOf("api::memo.memo", memoSchema)); err != nil {
			t.Fatal(err)
		}
		stored := a.Engine.Registry.Current().Version
		deadline := time.Now().Add(10 * time.Second)
		for b.Engine.Registry.Stale() == nil && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		st := b.Engine.Registry.Stale()
		if st == nil || st.Version != stored || !strings.Contains(st.Err.Error(), `unknown policy "nope"`) {
			t.Fatalf("stale: %+v", st)
		}
		if v := b.Engine.Registry.Current().Version; v != old {
			t.Fatalf("node b moved to version %d", v)
		}
		h := eb.Do("GET", "/_health", nil)
		sc, _ := h.JSON["schema"].(map[string]any)
		if h.Status != 200 || h.JSON["status"] != "degraded" || sc["serving"] != float64(old) || sc["failed"] != float64(stored) {
			t.Fatalf("health: %d %s", h.Status, h.Body)
		}
		if strings.Contains(string(h.Body), "nope") {
			t.Fatalf("health tells anonymous callers why: %s", h.Body)
		}
		// Both APIs of node b keep the old schema.
		if b.Engine.Registry.Current().Schema.Type("api::memo.memo") != nil {
			t.Fatal("REST of node b has the new type")
		}
		if r := gqlQuery(t, eb, `{ articles { data { id } } }`); r.Status != 200 || r.JSON["errors"] != nil {
			t.Fatalf("GraphQL of node b: %d %s", r.Status, r.Body)
		}
		// Once the customisation is mended, the next version builds.
		b.GraphQL.Extensions().RegisterPolicy("nope", func(*graphql.PolicyContext) (bool, error) { return true, nil })
		if _, err := a.Engine.ChangeSchema(context.Background(), changeOf("api::memo2.memo2",
			strings.NewReplacer(`"memos"`, `"memo2s"`, `"memo"`, `"memo2"`).Replace(memoSchema))); err != nil {
			t.Fatal(err)
		}
		deadline = time.Now().Add(10 * time.Second)
		for b.Engine.Registry.Stale() != nil && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if st := b.Engine.Registry.Stale(); st != nil {
			t.Fatalf("still stale: %+v", st)
		}
		if h := eb.Do("GET", "/_health", nil); h.JSON["status"] != "ok" {
			t.Fatalf("health after: %s", h.Body)
		}
	})
}

func changeOf(uid, body string) engine.SchemaChange {
	return engine.SchemaChange{Mode: engine.ChangeCreate, Kind: engine.KindContentType, UID: uid, Body: []byte(body)}
}
