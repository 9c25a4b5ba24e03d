package rest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stratum-cms/stratum/internal/testenv"
)

// TestAttributeValidation sends one bad value per attribute rule and checks
// Strapi's ValidationError shape, the path, and that nothing was written.
func TestAttributeValidation(t *testing.T) {
	long := strings.Repeat("x", 121)
	cases := []struct {
		name  string
		field string
		value any
		msg   string
	}{
		{"string type", "title", 12, "title must be a `string` type, but the final value was: `12`."},
		{"maxLength", "title", long, "title must be at most 120 characters"},
		{"text maxLength", "summary", strings.Repeat("y", 501), "summary must be at most 500 characters"},
		{"email", "contactEmail", "not-an-email", "contactEmail must be a valid email"},
		{"email empty", "contactEmail", "", "contactEmail cannot be empty"},
		{"uid format", "slug", "has spaces", `slug must match the following: "/^[A-Za-z0-9-_.~]*$/"`},
		{"enumeration", "kind", "gossip", "kind must be one of the following values: news, tutorial, opinion, "},
		{"integer type", "views", "abc", "views must be a `number` type, but the final value was: `NaN` (cast from the value `\"abc\"`)."},
		{"integer fraction", "views", 1.5, "views must be an integer"},
		{"integer min", "views", -1, "views must be greater than or equal to 0"},
		{"biginteger", "shares", "12x", "shares must be an integer"},
		{"float max", "rating", 6, "rating must be less than or equal to 5"},
		{"float type", "rating", true, "rating must be a `number` type, but the final value was: `NaN` (cast from the value `true`)."},
		{"decimal", "price", "cheap", "price must be a `number` type, but the final value was: `NaN` (cast from the value `\"cheap\"`)."},
		{"date format", "publishDate", "2024-13-40", "Invalid format, expected yyyy-MM-dd"},
		{"date", "publishDate", "2023-02-30", "Invalid date"},
		{"time", "publishTime", "25:00", "Invalid time format, expected HH:mm:ss.SSS"},
		{"time type", "publishTime", 830, "Expected a string, got a number"},
		{"datetime", "scheduledAt", "yesterday", "Invalid format, expected a timestamp or an ISO date"},
		{"boolean", "featured", "maybe", "featured must be a `boolean` type, but the final value was: `\"maybe\"`."},
		{"blocks", "content", "plain text", "array of blocks"},
		{"blocks item", "content", []any{map[string]any{"children": []any{}}}, "type"},
		{"component object", "seo", "x", "seo must be a `object` type, but the final value was: `\"x\"`."},
		{"repeatable array", "quotes", map[string]any{"body": "q"}, "quotes must be a `array` type, but the final value was: `{\n  \"body\": \"\\\"q\\\"\"\n}`."},
		{"repeatable null item", "quotes", []any{nil}, "quotes[0] cannot be null."},
		{"repeatable item type", "quotes", []any{"q"}, "quotes[0] must be a `object` type, but the final value was: `\"q\"`."},
		{"component required field", "seo", map[string]any{"metaDescription": "d"}, "seo.metaTitle must be defined."},
		{"repeatable required field", "quotes", []any{map[string]any{}}, "quotes[0].body must be defined."},
		{"zone required field", "blocks", []any{map[string]any{"__component": "shared.quote"}}, "blocks[0].body must be defined."},
		{"repeatable max", "quotes", quotes(11), "quotes field must have less than or equal to 10 items"},
		{"zone unknown component", "blocks", []any{map[string]any{"__component": "shared.nope"}}, "blocks[0].__component must be one of the following values: shared.quote, shared.rich-text, shared.seo"},
		{"zone no component", "blocks", []any{map[string]any{"body": "q"}}, "blocks[0].__component is a required field"},
		{"relation unknown target", "author", "zzzzzzzzzzzzzzzzzzzzzzzz", "not found"},
		{"relation bad reference", "tags", []any{true}, "invalid relation reference"},
	}
	// details.errors[].path is an array of keys, item indexes as strings.
	yupPaths := map[string][]string{
		"seo.metaTitle must be defined.":  {"seo", "metaTitle"},
		"quotes[0].body must be defined.": {"quotes", "0", "body"},
		"blocks[0].body must be defined.": {"blocks", "0", "body"},
	}
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := open(t, db)
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				data := map[string]any{"title": "Valid", c.field: c.value}
				r := e.Do("POST", "/api/articles", map[string]any{"data": data})
				if r.Status != 400 || r.ErrorName() != "ValidationError" {
					t.Fatalf("%d %s", r.Status, r.Body)
				}
				// One error: a refused value is not also reported missing.
				errs := r.JSON["error"].(map[string]any)["details"].(map[string]any)["errors"].([]any)
				first := errs[0].(map[string]any)
				if msg, _ := first["message"].(string); len(errs) != 1 || !strings.Contains(msg, c.msg) || r.ErrorMessage() != msg {
					t.Fatalf("want one error with %q: %s", c.msg, r.Body)
				}
				path := first["path"].([]any)
				if path[0] != c.field {
					t.Fatalf("path %v, want %s first", path, c.field)
				}
				if want, ok := yupPaths[c.msg]; ok && fmt.Sprint(path) != fmt.Sprint(want) {
					t.Fatalf("path %v, want %v", path, want)
				}
			})
		}
		if l := e.Do("GET", "/api/articles?status=draft", nil); len(l.List()) != 0 {
			t.Fatalf("a refused write left documents: %s", l.Body)
		}
	})
}

func quotes(n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = map[string]any{"body": "q"}
	}
	return out
}

func TestAttributeValuesStoredAndReturned(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := open(t, db)
		data := map[string]any{
			"title": "All Types", "summary": "s", "body": "# md", "contactEmail": "a@b.co",
			"content":     []any{map[string]any{"type": "paragraph", "children": []any{map[string]any{"type": "text", "text": "hi"}}}},
			"views":       "12", // numeric strings are accepted, as Strapi does
			"shares":      "9007199254740993",
			"rating":      4.5,
			"price":       "19.99",
			"publishDate": "2024-02-29", "publishTime": "08:30", "scheduledAt": "2024-03-01T10:00:00+02:00",
			"featured": "true", "metadata": map[string]any{"nested": []any{1, "two"}},
			"secretNote": "hidden",
		}
		r := e.Do("POST", "/api/articles", map[string]any{"data": data})
		if r.Status != 201 {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
		// A time of day reads back as Strapi's column gives it on each database.
		tod := map[string]string{"sqlite": "08:30:00.000", "postgres": "08:30:00"}[e.Store.Dialect()]
		testenv.Golden(t, "article_all_types", bytes.Replace(r.Body, []byte(`"publishTime":"`+tod+`"`), []byte(`"publishTime":"<time of day>"`), 1))
		d := r.Data()
		checks := map[string]any{"views": 12.0, "shares": "9007199254740993", "publishTime": tod,
			"scheduledAt": "2024-03-01T08:00:00.000Z", "featured": true, "kind": "news", "slug": "all-types"}
		for k, want := range checks {
			if d[k] != want {
				t.Errorf("%s = %#v, want %#v", k, d[k], want)
			}
		}
		if _, ok := d["secretNote"]; ok {
			t.Error("private attribute returned")
		}
		// The private value is kept: a fields selection cannot reach it either.
		if r := e.Do("GET", "/api/articles?fields=secretNote", nil); r.Status != 400 {
			t.Errorf("private field selectable: %d %s", r.Status, r.Body)
		}
	})
}

func TestUniqueAndUID(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := open(t, db)
		if r := e.Do("POST", "/api/categories", map[string]any{"data": map[string]any{"name": "Go"}}); r.Status != 201 {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
		r := e.Do("POST", "/api/categories", map[string]any{"data": map[string]any{"name": "Go"}})
		if r.Status != 400 || !strings.Contains(string(r.Body), "This attribute must be unique") {
			t.Fatalf("duplicate unique: %d %s", r.Status, r.Body)
		}
		// uid derived from targetField stays unique.
		a := e.Do("POST", "/api/articles", map[string]any{"data": map[string]any{"title": "Same Title"}})
		b := e.Do("POST", "/api/articles", map[string]any{"data": map[string]any{"title": "Same Title"}})
		if a.Data()["slug"] != "same-title" || b.Data()["slug"] != "same-title-1" {
			t.Fatalf("uids: %v, %v", a.Data()["slug"], b.Data()["slug"])
		}
		// Drafts are not checked for uniqueness (Strapi), publishing is.
		d := e.Do("POST", "/api/authors", map[string]any{"data": map[string]any{"name": "A", "email": "x@y.z"}})
		if d.Status != 201 {
			t.Fatalf("%d %s", d.Status, d.Body)
		}
		dup := e.Do("POST", "/api/authors", map[string]any{"data": map[string]any{"name": "B", "email": "x@y.z"}})
		if dup.Status != 400 {
			t.Fatalf("unique email: %d %s", dup.Status, dup.Body)
		}
	})
}

func TestConcurrentUniqueWrites(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := open(t, db)
		const n = 8
		codes := make(chan int, n)
		for i := 0; i < n; i++ {
			go func() {
				r := e.Do("POST", "/api/tags", map[string]any{"data": map[string]any{"name": "race"}})
				codes <- r.Status
			}()
		}
		created := 0
		for i := 0; i < n; i++ {
			switch c := <-codes; c {
			case 201:
				created++
			case 400:
			default:
				t.Errorf("unexpected status %d", c)
			}
		}
		if created != 1 {
			t.Fatalf("%d documents created with one unique name", created)
		}
		r := e.Do("GET", "/api/tags?filters[name][$eq]=race", nil)
		if n := len(r.List()); n != 1 {
			t.Fatalf("%d stored", n)
		}
	})
}

func TestComponentsAndZones(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := open(t, db)
		r := e.Do("POST", "/api/articles", map[string]any{"data": map[string]any{
			"title":  "With parts",
			"seo":    map[string]any{"metaTitle": "SEO"},
			"quotes": []any{map[string]any{"body": "one"}, map[string]any{"body": "two"}},
			"blocks": []any{map[string]any{"__component": "shared.quote", "body": "q"}, map[string]any{"__component": "shared.rich-text", "body": "r"}},
		}})
		if r.Status != 201 {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
		id := r.Data()["documentId"].(string)
		got := e.Do("GET", "/api/articles/"+id+"?populate[seo]=true&populate[quotes]=true&populate[blocks]=*", nil)
		if got.Status != 200 {
			t.Fatalf("%d %s", got.Status, got.Body)
		}
		testenv.Golden(t, "article_components", got.Body)
		quotes := got.Data()["quotes"].([]any)
		firstID := quotes[0].(map[string]any)["id"]
		// Update the first quote in place by id, drop the second, add a new one.
		upd := e.Do("PUT", "/api/articles/"+id, map[string]any{"data": map[string]any{
			"quotes": []any{map[string]any{"id": firstID, "title": "kept"}, map[string]any{"body": "three"}},
		}})
		if upd.Status != 200 {
			t.Fatalf("%d %s", upd.Status, upd.Body)
		}
		got = e.Do("GET", "/api/articles/"+id+"?populate=quotes", nil)
		q := got.Data()["quotes"].([]any)
		q0, q1 := q[0].(map[string]any), q[1].(map[string]any)
		if len(q) != 2 || q0["id"] != firstID || q0["body"] != "one" || q0["title"] != "kept" || q1["body"] != "three" || q1["id"] == firstID {
			t.Fatalf("component update by id: %s", got.Body)
		}
		bad := e.Do("PUT", "/api/articles/"+id, map[string]any{"data": map[string]any{"quotes": []any{map[string]any{"id": 9999, "body": "x"}}}})
		if bad.Status != 400 {
			t.Fatalf("unknown component id: %d %s", bad.Status, bad.Body)
		}
		// Not populated: components are absent.
		plain := e.Do("GET", "/api/articles/"+id, nil)
		if _, ok := plain.Data()["seo"]; ok {
			t.Fatal("component returned without populate")
		}
		var raw map[string]json.RawMessage
		_ = json.Unmarshal(plain.Body, &raw)
	})
}

func TestRelationsWriteAndPopulate(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := open(t, db)
		author := e.Do("POST", "/api/authors", map[string]any{"data": map[string]any{"name": "Ada"}}).Data()
		t1 := e.Do("POST", "/api/tags", map[string]any{"data": map[string]any{"name": "one"}}).Data()
		t2 := e.Do("POST", "/api/tags", map[string]any{"data": map[string]any{"name": "two"}}).Data()
		r := e.Do("POST", "/api/articles", map[string]any{"data": map[string]any{
			"title": "Linked", "author": author["documentId"], "tags": []any{t2["documentId"], t1["id"]},
		}})
		if r.Status != 201 {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
		id := r.Data()["documentId"].(string)
		got := e.Do("GET", "/api/articles/"+id+"?populate[author]=true&populate[tags][fields][0]=name", nil)
		testenv.Golden(t, "article_relations", got.Body)
		tags := got.Data()["tags"].([]any)
		if len(tags) != 2 || tags[0].(map[string]any)["name"] != "two" || tags[1].(map[string]any)["name"] != "one" {
			t.Fatalf("order kept: %s", got.Body)
		}
		// connect with a position, disconnect.
		upd := e.Do("PUT", "/api/articles/"+id, map[string]any{"data": map[string]any{
			"tags": map[string]any{"disconnect": []any{t2["documentId"]}, "connect": []any{map[string]any{"documentId": t2["documentId"], "position": map[string]any{"start": true}}}},
		}})
		if upd.Status != 200 {
			t.Fatalf("%d %s", upd.Status, upd.Body)
		}
		// The inverse side is read through the owner.
		inv := e.Do("GET", "/api/authors/"+author["documentId"].(string)+"?populate=articles", nil)
		arts := inv.Data()["articles"].([]any)
		if len(arts) != 1 || arts[0].(map[string]any)["title"] != "Linked" {
			t.Fatalf("inverse populate: %s", inv.Body)
		}
		// Deleting a target removes the references to it.
		e.Do("DELETE", "/api/authors/"+author["documentId"].(string), nil)
		after := e.Do("GET", "/api/articles/"+id+"?populate=author", nil)
		if after.Data()["author"] != nil {
			t.Fatalf("dangling relation: %s", after.Body)
		}
	})
}

func TestUIDIsUnique(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := open(t, db)
		e.Do("POST", "/api/articles", map[string]any{"data": map[string]any{"title": "One", "slug": "taken"}})
		r := e.Do("POST", "/api/articles", map[string]any{"data": map[string]any{"title": "Two", "slug": "taken"}})
		if r.Status != 400 || !strings.Contains(string(r.Body), "must be unique") {
			t.Fatalf("duplicate uid: %d %s", r.Status, r.Body)
		}
		// Updating a document with its own uid is fine.
		id := e.Do("GET", "/api/articles", nil).List()[0]["documentId"].(string)
		if r := e.Do("PUT", "/api/articles/"+id, map[string]any{"data": map[string]any{"slug": "taken"}}); r.Status != 200 {
			t.Fatalf("own uid: %d %s", r.Status, r.Body)
		}
	})
}

func TestInverseSideWrites(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := open(t, db)
		a1 := e.Do("POST", "/api/articles", map[string]any{"data": map[string]any{"title": "One"}}).Data()["documentId"].(string)
		a2 := e.Do("POST", "/api/articles", map[string]any{"data": map[string]any{"title": "Two"}}).Data()["documentId"].(string)
		// oneToMany inverse of manyToOne article.author
		au := e.Do("POST", "/api/authors", map[string]any{"data": map[string]any{"name": "Ada", "articles": []any{a1, a2}}})
		if au.Status != 201 {
			t.Fatalf("%d %s", au.Status, au.Body)
		}
		auID := au.Data()["documentId"].(string)
		for _, id := range []string{a1, a2} {
			for _, status := range []string{"", "&status=draft"} {
				r := e.Do("GET", "/api/articles/"+id+"?populate=author"+status, nil)
				if a, _ := r.Data()["author"].(map[string]any); a == nil || a["documentId"] != auID {
					t.Fatalf("owner side not updated (%s): %s", status, r.Body)
				}
			}
		}
		e.Do("PUT", "/api/authors/"+auID, map[string]any{"data": map[string]any{"articles": map[string]any{"disconnect": []any{a1}}}})
		if r := e.Do("GET", "/api/articles/"+a1+"?populate=author", nil); r.Data()["author"] != nil {
			t.Fatalf("disconnect from the inverse side: %s", r.Body)
		}
		got := e.Do("GET", "/api/authors/"+auID+"?populate=articles", nil).Data()["articles"].([]any)
		if len(got) != 1 || got[0].(map[string]any)["documentId"] != a2 {
			t.Fatalf("inverse list: %v", got)
		}
		// manyToMany inverse of article.tags
		tag := e.Do("POST", "/api/tags", map[string]any{"data": map[string]any{"name": "go", "articles": []any{a1}}})
		if tag.Status != 201 {
			t.Fatalf("%d %s", tag.Status, tag.Body)
		}
		r := e.Do("GET", "/api/articles/"+a1+"?populate=tags", nil)
		if tags := r.Data()["tags"].([]any); len(tags) != 1 || tags[0].(map[string]any)["name"] != "go" {
			t.Fatalf("manyToMany from the inverse side: %s", r.Body)
		}
		if r := e.Do("POST", "/api/tags", map[string]any{"data": map[string]any{"name": "x", "articles": []any{"nopenopenopenopenopenope"}}}); r.Status != 400 {
			t.Fatalf("unknown target from the inverse side: %d %s", r.Status, r.Body)
		}
	})
}
