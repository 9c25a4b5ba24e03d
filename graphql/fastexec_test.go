package graphql

import (
	"testing"

	gql "github.com/graphql-go/graphql"
)

// The fast executor answers exactly what graphql-go's executor answers.
func TestFastExecutorMatchesGraphqlGo(t *testing.T) {
	public := []string{"api::article.article.find", "api::article.article.findOne", "api::tag.tag.find", "api::category.category.find",
		"api::global.global.find"}
	each(t, options{public: public}, func(t *testing.T, fast *env) {
		ids := fast.blog()
		slowSrv, err := New(Config{}, fast.Eng, fast.Srv.authn, nil)
		if err != nil {
			t.Fatal(err)
		}
		slowSrv.slow = true
		slow := fast.with(slowSrv)
		queries := []struct {
			q    string
			vars map[string]any
		}{
			{`{ articles(sort: "views") { data { id attributes { title views rating featured kind shares publishDate summary content metadata createdAt } } meta { pagination { total page pageSize pageCount } } } }`, nil},
			{`query Q($f: ArticleFiltersInput, $p: PaginationArg, $s: [String], $st: PublicationState) { articles(filters: $f, pagination: $p, sort: $s, publicationState: $st) {
				data { ...E } meta { pagination { total } } } } fragment E on ArticleEntity { id attributes { title ... on Article { views } } }`,
				map[string]any{"f": map[string]any{"views": map[string]any{"gte": 15}}, "p": map[string]any{"start": 1, "limit": 2}, "s": []any{"views:desc"}, "st": "PREVIEW"}},
			{`query($skip: Boolean!) { articles(sort: "title") { data { a: id b: id @skip(if: $skip) attributes @include(if: true) { title @skip(if: $skip) __typename } } } }`, map[string]any{"skip": true}},
			{`{ articles(filters: {title: {eq: "Alpha"}}) { data { attributes {
				category { data { id attributes { name articles(sort: "title:desc", pagination: {limit: 1}) { data { attributes { title } } } } } }
				tags(sort: "name:desc") { data { attributes { name } } } other: tags(filters: {name: {eq: "sql"}}) { data { id } }
				author { data { id } }
				seo { id metaTitle shareImage { data { id } } } quotes(sort: "title:desc", pagination: {pageSize: 2}) { id title }
				blocks { __typename ... on ComponentSharedQuote { id body } ... on ComponentSharedRichText { body } ... on Error { code } }
				cover { data { id } } gallery { data { id } } } } } }`, nil},
			{`query($id: ID) { article(id: $id) { data { id attributes { title } } } missing: article(id: "nosuchdocumentidxxxxxxxxx") { data { id } } }`, map[string]any{"id": ids.articles[1]}},
			{`{ global { data { id } } authors { data { id } } }`, nil},
			{`{ articles(pagination: {page: 1, limit: 2}) { data { id } } tags { data { id } } }`, nil},
			{`{ articles(sort: "nosuch") { data { id } } }`, nil},
			{`query($n: Int) { articles(pagination: {limit: $n}) { data { id } } }`, map[string]any{"n": "x"}},
			{`query($id: ID!) { article(id: $id) { data { id } } }`, nil},
			{`{ __typename articles { __typename data { __typename } } }`, nil},
			{`{ articles(sort: "views") { data { id attributes { category { data { attributes { articles(sort: "nosuch") { data { id } } } } } tags(pagination: {page: 1, limit: 1}) { data { id } } } } } }`, nil},
			// Found by the differential test: graphql-go's maps were ordered
			// without @skip/@include and without fragments' type conditions.
			{`query($s: Boolean = true) { articles(sort: "views") { data { attributes @skip(if: true) { title } id attributes {
				... @include(if: false) { title views } views title @skip(if: $s) kind } } } }`, nil},
			{`{ articles(filters: {title: {eq: "Alpha"}}) { data { attributes { blocks { ... on ComponentSharedQuote { body }
				... on ComponentSharedRichText { id body } ...Z } } } } } fragment Z on ComponentSharedSeo { metaTitle ... on ComponentSharedSeo { id } }`, nil},
			{`{ articles(filters: {title: {eq: "Alpha"}}) { data { attributes { blocks { ... on ArticleBlocksDynamicZone { ... on ComponentSharedQuote { title } }
				...U ... on ComponentSharedQuote { body title } } } } } } fragment U on ArticleBlocksDynamicZone { ... on ComponentSharedRichText { body } }`, nil},
			// graphql-go reads the last @skip and the last @include of a
			// selection (the spec's validation would refuse the repetition).
			{`query($t: Boolean = true, $f: Boolean = false) { articles(sort: "views") { data { id @skip(if: true) @include(if: $t) @skip(if: $f)
				attributes { title @include(if: false) @include(if: true) views @skip(if: $t) @skip(if: false) @include(if: false) } } } }`, nil},
			// Found by FuzzFastExecutor: merged selections that share their
			// first selection set (a fragment's) shared collected fields.
			{`query($v: Boolean!) { articles(sort: "views") { a: data { ...E @include(if: $v) attributes { __typename } } data { ...E attributes { views } } } }
				fragment E on ArticleEntity { attributes { title } }`, map[string]any{"v": true}},
			// graphql-go drops the null fields of input objects in arguments,
			// written or in variables.
			{`{ articles(sort: "views", filters: {views: {lt: null}, or: [{title: {eq: null}}]}) { data { id } } }`, nil},
			{`query($f: ArticleFiltersInput) { articles(sort: "views", filters: $f) { data { id } } }`,
				map[string]any{"f": map[string]any{"views": map[string]any{"gte": nil}, "and": []any{map[string]any{"title": nil}}, "tags": nil}}},
		}
		for _, q := range queries {
			a, b := fast.q(q.q, q.vars), slow.q(q.q, q.vars)
			if a.Status != b.Status || string(a.Body) != string(b.Body) {
				t.Errorf("%s\nfast: %d %s\nslow: %d %s", q.q, a.Status, a.Body, b.Status, b.Body)
			}
		}
		if fast.Srv.fastRuns.Load() < 8 {
			t.Errorf("the fast executor ran %d operations", fast.Srv.fastRuns.Load())
		}
		if slowSrv.fastRuns.Load() != 0 {
			t.Error("slow server used the fast executor")
		}
	})
}

// Operations with custom resolvers go to graphql-go.
func TestFastExecutorGivesWay(t *testing.T) {
	e := start(t, dbSQLite(t), options{setup: func(s *Server) {
		s.Extensions().Use(Extension{TypeDefs: `extend type Query { hi: String }`, Resolvers: map[string]map[string]gql.FieldResolveFn{
			"Query": {"hi": func(gql.ResolveParams) (any, error) { return "hi", nil }}}})
	}})
	e.ok(`{ hi articles { data { id } } }`, nil)
	eq(t, "custom", e.Srv.fastRuns.Load(), int64(0))
	e.ok(`{ articles { data { id } } }`, nil)
	eq(t, "generated", e.Srv.fastRuns.Load(), int64(1))
}
