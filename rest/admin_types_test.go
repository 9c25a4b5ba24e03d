package rest_test

import (
	"strings"
	"testing"

	"github.com/stratum-cms/stratum/internal/testenv"
)

const noteSchema = `{"kind":"collectionType","collectionName":"notes","info":{"singularName":"note","pluralName":"notes","displayName":"Note"},
"options":{"draftAndPublish":false},"attributes":{"title":{"type":"string","required":true},"box":{"type":"component","component":"parts.box"}}}`

const boxSchema = `{"uid":"parts.box","collectionName":"components_parts_boxes","info":{"displayName":"Box"},"attributes":{"size":{"type":"integer"}}}`

// TestDefinitionsAdminAPI creates, reads, changes and deletes a type and a
// component through the admin API and uses the type at once.
func TestDefinitionsAdminAPI(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := openBlog(t, db, testenv.Options{})
		admin := adminJWT(t, e)
		h := bearer(admin)
		if r := e.Do("POST", "/admin/content-types", noteSchema, h...); r.Status != 400 || !strings.Contains(r.ErrorMessage(), `component "parts.box" does not exist`) {
			t.Fatalf("type before its component: %d %s", r.Status, r.Body)
		}
		if r := e.Do("POST", "/admin/components", boxSchema, h...); r.Status != 201 {
			t.Fatalf("component: %d %s", r.Status, r.Body)
		}
		r := e.Do("POST", "/admin/content-types", noteSchema, h...)
		if r.Status != 201 || r.Data()["uid"] != "api::note.note" {
			t.Fatalf("create type: %d %s", r.Status, r.Body)
		}
		if r := e.Do("POST", "/admin/content-types", noteSchema, h...); r.Status != 409 || r.ErrorName() != "ConflictError" {
			t.Fatalf("create twice: %d %s", r.Status, r.Body)
		}
		tok, _ := createToken(t, e, admin, map[string]any{"name": "all", "type": "full-access"})
		w := bearer(tok)
		doc := e.Do("POST", "/api/notes", map[string]any{"data": map[string]any{"title": "live", "box": map[string]any{"size": 3}}}, w...)
		if doc.Status != 201 {
			t.Fatalf("the new type is served at once: %d %s", doc.Status, doc.Body)
		}
		// Private by default: the public role has no permission on the new type.
		if r := e.Do("GET", "/api/notes", nil); r.Status != 403 {
			t.Fatalf("new type public: %d", r.Status)
		}
		got := e.Do("GET", "/admin/content-types/api::note.note", nil, h...)
		if got.Status != 200 || got.Data()["source"] != "database" {
			t.Fatalf("get: %d %s", got.Status, got.Body)
		}
		list := e.Do("GET", "/admin/content-types", nil, h...)
		sources := map[string]string{}
		for _, d := range list.List() {
			sources[d["uid"].(string)] = d["source"].(string)
		}
		if sources["api::note.note"] != "database" || sources["api::article.article"] != "file" {
			t.Fatalf("sources: %v", sources)
		}
		// Bad definitions are 400 naming the attribute; file types are read-only.
		bad := strings.Replace(noteSchema, `"type":"string"`, `"type":"strang"`, 1)
		if r := e.Do("PUT", "/admin/content-types/api::note.note", bad, h...); r.Status != 400 || !strings.Contains(r.ErrorMessage(), `"title"`) {
			t.Fatalf("bad definition: %d %s", r.Status, r.Body)
		}
		if r := e.Do("PUT", "/admin/content-types/api::article.article", noteSchema, h...); r.Status != 409 {
			t.Fatalf("file type: %d %s", r.Status, r.Body)
		}
		if r := e.Do("PUT", "/admin/content-types/api::note.note", `{"attributes":`, h...); r.Status != 400 || r.ErrorName() != "SyntaxError" {
			t.Fatalf("malformed body: %d %s", r.Status, r.Body)
		}
		// A rename keeps the values.
		renamed := strings.Replace(noteSchema, `"title":{"type":"string","required":true}`, `"heading":{"type":"string","renamedFrom":"title"}`, 1)
		if r := e.Do("PUT", "/admin/content-types/api::note.note", renamed, h...); r.Status != 200 {
			t.Fatalf("rename: %d %s", r.Status, r.Body)
		}
		id := doc.Data()["documentId"].(string)
		if r := e.Do("GET", "/api/notes/"+id+"?populate=box", nil, w...); r.Data()["heading"] != "live" || r.Data()["box"].(map[string]any)["size"] != 3.0 {
			t.Fatalf("after rename: %s", r.Body)
		}
		// The component is in use: deleting it is refused by validation.
		if r := e.Do("DELETE", "/admin/components/parts.box", nil, h...); r.Status != 400 {
			t.Fatalf("component in use: %d %s", r.Status, r.Body)
		}
		if r := e.Do("DELETE", "/admin/content-types/api::note.note", nil, h...); r.Status != 409 {
			t.Fatalf("delete with documents: %d %s", r.Status, r.Body)
		}
		if r := e.Do("DELETE", "/admin/content-types/api::note.note?force=true", nil, h...); r.Status != 200 {
			t.Fatalf("forced delete: %d %s", r.Status, r.Body)
		}
		if r := e.Do("GET", "/api/notes", nil, w...); r.Status != 404 {
			t.Fatalf("deleted type served: %d", r.Status)
		}
		if r := e.Do("DELETE", "/admin/components/parts.box", nil, h...); r.Status != 200 {
			t.Fatalf("delete component: %d %s", r.Status, r.Body)
		}
		// Only admins change schemas.
		if r := e.Do("POST", "/admin/content-types", noteSchema, w...); r.Status != 401 {
			t.Fatalf("API token on the admin API: %d", r.Status)
		}
	})
}

// TestReservedTableNames: a type may not take one of Stratum's own tables
// (it used to be a 500); the admin API says why.
func TestReservedTableNames(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := openBlog(t, db, testenv.Options{})
		h := bearer(adminJWT(t, e))
		for _, table := range []string{"up_users", "up_roles", "up_permissions", "stratum_meta", "sqlite_sequence", "pg_type"} {
			body := strings.Replace(noteSchema, `"collectionName":"notes"`, `"collectionName":"`+table+`"`, 1)
			body = strings.Replace(body, `,"box":{"type":"component","component":"parts.box"}`, "", 1)
			if r := e.Do("POST", "/admin/content-types", body, h...); r.Status != 400 || !strings.Contains(r.ErrorMessage(), "is reserved") {
				t.Errorf("%s: %d %s", table, r.Status, r.Body)
			}
		}
		if r := e.Do("GET", "/api/users/count", nil); r.Status == 500 {
			t.Fatalf("users after the refusals: %d %s", r.Status, r.Body)
		}
	})
}
