package rest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"

	"github.com/stratum-cms/stratum/internal/testenv"
	"github.com/stratum-cms/stratum/upload"
)

var uploadActions = []string{"plugin::upload.content-api.upload", "plugin::upload.content-api.find",
	"plugin::upload.content-api.findOne", "plugin::upload.content-api.destroy"}

func pngOf(w, h int) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for x := 0; x < w; x += 7 {
		img.Set(x, x%h, color.RGBA{200, 30, 30, 255})
	}
	var b bytes.Buffer
	_ = png.Encode(&b, img)
	return b.Bytes()
}

// uploadFiles posts a multipart body with the files and an optional fileInfo.
func uploadFiles(t *testing.T, e *testenv.Env, query string, files map[string][]byte, info string) (int, []byte) {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for name, data := range files {
		w, _ := mw.CreateFormFile("files", name)
		_, _ = w.Write(data)
	}
	if info != "" {
		_ = mw.WriteField("fileInfo", info)
	}
	_ = mw.Close()
	req, _ := http.NewRequest("POST", e.URL+"/api/upload"+query, &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, b
}

func TestUploadAndMedia(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := testenv.Start(t, db(t), testenv.Options{Public: append(testenv.AllActions(t, ""), uploadActions...)})
		status, body := uploadFiles(t, e, "", map[string][]byte{"Sunset Photo.png": pngOf(1200, 800)}, `{"alternativeText":"A sunset"}`)
		if status != 201 {
			t.Fatalf("upload: %d %s", status, body)
		}
		var files []map[string]any
		_ = json.Unmarshal(body, &files)
		f := files[0]
		if f["mime"] != "image/png" || f["ext"] != ".png" || f["width"] != 1200.0 || f["height"] != 800.0 || f["alternativeText"] != "A sunset" || f["provider"] != "local" {
			t.Fatalf("file object: %s", body)
		}
		formats := f["formats"].(map[string]any)
		want := map[string][2]float64{"thumbnail": {234, 156}, "large": {1000, 667}, "medium": {750, 500}, "small": {500, 333}}
		for k, wh := range want {
			got, ok := formats[k].(map[string]any)
			if !ok || got["width"] != wh[0] || got["height"] != wh[1] {
				t.Fatalf("format %s: %v", k, formats[k])
			}
		}
		// The stored file and its formats are served.
		for _, u := range []string{f["url"].(string), formats["thumbnail"].(map[string]any)["url"].(string)} {
			res, err := http.Get(e.URL + u)
			if err != nil || res.StatusCode != 200 {
				t.Fatalf("GET %s: %v %v", u, err, res)
			}
			if _, err := png.Decode(res.Body); err != nil {
				t.Fatalf("%s is not a PNG: %v", u, err)
			}
			res.Body.Close()
		}
		imgID := int64(f["id"].(float64))

		// A file that is not an image has no dimensions and no formats.
		status, body = uploadFiles(t, e, "", map[string][]byte{"notes.txt": []byte("plain text\n")}, "")
		var txt []map[string]any
		_ = json.Unmarshal(body, &txt)
		if status != 201 || txt[0]["formats"] != nil || txt[0]["width"] != nil || txt[0]["mime"] != "text/plain" {
			t.Fatalf("text file: %d %s", status, body)
		}
		txtID := int64(txt[0]["id"].(float64))

		if r := e.Do("GET", "/api/upload/files", nil); r.Status != 200 || !bytes.HasPrefix(r.Body, []byte("[")) {
			t.Fatalf("list: %d %s", r.Status, r.Body)
		}
		if r := e.Do("GET", fmt.Sprintf("/api/upload/files/%d", imgID), nil); r.Status != 200 || r.JSON["name"] != "Sunset Photo.png" {
			t.Fatalf("get: %d %s", r.Status, r.Body)
		}
		// Update the information of a file.
		if status, body := uploadFiles(t, e, fmt.Sprintf("?id=%d", txtID), nil, `{"caption":"Notes"}`); status != 200 || !bytes.Contains(body, []byte(`"caption":"Notes"`)) {
			t.Fatalf("update info: %d %s", status, body)
		}

		// Media attributes: single, multiple, and inside a component. The
		// gallery takes images and videos only (allowedTypes).
		if r := e.Do("POST", "/api/articles", map[string]any{"data": map[string]any{"title": "Text in a gallery",
			"gallery": []any{txtID}}}); r.Status != 400 {
			t.Fatalf("a text file in an images gallery: %d %s", r.Status, r.Body)
		}
		status, body = uploadFiles(t, e, "", map[string][]byte{"second.png": pngOf(3, 3)}, "")
		var second []map[string]any
		if status != 201 || json.Unmarshal(body, &second) != nil {
			t.Fatalf("second image: %d %s", status, body)
		}
		secondID := int64(second[0]["id"].(float64))
		r := e.Do("POST", "/api/articles", map[string]any{"data": map[string]any{"title": "With media",
			"cover": imgID, "gallery": []any{secondID, map[string]any{"id": imgID}}, "seo": map[string]any{"metaTitle": "m", "shareImage": imgID}}})
		if r.Status != 201 {
			t.Fatalf("attach: %d %s", r.Status, r.Body)
		}
		id := r.Data()["documentId"].(string)
		got := e.Do("GET", "/api/articles/"+id+"?populate[cover]=true&populate[gallery]=true&populate[seo][populate]=shareImage", nil)
		d := got.Data()
		if d["cover"].(map[string]any)["id"] != float64(imgID) || len(d["gallery"].([]any)) != 2 ||
			d["gallery"].([]any)[0].(map[string]any)["name"] != "second.png" || d["seo"].(map[string]any)["shareImage"].(map[string]any)["id"] != float64(imgID) {
			t.Fatalf("populated media: %s", got.Body)
		}
		if r := e.Do("GET", "/api/articles/"+id+"?populate=*", nil); r.Data()["cover"] == nil {
			t.Fatalf("populate=* includes media: %s", r.Body)
		}
		if r := e.Do("PUT", "/api/articles/"+id, map[string]any{"data": map[string]any{"cover": 999999}}); r.Status != 400 {
			t.Fatalf("unknown file: %d %s", r.Status, r.Body)
		}
		if r := e.Do("PUT", "/api/articles/"+id, map[string]any{"data": map[string]any{"gallery": map[string]any{"disconnect": []any{secondID}}}}); r.Status != 200 {
			t.Fatalf("disconnect: %d %s", r.Status, r.Body)
		}
		if g := e.Do("GET", "/api/articles/"+id+"?populate=gallery", nil).Data()["gallery"].([]any); len(g) != 1 {
			t.Fatalf("gallery after disconnect: %v", g)
		}

		// Delete: the row and the files go.
		if r := e.Do("DELETE", fmt.Sprintf("/api/upload/files/%d", imgID), nil); r.Status != 200 || r.JSON["id"] != float64(imgID) {
			t.Fatalf("delete: %d %s", r.Status, r.Body)
		}
		if r := e.Do("GET", fmt.Sprintf("/api/upload/files/%d", imgID), nil); r.Status != 404 {
			t.Fatalf("deleted file: %d", r.Status)
		}
		if res, _ := http.Get(e.URL + f["url"].(string)); res.StatusCode != 404 {
			t.Fatalf("deleted file still served: %d", res.StatusCode)
		}
		if d := e.Do("GET", "/api/articles/"+id+"?populate=cover", nil).Data(); d["cover"] != nil {
			t.Fatalf("a deleted file populates as null: %v", d["cover"])
		}

		// Nothing outside the uploads folder is reachable through it.
		for _, p := range []string{"/uploads/../go.mod", "/uploads/%2e%2e/go.mod", "/uploads/..%2fgo.mod", "/uploads/"} {
			if res, err := http.Get(e.URL + p); err == nil {
				if res.StatusCode != 404 {
					t.Errorf("GET %s: %d", p, res.StatusCode)
				}
				res.Body.Close()
			}
		}

		// Bad requests.
		if status, _ := uploadFiles(t, e, "", nil, ""); status != 400 {
			t.Fatalf("no files: %d", status)
		}
		if r := e.Do("POST", "/api/upload", map[string]any{"files": "x"}); r.Status != 400 {
			t.Fatalf("JSON instead of multipart: %d %s", r.Status, r.Body)
		}
		if status, _ := uploadFiles(t, e, "", map[string][]byte{"a.png": pngOf(10, 10)}, `{not json`); status != 400 {
			t.Fatalf("bad fileInfo: %d", status)
		}
		if r := e.Do("GET", "/api/upload/files/abc", nil); r.Status != 404 {
			t.Fatalf("bad id: %d", r.Status)
		}
	})
}

func TestUploadNeedsPermission(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := testenv.Start(t, db(t), testenv.Options{Public: testenv.AllActions(t, "")})
		if status, body := uploadFiles(t, e, "", map[string][]byte{"a.png": pngOf(10, 10)}, ""); status != 403 {
			t.Fatalf("upload without permission: %d %s", status, body)
		}
		if r := e.Do("GET", "/api/upload/files", nil); r.Status != 403 {
			t.Fatalf("list without permission: %d", r.Status)
		}
	})
}

// TestUploadsCannotActAsPages: an uploaded HTML or SVG file opened from its
// URL cannot run script as the API's origin; images still show in place.
// Media attributes take only the families their allowedTypes name.
func TestUploadsCannotActAsPages(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := testenv.Start(t, db(t), testenv.Options{Public: append(testenv.AllActions(t, ""), uploadActions...)})
		files := map[string][]byte{
			"page.html": []byte("<!doctype html><html><body><script>alert(document.cookie)</script></body></html>"),
			"logo.svg":  []byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`),
			"pixel.png": pngOf(2, 2),
		}
		urls := map[string]string{}
		ids := map[string]float64{}
		for name, data := range files {
			status, body := uploadFiles(t, e, "", map[string][]byte{name: data}, "")
			var out []map[string]any
			if status != 201 || json.Unmarshal(body, &out) != nil || len(out) != 1 {
				t.Fatalf("upload %s: %d %s", name, status, body)
			}
			urls[name], ids[name] = out[0]["url"].(string), out[0]["id"].(float64)
		}
		for name, url := range urls {
			res, err := http.Get(e.URL + url)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			h := res.Header
			if res.StatusCode != 200 || h.Get("X-Content-Type-Options") != "nosniff" || !strings.Contains(h.Get("Content-Security-Policy"), "sandbox") {
				t.Errorf("%s: %d %v", name, res.StatusCode, h)
			}
			attachment := h.Get("Content-Disposition") == "attachment"
			if want := name != "pixel.png"; attachment != want {
				t.Errorf("%s: Content-Disposition %q (%s)", name, h.Get("Content-Disposition"), h.Get("Content-Type"))
			}
		}
		// cover takes images only; an HTML file is a 400 naming the rule.
		r := e.Do("POST", "/api/articles", map[string]any{"data": map[string]any{"title": "x", "cover": ids["page.html"]}})
		if r.Status != 400 || !strings.Contains(string(r.Body), "only images are allowed") {
			t.Errorf("html as cover: %d %s", r.Status, r.Body)
		}
		if r := e.Do("POST", "/api/articles", map[string]any{"data": map[string]any{"title": "y", "cover": ids["pixel.png"]}}); r.Status != 201 {
			t.Errorf("png as cover: %d %s", r.Status, r.Body)
		}
	})
}

// TestUploadTypeLists: upload.config's allow and deny lists refuse a file
// by the type sniffed from its bytes with a 400 naming the type, and keep
// nothing of the refused file.
func TestUploadTypeLists(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := testenv.Start(t, db(t), testenv.Options{Public: append(testenv.AllActions(t, ""), uploadActions...),
			Upload: upload.Config{AllowedTypes: []string{"image/*", "application/pdf"}, DeniedTypes: []string{"image/svg+xml"}}})
		for name, data := range map[string][]byte{
			"page.png": []byte("<!doctype html><html><script>alert(1)</script></html>"),
			"logo.svg": []byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`),
		} {
			status, body := uploadFiles(t, e, "", map[string][]byte{name: data}, "")
			var out struct {
				Error struct{ Name, Message string }
			}
			_ = json.Unmarshal(body, &out)
			if status != 400 || out.Error.Name != "ValidationError" || !strings.Contains(out.Error.Message, "not allowed") ||
				!strings.Contains(out.Error.Message, map[string]string{"page.png": "text/html", "logo.svg": "image/svg+xml"}[name]) {
				t.Errorf("%s: %d %s", name, status, body)
			}
		}
		for name, data := range map[string][]byte{"a.png": pngOf(4, 4), "doc.pdf": []byte("%PDF-1.4\n")} {
			if status, body := uploadFiles(t, e, "", map[string][]byte{name: data}, ""); status != 201 {
				t.Errorf("%s: %d %s", name, status, body)
			}
		}
		if r := e.Do("GET", "/api/upload/files", nil); r.Status != 200 || strings.Count(string(r.Body), `"mime"`) != 2 {
			t.Errorf("files: %d %s", r.Status, r.Body)
		}
	})
}
