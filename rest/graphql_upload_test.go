package rest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"

	"github.com/stratum-cms/stratum/app"
	"github.com/stratum-cms/stratum/internal/testenv"
)

// gqlMultipart sends a GraphQL multipart request: operations, map and the
// files (key -> name, bytes).
func gqlMultipart(t *testing.T, e *testenv.Env, operations, fileMap string, files map[string][2]string, headers ...string) (int, map[string]any, []byte) {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	_ = mw.WriteField("operations", operations)
	_ = mw.WriteField("map", fileMap)
	for key, f := range files {
		w, _ := mw.CreateFormFile(key, f[0])
		_, _ = w.Write([]byte(f[1]))
	}
	_ = mw.Close()
	req, _ := http.NewRequest("POST", e.URL+"/graphql", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	var out map[string]any
	_ = json.Unmarshal(b, &out)
	return res.StatusCode, out, b
}

// The upload plugin in GraphQL: multipart uploads (the GraphQL multipart
// request spec), the files queries and the info and remove mutations, on
// the same media library as REST.
func TestGraphQLUpload(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := testenv.Start(t, db(t), testenv.Options{Public: append(testenv.AllActions(t, ""), uploadActions...),
			Tune: func(c *app.Config) { c.Upload.MaxBytes = 200 << 10 }})
		png := string(pngOf(400, 300))
		status, out, body := gqlMultipart(t, e,
			`{"query":"mutation($f: Upload!) { upload(file: $f, info: {alternativeText: \"A red line\"}) { data { id attributes { name mime width height alternativeText provider url formats } } } }","variables":{"f":null}}`,
			`{"0":["variables.f"]}`, map[string][2]string{"0": {"Red Line.png", png}})
		attrs, _ := dig(out, "data", "upload", "data", "attributes").(map[string]any)
		if status != 200 || attrs == nil || attrs["mime"] != "image/png" || attrs["width"] != 400.0 || attrs["alternativeText"] != "A red line" || attrs["provider"] != "local" {
			t.Fatalf("upload: %d %s", status, body)
		}
		if thumb, _ := dig(attrs, "formats", "thumbnail").(map[string]any); thumb == nil {
			t.Errorf("no thumbnail format: %v", attrs["formats"])
		}
		if res, err := http.Get(e.URL + attrs["url"].(string)); err != nil || res.StatusCode != 200 {
			t.Errorf("the uploaded file is not served: %v %v", err, res)
		}
		id := dig(out, "data", "upload", "data", "id").(string)

		status, out, body = gqlMultipart(t, e,
			`{"query":"mutation($fs: [Upload]!) { multipleUpload(files: $fs) { data { attributes { name mime } } } }","variables":{"fs":[null,null]}}`,
			`{"a":["variables.fs.0"],"b":["variables.fs.1"]}`, map[string][2]string{"a": {"one.txt", "first"}, "b": {"two.txt", "second"}})
		if status != 200 || dig(out, "data", "multipleUpload", 1, "data", "attributes", "name") != "two.txt" {
			t.Fatalf("multipleUpload: %d %s", status, body)
		}

		gql := func(q string, vars map[string]any) (map[string]any, []byte) {
			r := e.Do("POST", "/graphql", map[string]any{"query": q, "variables": vars})
			return r.JSON, r.Body
		}
		res, b := gql(`{ uploadFiles(pagination: {pageSize: 2}) { data { id } meta { pagination { total } } } }`, nil)
		if list, _ := dig(res, "data", "uploadFiles", "data").([]any); len(list) != 2 || dig(res, "data", "uploadFiles", "meta", "pagination", "total") != 3.0 {
			t.Errorf("uploadFiles page: %s", b)
		}
		// The second page, read by offset: the oldest file (newest first).
		res, b = gql(`{ uploadFiles(pagination: {start: 2, limit: 2}) { data { attributes { name } } meta { pagination { page pageCount } } } }`, nil)
		if list, _ := dig(res, "data", "uploadFiles", "data").([]any); len(list) != 1 || dig(list, 0, "attributes", "name") != "Red Line.png" ||
			dig(res, "data", "uploadFiles", "meta", "pagination", "page") != 2.0 {
			t.Errorf("uploadFiles second page: %s", b)
		}
		res, b = gql(`query($id: ID) { uploadFile(id: $id) { data { attributes { name } } } }`, map[string]any{"id": id})
		if dig(res, "data", "uploadFile", "data", "attributes", "name") != "Red Line.png" {
			t.Errorf("uploadFile: %s", b)
		}
		res, b = gql(`mutation($id: ID!) { updateFileInfo(id: $id, info: {caption: "Seen from above", name: "line.png"}) { data { attributes { name caption } } } }`, map[string]any{"id": id})
		if dig(res, "data", "updateFileInfo", "data", "attributes", "caption") != "Seen from above" || dig(res, "data", "updateFileInfo", "data", "attributes", "name") != "line.png" {
			t.Errorf("updateFileInfo: %s", b)
		}
		// REST sees the same library.
		if r := e.Do("GET", "/api/upload/files", nil); !strings.Contains(string(r.Body), "Seen from above") {
			t.Errorf("REST does not see the change: %s", r.Body)
		}
		res, b = gql(`mutation($id: ID!) { removeFile(id: $id) { data { attributes { name } } } }`, map[string]any{"id": id})
		if dig(res, "data", "removeFile", "data", "attributes", "name") != "line.png" {
			t.Errorf("removeFile: %s", b)
		}
		res, b = gql(`query($id: ID) { uploadFile(id: $id) { data { id } } }`, map[string]any{"id": id})
		if dig(res, "data", "uploadFile", "data") != nil {
			t.Errorf("removed file still there: %s", b)
		}

		// Bad multipart requests are 4xx, never a 500.
		bad := []struct {
			name, ops, fileMap string
			files              map[string][2]string
			status             int
		}{
			{"map names a missing file", `{"query":"mutation($f: Upload!) { upload(file: $f) { data { id } } }","variables":{"f":null}}`, `{"0":["variables.f"]}`, nil, 400},
			{"path not under variables", `{"query":"mutation($f: Upload!) { upload(file: $f) { data { id } } }","variables":{"f":null}}`, `{"0":["f"]}`, map[string][2]string{"0": {"a.txt", "a"}}, 400},
			{"unknown variable", `{"query":"mutation($f: Upload!) { upload(file: $f) { data { id } } }","variables":{"f":null}}`, `{"0":["variables.g"]}`, map[string][2]string{"0": {"a.txt", "a"}}, 400},
			{"operations not JSON", `{nope`, `{}`, nil, 400},
			{"batched", `[{"query":"{ __typename }"}]`, `{}`, nil, 400},
			{"file over the limit", `{"query":"mutation($f: Upload!) { upload(file: $f) { data { id } } }","variables":{"f":null}}`, `{"0":["variables.f"]}`,
				map[string][2]string{"0": {"big.txt", strings.Repeat("x", 300<<10)}}, 413},
		}
		for _, c := range bad {
			if status, _, body := gqlMultipart(t, e, c.ops, c.fileMap, c.files); status != c.status {
				t.Errorf("%s: %d %s", c.name, status, body)
			}
		}
		// A file written in the document is not a file.
		if r := e.Do("POST", "/graphql", map[string]any{"query": `mutation { upload(file: "x") { data { id } } }`}); r.Status != 400 {
			t.Errorf("literal upload: %d %s", r.Status, r.Body)
		}
	})
}

// Without the upload permission a multipart request is refused before its
// body is read, and the upload queries need their own actions.
func TestGraphQLUploadPermissions(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := testenv.Start(t, db(t), testenv.Options{Public: testenv.AllActions(t, "")})
		status, _, body := gqlMultipart(t, e,
			`{"query":"mutation($f: Upload!) { upload(file: $f) { data { id } } }","variables":{"f":null}}`,
			`{"0":["variables.f"]}`, map[string][2]string{"0": {"a.txt", "a"}})
		if status != 403 || !strings.Contains(string(body), "FORBIDDEN") {
			t.Errorf("multipart without upload: %d %s", status, body)
		}
		for _, q := range []string{`{ uploadFiles { data { id } } }`, `{ uploadFile(id: "1") { data { id } } }`,
			`mutation { removeFile(id: "1") { data { id } } }`, `mutation { updateFileInfo(id: "1", info: {name: "x"}) { data { id } } }`} {
			r := e.Do("POST", "/graphql", map[string]any{"query": q})
			if !strings.Contains(string(r.Body), `"code":"FORBIDDEN"`) {
				t.Errorf("%s: %d %s", q, r.Status, r.Body)
			}
		}
	})
}

// dig walks maps and lists.
func dig(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			l, _ := v.([]any)
			if k >= len(l) {
				return nil
			}
			v = l[k]
		default:
			panic(fmt.Sprint("bad path step ", p))
		}
	}
	return v
}

// refId, ref and field attach uploaded files to a document's media
// attribute, as REST's upload does.
func TestGraphQLUploadAttach(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := testenv.Start(t, db(t), testenv.Options{Public: append(testenv.AllActions(t, ""), uploadActions...)})
		art := e.Do("POST", "/api/articles", map[string]any{"data": map[string]any{"title": "With media"}}).Data()
		doc := art["documentId"].(string)
		img := string(pngOf(20, 10))
		ops := func(q string, vars string) string {
			b, _ := json.Marshal(map[string]any{"query": q, "variables": json.RawMessage(vars)})
			return string(b)
		}
		status, _, body := gqlMultipart(t, e,
			ops(`mutation($f: Upload!, $id: ID) { upload(file: $f, ref: "api::article.article", refId: $id, field: "cover") { data { id } } }`,
				fmt.Sprintf(`{"f":null,"id":%q}`, doc)),
			`{"0":["variables.f"]}`, map[string][2]string{"0": {"cover.png", img}})
		if status != 200 || strings.Contains(string(body), "errors") {
			t.Fatalf("upload with ref: %d %s", status, body)
		}
		status, _, body = gqlMultipart(t, e,
			ops(`mutation($fs: [Upload]!, $id: ID) { multipleUpload(files: $fs, ref: "api::article.article", refId: $id, field: "gallery") { data { id } } }`,
				fmt.Sprintf(`{"fs":[null,null],"id":%q}`, doc)),
			`{"a":["variables.fs.0"],"b":["variables.fs.1"]}`, map[string][2]string{"a": {"g1.png", img}, "b": {"g2.png", img}})
		if status != 200 || strings.Contains(string(body), "errors") {
			t.Fatalf("multipleUpload with ref: %d %s", status, body)
		}
		got := e.Do("GET", "/api/articles/"+doc+"?status=draft&populate[0]=cover&populate[1]=gallery", nil).Data()
		if dig(got, "cover", "name") != "cover.png" || dig(got, "gallery", 1, "name") != "g2.png" {
			t.Errorf("attached: %v %v", got["cover"], got["gallery"])
		}
		// A field that is not media is refused before any file is kept.
		before := e.Do("GET", "/api/upload/files", nil).Body
		_, out, body := gqlMultipart(t, e,
			ops(`mutation($f: Upload!, $id: ID) { upload(file: $f, ref: "api::article.article", refId: $id, field: "title") { data { id } } }`,
				fmt.Sprintf(`{"f":null,"id":%q}`, doc)),
			`{"0":["variables.f"]}`, map[string][2]string{"0": {"x.png", img}})
		if out["errors"] == nil {
			t.Errorf("a non-media field: %s", body)
		}
		if after := e.Do("GET", "/api/upload/files", nil).Body; string(after) != string(before) {
			t.Errorf("a file was kept for a refused attach")
		}
	})
}
