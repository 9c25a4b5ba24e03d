package graphql

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/internal/testdb"
	"github.com/stratum-cms/stratum/query"
	"github.com/stratum-cms/stratum/upload"
)

// A differential test of the fast executor: queries generated from a byte
// stream over the blog's schema (plus a localized type) run on two servers
// over the same database, one with the fast executor and one with
// graphql-go's, and the answers must be byte-identical.

// pageSchema is a localized type with drafts, added to the blog so the
// generated queries cover locales.
const pageSchema = `{
  "kind": "collectionType",
  "collectionName": "pages",
  "info": {"singularName": "page", "pluralName": "pages", "displayName": "Page"},
  "options": {"draftAndPublish": true},
  "pluginOptions": {"i18n": {"localized": true}},
  "attributes": {
    "title": {"type": "string", "required": true, "pluginOptions": {"i18n": {"localized": true}}},
    "code": {"type": "enumeration", "enum": ["home", "about", "contact"]},
    "body": {"type": "text", "pluginOptions": {"i18n": {"localized": true}}},
    "seo": {"type": "component", "repeatable": false, "component": "shared.seo"},
    "article": {"type": "relation", "relation": "manyToOne", "target": "api::article.article"}
  }
}`

// diffSchemaDir is the blog plus the localized page type.
func diffSchemaDir(t testing.TB) string {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(blogDir())); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "src", "api", "page", "content-types", "page")
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(p, "schema.json"), []byte(pageSchema), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// diffPair is the same stack served twice: fast (the default) and slow
// (graphql-go's executor only).
type diffPair struct {
	fast, slow *env
	ids        map[string][]string // GraphQL type name -> documentIds, drafts included
}

// diffPublic is a reader who may read articles, tags and pages only: the
// other types' queries are FORBIDDEN and relations to them empty.
var diffPublic = []string{"api::article.article.find", "api::article.article.findOne", "api::tag.tag.find",
	"api::page.page.find", "api::page.page.findOne"}

// newDiffPair serves a seeded database twice; public nil lets the public
// role do everything.
func newDiffPair(t testing.TB, dbURL string, public []string) *diffPair {
	fast := start(t, dbURL, options{dir: diffSchemaDir(t), public: public})
	slowSrv, err := New(Config{}, fast.Eng, fast.Srv.authn, nil)
	if err != nil {
		t.Fatal(err)
	}
	slowSrv.slow = true
	p := &diffPair{fast: fast, slow: fast.with(slowSrv)}
	p.ids = seedDiff(t, fast)
	return p
}

// seedDiff writes varied documents: every attribute family, nulls, drafts
// only, published documents with a newer draft, media, components, dynamic
// zones, nested categories and two locales.
func seedDiff(t testing.TB, e *env) map[string][]string {
	ctx := context.Background()
	up, err := upload.New(ctx, e.Store, upload.Config{Dir: filepath.Join(t.TempDir(), "uploads")})
	if err != nil {
		t.Fatal(err)
	}
	e.Eng.UseMedia(up)
	img := image.NewRGBA(image.Rect(0, 0, 3, 2))
	img.Set(1, 1, color.RGBA{R: 200, A: 255})
	var pngb bytes.Buffer
	_ = png.Encode(&pngb, img)
	alt := "a red dot"
	var files []int64
	for _, f := range []struct {
		name string
		body []byte
		info upload.FileInfo
	}{{"dot.png", pngb.Bytes(), upload.FileInfo{AlternativeText: &alt}}, {"notes.txt", []byte("some notes"), upload.FileInfo{}},
		{"other.png", pngb.Bytes(), upload.FileInfo{Name: "Other"}}} {
		file, err := up.Save(ctx, f.name, f.body, f.info)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, file.ID)
	}

	ids := map[string][]string{}
	mk := func(typ, plural string, data map[string]any, opt engine.WriteOptions) string {
		t.Helper()
		c, ok := e.Eng.Route(plural)
		if !ok {
			t.Fatalf("no type %s", plural)
		}
		d, err := e.Eng.Create(ctx, engine.AllowAll{}, c, jsonNumbers(data), opt)
		if err != nil {
			t.Fatalf("seed %s %v: %v", plural, data, err)
		}
		ids[typ] = append(ids[typ], d.DocumentID)
		return d.DocumentID
	}
	upd := func(plural, id string, data map[string]any, opt engine.WriteOptions) {
		t.Helper()
		c, _ := e.Eng.Route(plural)
		if _, err := e.Eng.Update(ctx, engine.AllowAll{}, c, id, jsonNumbers(data), opt); err != nil {
			t.Fatalf("update %s %v: %v", plural, data, err)
		}
	}
	pub, draft := engine.WriteOptions{}, engine.WriteOptions{Status: query.Draft}

	var tags []string
	for _, n := range []string{"go", "sql", "web", "Zeta é", "O'Brien"} {
		tags = append(tags, mk("Tag", "tags", map[string]any{"name": n}, pub))
	}
	news := mk("Category", "categories", map[string]any{"name": "news", "description": "What happened"}, pub)
	howto := mk("Category", "categories", map[string]any{"name": "howto"}, pub)
	nested := mk("Category", "categories", map[string]any{"name": "howto/go", "parent": howto, "description": "Go how-tos"}, pub)
	mk("Category", "categories", map[string]any{"name": "empty", "parent": nested}, pub)
	ada := mk("Author", "authors", map[string]any{"name": "Ada", "email": "ada@example.com", "bio": "Writes about engines", "avatar": files[0]}, pub)
	bob := mk("Author", "authors", map[string]any{"name": "Bob"}, pub)
	mk("Author", "authors", map[string]any{"name": "Cy", "email": "cy@example.com"}, pub)

	para := []any{map[string]any{"type": "paragraph", "children": []any{map[string]any{"type": "text", "text": "Hello"}}}}
	arts := []struct {
		data map[string]any
		opt  engine.WriteOptions
	}{
		{map[string]any{"title": "Alpha", "slug": "alpha", "views": 10, "rating": 4.5, "featured": true, "kind": "news", "category": news,
			"tags": []any{tags[0], tags[1]}, "author": ada, "price": 9.99, "publishDate": "2024-01-15", "publishTime": "10:30:00",
			"scheduledAt": "2024-06-01T10:00:00.000Z", "contactEmail": "alpha@example.com", "metadata": map[string]any{"a": 1, "b": []any{"x", "y"}},
			"content": para, "body": "# Alpha\n\nbody", "summary": "first", "cover": files[0], "gallery": []any{files[0], files[2]},
			"seo":    map[string]any{"metaTitle": "alpha seo", "metaDescription": "desc", "shareImage": files[2]},
			"quotes": []any{map[string]any{"title": "q1", "body": "first"}, map[string]any{"title": "q2", "body": "second"}, map[string]any{"body": "third"}},
			"blocks": []any{map[string]any{"__component": "shared.quote", "title": "zq", "body": "zone quote"}, map[string]any{"__component": "shared.rich-text", "body": "**rich**"},
				map[string]any{"__component": "shared.seo", "metaTitle": "zone seo", "shareImage": files[0]}}}, pub},
		{map[string]any{"title": "Beta", "views": 20, "rating": 3.0, "kind": "tutorial", "category": howto, "tags": []any{tags[2]}, "author": ada,
			"summary": "about beta", "shares": "9007199254740993", "quotes": []any{map[string]any{"title": "only", "body": "one"}},
			"blocks": []any{map[string]any{"__component": "shared.rich-text", "body": "text"}}}, pub},
		{map[string]any{"title": "Gamma", "views": 30, "rating": 2.0, "kind": "opinion", "category": news, "tags": []any{}, "featured": false,
			"metadata": []any{1, 2, 3}}, pub},
		{map[string]any{"title": "Delta", "views": 40, "kind": "news", "publishDate": "2024-05-01", "shares": "-5", "author": bob,
			"tags": []any{tags[3], tags[4], tags[0]}, "gallery": []any{files[2], files[0]}}, pub},
		{map[string]any{"title": "Epsilon é", "views": 0, "kind": "tutorial", "category": nested, "rating": 5, "price": 0.5,
			"seo": map[string]any{"metaTitle": "eps"}, "summary": "100% _real_"}, pub},
		{map[string]any{"title": "Zeta", "views": 25, "author": bob, "category": howto, "tags": []any{tags[1]},
			"blocks": []any{map[string]any{"__component": "shared.quote", "body": "z1"}, map[string]any{"__component": "shared.quote", "title": "t", "body": "z2"}}}, pub},
		{map[string]any{"title": "Draft only", "views": 50, "category": news, "author": ada, "tags": []any{tags[0]}}, draft},
		{map[string]any{"title": "Draft two", "kind": "opinion", "quotes": []any{map[string]any{"body": "dq"}}}, draft},
		{map[string]any{"title": "Eta", "views": 15, "rating": 1.25, "category": news}, pub},
	}
	for _, a := range arts {
		mk("Article", "articles", a.data, a.opt)
	}
	// Published, then changed in the draft only.
	upd("articles", ids["Article"][1], map[string]any{"title": "Beta (edited)", "views": 21, "tags": []any{tags[0], tags[2]}}, draft)
	upd("articles", ids["Article"][2], map[string]any{"summary": "new summary"}, draft)

	c, _ := e.Eng.Route("global")
	if _, err := e.Eng.PutSingle(ctx, engine.AllowAll{}, c, jsonNumbers(map[string]any{"siteName": "Site", "siteDescription": "A blog",
		"favicon": files[1], "defaultSeo": map[string]any{"metaTitle": "Home", "shareImage": files[0]}}), pub); err != nil {
		t.Fatal(err)
	}

	home := mk("Page", "pages", map[string]any{"title": "Home", "code": "home", "body": "welcome", "article": ids["Article"][0],
		"seo": map[string]any{"metaTitle": "home seo"}}, pub)
	upd("pages", home, map[string]any{"title": "Accueil", "body": "bienvenue"}, engine.WriteOptions{Locale: "fr"})
	about := mk("Page", "pages", map[string]any{"title": "About", "code": "about"}, draft)
	upd("pages", about, map[string]any{"title": "À propos"}, engine.WriteOptions{Locale: "fr"})
	mk("Page", "pages", map[string]any{"title": "Contact", "code": "contact", "article": ids["Article"][3]}, engine.WriteOptions{Locale: "fr"})
	mk("Page", "pages", map[string]any{"title": "Plain"}, pub)
	return ids
}

// run sends one query to both servers and describes any difference.
func (p *diffPair) run(t testing.TB, q *genQuery) string {
	body := map[string]any{"query": q.text}
	if q.vars != nil {
		body["variables"] = q.vars
	}
	if q.opName != "" {
		body["operationName"] = q.opName
	}
	j, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	fs, fb := postRaw(t, p.fast.URL, j)
	ss, sb := postRaw(t, p.slow.URL, j)
	if fs == ss && (bytes.Equal(fb, sb) || sameAnswer(fb, sb)) {
		return ""
	}
	return fmt.Sprintf("%s\nvariables: %s\nfast: %d %s\nslow: %d %s", q.text, mustJSON(q.vars), fs, fb, ss, sb)
}

// sameAnswer compares two answers whose bytes differ: data byte for byte,
// errors in any order. graphql-go runs the fields of an object in map
// order, so errors of sibling fields come in no fixed order (the fast
// executor's follow the document).
func sameAnswer(a, b []byte) bool {
	type answer struct {
		Errors     []json.RawMessage `json:"errors"`
		Data       json.RawMessage   `json:"data"`
		Extensions json.RawMessage   `json:"extensions"`
	}
	var x, y answer
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil || len(x.Errors) != len(y.Errors) ||
		!bytes.Equal(x.Data, y.Data) || !bytes.Equal(x.Extensions, y.Extensions) {
		return false
	}
	sortRaw := func(l []json.RawMessage) {
		sort.Slice(l, func(i, j int) bool { return bytes.Compare(l[i], l[j]) < 0 })
	}
	sortRaw(x.Errors)
	sortRaw(y.Errors)
	for i := range x.Errors {
		if !bytes.Equal(x.Errors[i], y.Errors[i]) {
			return false
		}
	}
	return true
}

func postRaw(t testing.TB, url string, body []byte) (int, []byte) {
	res, err := http.Post(url+"/graphql", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, b
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// randomStream is the generator's input for a seed of the table test.
func randomStream(seed uint64, n int) []byte {
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// TestFastExecutorDifferential runs a few hundred generated queries on both
// executors, on SQLite and PostgreSQL.
func TestFastExecutorDifferential(t *testing.T) {
	n := 400
	if testing.Short() {
		n = 100
	}
	if k, err := strconv.Atoi(os.Getenv("STRATUM_DIFF_QUERIES")); err == nil && k > 0 {
		n = k // a longer hunt: STRATUM_DIFF_QUERIES=5000
	}
	testdb.Each(t, func(t *testing.T, db func(testing.TB) string) {
		for _, perms := range []struct {
			name   string
			public []string
			n      int
		}{{"all", nil, n}, {"restricted", diffPublic, n / 4}} {
			t.Run(perms.name, func(t *testing.T) {
				p := newDiffPair(t, db(t), perms.public)
				p.hunt(t, perms.n)
			})
		}
	})
}

// hunt runs n generated queries on both servers.
func (p *diffPair) hunt(t *testing.T, n int) {
	fails := 0
	for i := 0; i < n; i++ {
		q := generate(randomStream(uint64(i), 600), p.ids)
		if d := p.run(t, q); d != "" {
			fails++
			if fails <= 5 {
				t.Errorf("seed %d differs:\n%s", i, d)
			}
		}
	}
	runs := p.fast.Srv.fastRuns.Load()
	t.Logf("%d queries, %d served by the fast executor (%.0f%%), %d differences", n, runs, 100*float64(runs)/float64(n), fails)
	if runs < int64(n)/2 {
		t.Errorf("the fast executor served only %d of %d queries", runs, n)
	}
	if p.slow.Srv.fastRuns.Load() != 0 {
		t.Error("the slow server used the fast executor")
	}
}

// FuzzFastExecutor: go test -run '^$' -fuzz FuzzFastExecutor -fuzztime 120s ./graphql/
// (on SQLite). Add -fuzzminimizetime 3s: each execution is two HTTP
// requests, and the default minute spent minimizing every new input
// leaves little time for fuzzing.
func FuzzFastExecutor(f *testing.F) {
	for i := 0; i < 32; i++ {
		f.Add(randomStream(uint64(i), 600))
	}
	f.Add([]byte{})
	f.Add([]byte{0, 0, 3, 3, 3, 3, 3, 3, 7, 7, 7, 9, 9, 9, 11, 11, 11})
	p := newDiffPair(f, dbSQLite(f), nil)
	f.Fuzz(func(t *testing.T, b []byte) {
		q := generate(b, p.ids)
		if len(q.text) > 4000 {
			// graphql-go's OverlappingFieldsCanBeMerged compares arguments
			// by printing them, pair by pair: a long query with repeated
			// filters can take seconds to validate, and the fuzzer takes
			// the worker for hung.
			t.Skip("long query")
		}
		if d := p.run(t, q); d != "" {
			t.Errorf("executors differ:\n%s", d)
		}
	})
}

// The generator. Every choice reads one byte of the stream (0 once it is
// exhausted, and 0 always picks the smallest option), so any byte string is
// a query and the fuzzer's mutations move between nearby queries.

// gattr is an attribute of a content-type or component as the schema
// shows it. kind: "" scalar, one, many (relations), comp, comps
// (repeatable), zone, media, medias.
type gattr struct {
	name, scalar, kind, target string
}

// gent is a content-type or component.
type gent struct {
	name           string // GraphQL object type
	single, plural string // query fields; "" for a component
	draft, locale  bool
	singleType     bool
	attrs          []gattr
	sorts          []string
}

var genEntities = func() map[string]*gent {
	ts := []gattr{{"createdAt", "DateTime", "", ""}, {"updatedAt", "DateTime", "", ""}, {"publishedAt", "DateTime", "", ""}}
	es := []*gent{
		{name: "Article", single: "article", plural: "articles", draft: true, attrs: append([]gattr{
			{"title", "String", "", ""}, {"slug", "String", "", ""}, {"summary", "String", "", ""}, {"body", "String", "", ""},
			{"content", "JSON", "", ""}, {"contactEmail", "String", "", ""}, {"kind", "Enum", "", ""}, {"views", "Int", "", ""},
			{"shares", "Long", "", ""}, {"rating", "Float", "", ""}, {"price", "Float", "", ""}, {"publishDate", "Date", "", ""},
			{"publishTime", "Time", "", ""}, {"scheduledAt", "DateTime", "", ""}, {"featured", "Boolean", "", ""}, {"metadata", "JSON", "", ""},
			{"cover", "", "media", ""}, {"gallery", "", "medias", ""}, {"author", "", "one", "Author"}, {"category", "", "one", "Category"},
			{"tags", "", "many", "Tag"}, {"seo", "", "comp", "ComponentSharedSeo"}, {"quotes", "", "comps", "ComponentSharedQuote"},
			{"blocks", "", "zone", "ArticleBlocksDynamicZone"}}, ts...),
			sorts: []string{"title", "views", "rating", "kind", "shares", "price", "publishDate", "featured", "createdAt", "slug", "summary"}},
		{name: "Author", single: "author", plural: "authors", attrs: append([]gattr{{"name", "String", "", ""}, {"email", "String", "", ""},
			{"bio", "String", "", ""}, {"avatar", "", "media", ""}, {"articles", "", "many", "Article"}}, ts...),
			sorts: []string{"name", "email", "bio", "createdAt"}},
		{name: "Category", single: "category", plural: "categories", attrs: append([]gattr{{"name", "String", "", ""}, {"slug", "String", "", ""},
			{"description", "String", "", ""}, {"articles", "", "many", "Article"}, {"parent", "", "one", "Category"}}, ts...),
			sorts: []string{"name", "description", "slug", "updatedAt"}},
		{name: "Tag", single: "tag", plural: "tags", attrs: append([]gattr{{"name", "String", "", ""}, {"articles", "", "many", "Article"}}, ts...),
			sorts: []string{"name", "createdAt"}},
		{name: "Global", single: "global", singleType: true, attrs: append([]gattr{{"siteName", "String", "", ""}, {"siteDescription", "String", "", ""},
			{"favicon", "", "media", ""}, {"defaultSeo", "", "comp", "ComponentSharedSeo"}}, ts...)},
		{name: "Page", single: "page", plural: "pages", draft: true, locale: true, attrs: append([]gattr{{"title", "String", "", ""},
			{"code", "Enum", "", ""}, {"body", "String", "", ""}, {"locale", "String", "", ""}, {"seo", "", "comp", "ComponentSharedSeo"},
			{"article", "", "one", "Article"}}, ts...),
			sorts: []string{"title", "code", "locale", "body"}},
		{name: "ComponentSharedSeo", attrs: []gattr{{"metaTitle", "String", "", ""}, {"metaDescription", "String", "", ""}, {"shareImage", "", "media", ""}}},
		{name: "ComponentSharedQuote", attrs: []gattr{{"title", "String", "", ""}, {"body", "String", "", ""}}, sorts: []string{"title", "body", "id"}},
		{name: "ComponentSharedRichText", attrs: []gattr{{"body", "String", "", ""}}},
	}
	m := map[string]*gent{}
	for _, e := range es {
		m[e.name] = e
	}
	return m
}()

// Argument sets of fields.
const (
	gaNone   = iota
	gaColl   // filters, pagination, sort of a relation
	gaTop    // + publicationState and locale
	gaOne    // id, publicationState, locale
	gaComps  // filters, pagination, sort of a repeatable component
	gaMedias // pagination, sort
)

type ofield struct {
	name    string
	obj     string // object or union type; "" for a leaf
	args    int
	target  string // the entity whose arguments the field takes
	wrapped bool   // a list or non-null type
}

var genUnions = map[string][]string{
	"ArticleBlocksDynamicZone": {"ComponentSharedQuote", "ComponentSharedRichText", "ComponentSharedSeo", "Error"},
}

// genObjects is every output object type, leaves first.
var genObjects = func() map[string][]ofield {
	o := map[string][]ofield{
		"ResponseCollectionMeta": {{name: "pagination", obj: "Pagination", wrapped: true}},
		"Pagination":             {{name: "total"}, {name: "page"}, {name: "pageSize"}, {name: "pageCount"}},
		"Error":                  {{name: "code"}, {name: "message"}},
		"UploadFile": {{name: "name"}, {name: "alternativeText"}, {name: "caption"}, {name: "width"}, {name: "height"}, {name: "formats"},
			{name: "hash"}, {name: "ext"}, {name: "mime"}, {name: "size"}, {name: "url"}, {name: "previewUrl"}, {name: "provider"},
			{name: "provider_metadata"}, {name: "createdAt"}, {name: "updatedAt"}},
		"UploadFileEntity":                     {{name: "id"}, {name: "attributes", obj: "UploadFile"}},
		"UploadFileEntityResponse":             {{name: "data", obj: "UploadFileEntity"}},
		"UploadFileRelationResponseCollection": {{name: "data", obj: "UploadFileEntity", wrapped: true}},
	}
	q := []ofield{}
	names := make([]string, 0, len(genEntities))
	for n := range genEntities {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		e := genEntities[n]
		var leaves, objs []ofield
		if e.single == "" {
			leaves = append(leaves, ofield{name: "id"})
		}
		for _, a := range e.attrs {
			switch a.kind {
			case "":
				leaves = append(leaves, ofield{name: a.name})
			case "one":
				objs = append(objs, ofield{name: a.name, obj: a.target + "EntityResponse"})
			case "many":
				objs = append(objs, ofield{name: a.name, obj: a.target + "RelationResponseCollection", args: gaColl, target: a.target})
			case "comp":
				objs = append(objs, ofield{name: a.name, obj: a.target})
			case "comps":
				objs = append(objs, ofield{name: a.name, obj: a.target, args: gaComps, target: a.target, wrapped: true})
			case "zone":
				objs = append(objs, ofield{name: a.name, obj: a.target, wrapped: true})
			case "media":
				objs = append(objs, ofield{name: a.name, obj: "UploadFileEntityResponse"})
			case "medias":
				objs = append(objs, ofield{name: a.name, obj: "UploadFileRelationResponseCollection", args: gaMedias})
			}
		}
		o[n] = append(leaves, objs...)
		if e.single == "" {
			continue
		}
		o[n+"Entity"] = []ofield{{name: "id"}, {name: "attributes", obj: n}}
		o[n+"EntityResponse"] = []ofield{{name: "data", obj: n + "Entity"}}
		if e.singleType {
			q = append(q, ofield{name: e.single, obj: n + "EntityResponse"})
			continue
		}
		o[n+"EntityResponseCollection"] = []ofield{{name: "data", obj: n + "Entity", wrapped: true}, {name: "meta", obj: "ResponseCollectionMeta", wrapped: true}}
		o[n+"RelationResponseCollection"] = []ofield{{name: "data", obj: n + "Entity", wrapped: true}}
		q = append(q, ofield{name: e.plural, obj: n + "EntityResponseCollection", args: gaTop, target: n},
			ofield{name: e.single, obj: n + "EntityResponse", args: gaOne, target: n})
	}
	o["Query"] = q
	return o
}()

type genQuery struct {
	text   string
	vars   map[string]any
	opName string
}

type qgen struct {
	src     []byte
	pos     int
	ids     map[string][]string
	varDefs []string
	vars    map[string]any
	frags   []string            // fragment definitions
	fragsOn map[string][]string // type -> fragment names
	aliases int
	budget  int // fields left
	// wrapped is set in the selection of a field whose type is a list or
	// non-null: there graphql-go's validation (v0.8.1) refuses an inline
	// fragment without a type condition ("objects of type Pagination can
	// never be of type Pagination!"), so the generator writes none.
	wrapped bool
}

// n picks one of k options.
func (g *qgen) n(k int) int {
	if k <= 1 || g.pos >= len(g.src) {
		if g.pos < len(g.src) {
			g.pos++
		}
		return 0
	}
	b := g.src[g.pos]
	g.pos++
	return int(b) % k
}

// chance is true one time in k (never on an exhausted stream).
func (g *qgen) chance(k int) bool { return g.n(k) == 1 }

func generate(src []byte, ids map[string][]string) *genQuery {
	g := &qgen{src: src, ids: ids, vars: map[string]any{}, fragsOn: map[string][]string{}, budget: 60}
	sel := g.sel("Query", 0)
	var b strings.Builder
	out := &genQuery{}
	opName := ""
	if g.chance(3) {
		opName = "Q"
	}
	b.WriteString("query")
	if opName != "" {
		b.WriteString(" " + opName)
	}
	if len(g.varDefs) > 0 {
		if opName == "" { // variables need no name, but test both
			b.WriteString(" ")
		}
		b.WriteString("(" + strings.Join(g.varDefs, ", ") + ")")
	}
	b.WriteString(" " + sel)
	for _, f := range g.frags {
		b.WriteString("\n" + f)
	}
	if opName != "" && g.chance(4) { // a second operation: operationName picks
		b.WriteString("\nquery Other { __typename }")
		out.opName = opName
	}
	out.text = b.String()
	if len(g.vars) > 0 {
		out.vars = g.vars
	}
	return out
}

// sel is a selection set on an object or union type at depth d.
func (g *qgen) sel(tn string, d int) string {
	var items []string
	k := 1 + g.n(4)
	if tn == "Query" {
		k = 1 + g.n(3)
	}
	for i := 0; i < k; i++ {
		var it string
		if members, ok := genUnions[tn]; ok {
			it = g.unionItem(tn, members, d)
		} else {
			it = g.item(tn, d, items)
		}
		items = append(items, it)
	}
	return "{ " + strings.Join(items, " ") + " }"
}

func (g *qgen) unionItem(tn string, members []string, d int) string {
	switch g.n(6) {
	case 1:
		return g.alias() + "__typename"
	case 2:
		return "..." + g.fragment(tn, d) + g.dirs()
	case 3:
		m := members[g.n(len(members))]
		return "..." + g.fragment(m, d) + g.dirs()
	case 4:
		return "... on " + tn + g.dirs() + " " + g.sel(tn, d)
	default:
		m := members[g.n(len(members))]
		return "... on " + m + g.dirs() + " " + g.sel(m, d)
	}
}

func (g *qgen) item(tn string, d int, prev []string) string {
	switch c := g.n(16); {
	case c == 11:
		return g.alias() + "__typename" + g.dirs()
	case c == 12:
		if !g.wrapped && g.chance(2) {
			return "..." + g.dirs() + " " + g.sel(tn, d)
		}
		return "... on " + tn + g.dirs() + " " + g.sel(tn, d)
	case c == 13:
		return "..." + g.fragment(tn, d) + g.dirs()
	case c == 14 && len(prev) > 0:
		return prev[g.n(len(prev))] // the same field again: merged
	default:
		return g.field(tn, d)
	}
}

func (g *qgen) alias() string {
	if !g.chance(4) {
		return ""
	}
	g.aliases++
	return fmt.Sprintf("a%d: ", g.aliases)
}

// dirs is @include/@skip, literal or through a variable, or nothing.
func (g *qgen) dirs() string {
	if !g.chance(5) {
		return ""
	}
	name := []string{"include", "skip"}[g.n(2)]
	var v string
	switch g.n(3) {
	case 0:
		v = []string{"true", "false"}[g.n(2)]
	case 1:
		v = g.variable("Boolean!", g.n(2) == 1, false)
	default:
		v = g.variableDefault("Boolean", []string{"true", "false"}[g.n(2)])
	}
	s := " @" + name + "(if: " + v + ")"
	if g.chance(6) {
		s += g.dirs()
	}
	return s
}

// variable defines $vN of type typ with value v (left out when omit).
func (g *qgen) variable(typ string, v any, omit bool) string {
	name := fmt.Sprintf("v%d", len(g.varDefs))
	g.varDefs = append(g.varDefs, "$"+name+": "+typ)
	if !omit {
		g.vars[name] = plain(v)
	}
	return "$" + name
}

// variableDefault defines $vN with a default value and gives no value.
func (g *qgen) variableDefault(typ, def string) string {
	name := fmt.Sprintf("v%d", len(g.varDefs))
	g.varDefs = append(g.varDefs, "$"+name+": "+typ+" = "+def)
	return "$" + name
}

// fragment names a fragment on tn, new or one made before.
func (g *qgen) fragment(tn string, d int) string {
	if have := g.fragsOn[tn]; len(have) > 0 && g.chance(2) {
		return have[g.n(len(have))]
	}
	name := fmt.Sprintf("F%d", len(g.frags))
	g.frags = append(g.frags, "") // reserve the name
	i := len(g.frags) - 1
	w := g.wrapped
	g.wrapped = false
	g.frags[i] = "fragment " + name + " on " + tn + " " + g.sel(tn, d)
	g.wrapped = w
	g.fragsOn[tn] = append(g.fragsOn[tn], name)
	return name
}

func (g *qgen) field(tn string, d int) string {
	fs := genObjects[tn]
	f := fs[g.n(len(fs))]
	if f.obj != "" && (d >= 7 || g.budget <= 0) {
		// Deep enough: a leaf, or the first field whose type is.
		f = fs[0]
		if f.obj != "" {
			return g.alias() + "__typename"
		}
	}
	g.budget--
	alias := g.alias()
	args := g.args(f)
	if args != "" && alias == "" { // fields with arguments differ: an alias keeps them apart
		g.aliases++
		alias = fmt.Sprintf("a%d: ", g.aliases)
	}
	s := alias + f.name + args + g.dirs()
	if f.obj != "" {
		w := g.wrapped
		g.wrapped = f.wrapped
		s += " " + g.sel(f.obj, d+1)
		g.wrapped = w
	}
	return s
}

// arg renders an argument's value, inline or as a variable of typ.
func (g *qgen) arg(name, typ string, v any) string {
	switch g.n(6) {
	case 1:
		return name + ": " + g.variable(typ, v, false)
	case 2:
		if v != nil {
			return name + ": " + g.variableDefault(typ, lit(v))
		}
	}
	return name + ": " + lit(v)
}

func (g *qgen) args(f ofield) string {
	if f.args == gaNone {
		return ""
	}
	var as []string
	e := genEntities[f.target]
	if f.args == gaOne {
		if g.n(4) != 0 {
			as = append(as, g.arg("id", "ID", g.id(f.target)))
		}
	}
	if f.args == gaColl || f.args == gaTop || f.args == gaComps {
		if g.chance(2) {
			as = append(as, g.arg("filters", f.target+"FiltersInput", g.filter(f.target, 0)))
		}
	}
	if f.args != gaOne && g.chance(3) {
		as = append(as, g.arg("pagination", "PaginationArg", g.pagination()))
	}
	if f.args != gaOne && g.chance(3) {
		as = append(as, g.arg("sort", "[String]", g.sort(e)))
	}
	if (f.args == gaTop || f.args == gaOne) && e.draft && g.chance(3) {
		var v any = enumv([]string{"LIVE", "PREVIEW"}[g.n(2)])
		if g.chance(16) {
			v = nil
		}
		as = append(as, g.arg("publicationState", "PublicationState", v))
	}
	if (f.args == gaTop || f.args == gaOne) && e.locale && g.chance(2) {
		as = append(as, g.arg("locale", "I18NLocaleCode", []any{"en", "fr", "*", "de", nil}[g.n(5)]))
	}
	if len(as) == 0 {
		return ""
	}
	// Any order: arguments are named.
	for i := len(as) - 1; i > 0; i-- {
		j := g.n(i + 1)
		as[i], as[j] = as[j], as[i]
	}
	return "(" + strings.Join(as, ", ") + ")"
}

func (g *qgen) id(typ string) any {
	ids := g.ids[typ]
	switch c := g.n(8); {
	case c == 6:
		return "nosuchdocumentidxxxxxxxx"
	case c == 7:
		all := []string{}
		for _, l := range g.ids {
			all = append(all, l...)
		}
		if len(all) > 0 {
			return all[g.n(len(all))]
		}
	case len(ids) > 0:
		return ids[g.n(len(ids))]
	}
	return "x"
}

func (g *qgen) pagination() any {
	m := map[string]any{}
	vals := []any{1, 2, 0, 3, 5, -1, 25, 200, nil}
	switch g.n(5) {
	case 0:
		m["page"] = vals[g.n(len(vals))]
		m["pageSize"] = vals[g.n(len(vals))]
	case 1:
		m["start"] = vals[g.n(len(vals))]
		m["limit"] = vals[g.n(len(vals))]
	case 2:
		m["pageSize"] = vals[g.n(len(vals))]
	case 3:
		m["limit"] = vals[g.n(len(vals))]
	default: // mixed: an error
		m["page"] = vals[g.n(len(vals))]
		m["limit"] = vals[g.n(len(vals))]
	}
	if g.chance(20) {
		return nil
	}
	return m
}

func (g *qgen) sort(e *gent) any {
	one := func() string {
		f := "nosuch"
		if e != nil && len(e.sorts) > 0 && !g.chance(12) {
			f = e.sorts[g.n(len(e.sorts))]
		}
		if e != nil && e.name == "Article" && g.chance(8) {
			f = []string{"category.name", "author.name"}[g.n(2)]
		}
		return f + []string{"", ":asc", ":desc", "", ":DESC", ":asc", ":desc", ":up"}[g.n(8)]
	}
	switch g.n(3) {
	case 0:
		return one()
	case 1:
		l := []any{}
		for k := 1 + g.n(3); k > 0; k-- {
			l = append(l, one())
		}
		return l
	}
	return []any{one()}
}

// filter is a filters input object for an entity or component.
func (g *qgen) filter(tn string, d int) any {
	e := genEntities[tn]
	m := map[string]any{}
	var scalars, nested []gattr
	if e.single != "" {
		scalars = append(scalars, gattr{"id", "ID", "", ""})
	}
	for _, a := range e.attrs {
		switch a.kind {
		case "":
			scalars = append(scalars, a)
		case "one", "many", "comp", "comps":
			nested = append(nested, a)
		}
	}
	for k := 1 + g.n(2); k > 0; k-- {
		switch c := g.n(10); {
		case c == 7 && d < 2:
			l := []any{}
			for j := 1 + g.n(3); j > 0; j-- {
				l = append(l, g.filter(tn, d+1))
			}
			m[[]string{"and", "or"}[g.n(2)]] = l
		case c == 8 && d < 2:
			m["not"] = g.filter(tn, d+1)
		case c == 9 && d < 2 && len(nested) > 0:
			a := nested[g.n(len(nested))]
			m[a.name] = g.filter(a.target, d+1)
		default:
			a := scalars[g.n(len(scalars))]
			m[a.name] = g.scalarFilter(a, tn, 0)
		}
	}
	if g.chance(24) {
		return nil
	}
	return m
}

var genOps = map[string][]string{
	"String": {"eq", "eqi", "ne", "nei", "contains", "containsi", "notContains", "notContainsi", "startsWith", "endsWith",
		"in", "notIn", "lt", "lte", "gt", "gte", "between", "null", "notNull", "not", "or", "and"},
	"Number":  {"eq", "ne", "lt", "lte", "gt", "gte", "in", "notIn", "between", "null", "notNull", "not"},
	"Boolean": {"eq", "ne", "null", "notNull", "not", "in"},
	"JSON":    {"eq", "null", "notNull", "contains"},
	"ID":      {"eq", "ne", "in", "notIn", "null", "notNull", "startsWith", "contains"},
}

func (g *qgen) scalarFilter(a gattr, owner string, d int) any {
	kind := a.scalar
	switch kind {
	case "Enum", "Date", "DateTime", "Time":
		kind = "String"
	case "Int", "Float", "Long":
		kind = "Number"
	}
	ops := genOps[kind]
	op := ops[g.n(len(ops))]
	var v any
	switch op {
	case "in", "notIn", "between", "or", "and":
		l := []any{}
		for k := g.n(4); k > 0; k-- {
			l = append(l, g.value(a, owner))
		}
		if op == "between" && g.n(4) != 0 {
			l = []any{g.value(a, owner), g.value(a, owner)}
		}
		v = l
	case "null", "notNull":
		v = g.n(2) == 1
	case "not":
		if d < 2 {
			v = g.scalarFilter(a, owner, d+1)
		} else {
			v = map[string]any{"eq": g.value(a, owner)}
		}
	default:
		v = g.value(a, owner)
	}
	m := map[string]any{op: v}
	if g.chance(6) {
		m["ne"] = g.value(a, owner)
	}
	return m
}

func (g *qgen) value(a gattr, owner string) any {
	pick := func(l ...any) any { return l[g.n(len(l))] }
	switch a.scalar {
	case "String":
		return pick("Alpha", "a", "e", "Beta", "%", "_", "", "news", "go", "Ada", "É", "Zeta é", "O'Brien", "home", "Accueil", "q1", "first", "x\"y\\z", "howto", nil)
	case "Enum":
		return pick("news", "tutorial", "opinion", "home", "about", "other")
	case "Int":
		return pick(10, 0, 20, 25, -1, 2147483647, 15, nil)
	case "Float":
		return pick(2.5, 0, 3, 4.5, -1, 1.25, 9.99, nil)
	case "Long":
		return pick("9007199254740993", 5, "0", -5, "12x")
	case "Boolean":
		return pick(true, false, nil)
	case "Date":
		return pick("2024-05-01", "2024-01-15", "2023-12-31", "not a date")
	case "DateTime":
		return pick("2024-01-01T00:00:00.000Z", "2100-01-01T00:00:00Z", "2000-01-01", "bad")
	case "Time":
		return pick("10:30:00", "08:00:00.000", "23:59:59", "25:00")
	case "JSON":
		return pick(map[string]any{"a": 1}, "x", 1, []any{1, 2, 3})
	case "ID":
		return g.id(owner)
	}
	return nil
}

// enumv is an enum value: bare in a literal, a string in variables.
type enumv string

// lit renders a value as a GraphQL literal.
func lit(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case enumv:
		return string(x)
	case string:
		b, _ := json.Marshal(x)
		return string(b)
	case []any:
		parts := make([]string, len(x))
		for i, it := range x {
			parts[i] = lit(it)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = k + ": " + lit(x[k])
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return fmt.Sprint(v)
}

// plain is a value as JSON variables carry it.
func plain(v any) any {
	switch x := v.(type) {
	case enumv:
		return string(x)
	case []any:
		out := make([]any, len(x))
		for i, it := range x {
			out[i] = plain(it)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, it := range x {
			out[k] = plain(it)
		}
		return out
	}
	return v
}
