package rest_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stratum-cms/stratum/internal/testenv"
)

// A create is a handful of statements whatever its relations: the targets
// of every relation the body names are checked in one, the draft and the
// published version are inserted in one, and on PostgreSQL the outbox
// events ride with the counters.
func TestCreateStatements(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := open(t, db)
		author := createDoc(t, e, "/api/authors", map[string]any{"name": "Ann"})
		category := createDoc(t, e, "/api/categories", map[string]any{"name": "News"})
		tag1 := createDoc(t, e, "/api/tags", map[string]any{"name": "t1"})
		tag2 := createDoc(t, e, "/api/tags", map[string]any{"name": "t2"})
		before := e.Store.Statements()
		r := e.Do("POST", "/api/articles", map[string]any{"data": map[string]any{
			"title": "Trips", "author": author, "category": category, "tags": []any{tag1, tag2},
			"seo": map[string]any{"metaTitle": "Trips"},
		}})
		if r.Status != 201 {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
		// The fence, the relation targets, the slug's uniqueness, the two
		// rows; then counters and events: one statement on PostgreSQL;
		// versions, counters, events on SQLite.
		want := int64(4 + 1)
		if e.Store.Dialect() == "sqlite" {
			want = 4 + 3
		}
		if n := e.Store.Statements() - before; n != want {
			t.Errorf("create ran %d statements, want %d", n, want)
		}
		// Both versions were written, with their own ids.
		draft := e.Do("GET", "/api/articles/"+r.Data()["documentId"].(string)+"?status=draft&populate=tags", nil)
		if draft.Status != 200 || draft.Data()["id"] == r.Data()["id"] || len(draft.Data()["tags"].([]any)) != 2 {
			t.Errorf("draft: %d %s (published id %v)", draft.Status, draft.Body, r.Data()["id"])
		}
		if ev := e.Do("GET", "/api/articles?filters[title]=Trips&populate=author", nil); len(ev.List()) != 1 {
			t.Errorf("published list: %s", ev.Body)
		}
	})
}

// Relation targets are checked together, yet each missing one is told at
// its own path, in the order of the body's attributes among the other
// errors.
func TestMissingRelationTargetsInBodyOrder(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := open(t, db)
		tag := createDoc(t, e, "/api/tags", map[string]any{"name": "real"})
		r := e.Do("POST", "/api/articles", map[string]any{"data": map[string]any{
			"title": "Missing", "views": "many", "author": "zzzzzzzzzzzzzzzzzzzzzzza",
			"tags":   map[string]any{"set": []any{tag}, "connect": []any{"zzzzzzzzzzzzzzzzzzzzzzzb", "zzzzzzzzzzzzzzzzzzzzzzzc"}},
			"rating": "high",
		}})
		if r.Status != 400 {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
		details, _ := r.JSON["error"].(map[string]any)["details"].(map[string]any)
		list, _ := details["errors"].([]any)
		var got [][2]string
		for _, it := range list {
			m := it.(map[string]any)
			p, _ := m["path"].([]any)
			got = append(got, [2]string{p[0].(string), m["message"].(string)})
		}
		want := [][2]string{
			{"views", ""},
			{"rating", ""},
			{"author", `Document with id "zzzzzzzzzzzzzzzzzzzzzzza" not found`},
			{"tags", `Document with id "zzzzzzzzzzzzzzzzzzzzzzzb" not found`},
		}
		if len(got) != len(want) {
			t.Fatalf("errors %v, want %v", got, want)
		}
		for i := range want {
			if got[i][0] != want[i][0] || (want[i][1] != "" && got[i][1] != want[i][1]) {
				t.Errorf("error %d: %v, want %v", i, got[i], want[i])
			}
		}
	})
}

// A relation value refused for its form is told once, by that error, not
// also as a missing target; targets named in components and dynamic
// zones are checked with the rest, each told at its own path.
func TestRelationErrorsOncePerPath(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := open(t, db)
		r := e.Do("POST", "/api/articles", map[string]any{"data": map[string]any{
			"title": "Once", "tags": map[string]any{"set": []any{"zzzzzzzzzzzzzzzzzzzzzzzb"}, "connect": []any{map[string]any{"name": "x"}}},
		}})
		if got := errorPaths(t, r); len(got) != 1 || got[0] != "tags: a relation object needs documentId or id" {
			t.Errorf("errors %q", got)
		}

		f := openFixture(t, db)
		r = f.Do("POST", "/api/landings", map[string]any{"data": map[string]any{
			"name": "L",
			"ctas": []any{map[string]any{"label": "a", "owner": "zzzzzzzzzzzzzzzzzzzzzzzc"}, map[string]any{"label": "b", "pages": []any{"zzzzzzzzzzzzzzzzzzzzzzzd"}}},
			"zone": []any{map[string]any{"__component": "blocks.cta", "owner": "zzzzzzzzzzzzzzzzzzzzzzze"}},
		}})
		want := []string{
			`ctas.0.owner: Document with id "zzzzzzzzzzzzzzzzzzzzzzzc" not found`,
			`ctas.1.pages: Document with id "zzzzzzzzzzzzzzzzzzzzzzzd", locale "" not found`, // pages are localized
			`zone.0.owner: Document with id "zzzzzzzzzzzzzzzzzzzzzzze" not found`,
		}
		if got := errorPaths(t, r); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("errors %q, want %q", got, want)
		}
	})
}

// errorPaths lists a 400's ValidationError details as "path: message".
func errorPaths(t *testing.T, r *testenv.Response) []string {
	t.Helper()
	if r.Status != 400 {
		t.Fatalf("%d %.300s", r.Status, r.Body)
	}
	details, _ := r.JSON["error"].(map[string]any)["details"].(map[string]any)
	list, _ := details["errors"].([]any)
	var out []string
	for _, it := range list {
		m := it.(map[string]any)
		var p []string
		for _, s := range m["path"].([]any) {
			p = append(p, fmt.Sprint(s))
		}
		out = append(out, strings.Join(p, ".")+": "+fmt.Sprint(m["message"]))
	}
	return out
}

// A body may name more relation ids than a statement takes bound values
// (SQLite 32,766, PostgreSQL 65,535): each list is bound as one value, so
// the answer is the missing target's 400, never a 500.
func TestManyRelationIDsInOneBody(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := open(t, db)
		docIDs := make([]any, 38000)
		for i := range docIDs {
			docIDs[i] = fmt.Sprintf("z%023d", i)
		}
		rowIDs := make([]any, 70000)
		for i := range rowIDs {
			rowIDs[i] = 100000 + i
		}
		for name, ids := range map[string][]any{"documentIds": docIDs, "row ids": rowIDs} {
			r := e.Do("POST", "/api/articles", map[string]any{"data": map[string]any{"title": "many", "tags": ids}})
			if r.Status != 400 || !strings.Contains(r.ErrorMessage(), "not found") {
				t.Errorf("%d %s: %d %.300s", len(ids), name, r.Status, r.Body)
			}
		}
	})
}
