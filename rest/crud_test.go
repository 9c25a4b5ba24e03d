package rest_test

import (
	"net/http"
	"regexp"
	"testing"

	"github.com/stratum-cms/stratum/internal/testenv"
)

// open starts the blog example with every content action public.
func open(t *testing.T, db func(testing.TB) string) *testenv.Env {
	return testenv.Start(t, db(t), testenv.Options{Public: testenv.AllActions(t, "")})
}

var docIDShape = regexp.MustCompile(`^[a-z][a-z0-9]{23}$`)

func TestCollectionCRUD(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := open(t, db)
		res := e.Do("POST", "/api/authors", map[string]any{"data": map[string]any{"name": "Ada", "email": "ada@example.com"}})
		if res.Status != http.StatusCreated {
			t.Fatalf("create: %d %s", res.Status, res.Body)
		}
		testenv.Golden(t, "author_created", res.Body)
		doc := res.Data()
		id, _ := doc["documentId"].(string)
		if !docIDShape.MatchString(id) {
			t.Fatalf("documentId %q is not 24 lowercase letters and digits", id)
		}
		if doc["publishedAt"] == nil {
			t.Fatal("a type without draft & publish has publishedAt set")
		}
		if _, ok := doc["articles"]; ok {
			t.Fatal("relations are not returned unless populated")
		}

		got := e.Do("GET", "/api/authors/"+id, nil)
		if got.Status != 200 || got.Data()["name"] != "Ada" {
			t.Fatalf("find one: %d %s", got.Status, got.Body)
		}
		if meta, ok := got.JSON["meta"].(map[string]any); !ok || len(meta) != 0 {
			t.Fatalf("single-document meta must be {}: %s", got.Body)
		}

		// PUT is partial: bio is set, name is kept; null clears.
		upd := e.Do("PUT", "/api/authors/"+id, map[string]any{"data": map[string]any{"bio": "Analyst"}})
		if upd.Status != 200 || upd.Data()["name"] != "Ada" || upd.Data()["bio"] != "Analyst" {
			t.Fatalf("partial update: %d %s", upd.Status, upd.Body)
		}
		clr := e.Do("PUT", "/api/authors/"+id, map[string]any{"data": map[string]any{"bio": nil}})
		if clr.Status != 200 || clr.Data()["bio"] != nil {
			t.Fatalf("null clears: %d %s", clr.Status, clr.Body)
		}

		list := e.Do("GET", "/api/authors", nil)
		if list.Status != 200 || len(list.List()) != 1 {
			t.Fatalf("list: %d %s", list.Status, list.Body)
		}
		testenv.Golden(t, "author_list", list.Body)

		if del := e.Do("DELETE", "/api/authors/"+id, nil); del.Status != http.StatusNoContent || len(del.Body) != 0 {
			t.Fatalf("delete: %d %s", del.Status, del.Body)
		}
		if again := e.Do("GET", "/api/authors/"+id, nil); again.Status != 404 || again.ErrorName() != "NotFoundError" {
			t.Fatalf("deleted document still found: %d %s", again.Status, again.Body)
		}
		// Deliberate difference: DELETE of an unknown documentId is a 404.
		if del := e.Do("DELETE", "/api/authors/"+id, nil); del.Status != 404 {
			t.Fatalf("delete unknown: %d %s", del.Status, del.Body)
		}
		if put := e.Do("PUT", "/api/authors/nope", map[string]any{"data": map[string]any{"name": "x"}}); put.Status != 404 {
			t.Fatalf("update unknown: %d %s", put.Status, put.Body)
		}
	})
}

func TestDraftAndPublish(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := open(t, db)
		draft := e.Do("POST", "/api/articles?status=draft", map[string]any{"data": map[string]any{"summary": "no title yet"}})
		if draft.Status != 201 || draft.Data()["publishedAt"] != nil {
			t.Fatalf("a draft may miss required fields and has publishedAt null: %d %s", draft.Status, draft.Body)
		}
		id := draft.Data()["documentId"].(string)
		if pub := e.Do("GET", "/api/articles/"+id, nil); pub.Status != 404 {
			t.Fatalf("a draft is not in the published view: %d", pub.Status)
		}
		if d := e.Do("GET", "/api/articles/"+id+"?status=draft", nil); d.Status != 200 || d.Data()["summary"] != "no title yet" {
			t.Fatalf("draft read: %d %s", d.Status, d.Body)
		}
		// Publishing checks required fields.
		bad := e.Do("PUT", "/api/articles/"+id, map[string]any{"data": map[string]any{"summary": "still none"}})
		if bad.Status != 400 || bad.ErrorName() != "ValidationError" || bad.ErrorMessage() != "title must be defined." {
			t.Fatalf("publish without title: %d %s", bad.Status, bad.Body)
		}
		ok := e.Do("PUT", "/api/articles/"+id, map[string]any{"data": map[string]any{"title": "Hello World"}})
		if ok.Status != 200 || ok.Data()["publishedAt"] == nil || ok.Data()["slug"] != "hello-world" {
			t.Fatalf("publish: %d %s", ok.Status, ok.Body)
		}
		// A draft-only change leaves the published version as it was.
		e.Do("PUT", "/api/articles/"+id+"?status=draft", map[string]any{"data": map[string]any{"title": "Hello again"}})
		if pub := e.Do("GET", "/api/articles/"+id, nil); pub.Data()["title"] != "Hello World" {
			t.Fatalf("published changed by a draft update: %s", pub.Body)
		}
		if d := e.Do("GET", "/api/articles/"+id+"?status=draft", nil); d.Data()["title"] != "Hello again" || d.Data()["publishedAt"] != nil {
			t.Fatalf("draft after draft update: %s", d.Body)
		}
		// Lists: published by default, every document's draft with status=draft.
		e.Do("POST", "/api/articles?status=draft", map[string]any{"data": map[string]any{"title": "Second"}})
		if l := e.Do("GET", "/api/articles", nil); len(l.List()) != 1 {
			t.Fatalf("published list: %s", l.Body)
		}
		if l := e.Do("GET", "/api/articles?status=draft", nil); len(l.List()) != 2 {
			t.Fatalf("draft list: %s", l.Body)
		}
		// publishedAt in a body is ignored, not an error.
		p := e.Do("POST", "/api/articles?status=draft", map[string]any{"data": map[string]any{"title": "T", "publishedAt": "2020-01-01T00:00:00.000Z"}})
		if p.Status != 201 || p.Data()["publishedAt"] != nil {
			t.Fatalf("publishedAt in body: %d %s", p.Status, p.Body)
		}
		// Delete removes both versions.
		if d := e.Do("DELETE", "/api/articles/"+id, nil); d.Status != 204 {
			t.Fatalf("delete: %d", d.Status)
		}
		if d := e.Do("GET", "/api/articles/"+id+"?status=draft", nil); d.Status != 404 {
			t.Fatalf("draft survived delete: %d", d.Status)
		}
	})
}

func TestSingleType(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := open(t, db)
		if r := e.Do("GET", "/api/global", nil); r.Status != 404 || r.ErrorName() != "NotFoundError" {
			t.Fatalf("empty single type: %d %s", r.Status, r.Body)
		}
		r := e.Do("PUT", "/api/global", map[string]any{"data": map[string]any{"siteName": "Stratum"}})
		if r.Status != 200 || r.Data()["siteName"] != "Stratum" {
			t.Fatalf("create by PUT: %d %s", r.Status, r.Body)
		}
		id := r.Data()["documentId"]
		r = e.Do("PUT", "/api/global", map[string]any{"data": map[string]any{"siteDescription": "Fast"}})
		if r.Status != 200 || r.Data()["documentId"] != id || r.Data()["siteName"] != "Stratum" {
			t.Fatalf("update by PUT keeps the one document: %d %s", r.Status, r.Body)
		}
		testenv.Golden(t, "global", e.Do("GET", "/api/global", nil).Body)
		if r := e.Do("POST", "/api/global", map[string]any{"data": map[string]any{}}); r.Status != 405 {
			t.Fatalf("POST on a single type: %d %s", r.Status, r.Body)
		}
		if r := e.Do("GET", "/api/globals", nil); r.Status != 404 {
			t.Fatalf("single type by plural name: %d", r.Status)
		}
		if r := e.Do("DELETE", "/api/global", nil); r.Status != 204 {
			t.Fatalf("delete: %d %s", r.Status, r.Body)
		}
		if r := e.Do("GET", "/api/global", nil); r.Status != 404 {
			t.Fatalf("after delete: %d", r.Status)
		}
	})
}

func TestResponseFormatV4(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := open(t, db)
		e.Do("POST", "/api/tags", map[string]any{"data": map[string]any{"name": "go"}})
		r := e.Do("GET", "/api/tags", nil, "Strapi-Response-Format", "v4")
		if r.Status != 200 {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
		testenv.Golden(t, "tags_v4", r.Body)
		first := r.List()[0]
		attrs, ok := first["attributes"].(map[string]any)
		if !ok || attrs["name"] != "go" || first["name"] != nil {
			t.Fatalf("v4 shape: %s", r.Body)
		}
	})
}

func TestPrivateByDefault(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		// Only finding tags is public.
		e := testenv.Start(t, db(t), testenv.Options{Public: []string{"api::tag.tag.find"}})
		cases := []struct {
			method, path string
			body         any
			want         int
		}{
			{"GET", "/api/tags", nil, 200},
			{"GET", "/api/tags/abc", nil, 403},
			{"POST", "/api/tags", map[string]any{"data": map[string]any{"name": "x"}}, 403},
			{"PUT", "/api/tags/abc", map[string]any{"data": map[string]any{"name": "x"}}, 403},
			{"DELETE", "/api/tags/abc", nil, 403},
			{"GET", "/api/articles", nil, 403},
			{"GET", "/api/global", nil, 403},
			{"PUT", "/api/global", map[string]any{"data": map[string]any{"siteName": "x"}}, 403},
			{"GET", "/api/nothing-here", nil, 404},
		}
		for _, c := range cases {
			r := e.Do(c.method, c.path, c.body)
			if r.Status != c.want {
				t.Errorf("%s %s: %d, want %d (%s)", c.method, c.path, r.Status, c.want, r.Body)
			}
			if c.want == 403 && (r.ErrorName() != "ForbiddenError" || r.JSON["data"] != nil) {
				t.Errorf("%s %s: forbidden body %s", c.method, c.path, r.Body)
			}
		}
		// Credentials nobody issued are a 401, never a fall back to Public.
		r := e.Do("GET", "/api/tags", nil, "Authorization", "Bearer not-a-token")
		if r.Status != 401 || r.ErrorName() != "UnauthorizedError" {
			t.Fatalf("unknown token: %d %s", r.Status, r.Body)
		}
	})
}

// POST and PUT answer with the request's fields and populate, as Strapi does.
func TestWritesHonourFieldsAndPopulate(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := testenv.Start(t, db(t), testenv.Options{Public: []string{"api::article.article.create", "api::article.article.update",
			"api::author.author.create", "api::author.author.find"}})
		author := e.Do("POST", "/api/authors", map[string]any{"data": map[string]any{"name": "Ann", "email": "ann@example.com"}}).Data()
		r := e.Do("POST", "/api/articles?populate=author&fields[0]=title", map[string]any{"data": map[string]any{"title": "T", "author": author["documentId"]}})
		d := r.Data()
		a, _ := d["author"].(map[string]any)
		if r.Status != 201 || a["name"] != "Ann" || d["title"] != "T" || d["slug"] != nil {
			t.Fatalf("create with fields and populate: %d %s", r.Status, r.Body)
		}
		r = e.Do("PUT", "/api/articles/"+d["documentId"].(string)+"?fields[0]=summary&status=draft", map[string]any{"data": map[string]any{"summary": "S"}})
		if d := r.Data(); r.Status != 200 || d["summary"] != "S" || d["title"] != nil || d["publishedAt"] != nil {
			t.Fatalf("update with fields: %d %s", r.Status, r.Body)
		}
		// A relation the writer may not read stays out, as in reads.
		noRead := testenv.Start(t, db(t), testenv.Options{Public: []string{"api::article.article.create", "api::author.author.create"}})
		au := noRead.Do("POST", "/api/authors", map[string]any{"data": map[string]any{"name": "Bo", "email": "bo@example.com"}}).Data()
		r = noRead.Do("POST", "/api/articles?populate=author", map[string]any{"data": map[string]any{"title": "U"}})
		if _, ok := r.Data()["author"]; r.Status != 201 || ok || au == nil {
			t.Fatalf("create without find on authors: %d %s", r.Status, r.Body)
		}
	})
}
