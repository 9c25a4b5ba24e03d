package rest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stratum-cms/stratum/internal/testenv"
	"github.com/stratum-cms/stratum/internal/tests3"
)

// s3Project is a copy of the blog example whose config/plugins.json puts
// uploads in a bucket of srv (Strapi's aws-s3 provider configuration).
func s3Project(t *testing.T, srv *tests3.Server, bucket, baseURL, rootPath string) string {
	t.Helper()
	src := filepath.Join(testenv.Root(), "examples", "blog")
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	plugins := `{"upload": {"config": {"provider": "aws-s3", "providerOptions": ` + srv.ProviderOptions(bucket, baseURL, rootPath) + `}}}`
	if err := os.WriteFile(filepath.Join(dst, "config", "plugins.json"), []byte(plugins), 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}

func httpGet(t *testing.T, url string) (int, string, []byte) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header.Get("Content-Type"), b
}

// TestUploadS3: with the aws-s3 provider, an upload over HTTP puts the
// file and its formats in the bucket, under baseUrl/rootPath; the file
// object says "aws-s3"; the file is read at its URL from the S3 server; a
// second node over the same database answers the same URL; replacing and
// deleting (through either node) change the bucket; nothing is served
// under /uploads.
func TestUploadS3(t *testing.T) {
	srv := tests3.Start(t)
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		bucket := "media-" + strings.ToLower(filepath.Base(t.Name()))
		srv.CreateBucket(t, bucket)
		srv.PublicRead(t, bucket)
		base := srv.Endpoint + "/" + bucket
		dir := s3Project(t, srv, bucket, base, "uploads")
		dbURL := db(t)
		opts := testenv.Options{Dir: dir, Public: append(testenv.AllActions(t, dir), uploadActions...)}
		a := testenv.Start(t, dbURL, opts)
		b := testenv.Start(t, dbURL, opts) // a second node

		img := pngOf(800, 600)
		status, body := uploadFiles(t, a, "", map[string][]byte{"Harbour.png": img}, "")
		if status != 201 {
			t.Fatalf("upload: %d %s", status, body)
		}
		var files []struct {
			ID       int64  `json:"id"`
			Hash     string `json:"hash"`
			URL      string `json:"url"`
			Provider string `json:"provider"`
			Formats  map[string]struct {
				Hash, Ext, URL string
			} `json:"formats"`
		}
		if err := json.Unmarshal(body, &files); err != nil || len(files) != 1 {
			t.Fatalf("upload answer: %s", body)
		}
		f := files[0]
		if f.Provider != "aws-s3" || f.URL != base+"/uploads/"+f.Hash+".png" || len(f.Formats) != 3 { // thumbnail, small, medium
			t.Fatalf("file object: %s", body)
		}
		want := []string{"uploads/" + f.Hash + ".png"}
		for name, v := range f.Formats {
			if v.URL != base+"/uploads/"+v.Hash+v.Ext {
				t.Fatalf("format %s url %s", name, v.URL)
			}
			want = append(want, "uploads/"+v.Hash+v.Ext)
		}
		slices.Sort(want)
		if got := srv.Keys(t, bucket); !slices.Equal(got, want) {
			t.Fatalf("bucket holds %v, want %v", got, want)
		}
		// Read at its URL, from the S3 server (a public-read bucket).
		if st, typ, got := httpGet(t, f.URL); st != 200 || typ != "image/png" || !bytes.Equal(got, img) {
			t.Fatalf("GET %s: %d %s, %d bytes", f.URL, st, typ, len(got))
		}
		if st, typ, _ := httpGet(t, f.Formats["thumbnail"].URL); st != 200 || typ != "image/png" {
			t.Fatalf("GET thumbnail: %d %s", st, typ)
		}
		// Nothing on the nodes' disks, nothing served there.
		if st, _, _ := httpGet(t, a.URL+"/uploads/"+f.Hash+".png"); st != 404 {
			t.Fatalf("/uploads on a node with S3: %d", st)
		}
		// The other node answers the same file.
		r := b.Do("GET", fmt.Sprintf("/api/upload/files/%d", f.ID), nil)
		if r.Status != 200 || r.JSON["url"] != f.URL || r.JSON["provider"] != "aws-s3" {
			t.Fatalf("node b: %d %s", r.Status, r.Body)
		}

		// A document's media populated on the other node: the same URL.
		r = a.Do("POST", "/api/articles", map[string]any{"data": map[string]any{"title": "Harbour at dawn", "cover": f.ID}})
		if r.Status != 201 {
			t.Fatalf("article with a cover: %d %s", r.Status, r.Body)
		}
		doc := r.Data()["documentId"].(string)
		r = b.Do("GET", "/api/articles/"+doc+"?populate[cover]=true", nil)
		if cover, _ := r.Data()["cover"].(map[string]any); r.Status != 200 || cover["url"] != f.URL || cover["provider"] != "aws-s3" {
			t.Fatalf("cover populated on node b: %d %s", r.Status, r.Body)
		}

		// Replace through node b: same id, new objects only.
		status, body = uploadFiles(t, b, fmt.Sprintf("?id=%d", f.ID), map[string][]byte{"Dusk.png": pngOf(300, 200)}, "")
		if status != 200 {
			t.Fatalf("replace: %d %s", status, body)
		}
		var g struct {
			ID       int64  `json:"id"`
			Hash     string `json:"hash"`
			URL      string `json:"url"`
			Provider string `json:"provider"`
			Formats  map[string]struct{ Hash, Ext string }
		}
		_ = json.Unmarshal(body, &g)
		if g.ID != f.ID || g.Hash == f.Hash || g.Provider != "aws-s3" || g.URL != base+"/uploads/"+g.Hash+".png" || len(g.Formats) != 1 {
			t.Fatalf("replaced: %s", body)
		}
		want = []string{"uploads/" + g.Formats["thumbnail"].Hash + ".png", "uploads/" + g.Hash + ".png"}
		slices.Sort(want)
		if got := srv.Keys(t, bucket); !slices.Equal(got, want) {
			t.Fatalf("after replace the bucket holds %v, want %v", got, want)
		}
		if r := a.Do("GET", fmt.Sprintf("/api/upload/files/%d", f.ID), nil); r.JSON["url"] != g.URL {
			t.Fatalf("node a after replace: %s", r.Body)
		}
		if st, _, _ := httpGet(t, f.URL); st != 404 {
			t.Fatalf("the replaced bytes are still served: %d", st)
		}

		// Delete through node a: every object goes; node b has no file.
		if r := a.Do("DELETE", fmt.Sprintf("/api/upload/files/%d", f.ID), nil); r.Status != 200 {
			t.Fatalf("delete: %d %s", r.Status, r.Body)
		}
		if got := srv.Keys(t, bucket); len(got) != 0 {
			t.Fatalf("after delete the bucket holds %v", got)
		}
		if r := b.Do("GET", fmt.Sprintf("/api/upload/files/%d", f.ID), nil); r.Status != 404 {
			t.Fatalf("node b after delete: %d", r.Status)
		}
	})
}

// TestUploadS3Unavailable: when the S3 server cannot take the bytes, the
// upload is a 500 that says nothing of the bucket, and no file is listed.
func TestUploadS3Unavailable(t *testing.T) {
	srv := tests3.Start(t)
	dir := s3Project(t, srv, "no-such-bucket", "", "")
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := testenv.Start(t, db(t), testenv.Options{Dir: dir, Public: append(testenv.AllActions(t, dir), uploadActions...)})
		status, body := uploadFiles(t, e, "", map[string][]byte{"a.png": pngOf(400, 300)}, "")
		var env struct {
			Data  any `json:"data"`
			Error struct {
				Status  int    `json:"status"`
				Message string `json:"message"`
			} `json:"error"`
		}
		_ = json.Unmarshal(body, &env)
		if status != 500 || env.Error.Status != 500 || env.Data != nil || strings.Contains(string(body), "no-such-bucket") {
			t.Fatalf("upload into a missing bucket: %d %s", status, body)
		}
		if r := e.Do("GET", "/api/upload/files", nil); r.Status != 200 || string(bytes.TrimSpace(r.Body)) != "[]" {
			t.Fatalf("files after a failed upload: %d %s", r.Status, r.Body)
		}
	})
}

// TestGraphQLUploadS3: GraphQL's upload mutation goes through the same
// provider: the file is in the bucket, its URL under baseUrl, and
// removeFile removes its objects.
func TestGraphQLUploadS3(t *testing.T) {
	srv := tests3.Start(t)
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		bucket := "gql-" + strings.ToLower(filepath.Base(t.Name()))
		srv.CreateBucket(t, bucket)
		base := "https://cdn.example.com/" + bucket
		dir := s3Project(t, srv, bucket, base, "")
		e := testenv.Start(t, db(t), testenv.Options{Dir: dir, Public: append(testenv.AllActions(t, dir), uploadActions...)})
		status, out, body := gqlMultipart(t, e,
			`{"query":"mutation($f: Upload!) { upload(file: $f) { data { id attributes { hash provider url } } } }","variables":{"f":null}}`,
			`{"0":["variables.f"]}`, map[string][2]string{"0": {"notes.txt", "kept in a bucket"}})
		attrs, _ := dig(out, "data", "upload", "data", "attributes").(map[string]any)
		if status != 200 || attrs == nil || attrs["provider"] != "aws-s3" || attrs["url"] != base+"/"+attrs["hash"].(string)+".txt" {
			t.Fatalf("upload: %d %s", status, body)
		}
		if got, _, ok := srv.Get(t, bucket, attrs["hash"].(string)+".txt"); !ok || string(got) != "kept in a bucket" {
			t.Fatalf("object: %v %q", ok, got)
		}
		id := dig(out, "data", "upload", "data", "id").(string)
		r := e.Do("POST", "/graphql", map[string]any{"query": `mutation($id: ID!) { removeFile(id: $id) { data { id } } }`,
			"variables": map[string]any{"id": id}})
		if r.Status != 200 || dig(r.JSON, "errors") != nil {
			t.Fatalf("removeFile: %d %s", r.Status, r.Body)
		}
		if keys := srv.Keys(t, bucket); len(keys) != 0 {
			t.Fatalf("after removeFile the bucket holds %v", keys)
		}
	})
}
