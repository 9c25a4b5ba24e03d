package rest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"testing"

	"github.com/stratum-cms/stratum/internal/testenv"
)

func uploadWith(t *testing.T, e *testenv.Env, fields map[string]string, names ...string) (int, []byte) {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for _, n := range names {
		w, _ := mw.CreateFormFile("files", n)
		_, _ = w.Write(pngOf(20, 10))
	}
	for k, v := range fields {
		_ = mw.WriteField(k, v)
	}
	_ = mw.Close()
	req, _ := http.NewRequest("POST", e.URL+"/api/upload", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, b
}

// ref, refId and field attach uploaded files to a document's media
// attribute: set for a single media, added for multiple.
func TestUploadAttachesToDocument(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := testenv.Start(t, db(t), testenv.Options{Public: append([]string{"api::article.article.find", "api::article.article.findOne",
			"api::article.article.create", "api::article.article.update", "api::author.author.find"}, uploadActions...)})
		art := e.Do("POST", "/api/articles", map[string]any{"data": map[string]any{"title": "With media"}}).Data()
		doc := art["documentId"].(string)
		if st, b := uploadWith(t, e, map[string]string{"ref": "api::article.article", "refId": doc, "field": "cover"}, "c.png"); st != 201 {
			t.Fatalf("attach cover: %d %s", st, b)
		}
		numeric := fmt.Sprint(int(art["id"].(float64)))
		for i := 0; i < 2; i++ {
			if st, b := uploadWith(t, e, map[string]string{"ref": "api::article.article", "refId": numeric, "field": "gallery"}, "g1.png", "g2.png"); st != 201 {
				t.Fatalf("attach gallery: %d %s", st, b)
			}
		}
		r := e.Do("GET", "/api/articles/"+doc+"?status=draft&populate[cover]=true&populate[gallery]=true", nil)
		d := r.Data()
		cover, _ := d["cover"].(map[string]any)
		gallery, _ := d["gallery"].([]any)
		if cover == nil || cover["name"] != "c.png" || len(gallery) != 4 {
			t.Fatalf("attached: %s", r.Body)
		}
		for _, c := range []struct {
			fields map[string]string
			status int
		}{
			{map[string]string{"ref": "api::article.article", "refId": doc}, 400},
			{map[string]string{"ref": "api::nope.nope", "refId": doc, "field": "cover"}, 400},
			{map[string]string{"ref": "api::article.article", "refId": doc, "field": "title"}, 400},
			{map[string]string{"ref": "api::author.author", "refId": doc, "field": "avatar"}, 403},
			{map[string]string{"ref": "api::article.article", "refId": "nosuchdocument", "field": "cover"}, 404},
		} {
			st, b := uploadWith(t, e, c.fields, "x.png")
			if st != c.status {
				t.Errorf("%v: %d %s", c.fields, st, b)
			}
		}
		// A refused attachment keeps no file.
		var files []any
		_ = json.Unmarshal(e.Do("GET", "/api/upload/files", nil).Body, &files)
		if len(files) != 5 {
			t.Fatalf("files: %d, want 5", len(files))
		}
	})
}

// POST /api/upload?id=N with a file replaces the file's bytes: same id,
// a new hash, URL and formats; the old bytes are gone.
func TestUploadReplacesFile(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := testenv.Start(t, db(t), testenv.Options{Public: uploadActions})
		status, body := uploadFiles(t, e, "", map[string][]byte{"logo.png": pngOf(300, 200)}, `{"alternativeText":"Logo"}`)
		if status != 201 {
			t.Fatalf("upload: %d %s", status, body)
		}
		var files []map[string]any
		_ = json.Unmarshal(body, &files)
		old := files[0]
		id := int(old["id"].(float64))
		status, body = uploadFiles(t, e, fmt.Sprintf("?id=%d", id), map[string][]byte{"logo-v2.png": pngOf(400, 100)}, "")
		if status != 200 {
			t.Fatalf("replace: %d %s", status, body)
		}
		var f map[string]any
		_ = json.Unmarshal(body, &f)
		if f["id"] != old["id"] || f["documentId"] != old["documentId"] || f["hash"] == old["hash"] || f["url"] == old["url"] ||
			f["width"] != float64(400) || f["alternativeText"] != "Logo" || f["name"] != "logo-v2.png" {
			t.Fatalf("replaced: %s", body)
		}
		if r := e.Do("GET", old["url"].(string), nil); r.Status != 404 {
			t.Fatalf("old bytes still served: %d", r.Status)
		}
		if r := e.Do("GET", f["url"].(string), nil); r.Status != 200 {
			t.Fatalf("new bytes: %d", r.Status)
		}
		if st, _ := uploadFiles(t, e, "?id=999999", map[string][]byte{"x.png": pngOf(10, 10)}, ""); st != 404 {
			t.Fatalf("unknown id: %d", st)
		}
	})
}

// The v4 response format wraps media as Strapi 4 did: {data: {id, attributes}}.
func TestV4Media(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := testenv.Start(t, db(t), testenv.Options{Public: append([]string{"api::article.article.find",
			"api::article.article.create"}, uploadActions...)})
		_, body := uploadFiles(t, e, "", map[string][]byte{"a.png": pngOf(20, 20)}, "")
		var files []map[string]any
		_ = json.Unmarshal(body, &files)
		fid := files[0]["id"]
		e.Do("POST", "/api/articles", map[string]any{"data": map[string]any{"title": "V4", "cover": fid, "gallery": []any{fid}}})
		e.Do("POST", "/api/articles", map[string]any{"data": map[string]any{"title": "V4 bare"}})
		r := e.Do("GET", "/api/articles?populate[cover]=true&populate[gallery]=true&sort=title", nil, "Strapi-Response-Format", "v4")
		list := r.List()
		if len(list) != 2 {
			t.Fatalf("list: %s", r.Body)
		}
		attrs := list[0]["attributes"].(map[string]any)
		cover := attrs["cover"].(map[string]any)["data"].(map[string]any)
		gallery := attrs["gallery"].(map[string]any)["data"].([]any)
		if cover["id"] != fid || cover["attributes"].(map[string]any)["name"] != "a.png" || len(gallery) != 1 {
			t.Fatalf("v4 media: %s", r.Body)
		}
		bare := list[1]["attributes"].(map[string]any)
		if c, ok := bare["cover"].(map[string]any); !ok || c["data"] != nil {
			t.Fatalf("v4 empty media: %s", r.Body)
		}
	})
}
