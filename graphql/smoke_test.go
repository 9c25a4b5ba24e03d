package graphql

import (
	"testing"

	"github.com/stratum-cms/stratum/internal/testenv"
)

func TestSmoke(t *testing.T) {
	dbs := testenv.Databases(t)
	e := start(t, dbs["sqlite"](t), options{})
	tag := e.seed("tags", map[string]any{"name": "go"})
	cat := e.seed("categories", map[string]any{"name": "news"})
	e.seed("articles", map[string]any{"title": "Hello", "views": 3, "category": cat, "tags": []any{tag}, "seo": map[string]any{"metaTitle": "m"},
		"blocks": []any{map[string]any{"__component": "shared.quote", "body": "q"}}})
	r := e.q(`{ articles { data { id attributes { title views kind category { data { id attributes { name } } } tags { data { attributes { name } } } seo { id metaTitle } blocks { __typename ... on ComponentSharedQuote { body } } } } meta { pagination { total page pageSize pageCount } } } }`, nil)
	t.Logf("%d %s", r.Status, r.Body)
	r = e.q(`mutation { createArticle(data: {title: "New", summary: null, kind: tutorial}) { data { id attributes { title kind publishedAt } } } }`, nil)
	t.Logf("%d %s", r.Status, r.Body)
	r = e.q(`{ __schema { queryType { name } } }`, nil)
	t.Logf("%d %s", r.Status, r.Body)
}
