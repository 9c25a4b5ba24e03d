package rest_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stratum-cms/stratum/internal/testenv"
)

// detailsEnv is the blog schema with every content action public, an
// uploaded image, and three articles: "Full" (author Ada, cover, two tags),
// "Lone" (nothing related) and "Half" (author Bo, who has no email).
func detailsEnv(t *testing.T, db func(testing.TB) string) (*testenv.Env, int64) {
	t.Helper()
	e := testenv.Start(t, db(t), testenv.Options{Public: append(testenv.AllActions(t, ""), uploadActions...)})
	st, b := uploadWith(t, e, nil, "cover.png")
	var files []struct {
		ID int64 `json:"id"`
	}
	if st != 201 || json.Unmarshal(b, &files) != nil || len(files) != 1 {
		t.Fatalf("upload: %d %s", st, b)
	}
	ada := e.Do("POST", "/api/authors", map[string]any{"data": map[string]any{"name": "Ada", "email": "ada@example.com"}}).Data()
	bo := e.Do("POST", "/api/authors", map[string]any{"data": map[string]any{"name": "Bo"}}).Data()
	var tags []any
	for _, n := range []string{"go", "sql"} {
		tags = append(tags, e.Do("POST", "/api/tags", map[string]any{"data": map[string]any{"name": n}}).Data()["documentId"])
	}
	for _, d := range []map[string]any{
		{"title": "Full", "author": ada["documentId"], "cover": files[0].ID, "gallery": []any{files[0].ID}, "tags": tags},
		{"title": "Lone"},
		{"title": "Half", "author": bo["documentId"]},
	} {
		if r := e.Do("POST", "/api/articles", map[string]any{"data": d}); r.Status != 201 {
			t.Fatalf("%v: %d %s", d, r.Status, r.Body)
		}
	}
	return e, files[0].ID
}

func titles(t *testing.T, r *testenv.Response) string {
	t.Helper()
	if r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Body)
	}
	var out []string
	for _, d := range r.List() {
		out = append(out, fmt.Sprint(d["title"]))
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

// $null and $notNull through a relation hold for documents with no related
// document at all, as Strapi's LEFT JOIN does.
func TestNullThroughRelations(t *testing.T) {
	cases := []struct{ filter, want string }{
		{"filters[author][$null]=true", "Lone"},
		{"filters[author][$notNull]=true", "Full Half"},
		{"filters[author][id][$null]=true", "Lone"},
		{"filters[author][email][$null]=true", "Half Lone"},
		{"filters[author][email][$null]=false", "Full"},
		{"filters[author][email][$notNull]=true", "Full"},
		{"filters[author][email][$notNull]=false", "Half Lone"},
		{"filters[tags][name][$null]=true", "Half Lone"},
		{"filters[tags][name][$notNull]=true", "Full"},
		{"filters[tags][id][$notNull]=false", "Half Lone"},
		{"filters[author][name][$eq]=Ada", "Full"},
	}
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e, _ := detailsEnv(t, db)
		for _, c := range cases {
			if got := titles(t, e.Do("GET", "/api/articles?fields[0]=title&"+c.filter, nil)); got != c.want {
				t.Errorf("%s: %q, want %q", c.filter, got, c.want)
			}
		}
		// The inverse side: authors without articles.
		r := e.Do("POST", "/api/authors", map[string]any{"data": map[string]any{"name": "Cy"}})
		if r.Status != 201 {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
		r = e.Do("GET", "/api/authors?filters[articles][title][$null]=true", nil)
		if len(r.List()) != 1 || r.List()[0]["name"] != "Cy" {
			t.Errorf("inverse: %s", r.Body)
		}
	})
}

// fields on a media populate select the file's fields (id and documentId
// always), in every format and in the answers of writes.
func TestMediaPopulateFields(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e, file := detailsEnv(t, db)
		list := "/api/articles?sort=title&fields[0]=title&populate[cover][fields][0]=name&populate[cover][fields][1]=ext&populate[gallery][fields][0]=mime"
		r := e.Do("GET", list, nil)
		if r.Status != 200 {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
		testenv.Golden(t, "media_fields", r.Body)
		r = e.Do("GET", list, nil, "Strapi-Response-Format", "v4")
		testenv.Golden(t, "media_fields_v4", r.Body)
		// Every field ("*") is the whole file.
		r = e.Do("GET", "/api/articles?filters[title]=Full&populate[cover][fields][0]=*", nil)
		if c, _ := r.List()[0]["cover"].(map[string]any); len(c) < 20 || c["hash"] == nil {
			t.Errorf("fields *: %s", r.Body)
		}
		// Writes answer with the same selection.
		for _, w := range []struct{ method, path string }{
			{"POST", "/api/articles"},
			{"PUT", "/api/articles/" + e.Do("GET", "/api/articles?filters[title]=Lone", nil).List()[0]["documentId"].(string)},
		} {
			r := e.Do(w.method, w.path+"?fields[0]=title&populate[cover][fields][0]=name", map[string]any{"data": map[string]any{"title": "W" + w.method, "cover": file}})
			d := r.Data()
			cover, _ := d["cover"].(map[string]any)
			if r.Status >= 300 || len(d) != 4 || len(cover) != 3 || cover["name"] != "cover.png" || cover["documentId"] == nil {
				t.Errorf("%s: %d %s", w.method, r.Status, r.Body)
			}
		}
		for _, q := range []string{"populate[cover][fields][0]=nope", "populate[gallery][fields][0]=folder"} {
			if r := e.Do("GET", "/api/articles?"+q, nil); r.Status != 400 || !strings.HasPrefix(r.ErrorMessage(), "Invalid key") {
				t.Errorf("%s: %d %s", url.PathEscape(q), r.Status, r.Body)
			}
		}
	})
}

// A time of day reads back as Strapi's time(3) column gives it on each
// database: as written on SQLite, without the fraction's trailing zeros on
// PostgreSQL. Filters and sorts read both forms as the same times.
func TestTimeOfDayPerDatabase(t *testing.T) {
	cases := []struct{ in, sqlite, postgres string }{
		{"08:30", "08:30:00.000", "08:30:00"},
		{"08:30:00", "08:30:00.000", "08:30:00"},
		{"08:30:00.120", "08:30:00.120", "08:30:00.12"},
		{"23:59:59.5", "23:59:59.500", "23:59:59.5"},
		{"00:00:00.001", "00:00:00.001", "00:00:00.001"},
	}
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := open(t, db)
		for i, c := range cases {
			want := map[string]string{"sqlite": c.sqlite, "postgres": c.postgres}[e.Store.Dialect()]
			r := e.Do("POST", "/api/articles", map[string]any{"data": map[string]any{"title": fmt.Sprint("T", i), "publishTime": c.in}})
			if got := r.Data()["publishTime"]; r.Status != 201 || got != want {
				t.Errorf("%s: %d %v, want %s", c.in, r.Status, got, want)
			}
			if got := e.Do("GET", "/api/articles/"+r.Data()["documentId"].(string), nil).Data()["publishTime"]; got != want {
				t.Errorf("%s read: %v, want %s", c.in, got, want)
			}
		}
		for _, f := range []struct{ q, want string }{
			{"filters[publishTime][$eq]=08:30:00.000", "T0 T1"},
			{"filters[publishTime][$eq]=08:30", "T0 T1"},
			{"filters[publishTime][$gt]=08:30:00.1", "T2 T3"},
			{"filters[publishTime][$lt]=08:30:00.120", "T0 T1 T4"},
			{"filters[publishTime][$in][0]=08:30:00.12&filters[publishTime][$in][1]=00:00:00.001", "T2 T4"},
			{"filters[publishTime][$between][0]=08:00&filters[publishTime][$between][1]=08:30:00.12", "T0 T1 T2"},
		} {
			if got := titles(t, e.Do("GET", "/api/articles?"+f.q, nil)); got != f.want {
				t.Errorf("%s: %q, want %q", f.q, got, f.want)
			}
		}
		var order []string
		for _, d := range e.Do("GET", "/api/articles?sort=publishTime:desc,title", nil).List() {
			order = append(order, d["title"].(string))
		}
		if got := strings.Join(order, " "); got != "T3 T2 T0 T1 T4" {
			t.Errorf("sort: %s", got)
		}
	})
}

// The README's differences from Strapi in validation and media populate,
// each checked.
func TestDetailsWhereWeDiffer(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e, _ := detailsEnv(t, db)
		for _, c := range []struct {
			data   map[string]any
			status int
			msg    string
		}{
			{map[string]any{"publishTime": "08:30"}, 201, ""},
			{map[string]any{"publishDate": "2024-01-01T10:00:00Z"}, 400, "Invalid format, expected yyyy-MM-dd"},
			{map[string]any{"featured": "t"}, 201, ""},
			{map[string]any{"views": 3000000000}, 400, "views must be an integer between -2147483648 and 2147483647"},
		} {
			c.data["title"] = "Diff"
			r := e.Do("POST", "/api/articles", map[string]any{"data": c.data})
			if r.Status != c.status || (c.msg != "" && r.ErrorMessage() != c.msg) {
				t.Errorf("%v: %d %s", c.data, r.Status, r.Body)
			}
		}
		// filters inside a media populate apply to the files, with fields
		// (upload_list_test.go tests them whole).
		plain := e.Do("GET", "/api/articles?filters[title]=Full&populate[gallery][fields][0]=name", nil)
		withFilter := e.Do("GET", "/api/articles?filters[title]=Full&populate[gallery][fields][0]=name&populate[gallery][filters][name][$eq]=nothing&populate[gallery][sort]=name:desc", nil)
		if plain.Status != 200 || len(plain.List()[0]["gallery"].([]any)) != 1 || len(withFilter.List()[0]["gallery"].([]any)) != 0 {
			t.Errorf("media populate filters: %s / %s", plain.Body, withFilter.Body)
		}
		// A time written in the long form (as before times followed the
		// database) filters alike on PostgreSQL.
		if e.Store.Dialect() == "postgres" {
			r := e.Do("POST", "/api/articles", map[string]any{"data": map[string]any{"title": "Old", "publishTime": "07:15"}})
			if r.Data()["publishTime"] != "07:15:00" {
				t.Fatalf("short form: %s", r.Body)
			}
			res := e.Store.GORM().Exec(`UPDATE articles SET data = jsonb_set(data, '{publishTime}', '"07:15:00.000"')
				WHERE data->>'publishTime' = '07:15:00'`)
			if res.Error != nil || res.RowsAffected == 0 {
				t.Fatalf("rewrite: %v, %d rows", res.Error, res.RowsAffected)
			}
			if got := e.Do("GET", "/api/articles/"+r.Data()["documentId"].(string), nil).Data()["publishTime"]; got != "07:15:00.000" {
				t.Fatalf("long form stored: %v", got)
			}
			if got := titles(t, e.Do("GET", "/api/articles?filters[publishTime][$eq]=07:15:00", nil)); got != "Old" {
				t.Errorf("long form: %q", got)
			}
		}
	})
}

// A list's min and max (repeatable components, dynamic zones) apply as
// Strapi's yup array does: when publishing only, min only to a required or
// non-empty list.
func TestListCountsAsStrapi(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"src/components/blocks/item.json": `{"collectionName": "components_blocks_items", "info": {"displayName": "Item"},
			"attributes": {"label": {"type": "string"}}}`,
		"src/api/board/content-types/board/schema.json": `{"kind": "collectionType", "collectionName": "boards",
			"info": {"singularName": "board", "pluralName": "boards", "displayName": "Board"},
			"options": {"draftAndPublish": true},
			"attributes": {"name": {"type": "string"},
				"items": {"type": "component", "component": "blocks.item", "repeatable": true, "min": 2, "max": 3},
				"zone": {"type": "dynamiczone", "components": ["blocks.item"], "max": 1}}}`,
	}
	for p, body := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	item := map[string]any{"label": "x"}
	zoneItem := map[string]any{"__component": "blocks.item", "label": "z"}
	cases := []struct {
		name   string
		query  string
		data   map[string]any
		status int
		msg    string
	}{
		{"empty list, not required", "", map[string]any{"items": []any{}}, 201, ""},
		{"too few", "", map[string]any{"items": []any{item}}, 400, "items field must have at least 2 items"},
		{"too many", "", map[string]any{"items": []any{item, item, item, item}}, 400, "items field must have less than or equal to 3 items"},
		{"zone too many", "", map[string]any{"zone": []any{zoneItem, zoneItem}}, 400, "zone field must have less than or equal to 1 items"},
		{"draft: too few", "?status=draft", map[string]any{"items": []any{item}}, 201, ""},
		{"draft: too many", "?status=draft", map[string]any{"items": []any{item, item, item, item}, "zone": []any{zoneItem, zoneItem}}, 201, ""},
	}
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := testenv.Start(t, db(t), testenv.Options{Dir: dir, Public: testenv.AllActions(t, dir)})
		for _, c := range cases {
			r := e.Do("POST", "/api/boards"+c.query, map[string]any{"data": c.data})
			if r.Status != c.status || (c.msg != "" && r.ErrorMessage() != c.msg) {
				t.Errorf("%s: %d %s", c.name, r.Status, r.Body)
			}
		}
	})
}
