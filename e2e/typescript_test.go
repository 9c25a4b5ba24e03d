package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratum-cms/stratum/internal/testenv"
	"github.com/stratum-cms/stratum/tsgen"
)

// TestTypeScriptTypes compiles `stratum types ts` of the example project
// with tsc --strict, together with the server's real answers typed by it:
// a field the types lack, a null where they promise a value, or a wrong
// type fails the compile.
func TestTypeScriptTypes(t *testing.T) {
	dir := filepath.Join(testenv.Root(), "e2e", "typescript")
	node := needNode(t, dir)
	e := testenv.Start(t, testenv.Databases(t)["sqlite"](t), testenv.Options{Public: testenv.AllActions(t, "")})
	author := e.Do("POST", "/api/authors", map[string]any{"data": map[string]any{"name": "Ada", "email": "ada@example.com"}})
	if author.Status != 201 {
		t.Fatalf("author: %d %s", author.Status, author.Body)
	}
	r := e.Do("POST", "/api/articles", map[string]any{"data": map[string]any{"title": "Typed", "kind": "news", "views": 3,
		"author": author.Data()["documentId"], "seo": map[string]any{"metaTitle": "T"},
		"blocks":  []any{map[string]any{"__component": "shared.quote", "body": "q"}},
		"content": []any{map[string]any{"type": "paragraph", "children": []any{map[string]any{"type": "text", "text": "hi"}}}}}})
	if r.Status != 201 {
		t.Fatalf("article: %d %s", r.Status, r.Body)
	}
	var src strings.Builder
	src.WriteString(tsgen.Generate(e.Engine.Registry.Current().Schema))
	for i, c := range []struct{ path, typ string }{
		{"/api/articles?populate=*", "APIResponseCollection<Article>"},
		{"/api/articles?populate[blocks][populate]=*&populate[author]=true", "APIResponseCollection<Article>"},
		{"/api/authors?populate=articles", "APIResponseCollection<Author>"},
		{"/api/tags", "APIResponseCollection<Tag>"},
	} {
		res := e.Do("GET", c.path, nil)
		if res.Status != 200 {
			t.Fatalf("%s: %d %s", c.path, res.Status, res.Body)
		}
		var v any
		_ = json.Unmarshal(res.Body, &v)
		b, _ := json.Marshal(v)
		fmt.Fprintf(&src, "\n// %s\nexport const answer%d: %s = %s;\n", c.path, i, c.typ, b)
	}
	src.WriteString(`
export const input: ArticleInput = { title: "x", author: { connect: ["abc"] }, tags: ["t1"], cover: 1,
  blocks: [{ __component: "shared.quote", body: "q" }] };
`)
	file := filepath.Join(t.TempDir(), "blog.ts")
	if err := os.WriteFile(file, []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, filepath.Join(dir, "node_modules", "typescript", "bin", "tsc"), "--strict", "--noEmit",
		"--target", "es2020", "--module", "es2020", file)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tsc --strict: %v\n%s", err, out)
	}
}
