package rest_test

import (
	"bytes"
	"fmt"
	"mime/multipart"
	"net/http"
	"testing"

	"github.com/stratum-cms/stratum/internal/testenv"
)

// The admin's content manager: the content API's handlers by type uid, as
// an admin (every permission, no role needed), drafts included; and the
// media library under /admin/upload.
func TestAdminContentManager(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := openBlog(t, db, testenv.Options{})
		admin := bearer(adminJWT(t, e))
		const col = "/admin/content-manager/collection-types/"
		// Nobody else: no credentials, a user's JWT, an API token.
		userJWT, _ := registerUser(t, e, "eve")
		for _, h := range [][]string{nil, bearer(userJWT)} {
			if r := e.Do("GET", col+"api::article.article", nil, h...); r.Status != 401 {
				t.Errorf("GET without an admin (%v): %d %s", h, r.Status, r.Body)
			}
		}
		// Create as a draft, find it among drafts only, publish it.
		r := e.Do("POST", col+"api::article.article?status=draft", map[string]any{"data": map[string]any{"title": "Draft one"}}, admin...)
		if r.Status != 201 {
			t.Fatalf("create: %d %s", r.Status, r.Body)
		}
		id, _ := r.Data()["documentId"].(string)
		if r.Data()["publishedAt"] != nil {
			t.Errorf("status=draft published: %s", r.Body)
		}
		// The uid may come escaped, as encodeURIComponent writes it.
		for _, path := range []string{col + "api::article.article", col + "api%3A%3Aarticle.article"} {
			r = e.Do("GET", path+"?status=draft&filters[title][$containsi]=draft&sort=title:asc&pagination[pageSize]=5", nil, admin...)
			if r.Status != 200 || len(r.List()) != 1 || r.List()[0]["documentId"] != id {
				t.Fatalf("list drafts %s: %d %s", path, r.Status, r.Body)
			}
		}
		if r = e.Do("GET", col+"api::article.article?status=published&filters[documentId][$eq]="+id, nil, admin...); r.Status != 200 || len(r.List()) != 0 {
			t.Fatalf("published before publish: %s", r.Body)
		}
		if r = e.Do("POST", "/admin/content-manager/api::article.article/"+id+"/actions/publish", nil, admin...); r.Status != 200 {
			t.Fatalf("publish: %d %s", r.Status, r.Body)
		}
		if r = e.Do("GET", col+"api::article.article?status=published&filters[documentId][$eq]="+id, nil, admin...); r.Status != 200 || len(r.List()) != 1 {
			t.Fatalf("published after publish: %s", r.Body)
		}
		// A discarded draft is the published version again, and as old.
		e.Do("PUT", col+"api::article.article/"+id+"?status=draft", map[string]any{"data": map[string]any{"title": "Changed"}}, admin...)
		if r = e.Do("POST", "/admin/content-manager/api::article.article/"+id+"/actions/discard-draft", nil, admin...); r.Status != 200 || r.Data()["title"] != "Draft one" {
			t.Fatalf("discard: %d %s", r.Status, r.Body)
		}
		draft := e.Do("GET", col+"api::article.article/"+id+"?status=draft", nil, admin...).Data()
		pub := e.Do("GET", col+"api::article.article/"+id+"?status=published", nil, admin...).Data()
		if draft["updatedAt"] != pub["updatedAt"] || draft["title"] != pub["title"] {
			t.Errorf("after discard: draft %v %v, published %v %v", draft["title"], draft["updatedAt"], pub["title"], pub["updatedAt"])
		}
		// Update and read one, with populate.
		r = e.Do("PUT", col+"api%3A%3Aarticle.article/"+id+"?status=draft", map[string]any{"data": map[string]any{"title": "Draft two"}}, admin...)
		if r.Status != 200 || r.Data()["title"] != "Draft two" {
			t.Fatalf("update: %d %s", r.Status, r.Body)
		}
		if r = e.Do("GET", col+"api::article.article/"+id+"?status=draft&populate=*", nil, admin...); r.Status != 200 || r.Data()["title"] != "Draft two" {
			t.Fatalf("find one: %d %s", r.Status, r.Body)
		}
		// Validation errors name the field.
		r = e.Do("POST", col+"api::article.article", map[string]any{"data": map[string]any{"title": 12}}, admin...)
		if r.Status != 400 || r.ErrorName() != "ValidationError" {
			t.Fatalf("bad title: %d %s", r.Status, r.Body)
		}
		// Unknown types, a single type on the collection route and back.
		for _, c := range []struct{ method, path string }{
			{"GET", col + "api::nope.nope"},
			{"GET", col + "api::global.global"},
			{"GET", "/admin/content-manager/single-types/api::article.article"},
			{"GET", col + "api::article.article/doesnotexist"},
		} {
			if r := e.Do(c.method, c.path, nil, admin...); r.Status != 404 {
				t.Errorf("%s %s: %d %s", c.method, c.path, r.Status, r.Body)
			}
		}
		// A single type: PUT creates or updates, GET reads, DELETE removes.
		const single = "/admin/content-manager/single-types/api::global.global"
		r = e.Do("PUT", single+"?status=draft", map[string]any{"data": map[string]any{"siteName": "Stratum"}}, admin...)
		if r.Status != 200 {
			t.Fatalf("put single: %d %s", r.Status, r.Body)
		}
		if r = e.Do("GET", single+"?status=draft", nil, admin...); r.Status != 200 || r.Data()["siteName"] != "Stratum" {
			t.Fatalf("get single: %d %s", r.Status, r.Body)
		}
		if r = e.Do("DELETE", single, nil, admin...); r.Status != 204 {
			t.Fatalf("delete single: %d %s", r.Status, r.Body)
		}
		if r = e.Do("DELETE", col+"api::article.article/"+id, nil, admin...); r.Status != 204 {
			t.Fatalf("delete: %d %s", r.Status, r.Body)
		}
		// Locales for the locale switcher.
		if r = e.Do("GET", "/admin/i18n/locales", nil, admin...); r.Status != 200 {
			t.Fatalf("locales: %d %s", r.Status, r.Body)
		}

		// The media library: upload, list, update the information, delete.
		var buf bytes.Buffer
		mw := multipart.NewWriter(&buf)
		fw, _ := mw.CreateFormFile("files", "note.txt")
		_, _ = fw.Write([]byte("hello"))
		_ = mw.Close()
		if r = e.Do("POST", "/admin/upload", buf.Bytes(), "Content-Type", mw.FormDataContentType()); r.Status != 401 {
			t.Fatalf("upload without an admin: %d", r.Status)
		}
		r = e.Do("POST", "/admin/upload", buf.Bytes(), append([]string{"Content-Type", mw.FormDataContentType()}, admin...)...)
		if r.Status != 201 {
			t.Fatalf("upload: %d %s", r.Status, r.Body)
		}
		r = e.Do("GET", "/admin/upload/files", nil, admin...)
		if r.Status != http.StatusOK || !bytes.Contains(r.Body, []byte(`"name":"note.txt"`)) {
			t.Fatalf("files: %d %s", r.Status, r.Body)
		}
		// The library is paged on the server, newest first, and searched by name.
		for _, name := range []string{"a_b.txt", "100%.txt", "other.txt"} {
			var b bytes.Buffer
			w := multipart.NewWriter(&b)
			f, _ := w.CreateFormFile("files", name)
			_, _ = f.Write([]byte("x"))
			_ = w.Close()
			if r := e.Do("POST", "/admin/upload", b.Bytes(), append([]string{"Content-Type", w.FormDataContentType()}, admin...)...); r.Status != 201 {
				t.Fatalf("upload %s: %d %s", name, r.Status, r.Body)
			}
		}
		for _, c := range []struct {
			query string
			names []string
			total float64
		}{
			{"?pageSize=2", []string{"other.txt", "100%.txt"}, 4},
			{"?pageSize=2&page=2", []string{"a_b.txt", "note.txt"}, 4},
			{"?_q=TXT&pageSize=1&page=4", []string{"note.txt"}, 4},
			{"?_q=%25", []string{"100%.txt"}, 1}, // % is a character, not a wildcard
			{"?_q=_", []string{"a_b.txt"}, 1},
			{"?_q=nothing", []string{}, 0},
		} {
			r := e.Do("GET", "/admin/upload/files"+c.query, nil, admin...)
			results, _ := r.JSON["results"].([]any)
			var names []string
			for _, f := range results {
				names = append(names, f.(map[string]any)["name"].(string))
			}
			pg, _ := r.JSON["pagination"].(map[string]any)
			if r.Status != 200 || fmt.Sprint(names) != fmt.Sprint(c.names) || pg["total"] != c.total {
				t.Errorf("files%s: %d %v %v", c.query, r.Status, names, pg)
			}
		}
		for _, q := range []string{"?pageSize=101", "?page=0", "?pageSize=x"} {
			if r := e.Do("GET", "/admin/upload/files"+q, nil, admin...); r.Status != 400 {
				t.Errorf("files%s: %d %s", q, r.Status, r.Body)
			}
		}
		buf.Reset()
		mw = multipart.NewWriter(&buf)
		_ = mw.WriteField("fileInfo", `{"name":"renamed.txt","alternativeText":"alt","caption":"cap"}`)
		_ = mw.Close()
		r = e.Do("POST", "/admin/upload?id=1", buf.Bytes(), append([]string{"Content-Type", mw.FormDataContentType()}, admin...)...)
		if r.Status != 200 || !bytes.Contains(r.Body, []byte(`"renamed.txt"`)) {
			t.Fatalf("update info: %d %s", r.Status, r.Body)
		}
		if r = e.Do("DELETE", "/admin/upload/files/1", nil, admin...); r.Status != 200 {
			t.Fatalf("delete file: %d %s", r.Status, r.Body)
		}
		if r = e.Do("GET", "/admin/upload/files/1", nil, admin...); r.Status != 404 {
			t.Fatalf("deleted file: %d %s", r.Status, r.Body)
		}
	})
}
