package rest_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"

	"github.com/stratum-cms/stratum/internal/testenv"
)

// fetchDoc reads /openapi.json and makes a validator of it.
func fetchDoc(t *testing.T, e *testenv.Env) (map[string]any, validator.Validator) {
	t.Helper()
	r := e.Do("GET", "/openapi.json", nil)
	if r.Status != 200 || r.Header.Get("ETag") == "" {
		t.Fatalf("openapi.json: %d %v", r.Status, r.Header)
	}
	doc, err := libopenapi.NewDocument(r.Body)
	if err != nil {
		t.Fatal(err)
	}
	v, errs := validator.NewValidator(doc)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return r.JSON, v
}

// TestOpenAPIDescribesRealAnswers: real answers of the server, on both
// databases, validate against the document it serves; the document
// follows schema changes at once; conditional requests get a 304.
func TestOpenAPIDescribesRealAnswers(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := openBlog(t, db, testenv.Options{Public: append(testenv.AllActions(t, ""), uploadActions...)})
		_, v := fetchDoc(t, e)
		r := e.Do("GET", "/openapi.json", nil)
		if again := e.Do("GET", "/openapi.json", nil, "If-None-Match", r.Header.Get("ETag")); again.Status != 304 {
			t.Fatalf("If-None-Match: %d", again.Status)
		}

		status, body := uploadFiles(t, e, "", map[string][]byte{"cover.png": pngOf(64, 48)}, "")
		if status != 201 {
			t.Fatalf("upload: %d %s", status, body)
		}
		var files []map[string]any
		_ = json.Unmarshal(body, &files)
		author := e.Do("POST", "/api/authors", map[string]any{"data": map[string]any{"name": "Ada", "email": "ada@example.com"}}).Data()
		tag := e.Do("POST", "/api/tags", map[string]any{"data": map[string]any{"name": "go"}}).Data()
		art := e.Do("POST", "/api/articles", map[string]any{"data": map[string]any{"title": "Described", "kind": "news", "views": 7,
			"shares": "123456789012", "rating": 4.5, "featured": true, "metadata": map[string]any{"a": 1}, "cover": files[0]["id"],
			"author": author["documentId"], "tags": []any{tag["documentId"]}, "seo": map[string]any{"metaTitle": "S", "shareImage": files[0]["id"]},
			"quotes": []any{map[string]any{"body": "q1"}}, "blocks": []any{map[string]any{"__component": "shared.rich-text", "body": "rt"}},
			"content": []any{map[string]any{"type": "paragraph", "children": []any{map[string]any{"type": "text", "text": "hi"}}}}}}).Data()
		if art == nil {
			t.Fatal("article not created")
		}
		e.Do("PUT", "/api/global", map[string]any{"data": map[string]any{"siteName": "Site"}})
		doc := art["documentId"].(string)
		for _, c := range []struct{ method, path, body string }{
			{"GET", "/api/articles", ""},
			{"GET", "/api/articles?populate=*", ""},
			{"GET", "/api/articles?populate[author][populate]=*&populate[seo][populate]=*&populate[blocks]=true&populate[tags][count]=true", ""},
			{"GET", "/api/articles/" + doc + "?populate[cover]=true&populate[gallery]=true&populate[quotes]=true", ""},
			{"GET", "/api/articles?fields[0]=title&pagination[start]=0&pagination[limit]=5", ""},
			{"GET", "/api/authors?populate=articles", ""},
			{"GET", "/api/global", ""},
			{"GET", "/api/articles/nope", ""},
			{"GET", "/api/articles?filters[nope][$eq]=1", ""},
			{"POST", "/api/tags", `{"data":{"name":"rust"}}`},
			{"PUT", "/api/articles/" + doc, `{"data":{"title":"Described 2"}}`},
			{"GET", "/api/upload/files", ""},
			{"POST", "/api/auth/local/register", `{"username":"kai","email":"kai@example.com","password":"secret-kai"}`},
			{"GET", "/api/users", ""},
		} {
			var rb io.Reader
			if c.body != "" {
				rb = strings.NewReader(c.body)
			}
			req, _ := http.NewRequest(c.method, e.URL+c.path, rb)
			if c.body != "" {
				req.Header.Set("Content-Type", "application/json")
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(res.Body)
			res.Body.Close()
			res.Body = io.NopCloser(bytes.NewReader(b))
			vreq, _ := http.NewRequest(c.method, c.path, nil)
			if ok, errs := v.ValidateHttpResponse(vreq, res); !ok {
				for _, e := range errs {
					t.Errorf("%s %s (%d): %s: %s %v", c.method, c.path, res.StatusCode, e.Message, e.Reason, e.SchemaValidationErrors)
				}
				t.Logf("body: %.2000s", b)
			}
		}

		// A type made through the admin API is in the document at once.
		admin := bearer(adminJWT(t, e))
		e.Do("POST", "/admin/components", json.RawMessage(boxSchema), admin...)
		if r := e.Do("POST", "/admin/content-types", json.RawMessage(noteSchema), admin...); r.Status != 201 {
			t.Fatalf("create type: %d %s", r.Status, r.Body)
		}
		d, _ := fetchDoc(t, e)
		if _, ok := d["paths"].(map[string]any)["/api/notes/{documentId}"]; !ok {
			t.Fatal("the new type is not in the document")
		}
	})
}

// TestREADMEExamplesInOpenAPI: every content-API request the README shows
// (curl and fetch lines) names a path and method the document has.
func TestREADMEExamplesInOpenAPI(t *testing.T) {
	e := testenv.Start(t, testenv.Databases(t)["sqlite"](t), testenv.Options{})
	d, _ := fetchDoc(t, e)
	paths := d["paths"].(map[string]any)
	readme, err := os.ReadFile(filepath.Join(testenv.Root(), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	urlRe := regexp.MustCompile("localhost:1337(/api/[^\\s'\"?\\\\`]*)")
	methodRe := regexp.MustCompile(`-X (GET|POST|PUT|DELETE)`)
	checked := 0
	for _, line := range strings.Split(string(readme), "\n") {
		m := urlRe.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		method := "get"
		if mm := methodRe.FindStringSubmatch(line); mm != nil {
			method = strings.ToLower(mm[1])
		}
		if !hasPath(paths, m[1], method) {
			t.Errorf("README: %s %s is not in the OpenAPI document", method, m[1])
		}
		checked++
	}
	if checked < 3 {
		t.Fatalf("only %d README examples found", checked)
	}
}

func hasPath(paths map[string]any, p, method string) bool {
	for tmpl, item := range paths {
		re := "^" + regexp.MustCompile(`\\\{[^}]+\\\}`).ReplaceAllString(regexp.QuoteMeta(tmpl), `[^/]+`) + "$"
		if regexp.MustCompile(re).MatchString(p) {
			if _, ok := item.(map[string]any)[method]; ok {
				return true
			}
		}
	}
	return false
}
