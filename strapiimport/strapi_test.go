package strapiimport_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stratum-cms/stratum/app"
	"github.com/stratum-cms/stratum/internal/testdb"
	"github.com/stratum-cms/stratum/store"
	"github.com/stratum-cms/stratum/strapiimport"
)

// The secrets of the Strapi 5 database in ../shared/strapi5-db (its README).
var strapiEnv = map[string]string{
	"JWT_SECRET":       "gDVTtaBMRFAsAU1hkFifig==",
	"API_TOKEN_SALT":   "+biIU/oSSycUAcY02t0PqA==",
	"ADMIN_JWT_SECRET": "import-test-admin-secret-0123456789",
}

// The API tokens the answers were asked with.
var credentials = map[string]string{
	"ro": "dfb643ad41372be51bf7f5ad7f028f7a2c3b06f0c09aef1d4adfa8ccbbf1c12762be17f8a8830845ef5821c6e6b7fd18b41f314081ba4439aa5626b29e303acb1ff1a6ef34728379a6e92f23d96a0e9bbd3f548f112c9b1924a04e199bd45e7e465663c9b8dc7114a6bb5a101fa61f99a881cee0074baa5de386c3d2a04dc6d8",
	"fa": "f4554ab63c81ca289cff1149e869c97adb3450202531dc5688aa59379ca037b2bf5bb2bfc15d678673d4a71b1f24c0cbdfd8fa7f461f216c0b408a6ed1ded3d23bc244c9b82cbdf8ca8a186568663e654528d5cad89b72e575f3976280467767cc10a29d858d0b665b0b12fcc9349fe0c2283a6c7a329ce6db59d70e4ed4a76f",
}

func getenv(k string) string { return strapiEnv[k] }

// project copies the Strapi project's schema files and configuration (not
// its uploads) to a new folder.
func project(t *testing.T, shared string) string {
	t.Helper()
	dir := t.TempDir()
	for _, sub := range []string{"src", "config"} {
		if err := os.CopyFS(filepath.Join(dir, sub), os.DirFS(filepath.Join(shared, "project", sub))); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func openApp(t *testing.T, dir, dbURL string) *app.App {
	t.Helper()
	a, err := app.Open(dir, app.Options{Getenv: getenv, Tune: func(c *app.Config) { c.DatabaseURL = dbURL }})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// runImport is what `stratum import strapi` does.
func runImport(t *testing.T, from, dir, dbURL, uploads string) *strapiimport.Report {
	t.Helper()
	ctx := context.Background()
	src, err := store.OpenStrapiSource(ctx, from)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	a := openApp(t, dir, dbURL)
	defer a.Close()
	rep, err := strapiimport.Run(ctx, src, a.Store, strapiimport.Options{Schema: a.Engine.Registry.Current().Schema,
		Project: dir, Uploads: uploads, UploadDir: a.Config.Upload.Dir})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

type answer struct {
	Request struct {
		Method, Path, Credential string
		Body                     json.RawMessage
	}
	Status int
	Body   json.RawMessage
}

func answers(t *testing.T, shared string) map[string]answer {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(shared, "answers", "*.json"))
	if len(files) == 0 {
		t.Fatalf("no answers in %s", shared)
	}
	out := map[string]answer{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var a answer
		if err := json.Unmarshal(b, &a); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out[strings.TrimSuffix(filepath.Base(f), ".json")] = a
	}
	return out
}

// ask replays a request and answers the status and decoded body.
func ask(t *testing.T, srv string, a answer) (int, any) {
	t.Helper()
	var body io.Reader
	if len(a.Request.Body) > 0 {
		body = bytes.NewReader(a.Request.Body)
	}
	req, _ := http.NewRequest(a.Request.Method, srv+a.Request.Path, body)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if k, ok := credentials[a.Request.Credential]; ok {
		req.Header.Set("Authorization", "Bearer "+k)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s %s: %d %s", a.Request.Method, a.Request.Path, res.StatusCode, b)
	}
	return res.StatusCode, v
}

// differences are the documented ones (README, "Moving from Strapi"):
// keys Stratum does not answer or answers differently, by answer.
func normalize(name string, v any) any {
	switch name {
	case "13-upload-files":
		// No signed URLs (isUrlSigned is about private S3 buckets).
		if l, ok := v.([]any); ok {
			for _, f := range l {
				if m, ok := f.(map[string]any); ok {
					if m["isUrlSigned"] == false {
						delete(m, "isUrlSigned")
					}
				}
			}
		}
	case "12-login-alice":
		// A new JWT: signed with the same secret, issued now.
		if m, ok := v.(map[string]any); ok {
			if s, ok := m["jwt"].(string); ok && strings.Count(s, ".") == 2 {
				m["jwt"] = "<jwt>"
			}
		}
	}
	return v
}

// diff lists where got differs from want, by JSON path.
func diff(path string, want, got any, out *[]string) {
	if len(*out) > 20 {
		return
	}
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			*out = append(*out, fmt.Sprintf("%s: want an object, got %s", path, short(got)))
			return
		}
		keys := map[string]bool{}
		for k := range w {
			keys[k] = true
		}
		for k := range g {
			keys[k] = true
		}
		sorted := make([]string, 0, len(keys))
		for k := range keys {
			sorted = append(sorted, k)
		}
		sort.Strings(sorted)
		for _, k := range sorted {
			wv, wok := w[k]
			gv, gok := g[k]
			switch {
			case !gok:
				*out = append(*out, fmt.Sprintf("%s.%s: missing (want %s)", path, k, short(wv)))
			case !wok:
				*out = append(*out, fmt.Sprintf("%s.%s: not in Strapi's answer (got %s)", path, k, short(gv)))
			default:
				diff(path+"."+k, wv, gv, out)
			}
		}
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			*out = append(*out, fmt.Sprintf("%s: want %s, got %s", path, short(want), short(got)))
			return
		}
		for i := range w {
			diff(fmt.Sprintf("%s[%d]", path, i), w[i], g[i], out)
		}
	default:
		if !reflect.DeepEqual(want, got) {
			*out = append(*out, fmt.Sprintf("%s: want %s, got %s", path, short(want), short(got)))
		}
	}
}

func short(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 200 {
		return string(b[:200]) + "..."
	}
	return string(b)
}

// compareAnswers replays every answer against srv.
func compareAnswers(t *testing.T, srv string, shared string) {
	t.Helper()
	all := answers(t, shared)
	names := make([]string, 0, len(all))
	for n := range all {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		a := all[n]
		t.Run(n, func(t *testing.T) {
			status, got := ask(t, srv, a)
			var want any
			if err := json.Unmarshal(a.Body, &want); err != nil {
				t.Fatal(err)
			}
			if status != a.Status {
				t.Errorf("status %d, Strapi answered %d: %s", status, a.Status, short(got))
			}
			var d []string
			diff("body", normalize(n, want), normalize(n, got), &d)
			if len(d) > 0 {
				t.Errorf("%s %s differs from Strapi's answer:\n  %s", a.Request.Method, a.Request.Path, strings.Join(d, "\n  "))
			}
		})
	}
}

func serve(t *testing.T, dir, dbURL string) string {
	t.Helper()
	a := openApp(t, dir, dbURL)
	t.Cleanup(func() { a.Close() })
	srv := httptest.NewServer(a.HTTP)
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestImportStrapiPostgres imports the real Strapi 5 database and asks
// Stratum what Strapi was asked.
func TestImportStrapiPostgres(t *testing.T) {
	shared := testdb.SharedDir(t, "strapi5-db")
	from := testdb.LoadedPostgres(t, "strapi5_import", filepath.Join(shared, "strapi5.sql"))
	testdb.Each(t, func(t *testing.T, dbURL func(testing.TB) string) {
		dir := project(t, shared)
		db := dbURL(t)
		rep := runImport(t, from, dir, db, filepath.Join(shared, "project", "public", "uploads"))
		want := map[string]int{"api::article.article": 80, "api::category.category": 11, "api::tag.tag": 30, "api::global.global": 1,
			"files": 1, "users": 2, "roles": 2, "permissions": 25, "admins": 1, "API tokens": 4, "locales": 2}
		for k, n := range want {
			if rep.Counts[k] != n {
				t.Errorf("%s: %d imported, want %d", k, rep.Counts[k], n)
			}
		}
		srv := serve(t, dir, db)
		compareAnswers(t, srv, shared)

		// Again: the same rows (upserts on the ids), the same answers.
		again := runImport(t, from, dir, db, filepath.Join(shared, "project", "public", "uploads"))
		if !reflect.DeepEqual(again.Counts["api::article.article"], rep.Counts["api::article.article"]) || again.Counts["files copied"] != 0 {
			t.Errorf("second import: %v, first: %v", again.Counts, rep.Counts)
		}
		t.Run("again", func(t *testing.T) { compareAnswers(t, srv, shared) })

		// The uploaded file was copied and is served.
		res, err := http.Get(srv + "/uploads/thumbnail_cover_1c597357f1.png")
		if err != nil || res.StatusCode != 200 {
			t.Errorf("GET the imported thumbnail: %v %v", res.Status, err)
		} else {
			res.Body.Close()
		}

		// A JWT Strapi issued (answers/12) is accepted: same JWT_SECRET,
		// same user id.
		var login struct{ JWT string }
		_ = json.Unmarshal(answers(t, shared)["12-login-alice"].Body, &login)
		req, _ := http.NewRequest("GET", srv+"/api/users/me", nil)
		req.Header.Set("Authorization", "Bearer "+login.JWT)
		if jwtExpired(t, login.JWT) {
			t.Log("Strapi's JWT of answers/12 has expired: not replayed")
		} else if res, err := http.DefaultClient.Do(req); err != nil {
			t.Error(err)
		} else {
			var me map[string]any
			_ = json.NewDecoder(res.Body).Decode(&me)
			res.Body.Close()
			if res.StatusCode != 200 || me["username"] != "alice" || me["documentId"] != "ryyrepp7xowggdmqzkgt9d09" {
				t.Errorf("GET /api/users/me with Strapi's JWT: %d %v", res.StatusCode, me)
			}
		}

		// The inverse side of a relation comes in the related rows' id
		// order (README, "Moving from Strapi"): Strapi would list article 81
		// first (article_ord 1 in articles_category_lnk, a re-published
		// document's new row keeping its draft's place), Stratum lists it last.
		var inv answer
		inv.Request.Method, inv.Request.Credential = "GET", "public"
		inv.Request.Path = "/api/categories/brshvqawf70kk2n5ryiiwzm2?fields[0]=name&populate[articles][fields][0]=title"
		if status, got := ask(t, srv, inv); status != 200 {
			t.Errorf("GET %s: %d %s", inv.Request.Path, status, short(got))
		} else {
			b, _ := json.Marshal(got)
			var res struct {
				Data struct{ Articles []struct{ ID int } }
			}
			_ = json.Unmarshal(b, &res)
			var ids []int
			for _, a := range res.Data.Articles {
				ids = append(ids, a.ID)
			}
			if fmt.Sprint(ids) != "[23 43 63 81]" {
				t.Errorf("the articles of category Science: ids %v, want [23 43 63 81] (Strapi's order: [81 23 43 63])", ids)
			}
		}

		// New rows get new ids (sequences moved past the imported ones).
		var a answer
		a.Request.Method, a.Request.Path, a.Request.Credential = "POST", "/api/articles", "public"
		a.Request.Body = json.RawMessage(`{"data":{"title":"After the import","slug":"after-the-import"}}`)
		status, got := ask(t, srv, a)
		data, _ := got.(map[string]any)["data"].(map[string]any)
		if status != 201 && status != 200 || data == nil || data["id"].(float64) <= 81 {
			t.Errorf("create after the import: %d %s", status, short(got))
		}
	})
}

// jwtExpired reads a JWT's exp claim (without checking it: the server does).
func jwtExpired(t *testing.T, jwt string) bool {
	parts := strings.Split(jwt, ".")
	if len(parts) != 3 {
		t.Fatalf("not a JWT: %q", jwt)
	}
	b, err := base64.RawURLEncoding.DecodeString(parts[1])
	var claims struct{ Exp int64 }
	if err != nil || json.Unmarshal(b, &claims) != nil || claims.Exp == 0 {
		t.Fatalf("JWT claims: %s %v", b, err)
	}
	return time.Now().Unix() >= claims.Exp
}
