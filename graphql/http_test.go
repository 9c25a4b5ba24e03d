package graphql

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/internal/testdb"
	"github.com/stratum-cms/stratum/models"
)

func TestRegisterLoginMe(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db func(testing.TB) string) {
		acc := newFakeAccounts()
		acc.public = []string{"api::tag.tag.find"}
		acc.authed = []string{"api::article.article.find", "api::article.article.create"}
		e := start(t, db(t), options{accounts: acc, authn: acc})
		r := e.q(`{ articles { data { id } } }`, nil)
		eq(t, "anonymous", r.errCode(), "FORBIDDEN")
		r = e.q(`{ me { id } }`, nil)
		eq(t, "me anonymous", r.errCode(), "FORBIDDEN")

		d := e.ok(`mutation { register(input: {username: "ada", email: "ada@x.io", password: "secret1"}) { jwt user { username email } } }`, nil)
		eq(t, "register user", str(d, "register", "user", "username"), "ada")
		r = e.q(`mutation { register(input: {username: "ada", email: "ada@x.io", password: "secret1"}) { jwt } }`, nil)
		eq(t, "taken", r.errCode(), "STRAPI_APPLICATION_ERROR")
		r = e.q(`mutation { login(input: {identifier: "ada", password: "wrong"}) { jwt } }`, nil)
		eq(t, "bad login", r.errCode(), "BAD_USER_INPUT")
		eq(t, "bad login message", r.errMessage(), "Invalid identifier or password")
		d = e.ok(`mutation { login(input: {identifier: "ada@x.io", password: "secret1"}) { jwt user { id username role { name type } } } }`, nil)
		jwt := str(d, "login", "jwt")
		if jwt == "" {
			t.Fatal("no jwt")
		}
		auth := []string{"Authorization", "Bearer " + jwt}
		d = e.ok(`mutation { createArticle(data: {title: "Mine"}) { data { id } } }`, nil, auth...)
		d = e.ok(`{ articles { data { attributes { title } } } me { username email role { type } } }`, nil, auth...)
		eq(t, "authorised query", str(d, "articles", "data", 0, "attributes", "title"), "Mine")
		eq(t, "me", str(d, "me", "username"), "ada")
		eq(t, "role", str(d, "me", "role", "type"), "authenticated")

		// A bad token is an HTTP 401 in the REST envelope, before GraphQL.
		r = e.q(`{ tags { data { id } } }`, nil, "Authorization", "Bearer nope")
		eq(t, "401", r.Status, 401)
		eq(t, "401 name", str(r.JSON, "error", "name"), "UnauthorizedError")
	})
}

func TestNoAccounts(t *testing.T) {
	e := start(t, testdb.Databases(t)["sqlite"](t), options{})
	sdl := e.sdl()
	if hasField(sdl, "type Query", "me") || hasField(sdl, "type Mutation", "login") || hasField(sdl, "type Mutation", "register") {
		t.Error("register, login and me need Accounts")
	}
}

func TestEnvironments(t *testing.T) {
	dbs := testdb.Databases(t)
	getPage := func(e *env, accept string) *result {
		req, _ := http.NewRequest(http.MethodGet, e.URL+"/graphql", nil)
		req.Header.Set("Accept", accept)
		return e.do(req)
	}
	dev := start(t, dbs["sqlite"](t), options{})
	r := getPage(dev, "text/html,application/xhtml+xml")
	eq(t, "playground in development", r.Status, 200)
	page := string(r.Body)
	if !strings.Contains(page, "HTTP headers") || !strings.Contains(page, "JSON.parse") {
		t.Error("the playground has no JSON headers tab")
	}
	if m := regexp.MustCompile(`(?i)(src|href)\s*=\s*["']?(https?:)?//`).FindString(page); m != "" {
		t.Errorf("the playground loads something from the internet: %s", m)
	}
	stg := start(t, dbs["sqlite"](t), options{cfg: Config{Env: "staging"}})
	eq(t, "playground in staging", getPage(stg, "text/html").Status, 200)

	prod := start(t, dbs["sqlite"](t), options{cfg: Config{Env: "production"}})
	eq(t, "no playground in production", getPage(prod, "text/html").Status, 400)
	r = prod.q(`{ __schema { types { name } } }`, nil)
	eq(t, "introspection off in production", r.Status, 400)
	eq(t, "code", r.errCode(), "GRAPHQL_VALIDATION_FAILED")
	r = prod.q(`{ __type(name: "Article") { name } }`, nil)
	eq(t, "__type off too", r.Status, 400)
	prod.ok(`{ articles { __typename data { id } } }`, nil)
	always := start(t, dbs["sqlite"](t), options{cfg: Config{Env: "production", PlaygroundAlways: true}})
	eq(t, "playgroundAlways", getPage(always, "text/html").Status, 200)

	// GET runs queries, never mutations; other methods are refused.
	q := url.Values{"query": {`query($n: Int) { articles(pagination: {limit: $n}) { data { id } } }`}, "variables": {`{"n": 1}`}}
	req, _ := http.NewRequest(http.MethodGet, dev.URL+"/graphql?"+q.Encode(), nil)
	r = dev.do(req)
	eq(t, "GET query", r.Status, 200)
	q = url.Values{"query": {`mutation { createTag(data: {name: "x"}) { data { id } } }`}}
	req, _ = http.NewRequest(http.MethodGet, dev.URL+"/graphql?"+q.Encode(), nil)
	eq(t, "GET mutation", dev.do(req).Status, 405)
	req, _ = http.NewRequest(http.MethodPut, dev.URL+"/graphql", nil)
	eq(t, "PUT", dev.do(req).Status, 405)
}

func TestNullsAndUnicode(t *testing.T) {
	each(t, options{}, func(t *testing.T, e *env) {
		ids := e.blog()
		d := e.ok(`mutation { createArticle(data: {title: "Ünïcødé ✓ 🚀", summary: "naïve"}) { data { id attributes { title summary } } } }`, nil)
		eq(t, "unicode literal", str(d, "createArticle", "data", "attributes", "title"), "Ünïcødé ✓ 🚀")
		id := str(d, "createArticle", "data", "id")
		d = e.ok(`{ articles(filters: {title: {eq: "Ünïcødé ✓ 🚀"}}) { data { attributes { summary } } } }`, nil)
		eq(t, "unicode filter", str(d, "articles", "data", 0, "attributes", "summary"), "naïve")
		// null in nested input objects, arguments and lists.
		d = e.ok(`mutation($id: ID!) { updateArticle(id: $id, data: {title: "Ünïcødé ✓ 🚀 again", summary: null, seo: {metaTitle: "t", metaDescription: null}, tags: ["`+ids.tags[0]+`", null]}) {
			data { attributes { summary seo { metaTitle metaDescription } tags { data { id } } } } } }`, map[string]any{"id": id})
		eq(t, "cleared", str(d, "updateArticle", "data", "attributes", "summary"), "")
		eq(t, "component", str(d, "updateArticle", "data", "attributes", "seo", "metaTitle"), "t")
		eq(t, "null list item dropped", len(list(d, "updateArticle", "data", "attributes", "tags", "data")), 1)
		d = e.ok(`{ articles(filters: null, sort: "views") { data { id } } }`, nil)
		eq(t, "null argument", len(list(d, "articles", "data")), 5)
		e.ok(`query($f: ArticleFiltersInput = null) { articles(filters: $f) { data { id } } }`, nil)
		// A field named null in a selection is not a value.
		r := e.q(`{ articles { null: data { id } } }`, nil)
		if r.Status != 200 || len(list(r.JSON, "data", "articles", "null")) != 5 {
			t.Errorf("alias null: %s", r.Body)
		}
	})
}

// A content-type added while serving appears in the next request; a
// request holding the old schema finishes on it.
func TestSchemaSwap(t *testing.T) {
	public := append(testdb.AllActions(t, ""), "api::note.note.find")
	each(t, options{public: public}, func(t *testing.T, e *env) {
		old, err := e.Srv.current()
		if err != nil {
			t.Fatal(err)
		}
		types, comps, err := models.ReadDir(blogDir())
		if err != nil {
			t.Fatal(err)
		}
		note, err := models.ParseContentType("api::note.note", "test", []byte(`{"kind": "collectionType",
			"info": {"singularName": "note", "pluralName": "notes", "displayName": "Note"},
			"options": {"draftAndPublish": false}, "attributes": {"text": {"type": "string"}}}`))
		if err != nil {
			t.Fatal(err)
		}
		ms, err := models.Build(append(types, note), comps)
		if err != nil {
			t.Fatal(err)
		}
		if err := e.Store.Migrate(context.Background(), ms); err != nil {
			t.Fatal(err)
		}
		r := e.q(`{ notes { data { id } } }`, nil)
		eq(t, "not yet", r.errCode(), "GRAPHQL_VALIDATION_FAILED")
		if _, err := e.Eng.Registry.Swap(ms, e.Eng.Registry.Current().Version+1); err != nil {
			t.Fatal(err)
		}
		c, _ := e.Eng.Route("notes")
		if _, err := e.Eng.Create(context.Background(), engine.AllowAll{}, c, map[string]any{"text": "hi"}, engine.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		d := e.ok(`{ notes { data { attributes { text } } } }`, nil)
		eq(t, "new type served", str(d, "notes", "data", 0, "attributes", "text"), "hi")
		cur, _ := e.Srv.current()
		if cur == old || old.Schema.QueryType().Fields()["notes"] != nil {
			t.Error("the old schema must stay as it was")
		}
	})
}
