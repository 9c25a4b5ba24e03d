package store_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/internal/testenv"
	"github.com/stratum-cms/stratum/models"
	"github.com/stratum-cms/stratum/query"
	"github.com/stratum-cms/stratum/store"
)

// The compiler tests run every operator against real rows on each database:
// a small project (store/testdata/compile) is migrated, documents are
// written through the engine, and lists go through Engine.Find, which
// resolves the filter and sort paths the way the HTTP layers do.

// fixture is one migrated database holding the documents below.
type fixture struct {
	eng    *engine.Engine
	st     *store.Store
	items  engine.Collection
	people engine.Collection
	labels engine.Collection
	pages  engine.Collection
	// name maps a document id to the name the test gave it.
	name map[string]string
	// doc and id map a name to the document id and the published row id.
	doc map[string]string
	id  map[string]int64
}

// itemRows are created in this order; "@x" stands for the document id of
// the person or label x. z exists only as a draft.
var itemRows = []struct {
	name, body string
	draft      bool
}{
	{"a", `{"title":"Hello World","count":10,"big":"100","score":1.5,"price":9.99,"day":"2024-01-15","at":"10:30",
		"when":"2024-01-15T10:00:00.000Z","flag":true,"kind":"news","body":"Alpha body","owner":"@ann","tags":["@red","@blue"],
		"dim":{"label":"Small","size":1},"dims":[{"label":"x","size":1},{"label":"y","size":2}]}`, false},
	{"b", `{"title":"hello there","count":-5,"big":9000000000,"score":2.25,"price":10.5,"day":"2024-06-01","at":"08:00",
		"when":"2024-06-01T00:00:00.000Z","flag":false,"kind":"tutorial","body":"beta","owner":"@bob","tags":["@blue"],
		"dim":{"label":"large","size":3},"dims":[{"label":"z","size":5}]}`, false},
	{"c", `{"title":"100% sure","count":0,"big":"-3","score":-0.5,"price":0,"day":"2023-12-31",
		"when":"2023-12-31T23:59:59.999Z","flag":true,"kind":"opinion","body":"gamma","owner":"@ann","tags":[],"dims":[]}`, false},
	{"d", `{"title":"1000 sure","count":2147483647,"score":100,"price":"100","day":"2025-02-28",
		"when":"2025-02-28T12:00:00.000Z","flag":false,"kind":"news","tags":["@green"],"dims":[{"label":"x","size":9}]}`, false},
	{"e", `{"title":"snake_case","count":7,"owner":"@bob"}`, false},
	{"f", `{"title":"snakeXcase","count":7}`, false},
	{"g", `{"title":"back\\slash"}`, false},
	{"h", `{"title":"backslash"}`, false},
	{"i", `{}`, false},
	{"z", `{"title":"Hello draft","count":10,"owner":"@ann","tags":["@red"]}`, true},
}

// createdAt overrides the creation times (the engine stamps "now").
var createdAt = map[string]string{
	"a": "2020-01-01T00:00:00.000Z", "b": "2020-01-02T00:00:00.000Z", "c": "2020-01-03T00:00:00.000Z",
	"d": "2020-01-04T00:00:00.000Z", "e": "2020-01-05T00:00:00.000Z", "f": "2019-12-31T00:00:00.000Z",
	"g": "2019-12-31T00:00:00.000Z", "h": "2019-12-31T00:00:00.000Z", "i": "2019-12-31T00:00:00.000Z",
	"z": "2020-01-06T00:00:00.000Z",
}

func decodeBody(t testing.TB, s string) map[string]any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return m
}

func newFixture(t *testing.T, dbURL string) *fixture {
	t.Helper()
	ctx := context.Background()
	schema, err := models.LoadDir(filepath.Join("testdata", "compile"))
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if err := st.Migrate(ctx, schema); err != nil {
		t.Fatal(err)
	}
	eng := engine.New(engine.NewRegistry(schema), st, engine.Config{DefaultLimit: 100, MaxLimit: 100, WithCount: true,
		DefaultLocale: "en", Locales: []string{"en", "fr"}})
	f := &fixture{eng: eng, st: st, name: map[string]string{}, doc: map[string]string{}, id: map[string]int64{}}
	route := func(name string) engine.Collection {
		c, ok := eng.Route(name)
		if !ok {
			t.Fatalf("no route %s", name)
		}
		return c
	}
	f.items, f.people, f.labels, f.pages = route("items"), route("people"), route("labels"), route("pages")
	create := func(c engine.Collection, name, body string, opt engine.WriteOptions) {
		t.Helper()
		for ref, id := range f.doc {
			body = strings.ReplaceAll(body, `"@`+ref+`"`, strconv.Quote(id))
		}
		d, err := eng.Create(ctx, engine.AllowAll{}, c, decodeBody(t, body), opt)
		if err != nil {
			t.Fatalf("create %s: %v", name, err)
		}
		f.name[d.DocumentID], f.doc[name], f.id[name] = name, d.DocumentID, d.ID
	}
	for _, n := range []string{"ann", "bob", "cat"} {
		create(f.people, n, `{"name":"`+n+`"}`, engine.WriteOptions{})
	}
	for _, n := range []string{"red", "blue", "green", "gray"} {
		create(f.labels, n, `{"name":"`+n+`"}`, engine.WriteOptions{})
	}
	for _, it := range itemRows {
		opt := engine.WriteOptions{}
		if it.draft {
			opt.Status = query.Draft
		}
		m := decodeBody(t, it.body)
		m["name"] = it.name
		b, _ := json.Marshal(m)
		create(f.items, it.name, string(b), opt)
	}
	create(f.pages, "one", `{"title":"one"}`, engine.WriteOptions{})
	create(f.pages, "two", `{"title":"two"}`, engine.WriteOptions{Locale: "en"})
	create(f.pages, "un", `{"title":"un"}`, engine.WriteOptions{Locale: "fr"})
	for name, at := range createdAt {
		ts, _ := time.Parse(time.RFC3339, at)
		var v any = ts
		if st.Dialect() == "sqlite" {
			v = ts.UTC().Format(store.TimeLayout)
		}
		if err := st.GORM().Exec("UPDATE items SET created_at = ? WHERE document_id = ?", v, f.doc[name]).Error; err != nil {
			t.Fatal(err)
		}
	}
	return f
}

// listCase is one read and the names of the documents it must return, in order.
type listCase struct {
	name string
	c    engine.Collection
	q    query.Query
	want []string
	// total, when set, is the expected meta total (pagination cases).
	total int64
}

// cond builds an unresolved condition on a dotted path.
func fc(path string, op query.Op, v any) *query.Cond {
	return &query.Cond{Path: strings.Split(path, "."), Op: op, Value: v}
}

func list(vals ...string) []any {
	out := make([]any, len(vals))
	for i, v := range vals {
		out[i] = v
	}
	return out
}

func names(s string) []string {
	if s == "" {
		return []string{}
	}
	return strings.Fields(s)
}

func sortBy(keys ...string) []query.Sort {
	out := make([]query.Sort, len(keys))
	for i, k := range keys {
		path, dir, _ := strings.Cut(k, ":")
		out[i] = query.Sort{Path: strings.Split(path, "."), Desc: dir == "desc"}
	}
	return out
}

func (f *fixture) run(t *testing.T, cases []listCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			q := c.q
			res, err := f.eng.Find(context.Background(), engine.AllowAll{}, c.c, &q)
			if err != nil {
				t.Fatalf("find: %v", err)
			}
			got := make([]string, len(res.Docs))
			for i, d := range res.Docs {
				got[i] = f.name[d.DocumentID]
			}
			want := c.want
			if want == nil {
				want = []string{}
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got %v, want %v", got, want)
			}
			total := c.total
			if total == 0 {
				total = int64(len(want))
			}
			if res.Meta.Total != total {
				t.Errorf("count %d, want %d", res.Meta.Total, total)
			}
		})
	}
}

func TestCompileFilters(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		f := newFixture(t, db(t))
		items := func(name string, flt query.Filter, want string) listCase {
			return listCase{name: name, c: f.items, q: query.Query{Filter: flt}, want: names(want)}
		}
		all := "a b c d e f g h i"
		f.run(t, []listCase{
			// strings
			items("string eq", fc("title", query.OpEq, "Hello World"), "a"),
			items("string eq is case-sensitive", fc("title", query.OpEq, "hello world"), ""),
			items("string eqi", fc("title", query.OpEqi, "hello WORLD"), "a"),
			items("string ne leaves out nulls", fc("title", query.OpNe, "Hello World"), "b c d e f g h"),
			items("string nei leaves out nulls", fc("title", query.OpNei, "HELLO WORLD"), "b c d e f g h"),
			items("string in", fc("title", query.OpIn, list("snake_case", "backslash", "nope")), "e h"),
			items("string notIn leaves out nulls", fc("title", query.OpNotIn, list("snake_case", "backslash")), "a b c d f g"),
			items("string contains", fc("title", query.OpContains, "ello"), "a b"),
			items("contains is case-sensitive upper", fc("title", query.OpContains, "Hello"), "a"),
			items("contains is case-sensitive lower", fc("title", query.OpContains, "hello"), "b"),
			items("containsi", fc("title", query.OpContainsi, "HELLO"), "a b"),
			items("notContains keeps nulls", fc("title", query.OpNotContains, "hello"), "a c d e f g h i"),
			items("notContainsi keeps nulls", fc("title", query.OpNotContainsi, "HELLO"), "c d e f g h i"),
			items("startsWith", fc("title", query.OpStartsWith, "hello"), "b"),
			items("startsWithi", fc("title", query.OpStartsWithi, "HELLO"), "a b"),
			items("endsWith", fc("title", query.OpEndsWith, "sure"), "c d"),
			items("endsWithi", fc("title", query.OpEndsWithi, "WORLD"), "a"),
			items("literal percent in contains", fc("title", query.OpContains, "0%"), "c"),
			items("literal percent alone", fc("title", query.OpContains, "%"), "c"),
			items("literal percent in startsWith", fc("title", query.OpStartsWith, "100%"), "c"),
			items("literal percent in endsWith", fc("title", query.OpEndsWith, "0% sure"), "c"),
			items("literal underscore in contains", fc("title", query.OpContains, "e_c"), "e"),
			items("literal underscore alone", fc("title", query.OpContains, "_"), "e"),
			items("literal underscore in endsWith", fc("title", query.OpEndsWith, "_case"), "e"),
			items("literal underscore in containsi", fc("title", query.OpContainsi, "E_C"), "e"),
			items("literal backslash", fc("title", query.OpContains, `k\s`), "g"),
			items("literal backslash alone", fc("title", query.OpContains, `\`), "g"),
			items("literal percent in notContains", fc("title", query.OpNotContains, "%"), "a b d e f g h i"),
			items("null", fc("title", query.OpNull, "true"), "i"),
			items("null false", fc("title", query.OpNull, "false"), "a b c d e f g h"),
			items("notNull", fc("title", query.OpNotNull, "true"), "a b c d e f g h"),
			items("notNull false", fc("title", query.OpNotNull, "false"), "i"),
			items("eq without value is null", fc("title", query.OpEq, nil), "i"),
			items("ne without value is notNull", fc("title", query.OpNe, nil), "a b c d e f g h"),
			items("array on eq ORs", fc("title", query.OpEq, list("Hello World", "backslash")), "a h"),
			// enumeration and long text
			items("enumeration eq", fc("kind", query.OpEq, "news"), "a d"),
			items("enumeration in", fc("kind", query.OpIn, list("tutorial", "opinion")), "b c"),
			items("enumeration ne", fc("kind", query.OpNe, "news"), "b c"),
			items("text containsi", fc("body", query.OpContainsi, "ALPHA"), "a"),
			items("text eq", fc("body", query.OpEq, "beta"), "b"),
			items("text null", fc("body", query.OpNull, "true"), "d e f g h i"),
			// integers
			items("integer eq", fc("count", query.OpEq, "10"), "a"),
			items("integer eq max int32", fc("count", query.OpEq, "2147483647"), "d"),
			items("integer ne leaves out nulls", fc("count", query.OpNe, "10"), "b c d e f"),
			items("integer lt", fc("count", query.OpLt, "0"), "b"),
			items("integer lte", fc("count", query.OpLte, "0"), "b c"),
			items("integer gt compares numbers not text", fc("count", query.OpGt, "9"), "a d"),
			items("integer gte", fc("count", query.OpGte, "7"), "a d e f"),
			items("integer in", fc("count", query.OpIn, list("0", "7")), "c e f"),
			items("integer notIn leaves out nulls", fc("count", query.OpNotIn, list("0", "7")), "a b d"),
			items("empty in matches nothing", fc("count", query.OpIn, []any{}), ""),
			items("empty notIn matches all", fc("count", query.OpNotIn, []any{}), all),
			items("integer between", fc("count", query.OpBetween, list("-5", "7")), "b c e f"),
			items("integer null", fc("count", query.OpNull, "true"), "g h i"),
			// bigintegers (stored as strings)
			items("biginteger gt", fc("big", query.OpGt, "100"), "b"),
			items("biginteger gte", fc("big", query.OpGte, "100"), "a b"),
			items("biginteger lt", fc("big", query.OpLt, "0"), "c"),
			items("biginteger eq", fc("big", query.OpEq, "9000000000"), "b"),
			// floats and decimals
			items("float gt compares numbers not text", fc("score", query.OpGt, "2"), "b d"),
			items("float lt", fc("score", query.OpLt, "0"), "c"),
			items("float eq", fc("score", query.OpEq, "1.5"), "a"),
			items("float between", fc("score", query.OpBetween, list("1.5", "2.25")), "a b"),
			items("decimal eq", fc("price", query.OpEq, "9.99"), "a"),
			items("decimal gte", fc("price", query.OpGte, "10"), "b d"),
			items("decimal lt", fc("price", query.OpLt, "1"), "c"),
			// dates, times, datetimes
			items("date eq", fc("day", query.OpEq, "2024-01-15"), "a"),
			items("date eq from a datetime", fc("day", query.OpEq, "2024-01-15T05:00:00Z"), "a"),
			items("date gte", fc("day", query.OpGte, "2024-01-15"), "a b d"),
			items("date lt", fc("day", query.OpLt, "2024-01-01"), "c"),
			items("date between", fc("day", query.OpBetween, list("2024-01-01", "2024-12-31")), "a b"),
			items("date null", fc("day", query.OpNull, "true"), "e f g h i"),
			items("time lt", fc("at", query.OpLt, "09:00"), "b"),
			items("time gte", fc("at", query.OpGte, "10:30:00"), "a"),
			items("datetime gt", fc("when", query.OpGt, "2024-01-15T10:00:00.000Z"), "b d"),
			items("datetime gte", fc("when", query.OpGte, "2024-01-15T10:00:00Z"), "a b d"),
			items("datetime eq with an offset", fc("when", query.OpEq, "2024-01-15T11:00:00+01:00"), "a"),
			items("datetime lte milliseconds", fc("when", query.OpLte, "1704067199999"), "c"),
			items("datetime lt a date", fc("when", query.OpLt, "2024-01-01"), "c"),
			items("datetime between", fc("when", query.OpBetween, list("2024-01-01", "2024-12-31")), "a b"),
			// booleans
			items("boolean true", fc("flag", query.OpEq, "true"), "a c"),
			items("boolean false", fc("flag", query.OpEq, "false"), "b d"),
			items("boolean 1", fc("flag", query.OpEq, "1"), "a c"),
			items("boolean ne leaves out nulls", fc("flag", query.OpNe, "true"), "b d"),
			items("boolean in", fc("flag", query.OpIn, list("true")), "a c"),
			items("boolean null", fc("flag", query.OpNull, "true"), "e f g h i"),
			// $and, $or, $not
			items("or", query.Or{fc("count", query.OpLt, "0"), fc("title", query.OpEq, "Hello World")}, "a b"),
			items("and", query.And{fc("flag", query.OpEq, "true"), fc("count", query.OpGt, "0")}, "a"),
			items("not leaves out nulls", query.Not{Filter: fc("count", query.OpGt, "0")}, "b c"),
			items("not null", query.Not{Filter: fc("title", query.OpNull, "true")}, "a b c d e f g h"),
			items("empty and", query.And{}, all),
			items("empty or", query.Or{}, ""),
			items("nested", query.Or{
				query.And{fc("kind", query.OpEq, "news"), fc("count", query.OpLt, "100")},
				query.Not{Filter: query.Or{fc("title", query.OpNotNull, "true"), fc("count", query.OpNotNull, "true")}},
			}, "a i"),
			// system fields
			items("id eq", fc("id", query.OpEq, strconv.FormatInt(f.id["a"], 10)), "a"),
			items("id in", fc("id", query.OpIn, list(strconv.FormatInt(f.id["a"], 10), strconv.FormatInt(f.id["c"], 10))), "a c"),
			items("id gt", fc("id", query.OpGt, strconv.FormatInt(f.id["d"], 10)), "e f g h i"),
			items("documentId eq", fc("documentId", query.OpEq, f.doc["b"]), "b"),
			items("documentId in", fc("documentId", query.OpIn, list(f.doc["b"], f.doc["c"])), "b c"),
			items("documentId ne", fc("documentId", query.OpNe, f.doc["b"]), "a c d e f g h i"),
			items("createdAt lt", fc("createdAt", query.OpLt, "2020-01-03"), "a b f g h i"),
			items("createdAt eq", fc("createdAt", query.OpEq, "2020-01-01T00:00:00.000Z"), "a"),
			items("createdAt between", fc("createdAt", query.OpBetween, list("2020-01-03", "2020-01-05T00:00:00.000Z")), "c d e"),
			items("publishedAt null", fc("publishedAt", query.OpNull, "true"), ""),
			items("publishedAt notNull", fc("publishedAt", query.OpNotNull, "true"), all),
			// relations
			items("to-one", fc("owner.name", query.OpEq, "ann"), "a c"),
			items("to-one ne", fc("owner.name", query.OpNe, "ann"), "b e"),
			items("to-one id", fc("owner.id", query.OpEq, strconv.FormatInt(f.id["ann"], 10)), "a c"),
			items("to-one bare relation compares ids", fc("owner", query.OpIn,
				list(strconv.FormatInt(f.id["ann"], 10), strconv.FormatInt(f.id["bob"], 10))), "a b c e"),
			items("to-one documentId", fc("owner.documentId", query.OpEq, f.doc["bob"]), "b e"),
			items("to-one notNull", fc("owner.id", query.OpNotNull, "true"), "a b c e"),
			// A null test through a relation also holds without related
			// documents, as Strapi's LEFT JOIN gives.
			items("to-one null is no relation", fc("owner", query.OpNull, "true"), "d f g h i"),
			items("to-one id null", fc("owner.id", query.OpNull, "true"), "d f g h i"),
			items("to-one field null", fc("owner.name", query.OpNull, "true"), "d f g h i"),
			items("to-one notNull false", fc("owner", query.OpNotNull, "false"), "d f g h i"),
			items("to-one eq without value", fc("owner.id", query.OpEq, nil), "d f g h i"),
			items("to-many null is no relation", fc("tags", query.OpNull, "true"), "c e f g h i"),
			items("to-many", fc("tags.name", query.OpEq, "blue"), "a b"),
			items("to-many in", fc("tags.name", query.OpIn, list("red", "green")), "a d"),
			items("to-many ne is any other", fc("tags.name", query.OpNe, "blue"), "a d"),
			items("to-many not", query.Not{Filter: fc("tags.name", query.OpEq, "blue")}, "c d e f g h i"),
			items("to-many containsi", fc("tags.name", query.OpContainsi, "E"), "a b d"),
			items("to-one and to-many", query.And{fc("owner.name", query.OpEq, "ann"), fc("tags.name", query.OpEq, "red")}, "a"),
			// components
			items("component", fc("dim.label", query.OpEq, "Small"), "a"),
			items("component containsi", fc("dim.label", query.OpContainsi, "L"), "a b"),
			items("component number", fc("dim.size", query.OpGt, "1"), "b"),
			items("component null", fc("dim.label", query.OpNull, "true"), "c d e f g h i"),
			items("repeatable component", fc("dims.label", query.OpEq, "x"), "a d"),
			items("repeatable component null is no item", fc("dims.label", query.OpNull, "true"), "c e f g h i"),
			items("repeatable component notNull", fc("dims.label", query.OpNotNull, "true"), "a b d"),
			items("repeatable component number", fc("dims.size", query.OpGte, "5"), "b d"),
			items("repeatable component lt", fc("dims.size", query.OpLt, "2"), "a"),
			// Each condition is its own EXISTS: they may hold on different items.
			items("repeatable component conditions apart", query.And{fc("dims.label", query.OpEq, "x"), fc("dims.size", query.OpEq, "2")}, "a"),
		})
	})
}

func TestCompileVersionsAndInverseRelations(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		f := newFixture(t, db(t))
		draft := func(name string, flt query.Filter, want string) listCase {
			return listCase{name: name, c: f.items, q: query.Query{Status: query.Draft, Filter: flt}, want: names(want)}
		}
		on := func(c engine.Collection, name string, flt query.Filter, want string) listCase {
			return listCase{name: name, c: c, q: query.Query{Filter: flt}, want: names(want)}
		}
		f.run(t, []listCase{
			draft("draft list", nil, "a b c d e f g h i z"),
			draft("draft to-one", fc("owner.name", query.OpEq, "ann"), "a c z"),
			draft("draft to-one null", fc("owner", query.OpNull, "true"), "d f g h i"),
			draft("draft to-many", fc("tags.name", query.OpEq, "red"), "a z"),
			draft("draft publishedAt null", fc("publishedAt", query.OpNull, "true"), "a b c d e f g h i z"),
			draft("draft publishedAt notNull", fc("publishedAt", query.OpNotNull, "true"), ""),
			draft("draft string", fc("title", query.OpStartsWith, "Hello"), "a z"),
			draft("draft createdAt", fc("createdAt", query.OpGt, "2020-01-04T12:00:00Z"), "e z"),
			// Inverse sides read the owner's published rows only.
			on(f.people, "inverse to-many", fc("items.name", query.OpEq, "a"), "ann"),
			on(f.people, "inverse containsi", fc("items.title", query.OpContainsi, "hello"), "ann bob"),
			on(f.people, "inverse ignores drafts", fc("items.name", query.OpEq, "z"), ""),
			on(f.people, "inverse number", fc("items.count", query.OpGt, "5"), "ann bob"),
			on(f.people, "inverse none", query.Not{Filter: fc("items.id", query.OpNotNull, "true")}, "cat"),
			on(f.people, "inverse null is no relation", fc("items", query.OpNull, "true"), "cat"),
			on(f.labels, "inverse many-to-many null", fc("items.id", query.OpNull, "true"), "gray"),
			on(f.labels, "inverse many-to-many", fc("items.name", query.OpEq, "b"), "blue"),
			on(f.labels, "inverse many-to-many number", fc("items.count", query.OpGt, "5"), "red blue green"),
			on(f.labels, "inverse many-to-many ignores drafts", fc("items.name", query.OpEq, "z"), ""),
			on(f.labels, "inverse many-to-many none", query.Not{Filter: fc("items.id", query.OpNotNull, "true")}, "gray"),
			// Locales.
			{name: "locale eq", c: f.pages, q: query.Query{Locale: query.AllLocales, Filter: fc("locale", query.OpEq, "fr")}, want: names("un")},
			{name: "locale in", c: f.pages, q: query.Query{Locale: query.AllLocales, Filter: fc("locale", query.OpIn, list("en"))}, want: names("one two")},
			{name: "locale ne", c: f.pages, q: query.Query{Locale: query.AllLocales, Filter: fc("locale", query.OpNe, "en")}, want: names("un")},
			{name: "all locales", c: f.pages, q: query.Query{Locale: query.AllLocales}, want: names("one two un")},
			{name: "default locale", c: f.pages, q: query.Query{}, want: names("one two")},
			{name: "one locale", c: f.pages, q: query.Query{Locale: "fr"}, want: names("un")},
		})
	})
}

func TestCompileSortAndPages(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		f := newFixture(t, db(t))
		sorted := func(name string, want string, keys ...string) listCase {
			return listCase{name: name, c: f.items, q: query.Query{Sort: sortBy(keys...)}, want: names(want)}
		}
		offset := func(start, limit int) query.Pagination {
			return query.Pagination{OffsetMode: true, Start: start, Limit: limit}
		}
		f.run(t, []listCase{
			sorted("no sort is id order", "a b c d e f g h i"),
			// Ties follow id in the direction of the last key; nulls come
			// last ascending and first descending.
			sorted("string asc", "a d c b e f g h i", "kind"),
			sorted("string desc", "i h g f e b c d a", "kind:desc"),
			sorted("two keys", "d a c b i h g f e", "kind", "count:desc"),
			sorted("integer asc is numeric", "b c e f a d g h i", "count"),
			sorted("integer desc", "i h g d a f e c b", "count:desc"),
			sorted("float asc is numeric", "c a b d e f g h i", "score"),
			sorted("biginteger desc", "i h g f e d b a c", "big:desc"),
			sorted("date asc", "c a b d e f g h i", "day"),
			sorted("boolean asc", "b d a c e f g h i", "flag"),
			sorted("createdAt asc", "f g h i a b c d e", "createdAt"),
			sorted("createdAt desc", "e d c b a i h g f", "createdAt:desc"),
			sorted("id desc", "i h g f e d c b a", "id:desc"),
			sorted("name desc", "i h g f e d c b a", "name:desc"),
			sorted("to-one asc", "a c b e d f g h i", "owner.name"),
			sorted("to-one desc", "i h g f d e b c a", "owner.name:desc"),
			sorted("component desc", "i h g f e d c b a", "dim.size:desc"),
			{name: "draft to-one", c: f.items, q: query.Query{Status: query.Draft, Sort: sortBy("owner.name", "id:desc")},
				want: names("z c a e b i h g f d")},
			{name: "people by name desc", c: f.people, q: query.Query{Sort: sortBy("name:desc")}, want: names("cat bob ann")},
			// Pagination.
			{name: "start and limit", c: f.items, q: query.Query{Sort: sortBy("count"), Page: offset(2, 3)},
				want: names("e f a"), total: 9},
			{name: "start and limit with a filter", c: f.items,
				q:    query.Query{Filter: fc("count", query.OpNotNull, "true"), Sort: sortBy("count:desc"), Page: offset(1, 2)},
				want: names("a f"), total: 6},
			{name: "last page", c: f.items, q: query.Query{Page: offset(8, 5)}, want: names("i"), total: 9},
			{name: "past the end", c: f.items, q: query.Query{Page: offset(20, 5)}, want: names(""), total: 9},
			{name: "page and pageSize", c: f.items, q: query.Query{Sort: sortBy("name"), Page: query.Pagination{Page: 2, PageSize: 4}},
				want: names("e f g h"), total: 9},
			{name: "page of a filter", c: f.items,
				q:    query.Query{Filter: fc("title", query.OpContainsi, "s"), Page: query.Pagination{Page: 2, PageSize: 2}},
				want: names("e f"), total: 6},
		})
	})
}

// TestCompileCountMatchesList checks Store.Count against Store.List on the
// same resolved queries, with the counters' shortcut and without.
func TestCompileCountMatchesList(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		f := newFixture(t, db(t))
		ctx := context.Background()
		filters := []query.Filter{
			nil,
			fc("title", query.OpContainsi, "e"),
			fc("owner.name", query.OpEq, "ann"),
			fc("tags.name", query.OpNe, "red"),
			fc("dims.size", query.OpGt, "0"),
			query.Not{Filter: fc("count", query.OpNull, "true")},
		}
		for i, flt := range filters {
			for _, v := range []engine.Version{engine.VersionPublished, engine.VersionDraft, engine.VersionAny} {
				r, err := f.eng.ResolveFilter(f.items, flt)
				if err != nil {
					t.Fatal(err)
				}
				q := &engine.ListQuery{Version: v, Locale: query.AllLocales, Filter: r, Limit: -1}
				rows, err := f.st.List(ctx, f.items.Type, q)
				if err != nil {
					t.Fatal(err)
				}
				n, err := f.st.Count(ctx, f.items.Type, q)
				if err != nil {
					t.Fatal(err)
				}
				if n != int64(len(rows)) || len(rows) == 0 {
					t.Errorf("filter %d version %d: count %d, list %d", i, v, n, len(rows))
				}
			}
		}
	})
}

// TestCompileBindsValues checks that values are bound, never spliced into
// the SQL text: a quote in a value matches nothing instead of everything.
func TestCompileBindsValues(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		f := newFixture(t, db(t))
		evil := `x' OR '1'='1`
		res, err := f.eng.Find(context.Background(), engine.AllowAll{}, f.items, &query.Query{
			Filter: query.Or{fc("title", query.OpEq, evil), fc("title", query.OpContains, evil), fc("dims.label", query.OpEqi, evil)}})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Docs) != 0 {
			t.Fatalf("a quote in a value changed the query: %d documents", len(res.Docs))
		}
	})
}
