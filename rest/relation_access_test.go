package rest_test

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/internal/testenv"
	"github.com/stratum-cms/stratum/query"
)

// TestRelationsNeedFindOnTheirTarget: a reader that may read articles but
// not authors cannot filter or sort articles by an author's fields (that
// would tell the author's email a character at a time), in REST and in
// GraphQL; with find on authors the same queries answer.
func TestRelationsNeedFindOnTheirTarget(t *testing.T) {
	articlesOnly := []string{"api::article.article.find", "api::article.article.findOne"}
	withAuthors := append([]string{"api::author.author.find"}, articlesOnly...)
	cases := []struct {
		name  string
		rest  string // a query string on /api/articles
		gql   string // the same through GraphQL ("" when it has no form there)
		field string // the key the 400 names
	}{
		{"filter", "filters[author][email][$startsWith]=a", `{ articles(filters: {author: {email: {startsWith: "a"}}}) { data { id } } }`, "author"},
		{"filter in $or", "filters[$or][0][title][$eq]=x&filters[$or][1][author][email][$eq]=a", `{ articles(filters: {or: [{title: {eq: "x"}}, {author: {email: {eq: "a"}}}]}) { data { id } } }`, "author"},
		{"filter under $not", "filters[$not][author][name][$eq]=a", `{ articles(filters: {not: {author: {name: {eq: "a"}}}}) { data { id } } }`, "author"},
		{"bare relation", "filters[author][$null]=true", "", "author"},
		{"two hops", "filters[category][articles][author][email][$eq]=a", "", "author"},
		{"sort", "sort=author.email:asc", `{ articles(sort: "author.email:asc") { data { id } } }`, "author"},
		{"populate filter", "populate[category][filters][articles][author][email][$eq]=a", "", "author"},
	}
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		denied := testenv.Start(t, db(t), testenv.Options{Permissions: map[string][]string{"public": append([]string{"api::category.category.find"}, articlesOnly...)}})
		allowed := testenv.Start(t, db(t), testenv.Options{Permissions: map[string][]string{"public": append([]string{"api::category.category.find"}, withAuthors...)}})
		for _, e := range []*testenv.Env{denied, allowed} {
			seed(t, e)
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				r := denied.Do("GET", "/api/articles?"+escapeQuery(c.rest), nil)
				if r.Status != 400 || r.ErrorName() != "ValidationError" || !strings.HasPrefix(r.ErrorMessage(), "Invalid key "+c.field) {
					t.Errorf("REST without find on authors: %d %s", r.Status, r.Body)
				}
				if r := allowed.Do("GET", "/api/articles?"+escapeQuery(c.rest), nil); r.Status != 200 {
					t.Errorf("REST with find on authors: %d %s", r.Status, r.Body)
				}
				if c.gql == "" {
					return
				}
				r = denied.Do("POST", "/graphql", map[string]any{"query": c.gql})
				if r.Status != 200 || !strings.Contains(string(r.Body), `"code":"BAD_USER_INPUT"`) ||
					!strings.Contains(string(r.Body), "Invalid key "+c.field) || strings.Contains(string(r.Body), `"documentId"`) {
					t.Errorf("GraphQL without find on authors: %d %s", r.Status, r.Body)
				}
				if r := allowed.Do("POST", "/graphql", map[string]any{"query": c.gql}); r.Status != 200 || strings.Contains(string(r.Body), `"errors"`) {
					t.Errorf("GraphQL with find on authors: %d %s", r.Status, r.Body)
				}
			})
		}
	})
}

// seed writes an author with an email and an article pointing at them.
func seed(t *testing.T, e *testenv.Env) {
	t.Helper()
	ctx := context.Background()
	authors, _ := e.Engine.Route("authors")
	a, err := e.Engine.Create(ctx, engine.AllowAll{}, authors, map[string]any{"name": "Ann", "email": "ann@example.com"}, engine.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	articles, _ := e.Engine.Route("articles")
	if _, err := e.Engine.Create(ctx, engine.AllowAll{}, articles, map[string]any{"title": "Hello", "author": a.DocumentID}, engine.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
}

// escapeQuery escapes the values of a readable query string.
func escapeQuery(q string) string {
	parts := strings.Split(q, "&")
	for i, p := range parts {
		k, v, _ := strings.Cut(p, "=")
		parts[i] = k + "=" + url.QueryEscape(v)
	}
	return strings.Join(parts, "&")
}

// TestRelationWritesNeedFindOnTheirTarget: setting a relation (a plain id,
// connect, set, from either side) needs find on its target, in REST and in
// GraphQL mutations; otherwise guessed ids would tell which documents exist.
func TestRelationWritesNeedFindOnTheirTarget(t *testing.T) {
	writer := []string{"api::article.article.find", "api::article.article.create", "api::article.article.update",
		"api::category.category.create"}
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		denied := testenv.Start(t, db(t), testenv.Options{Public: writer})
		allowed := testenv.Start(t, db(t), testenv.Options{Public: append([]string{"api::author.author.find", "api::article.article.findOne"}, writer...)})
		for _, e := range []*testenv.Env{denied, allowed} {
			seed(t, e)
			authors, _ := e.Engine.Route("authors")
			res, err := e.Engine.Find(context.Background(), engine.AllowAll{}, authors, &query.Query{})
			if err != nil || len(res.Docs) != 1 {
				t.Fatalf("authors: %v", err)
			}
			author := res.Docs[0].DocumentID
			articles, _ := e.Engine.Route("articles")
			all, _ := e.Engine.Find(context.Background(), engine.AllowAll{}, articles, &query.Query{})
			article := all.Docs[0].DocumentID
			want := 400
			if e == allowed {
				want = 201
			}
			for _, body := range []map[string]any{
				{"title": "plain", "author": author},
				{"title": "connect", "author": map[string]any{"connect": []any{author}}},
				{"title": "set", "author": map[string]any{"set": []any{map[string]any{"documentId": author}}}},
			} {
				r := e.Do("POST", "/api/articles", map[string]any{"data": body})
				if r.Status != want || (want == 400 && !strings.HasPrefix(r.ErrorMessage(), "Invalid key author")) {
					t.Errorf("%v (want %d): %d %s", body, want, r.Status, r.Body)
				}
			}
			// The inverse side: a category listing articles needs find on articles.
			r := e.Do("POST", "/api/categories", map[string]any{"data": map[string]any{"name": "c", "articles": []any{article}}})
			if r.Status != 201 {
				t.Errorf("category with articles (articles are findable): %d %s", r.Status, r.Body)
			}
			// The inverse side too.
			blind := testenv.Start(t, db(t), testenv.Options{Public: []string{"api::category.category.create"}})
			if r := blind.Do("POST", "/api/categories", map[string]any{"data": map[string]any{"name": "c", "articles": []any{article}}}); r.Status != 400 || !strings.HasPrefix(r.ErrorMessage(), "Invalid key articles") {
				t.Errorf("category with articles (articles are not findable): %d %s", r.Status, r.Body)
			}
			g := e.Do("POST", "/graphql", map[string]any{"query": `mutation($a: ID) { createArticle(data: {title: "g", author: $a}) { data { id } } }`,
				"variables": map[string]any{"a": author}})
			if denied := e != allowed; denied != strings.Contains(string(g.Body), "Invalid key author") {
				t.Errorf("GraphQL create (denied %v): %d %s", denied, g.Status, g.Body)
			}
		}
	})
}
