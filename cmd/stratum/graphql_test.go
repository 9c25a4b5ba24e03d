package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/upload"
)

// TestServeWiresGraphQL: the served app answers GraphQL, and a type created
// while serving is in the GraphQL schema at once.
func TestServeWiresGraphQL(t *testing.T) {
	dir := copyBlog(t)
	a, err := open(dir, quietLog())
	if err != nil {
		t.Fatal(err)
	}
	defer a.Store.Close()
	srv := httptest.NewServer(a.HTTP)
	defer srv.Close()
	query := func(q string) map[string]any {
		body, _ := json.Marshal(map[string]any{"query": q})
		res, err := http.Post(srv.URL+"/graphql", "application/json", strings.NewReader(string(body)))
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var out map[string]any
		_ = json.NewDecoder(res.Body).Decode(&out)
		return out
	}
	out := query(`{ articles { data { id attributes { title } } meta { pagination { total } } } }`)
	if _, ok := out["data"].(map[string]any)["articles"]; !ok {
		t.Fatalf("articles query: %v", out)
	}
	// Media attributes resolve to the uploaded file's object.
	file, err := a.Upload.Save(context.Background(), "pixel.png", onePixelPNG, upload.FileInfo{})
	if err != nil {
		t.Fatal(err)
	}
	arts, _ := a.Engine.Route("articles")
	if _, err := a.Engine.Create(context.Background(), engine.AllowAll{}, arts, map[string]any{"title": "Pic", "cover": json.Number(fmt.Sprint(file.ID))}, engine.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	out = query(`{ articles { data { attributes { cover { data { id attributes { url mime width } } } } } } }`)
	if !strings.Contains(mustJSON(out), `"url":"`+file.URL+`"`) || !strings.Contains(mustJSON(out), `"width":1`) {
		t.Fatalf("media in GraphQL: %v", out)
	}
	memo := `{"kind":"collectionType","collectionName":"memos","info":{"singularName":"memo","pluralName":"memos"},"attributes":{"text":{"type":"text"}}}`
	if _, err := a.Engine.ChangeSchema(context.Background(), engine.SchemaChange{Mode: engine.ChangeCreate, Kind: engine.KindContentType, UID: "api::memo.memo", Body: []byte(memo)}); err != nil {
		t.Fatal(err)
	}
	out = query(`{ __type(name: "Memo") { fields { name } } }`)
	typ, _ := out["data"].(map[string]any)["__type"].(map[string]any)
	if typ == nil || !strings.Contains(mustJSON(typ), `"text"`) {
		t.Fatalf("live type in GraphQL: %v", out)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// onePixelPNG is a 1×1 PNG.
var onePixelPNG = func() []byte {
	var b bytes.Buffer
	_ = png.Encode(&b, image.NewRGBA(image.Rect(0, 0, 1, 1)))
	return b.Bytes()
}()
