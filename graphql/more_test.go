package graphql

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	gql "github.com/graphql-go/graphql"

	"github.com/stratum-cms/stratum/internal/testdb"
	"github.com/stratum-cms/stratum/query"
)

func TestLocales(t *testing.T) {
	dir, _ := filepath.Abs(filepath.Join("testdata", "i18n"))
	each(t, options{dir: dir}, func(t *testing.T, e *env) {
		sdl := e.sdl()
		if !hasField(sdl, "type Page", "locale") || !hasField(sdl, "input PageFiltersInput", "locale") {
			t.Error("a localized type has locale")
		}
		if en := block(sdl, "enum ENUM_PAGE_CODE"); !strings.Contains(en, "  home_page\n") || !strings.Contains(en, "  _1st\n") {
			t.Errorf("enum values are made valid names:\n%s", block(sdl, "enum ENUM_PAGE_CODE"))
		}
		d := e.ok(`mutation { createPage(data: {title: "Home", code: home_page}) { data { id attributes { title locale code } } } }`, nil)
		id := str(d, "createPage", "data", "id")
		eq(t, "default locale", str(d, "createPage", "data", "attributes", "locale"), "en")
		eq(t, "enum value kept", str(d, "createPage", "data", "attributes", "code"), "home_page")
		d = e.ok(`mutation($id: ID!) { updatePage(id: $id, locale: "fr", data: {title: "Accueil"}) { data { attributes { title locale } } } }`, map[string]any{"id": id})
		eq(t, "new localization", str(d, "updatePage", "data", "attributes", "locale"), "fr")
		d = e.ok(`{ en: pages { data { attributes { title } } } fr: pages(locale: "fr") { data { attributes { title } } } all: pages(locale: "*") { meta { pagination { total } } } }`, nil)
		eq(t, "en", str(d, "en", "data", 0, "attributes", "title"), "Home")
		eq(t, "fr", str(d, "fr", "data", 0, "attributes", "title"), "Accueil")
		eq(t, "all", str(d, "all", "meta", "pagination", "total"), "2")
		d = e.ok(`query($id: ID) { page(id: $id, locale: "fr") { data { attributes { title } } } }`, map[string]any{"id": id})
		eq(t, "findOne in a locale", str(d, "page", "data", "attributes", "title"), "Accueil")

		// localizations: the document in its other locales, read with the page.
		d = e.ok(`{ pages(sort: "title") { data { attributes { title localizations { data { id attributes { title locale } } } } } } }`, nil)
		eq(t, "localizations of en", str(d, "pages", "data", 0, "attributes", "localizations", "data", 0, "attributes", "locale"), "fr")
		eq(t, "localization's title", str(d, "pages", "data", 0, "attributes", "localizations", "data", 0, "attributes", "title"), "Accueil")
		eq(t, "localization's id is the document", str(d, "pages", "data", 0, "attributes", "localizations", "data", 0, "id"), id)
		d = e.ok(`query($id: ID) { page(id: $id, locale: "fr") { data { attributes { localizations { data { attributes { locale } } } } } } }`, map[string]any{"id": id})
		eq(t, "localizations of fr", str(d, "page", "data", "attributes", "localizations", "data", 0, "attributes", "locale"), "en")

		// create<Type>Localization: a new locale of the document, once.
		other := str(e.ok(`mutation { createPage(data: {title: "About", code: home_page}) { data { id } } }`, nil), "createPage", "data", "id")
		d = e.ok(`mutation($id: ID!) { createPageLocalization(id: $id, locale: "fr", data: {title: "À propos"}) { data { id attributes { title locale localizations { data { attributes { locale } } } } } } }`, map[string]any{"id": other})
		eq(t, "created localization", str(d, "createPageLocalization", "data", "attributes", "title"), "À propos")
		eq(t, "created localization's locale", str(d, "createPageLocalization", "data", "attributes", "locale"), "fr")
		eq(t, "same document", str(d, "createPageLocalization", "data", "id"), other)
		eq(t, "sees the other locale", str(d, "createPageLocalization", "data", "attributes", "localizations", "data", 0, "attributes", "locale"), "en")
		r := e.q(`mutation($id: ID!) { createPageLocalization(id: $id, locale: "fr", data: {title: "Encore"}) { data { id } } }`, map[string]any{"id": other})
		if r.errCode() != "STRAPI_APPLICATION_ERROR" {
			t.Errorf("an existing locale: %s", r.Body)
		}
		r = e.q(`mutation { createPageLocalization(id: "nope", locale: "fr", data: {title: "x"}) { data { id } } }`, nil)
		if r.errCode() != "STRAPI_NOT_FOUND_ERROR" {
			t.Errorf("an unknown document: %s", r.Body)
		}
		if !strings.Contains(e.sdl(), "createPageLocalization(") {
			t.Error("no createPageLocalization in the schema")
		}
	})
}

func TestPermissions(t *testing.T) {
	public := []string{"api::article.article.find", "api::tag.tag.find"}
	each(t, options{public: public}, func(t *testing.T, e *env) {
		e.blog()
		r := e.q(`{ articles(sort: "views", pagination: {limit: 1}) { data { attributes { title category { data { id } } tags { data { id } } } } } }`, nil)
		d, _ := r.JSON["data"].(map[string]any)
		eq(t, "find", str(d, "articles", "data", 0, "attributes", "title"), "Alpha")
		// As the v4 plugin: a relation the reader may not find is a
		// FORBIDDEN error at its path; the rest of the answer stays.
		eq(t, "forbidden relation", r.errCode(), "FORBIDDEN")
		eq(t, "forbidden relation path", fmt.Sprint(get(r.JSON, "errors", 0, "path")), "[articles data 0 attributes category]")
		eq(t, "forbidden relation is null", get(d, "articles", "data", 0, "attributes", "category"), nil)
		eq(t, "a relation the reader may find", len(list(d, "articles", "data", 0, "attributes", "tags", "data")), 2)
		for _, q := range []string{
			`{ article(id: "x") { data { id } } }`, `{ categories { data { id } } }`, `{ global { data { id } } }`,
			`mutation { createArticle(data: {title: "x"}) { data { id } } }`,
			`mutation { updateArticle(id: "x", data: {title: "x"}) { data { id } } }`,
			`mutation { deleteArticle(id: "x") { data { id } } }`,
		} {
			r := e.q(q, nil)
			eq(t, q, r.errCode(), "FORBIDDEN")
		}
	})
}

// Documents returned by a custom resolver without their relations get
// them from the batch loader: a fixed number of statements per level.
func TestLoaderForCustomResolvers(t *testing.T) {
	each(t, options{setup: func(s *Server) {
		s.Extensions().Use(Extension{
			TypeDefs: `extend type Query { featured: ArticleEntityResponseCollection one(id: ID!): ArticleEntityResponse }`,
			Resolvers: map[string]map[string]gql.FieldResolveFn{"Query": {
				"featured": func(p gql.ResolveParams) (any, error) {
					return FindDocuments(p.Context, "api::article.article", &query.Query{Sort: []query.Sort{{Path: []string{"views"}}}})
				},
				"one": func(p gql.ResolveParams) (any, error) {
					return FindDocument(p.Context, "api::article.article", p.Args["id"].(string), nil)
				},
			}},
		})
	}}, func(t *testing.T, e *env) {
		ids := e.blog()
		before := e.Store.Statements()
		d := e.ok(`{ featured { data { attributes { title category { data { attributes { name } } } tags { data { attributes { name } } } seo { metaTitle } } } } }`, nil)
		n := e.Store.Statements() - before
		eq(t, "loaded", str(d, "featured", "data", 0, "attributes", "category", "data", "attributes", "name"), "news")
		eq(t, "tags", len(list(d, "featured", "data", 0, "attributes", "tags", "data")), 2)
		eq(t, "component", str(d, "featured", "data", 0, "attributes", "seo", "metaTitle"), "alpha seo")
		if n > 8 {
			t.Errorf("%d statements: the loader must batch", n)
		}
		d = e.ok(`query($id: ID!) { one(id: $id) { data { attributes { author { data { attributes { name } } } } } } }`, map[string]any{"id": ids.articles[0]})
		eq(t, "FindDocument", str(d, "one", "data", "attributes", "author", "data", "attributes", "name"), "Ada")
	})
}

func TestTracingAndRebuild(t *testing.T) {
	e := start(t, testdb.Databases(t)["sqlite"](t), options{cfg: Config{ApolloServer: ApolloServer{Tracing: true}}})
	r := e.q(`{ articles { data { id } } }`, nil)
	if get(r.JSON, "extensions", "tracing", "execution", "resolvers") == nil {
		t.Errorf("tracing: %s", r.Body)
	}
	if err := e.Srv.Rebuild(e.Eng.Registry.Current().Schema); err != nil {
		t.Fatal(err)
	}
	s, err := e.Srv.Schema()
	if err != nil || s.QueryType().Fields()["articles"] == nil {
		t.Fatal("Schema()")
	}
	_ = context.Background()
}

// publishedAt in a write's data, as the v4 plugin reads it: a date
// publishes, null leaves (or makes) a draft.
func TestPublishedAtInInput(t *testing.T) {
	each(t, options{}, func(t *testing.T, e *env) {
		live := func() int {
			return len(list(e.ok(`{ articles(publicationState: LIVE) { data { id } } }`, nil), "articles", "data"))
		}
		d := e.ok(`mutation { createArticle(data: {title: "Draft", publishedAt: null}) { data { id attributes { publishedAt } } } }`, nil)
		id := str(d, "createArticle", "data", "id")
		eq(t, "created as a draft", live(), 0)
		e.ok(`mutation($id: ID!) { updateArticle(id: $id, data: {title: "Out", publishedAt: "2024-01-01T00:00:00.000Z"}) { data { id } } }`, map[string]any{"id": id})
		eq(t, "published by a date", live(), 1)
		d = e.ok(`mutation($id: ID!, $d: ArticleInput!) { updateArticle(id: $id, data: $d) { data { id } } }`,
			map[string]any{"id": id, "d": map[string]any{"title": "Back", "publishedAt": nil}})
		eq(t, "unpublished by null", live(), 0)
		d = e.ok(`{ articles(publicationState: PREVIEW) { data { attributes { title } } } }`, nil)
		eq(t, "the draft kept the write", str(d, "articles", "data", 0, "attributes", "title"), "Back")
	})
}
