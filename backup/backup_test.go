package backup_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"mime/multipart"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stratum-cms/stratum/app"
	"github.com/stratum-cms/stratum/auth"
	"github.com/stratum-cms/stratum/backup"
	"github.com/stratum-cms/stratum/examples/blogseed"
	"github.com/stratum-cms/stratum/internal/testenv"
)

var uploadActions = []string{"plugin::upload.content-api.upload", "plugin::upload.content-api.find",
	"plugin::upload.content-api.findOne"}

// start runs the blog example on dbURL with its media in uploads.
func start(t *testing.T, dbURL, uploads string) *testenv.Env {
	t.Helper()
	public := append(testenv.AllActions(t, ""), uploadActions...)
	public = append(public, auth.ActionUserFind)
	return testenv.Start(t, dbURL, testenv.Options{
		Permissions: auth.Permissions{"public": public, "authenticated": append([]string{auth.ActionMe}, public...)},
		Auth:        auth.Config{RateLimit: auth.RateLimitConfig{Disabled: true}},
		Tune:        func(c *app.Config) { c.Upload.Dir = uploads },
	})
}

func options(e *testenv.Env) backup.Options {
	return backup.Options{Types: e.Engine.Registry.Current().Schema.Types, UploadDir: e.App.Config.Upload.Dir}
}

// fixture is what the original project holds besides its documents.
type fixture struct {
	article, userJWT, token, full, admin, fileURL string
	fileID                                        int64
}

// seedProject fills the blog example: documents, a user, an API token, an
// admin, a webhook and an image set as an article's cover.
func seedProject(t *testing.T, e *testenv.Env) fixture {
	t.Helper()
	var f fixture
	if _, err := blogseed.Seed(context.Background(), e.Engine, 12); err != nil {
		t.Fatal(err)
	}
	r := e.Do("POST", "/api/auth/local/register", map[string]any{"username": "ada", "email": "ada@example.com", "password": "secret-ada"})
	if r.Status != 200 {
		t.Fatalf("register: %d %s", r.Status, r.Body)
	}
	f.userJWT = r.JSON["jwt"].(string)
	r = e.Do("POST", "/admin/register-admin", map[string]any{"email": "admin@example.com", "password": "Admin-passw0rd", "firstname": "Ada"})
	if r.Status != 200 {
		t.Fatalf("register-admin: %d %s", r.Status, r.Body)
	}
	f.admin = r.Data()["token"].(string)
	r = e.Do("POST", "/admin/api-tokens", map[string]any{"name": "site", "type": "read-only"}, "Authorization", "Bearer "+f.admin)
	if r.Status != 201 {
		t.Fatalf("token: %d %s", r.Status, r.Body)
	}
	f.token = r.Data()["accessKey"].(string)
	r = e.Do("POST", "/admin/api-tokens", map[string]any{"name": "all", "type": "full-access"}, "Authorization", "Bearer "+f.admin)
	if r.Status != 201 {
		t.Fatalf("token: %d %s", r.Status, r.Body)
	}
	f.full = r.Data()["accessKey"].(string)
	// A type defined through the admin API (stored in the database, no
	// schema file): the restored project has no table for it yet.
	note := `{"kind":"collectionType","collectionName":"notes","info":{"singularName":"note","pluralName":"notes"},
		"options":{"draftAndPublish":false},"attributes":{"title":{"type":"string","required":true},"done":{"type":"boolean"}}}`
	if r := e.Do("POST", "/admin/content-types", note, "Authorization", "Bearer "+f.admin); r.Status != 201 {
		t.Fatalf("define notes: %d %s", r.Status, r.Body)
	}
	for _, title := range []string{"first", "second"} {
		r := e.Do("POST", "/api/notes", map[string]any{"data": map[string]any{"title": title, "done": title == "first"}}, "Authorization", "Bearer "+f.full)
		if r.Status != 201 {
			t.Fatalf("note: %d %s", r.Status, r.Body)
		}
	}
	r = e.Do("POST", "/admin/webhooks", map[string]any{"name": "build", "url": "https://build.example.com/hook", "events": []string{"entry.publish"},
		"headers": map[string]string{"X-Key": "k"}}, "Authorization", "Bearer "+f.admin)
	if r.Status != 201 && r.Status != 200 {
		t.Fatalf("webhook: %d %s", r.Status, r.Body)
	}
	// An image, with its formats, as the first article's cover.
	img := image.NewRGBA(image.Rect(0, 0, 640, 400))
	for x := 0; x < 640; x += 3 {
		img.Set(x, x%400, color.RGBA{200, 30, 30, 255})
	}
	var png1 bytes.Buffer
	_ = png.Encode(&png1, img)
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	w, _ := mw.CreateFormFile("files", "cover.png")
	_, _ = w.Write(png1.Bytes())
	_ = mw.WriteField("fileInfo", `{"alternativeText":"A cover"}`)
	_ = mw.Close()
	res, err := http.Post(e.URL+"/api/upload", mw.FormDataContentType(), &body)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	var files []map[string]any
	if res.StatusCode != 201 || json.Unmarshal(b, &files) != nil || len(files) != 1 {
		t.Fatalf("upload: %d %s", res.StatusCode, b)
	}
	f.fileID, f.fileURL = int64(files[0]["id"].(float64)), files[0]["url"].(string)
	r = e.Do("GET", "/api/articles?sort=id&pagination[pageSize]=1", nil)
	if len(r.List()) != 1 {
		t.Fatalf("articles: %s", r.Body)
	}
	f.article = r.List()[0]["documentId"].(string)
	if r := e.Do("PUT", "/api/articles/"+f.article, map[string]any{"data": map[string]any{"cover": f.fileID}}); r.Status != 200 {
		t.Fatalf("set cover: %d %s", r.Status, r.Body)
	}
	return f
}

// answers are the server's answers to a set of requests, by name.
func answers(t *testing.T, e *testenv.Env, f fixture) map[string]any {
	t.Helper()
	out := map[string]any{}
	get := func(name, path string, headers ...string) {
		r := e.Do("GET", path, nil, headers...)
		if r.Status != 200 {
			t.Errorf("%s (%s): %d %s", name, e.DB, r.Status, r.Body)
		}
		var v any
		_ = json.Unmarshal(r.Body, &v)
		out[name] = v
	}
	get("articles", "/api/articles?populate=*&sort=id&pagination[pageSize]=100")
	get("drafts", "/api/articles?status=draft&populate[author]=true&populate[tags]=true&populate[cover]=true&sort=id&pagination[pageSize]=100")
	get("article", "/api/articles/"+f.article+"?populate=*")
	get("authors", "/api/authors?populate=*&sort=id&pagination[pageSize]=100")
	get("categories", "/api/categories?populate=*&sort=id&pagination[pageSize]=100")
	get("tags", "/api/tags?sort=id&pagination[pageSize]=100")
	get("filtered", "/api/articles?filters[author][name][$notNull]=true&fields[0]=title&sort[0]=views:desc&sort[1]=id&pagination[withCount]=true")
	get("users", "/api/users")
	get("me", "/api/users/me", "Authorization", "Bearer "+f.userJWT)
	get("files", "/api/upload/files")
	get("file", fmt.Sprintf("/api/upload/files/%d", f.fileID))
	get("with token", "/api/articles?sort=id&fields[0]=title", "Authorization", "Bearer "+f.token)
	get("notes", "/api/notes?sort=id", "Authorization", "Bearer "+f.full)
	get("definitions", "/admin/content-types/api::note.note", "Authorization", "Bearer "+f.admin)
	get("webhooks", "/admin/webhooks", "Authorization", "Bearer "+f.admin)
	get("api tokens", "/admin/api-tokens", "Authorization", "Bearer "+f.admin)
	get("roles", "/admin/users-permissions/roles", "Authorization", "Bearer "+f.admin)
	// lastUsedAt moves with every request made with the token, this one's
	// included.
	if m, ok := out["api tokens"].(map[string]any); ok {
		list, _ := m["data"].([]any)
		for _, k := range list {
			if k, ok := k.(map[string]any); ok {
				delete(k, "lastUsedAt")
			}
		}
	}
	r := e.Do("POST", "/api/auth/local", map[string]any{"identifier": "ada@example.com", "password": "secret-ada"})
	if r.Status != 200 {
		t.Errorf("login (%s): %d %s", e.DB, r.Status, r.Body)
	}
	out["login user"] = r.JSON["user"]
	res, err := http.Get(e.URL + f.fileURL)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || len(b) == 0 {
		t.Errorf("media %s (%s): %d", f.fileURL, e.DB, res.StatusCode)
	}
	out["media bytes"] = b
	return out
}

func compare(t *testing.T, step string, want, got map[string]any) {
	t.Helper()
	for name, w := range want {
		if !reflect.DeepEqual(w, got[name]) {
			wb, _ := json.Marshal(w)
			gb, _ := json.Marshal(got[name])
			t.Errorf("%s: %s differs\n--- original\n%.3000s\n--- restored\n%.3000s", step, name, wb, gb)
		}
	}
}

// TestRoundTrip exports a seeded project on SQLite, imports it on
// PostgreSQL (when TEST_DATABASE_URL is set; SQLite otherwise), exports
// that and imports it on SQLite again: every answer of the restored
// servers equals the original's, the user logs in with their password,
// the API token and the JWTs issued before still work, and new documents
// get new ids.
func TestRoundTrip(t *testing.T) {
	ctx := context.Background()
	dbs := testenv.Databases(t)
	chain := []string{"sqlite", "sqlite"}
	if _, ok := dbs["postgres"]; ok {
		chain = []string{"sqlite", "postgres", "sqlite"}
	}
	src := start(t, dbs["sqlite"](t), t.TempDir())
	f := seedProject(t, src)
	want := answers(t, src, f)
	if list, _ := want["articles"].(map[string]any)["data"].([]any); len(list) < 5 {
		t.Fatalf("the seed made %d articles", len(list))
	}
	if list, _ := want["notes"].(map[string]any)["data"].([]any); len(list) != 2 {
		t.Fatalf("notes: %v", want["notes"])
	}
	cur := src
	for i, name := range chain[1:] {
		step := fmt.Sprintf("%s -> %s (%d)", chain[i], name, i+1)
		var archive bytes.Buffer
		sum, err := backup.Export(ctx, cur.Store, &archive, options(cur))
		if err != nil {
			t.Fatalf("%s: export: %v", step, err)
		}
		if sum.Media < 2 || sum.Rows < 30 {
			t.Fatalf("%s: export: %+v", step, sum)
		}
		url, uploads := dbs[name](t), t.TempDir()
		loader := start(t, url, uploads)
		var prog bytes.Buffer
		o := options(loader)
		o.Progress = &prog
		got, err := backup.Import(ctx, loader.Store, bytes.NewReader(archive.Bytes()), o)
		if err != nil {
			t.Fatalf("%s: import: %v", step, err)
		}
		if *got != *sum {
			t.Errorf("%s: imported %+v, exported %+v", step, got, sum)
		}
		if !strings.Contains(prog.String(), "import: articles: ") {
			t.Errorf("%s: progress:\n%s", step, prog.String())
		}
		// A second import into the now full project is refused.
		if _, err := backup.Import(ctx, loader.Store, bytes.NewReader(archive.Bytes()), options(loader)); err == nil ||
			!strings.Contains(err.Error(), "already has") || !strings.Contains(err.Error(), "--force") {
			t.Errorf("%s: import into a full project: %v", step, err)
		}
		restored := start(t, url, uploads)
		compare(t, step, want, answers(t, restored, f))
		cur = restored
	}
	// The restored project goes on: a new document gets a new id.
	r := cur.Do("POST", "/api/tags", map[string]any{"data": map[string]any{"name": "after the restore"}})
	if r.Status != 201 && r.Status != 200 {
		t.Fatalf("create after restore: %d %s", r.Status, r.Body)
	}
	var maxID float64
	for _, tag := range want["tags"].(map[string]any)["data"].([]any) {
		maxID = max(maxID, tag.(map[string]any)["id"].(float64))
	}
	if id, _ := r.Data()["id"].(float64); id <= maxID {
		t.Errorf("new tag id %v, the restored ones go up to %v", id, maxID)
	}
}

// TestForce: --force replaces a project's content with the archive's.
func TestForce(t *testing.T) {
	ctx := context.Background()
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		src := start(t, db(t), t.TempDir())
		f := seedProject(t, src)
		var archive bytes.Buffer
		if _, err := backup.Export(ctx, src.Store, &archive, options(src)); err != nil {
			t.Fatal(err)
		}
		url, uploads := db(t), t.TempDir()
		dst := start(t, url, uploads)
		if r := dst.Do("POST", "/api/tags", map[string]any{"data": map[string]any{"name": "only here"}}); r.Status != 201 && r.Status != 200 {
			t.Fatalf("tag: %d %s", r.Status, r.Body)
		}
		if _, err := backup.Import(ctx, dst.Store, bytes.NewReader(archive.Bytes()), options(dst)); err == nil ||
			!strings.Contains(err.Error(), "1 rows in tags") {
			t.Fatalf("import into a project with a tag: %v", err)
		}
		o := options(dst)
		o.Force = true
		if _, err := backup.Import(ctx, dst.Store, bytes.NewReader(archive.Bytes()), o); err != nil {
			t.Fatal(err)
		}
		restored := start(t, url, uploads)
		compare(t, "force", answers(t, src, f), answers(t, restored, f))
	})
}

// gz compresses lines into an archive.
func gz(lines ...string) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	for _, l := range lines {
		_, _ = io.WriteString(w, l+"\n")
	}
	_ = w.Close()
	return b.Bytes()
}

// TestBadArchives: damaged, truncated, foreign and newer archives are
// refused with a message saying so, and the project is left as it was.
func TestBadArchives(t *testing.T) {
	ctx := context.Background()
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		src := start(t, db(t), t.TempDir())
		seedProject(t, src)
		var archive bytes.Buffer
		if _, err := backup.Export(ctx, src.Store, &archive, options(src)); err != nil {
			t.Fatal(err)
		}
		good := archive.Bytes()
		flipped := append([]byte{}, good...)
		for i := len(flipped) / 2; i < len(flipped)/2+64; i++ {
			flipped[i] ^= 0x5a
		}
		// A valid gzip stream whose lines stop before the end.
		var plain bytes.Buffer
		zr, _ := gzip.NewReader(bytes.NewReader(good))
		_, _ = io.Copy(&plain, zr)
		lines := strings.Split(strings.TrimSpace(plain.String()), "\n")
		header := lines[0]
		cases := []struct {
			name, want string
			data       []byte
		}{
			{"empty", "not a Stratum backup", nil},
			{"not gzip", "not a Stratum backup", []byte(`{"format":"stratum-backup"}`)},
			{"cut in half", "truncated", good[:len(good)/2]},
			{"cut at the end", "truncated", good[:len(good)-6]},
			{"damaged", "damaged", flipped},
			{"no end line", "truncated", gz(lines[:len(lines)-1]...)},
			{"rows missing", "rows", gz(append(lines[:3:3], lines[len(lines)-1])...)},
			{"other format", "not a Stratum backup", gz(`{"format":"something","version":1}`)},
			{"newer format", "format version is 2, newer than this Stratum reads (up to 1)",
				gz(strings.Replace(header, `"version":1`, `"version":2`, 1), `{"end":{"tables":0,"rows":0,"media":0}}`)},
			{"newer migrations", "made by a newer Stratum",
				gz(strings.Replace(header, `"migration":`, `"migration":99`, 1), `{"end":{"tables":0,"rows":0,"media":0}}`)},
			{"system table", "never holds", gz(header, `{"table":"stratum_migrations","columns":["version"],"rows":0}`)},
			{"document table named as a system one", "never holds", gz(header, `{"table":"up_users","documents":true,"columns":["id"],"rows":0}`)},
			{"unknown table", "unknown system table", gz(header, `{"table":"pg_user","columns":["id"],"rows":0}`)},
			{"unknown column", "no column", gz(header, `{"table":"up_roles","columns":["id","nope"],"rows":0}`)},
			{"bad value", "not an integer", gz(header, `{"table":"up_roles","columns":["id"],"rows":1}`, `{"table":"up_roles","row":{"id":"x"}}`)},
			{"media outside", "not a path inside", gz(header, `{"media":"../../etc/x","offset":0,"data":"AA=="}`)},
			{"a line of garbage", "not a line of a backup", gz(header, `{"table":`)},
		}
		// One project, which every failed import must leave empty.
		dst := start(t, db(t), t.TempDir())
		for _, c := range cases {
			_, err := backup.Import(ctx, dst.Store, bytes.NewReader(c.data), options(dst))
			t.Logf("%s: %v", c.name, err)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s: %v, want an error with %q", c.name, err, c.want)
				continue
			}
			if tbl, n, err := dst.Store.HasContent(ctx, options(dst).Types); err != nil || tbl != "" {
				t.Errorf("%s: after a failed import, %d rows in %s (%v)", c.name, n, tbl, err)
			}
			if r := dst.Do("GET", "/api/users", nil); r.Status != 200 || strings.TrimSpace(string(r.Body)) != "[]" {
				t.Errorf("%s: users after a failed import: %d %s", c.name, r.Status, r.Body)
			}
		}
	})
}

// TestExportWhileWriting: an export reads one snapshot while documents are
// being created: every table's rows match the count taken at its start
// (Export checks it), and the archive restores.
func TestExportWhileWriting(t *testing.T) {
	ctx := context.Background()
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		src := start(t, db(t), t.TempDir())
		stop, done := make(chan struct{}), make(chan int)
		go func() {
			n := 0
			for {
				select {
				case <-stop:
					done <- n
					return
				default:
				}
				body, _ := json.Marshal(map[string]any{"data": map[string]any{"name": fmt.Sprintf("tag %d", n)}})
				res, err := http.Post(src.URL+"/api/tags", "application/json", bytes.NewReader(body))
				if err == nil {
					res.Body.Close()
					n++
				}
			}
		}()
		var archive bytes.Buffer
		for i := 0; i < 2; i++ {
			archive.Reset()
			// Progress lines come between a table's count and its rows:
			// slow ones give the writer time to add rows there.
			o := options(src)
			o.Progress = slowWriter{}
			if _, err := backup.Export(ctx, src.Store, &archive, o); err != nil {
				close(stop)
				<-done
				t.Fatalf("export %d while writing: %v", i, err)
			}
		}
		close(stop)
		if n := <-done; n == 0 {
			t.Fatal("no tag was written during the exports")
		}
		dst := start(t, db(t), t.TempDir())
		if _, err := backup.Import(ctx, dst.Store, bytes.NewReader(archive.Bytes()), options(dst)); err != nil {
			t.Fatal(err)
		}
	})
}

type slowWriter struct{}

func (slowWriter) Write(b []byte) (int, error) {
	time.Sleep(60 * time.Millisecond)
	return len(b), nil
}
