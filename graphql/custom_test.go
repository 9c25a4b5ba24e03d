package graphql

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	gql "github.com/graphql-go/graphql"

	"github.com/stratum-cms/stratum/internal/testdb"
)

// block returns the SDL block of one type ("type Article", "input ArticleInput").
func block(sdl, head string) string {
	re := regexp.MustCompile(`(?s)\n` + regexp.QuoteMeta(head) + ` \{\n(.*?)\n\}`)
	m := re.FindStringSubmatch("\n" + sdl)
	if m == nil {
		return ""
	}
	return m[1]
}

func hasField(sdl, head, field string) bool {
	for _, l := range strings.Split(block(sdl, head), "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, field+":") || strings.HasPrefix(l, field+"(") {
			return true
		}
	}
	return false
}

func TestShadowCRUDCustomisation(t *testing.T) {
	e := start(t, testdb.Databases(t)["sqlite"](t), options{setup: func(s *Server) {
		x := s.Extensions()
		x.ShadowCRUD("api::tag.tag").Disable()
		x.ShadowCRUD("api::author.author").DisableQueries()
		x.ShadowCRUD("api::category.category").DisableMutations()
		x.ShadowCRUD("api::article.article").DisableAction("delete")
		x.ShadowCRUD("api::global.global").DisableActions([]string{"update", "delete"})
		a := x.ShadowCRUD("api::article.article")
		a.Field("summary").Disable()
		a.Field("body").DisableOutput()
		a.Field("views").DisableInput()
		a.Field("title").DisableFilters()
		x.ShadowCRUD("shared.seo").Field("metaDescription").Disable()
	}})
	sdl := e.sdl()
	checks := []struct {
		head, field string
		want        bool
	}{
		{"type Query", "tags", false}, {"type Query", "tag", false}, {"type Article", "tags", false},
		{"input ArticleFiltersInput", "tags", false}, {"input ArticleInput", "tags", false},
		{"type Query", "authors", false}, {"type Query", "author", false}, {"type Mutation", "createAuthor", true},
		{"type Mutation", "createCategory", false}, {"type Mutation", "updateCategory", false}, {"type Query", "categories", true},
		{"type Mutation", "deleteArticle", false}, {"type Mutation", "updateArticle", true}, {"type Query", "articles", true},
		{"type Mutation", "updateGlobal", false}, {"type Mutation", "deleteGlobal", false}, {"type Query", "global", true},
		{"type Article", "summary", false}, {"input ArticleInput", "summary", false}, {"input ArticleFiltersInput", "summary", false},
		{"type Article", "body", false}, {"input ArticleInput", "body", true}, {"input ArticleFiltersInput", "body", true},
		{"type Article", "views", true}, {"input ArticleInput", "views", false}, {"input ArticleFiltersInput", "views", true},
		{"type Article", "title", true}, {"input ArticleInput", "title", true}, {"input ArticleFiltersInput", "title", false},
		{"type ComponentSharedSeo", "metaDescription", false}, {"type ComponentSharedSeo", "metaTitle", true},
	}
	for _, c := range checks {
		if got := hasField(sdl, c.head, c.field); got != c.want {
			t.Errorf("%s.%s present = %v, want %v", c.head, c.field, got, c.want)
		}
	}
	if strings.Contains(sdl, "type Tag ") {
		t.Error("a disabled type is still in the schema")
	}

	// Getters.
	x := e.Srv.Extensions()
	tag, art, auth := x.ShadowCRUD("api::tag.tag"), x.ShadowCRUD("api::article.article"), x.ShadowCRUD("api::author.author")
	getters := []struct {
		name      string
		got, want bool
	}{
		{"tag.IsEnabled", tag.IsEnabled(), false}, {"tag.IsDisabled", tag.IsDisabled(), true},
		{"author.AreQueriesEnabled", auth.AreQueriesEnabled(), false}, {"author.AreQueriesDisabled", auth.AreQueriesDisabled(), true},
		{"author.AreMutationsEnabled", auth.AreMutationsEnabled(), true}, {"author.AreMutationsDisabled", auth.AreMutationsDisabled(), false},
		{"article.IsActionEnabled(delete)", art.IsActionEnabled("delete"), false}, {"article.IsActionDisabled(delete)", art.IsActionDisabled("delete"), true},
		{"article.IsActionEnabled(find)", art.IsActionEnabled("find"), true}, {"author.IsActionEnabled(find)", auth.IsActionEnabled("find"), false},
		{"summary.IsEnabled", art.Field("summary").IsEnabled(), false}, {"summary.IsDisabled", art.Field("summary").IsDisabled(), true},
		{"body.HasOutputEnabled", art.Field("body").HasOutputEnabled(), false}, {"body.HasInputEnabled", art.Field("body").HasInputEnabled(), true},
		{"views.HasInputEnabled", art.Field("views").HasInputEnabled(), false}, {"title.HasFiltersEnabled", art.Field("title").HasFiltersEnabled(), false},
		{"title.HasOutputEnabled", art.Field("title").HasOutputEnabled(), true},
	}
	for _, g := range getters {
		if g.got != g.want {
			t.Errorf("%s = %v, want %v", g.name, g.got, g.want)
		}
	}

	// A change while serving rebuilds the schema for the next request.
	e.ok(`{ articles { data { id } } }`, nil)
	art.DisableQueries()
	r := e.q(`{ articles { data { id } } }`, nil)
	eq(t, "rebuilt", r.errCode(), "GRAPHQL_VALIDATION_FAILED")
}

func TestExtensions(t *testing.T) {
	public := []string{"api::article.article.findOne", "api::tag.tag.find", "api::author.author.find", "api::category.category.find"}
	each(t, options{public: public, setup: func(s *Server) {
		x := s.Extensions()
		x.RegisterPolicy("has-header", func(pc *PolicyContext) (bool, error) {
			want, _ := pc.Config.(string)
			return pc.HTTP.Header.Get("X-Pass") == want, nil
		})
		x.RegisterMiddleware("suffix", func(options any) MiddlewareFunc {
			return func(next gql.FieldResolveFn, p gql.ResolveParams) (any, error) {
				v, err := next(p)
				if s, ok := v.(string); ok {
					return s + options.(string), err
				}
				return v, err
			}
		})
		x.Use(Extension{
			TypeDefs: `
				type Stats { count: Int! label: String }
				enum Mood { HAPPY SAD }
				extend type Query { hello(name: String = "world"): String! stats: Stats mood: Mood }
				extend type Article { shout: String }
				extend type Mutation { ping: Boolean }`,
			Resolvers: map[string]map[string]gql.FieldResolveFn{
				"Query": {
					"hello": func(p gql.ResolveParams) (any, error) { return "hello " + p.Args["name"].(string), nil },
					"stats": func(p gql.ResolveParams) (any, error) { return map[string]any{"count": 3, "label": "x"}, nil },
					"mood":  func(p gql.ResolveParams) (any, error) { return "HAPPY", nil },
				},
				"Article": {"shout": func(p gql.ResolveParams) (any, error) {
					return strings.ToUpper(fmt.Sprint(AttributeValue(p.Source, "title"))), nil
				}},
				"Mutation": {"ping": func(p gql.ResolveParams) (any, error) { return true, nil }},
			},
			ResolversConfig: map[string]ResolverConfig{
				"Query.articles": {Auth: AuthDisabled},
				"Query.tags":     {Auth: &Auth{Scope: []string{"api::tag.tag.find", "api::special.special.do"}}},
				"Query.authors": {Policies: []Policy{{Func: func(pc *PolicyContext) (bool, error) {
					return pc.HTTP.Header.Get("X-Pass") == "yes", nil
				}}}},
				"Query.categories": {Policies: []Policy{{Name: "has-header", Config: "cat"}}},
				"Article.title": {Middlewares: []Middleware{
					{Func: func(next gql.FieldResolveFn, p gql.ResolveParams) (any, error) {
						v, err := next(p)
						return fmt.Sprintf("[%v]", v), err
					}},
					{Name: "suffix", Options: "!"},
				}},
			},
		})
	}}, func(t *testing.T, e *env) {
		e.blog()
		d := e.ok(`{ hello stats { count label } mood other: hello(name: "you") }`, nil)
		eq(t, "typeDefs + resolvers", str(d, "hello"), "hello world")
		eq(t, "custom type", str(d, "stats", "count"), "3")
		eq(t, "custom enum", str(d, "mood"), "HAPPY")
		eq(t, "argument", str(d, "other"), "hello you")
		d = e.ok(`mutation { ping }`, nil)
		eq(t, "custom mutation", str(d, "ping"), "true")

		// auth: false opens Query.articles though the public lacks find.
		d = e.ok(`{ articles(sort: "views", pagination: {limit: 1}) { data { attributes { title shout } } } }`, nil)
		eq(t, "auth false + middlewares on a nested field", str(d, "articles", "data", 0, "attributes", "title"), "[Alpha!]")
		eq(t, "extended shadow type", str(d, "articles", "data", 0, "attributes", "shout"), "ALPHA")
		// auth scope: every action of the scope is needed.
		r := e.q(`{ tags { data { id } } }`, nil)
		eq(t, "scope", r.errCode(), "FORBIDDEN")
		// Policies: a function and a named one with its config.
		r = e.q(`{ authors { data { id } } }`, nil)
		eq(t, "policy code", r.errCode(), "FORBIDDEN")
		eq(t, "policy message", r.errMessage(), "Policy Failed")
		eq(t, "policy name", str(r.JSON, "errors", 0, "extensions", "error", "name"), "PolicyError")
		e.ok(`{ authors { data { id } } }`, nil, "X-Pass", "yes")
		eq(t, "named policy", e.q(`{ categories { data { id } } }`, nil).errCode(), "FORBIDDEN")
		e.ok(`{ categories { data { id } } }`, nil, "X-Pass", "cat")
		// Without configuration the engine's permissions hold.
		r = e.q(`mutation { createTag(data: {name: "x"}) { data { id } } }`, nil)
		eq(t, "forbidden", r.errCode(), "FORBIDDEN")
		eq(t, "forbidden message", r.errMessage(), "Forbidden access")
		eq(t, "forbidden error", str(r.JSON, "errors", 0, "extensions", "error", "name"), "ForbiddenError")
	})
}

func TestExtensionErrors(t *testing.T) {
	dbs := testdb.Databases(t)
	e := start(t, dbs["sqlite"](t), options{setup: func(s *Server) {
		s.Extensions().Use(Extension{TypeDefs: `extend type Query { broken: Nope }`})
	}})
	if err := e.Srv.Rebuild(e.Eng.Registry.Current().Schema); err == nil || !strings.Contains(err.Error(), `unknown type "Nope"`) {
		t.Fatalf("Rebuild: %v", err)
	}
	// The schema built with the snapshot at start, before the broken
	// extension, keeps serving: a customisation never takes GraphQL down.
	e.ok(`{ articles { data { id } } }`, nil)
	r := e.q(`{ broken }`, nil)
	eq(t, "the broken extension is not served", r.errCode(), "GRAPHQL_VALIDATION_FAILED")

	e = start(t, dbs["sqlite"](t), options{setup: func(s *Server) {
		s.Extensions().Use(Extension{ResolversConfig: map[string]ResolverConfig{"Query.articles": {Policies: []Policy{{Name: "nope"}}}}})
	}})
	if err := e.Srv.Rebuild(e.Eng.Registry.Current().Schema); err == nil || !strings.Contains(err.Error(), `unknown policy "nope"`) {
		t.Fatalf("Rebuild: %v", err)
	}
	// A failed rebuild keeps the previous schema serving.
	e = start(t, dbs["sqlite"](t), options{})
	e.ok(`{ articles { data { id } } }`, nil)
	e.Srv.Extensions().Use(Extension{TypeDefs: `extend type Query { broken: Nope }`})
	e.ok(`{ articles { data { id } } }`, nil)
}

func TestDeclarativeConfig(t *testing.T) {
	dir := t.TempDir()
	_ = os.MkdirAll(filepath.Join(dir, "config"), 0o755)
	plugins := `{"graphql": {"config": {
		"endpoint": "/gql", "shadowCRUD": true, "playgroundAlways": true, "depthLimit": 7, "amountLimit": 50,
		"apolloServer": {"tracing": true, "introspection": true},
		"contentTypes": {
			"api::tag.tag": {"disable": true},
			"api::author.author": {"disableQueries": true},
			"api::category.category": {"disableMutations": true},
			"api::article.article": {"disableActions": ["delete"], "fields": {"summary": {"disable": true}, "body": {"disableOutput": true}, "views": {"disableInput": true}, "title": {"disableFilters": true}}}
		},
		"resolversConfig": {"Query.articles": {"auth": false, "policies": ["is-authenticated"]}, "Query.categories": {"auth": {"scope": ["x.y.z"]}}}
	}}}`
	if err := os.WriteFile(filepath.Join(dir, "config", "plugins.json"), []byte(plugins), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := LoadConfig(dir)
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "endpoint", cfg.EndpointPath(), "/gql")
	eq(t, "depth", cfg.depthLimit(), 7)
	eq(t, "amount", cfg.amountLimit(), 50)
	eq(t, "tracing", cfg.ApolloServer.Tracing, true)
	eq(t, "playgroundAlways", cfg.PlaygroundAlways, true)
	cfg.Env = "production"
	e := start(t, testdb.Databases(t)["sqlite"](t), options{cfg: cfg})
	sdl := e.sdl() // introspection configured on in production
	for _, c := range []struct {
		head, field string
		want        bool
	}{
		{"type Query", "tags", false}, {"type Query", "authors", false}, {"type Mutation", "createCategory", false},
		{"type Mutation", "deleteArticle", false}, {"type Article", "summary", false}, {"type Article", "body", false},
		{"input ArticleInput", "views", false}, {"input ArticleFiltersInput", "title", false}, {"type Query", "articles", true},
	} {
		if got := hasField(sdl, c.head, c.field); got != c.want {
			t.Errorf("%s.%s present = %v, want %v", c.head, c.field, got, c.want)
		}
	}
	r := e.q(`{ articles { data { id } } }`, nil)
	eq(t, "named built-in policy", r.errMessage(), "Policy Failed")
	r = e.q(`{ categories { data { id } } }`, nil)
	eq(t, "declarative scope", r.errCode(), "FORBIDDEN")
	r = e.q(`{ __typename }`, nil)
	if get(r.JSON, "extensions", "tracing", "version") == nil {
		t.Errorf("tracing: %s", r.Body)
	}

	if err := os.WriteFile(filepath.Join(dir, "config", "plugins.json"), []byte(`{"graphql": {"config": {"resolversConfig": {"Query.x": {"auth": true}}}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, _ = LoadConfig(dir)
	if _, err := New(cfg, e.Eng, nil, nil); err == nil {
		t.Error("auth: true must be refused")
	}
	cfg, err = LoadConfig(t.TempDir())
	if err != nil || cfg.EndpointPath() != "/graphql" || cfg.depthLimit() != 10 || cfg.amountLimit() != 100 {
		t.Errorf("defaults: %+v %v", cfg, err)
	}
}
