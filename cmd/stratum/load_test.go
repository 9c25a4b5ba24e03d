package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/internal/testenv"
)

// TestSchemaChangesUnderRESTAndGraphQL adds, edits and removes types while
// REST and GraphQL requests stream in: none fails because of a change.
func TestSchemaChangesUnderRESTAndGraphQL(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		t.Setenv("DATABASE_URL", db(t))
		a, err := open(copyBlog(t), quietLog())
		if err != nil {
			t.Fatal(err)
		}
		defer a.Store.Close()
		srv := httptest.NewServer(a.HTTP)
		defer srv.Close()
		ctx, cancel := context.WithCancel(context.Background())
		send := func(method, path, body string) (int, string) {
			req, _ := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				return 0, err.Error()
			}
			defer res.Body.Close()
			b, _ := io.ReadAll(res.Body)
			if strings.Contains(path, "graphql") {
				var out map[string]any
				if json.Unmarshal(b, &out) != nil || out["errors"] != nil {
					return 500, string(b)
				}
			}
			return res.StatusCode, string(b)
		}
		done := make(chan []string, 3)
		for w := 0; w < 3; w++ {
			go func(w int) {
				var failed []string
				for i := 0; ctx.Err() == nil && i < 100000; i++ {
					var status int
					var body string
					switch i % 3 {
					case 0:
						status, body = send("GET", "/api/articles?populate=category", "")
					case 1:
						status, body = send("POST", "/graphql", `{"query":"{ articles(pagination:{pageSize:5}) { data { id attributes { title tags { data { id } } } } } }"}`)
					default:
						status, body = send("POST", "/api/articles", fmt.Sprintf(`{"data":{"title":"w%d-%d"}}`, w, i))
					}
					if status >= 300 {
						failed = append(failed, fmt.Sprintf("%d %.200s", status, body))
					}
				}
				done <- failed
			}(w)
		}
		memo := `{"kind":"collectionType","collectionName":"memos","info":{"singularName":"memo","pluralName":"memos"},"attributes":{"text":{"type":"text"}%s}}`
		changes := []engine.SchemaChange{
			{Mode: engine.ChangeCreate, UID: "api::memo.memo", Body: []byte(fmt.Sprintf(memo, ""))},
			{Mode: engine.ChangeReplace, UID: "api::memo.memo", Body: []byte(fmt.Sprintf(memo, `,"n":{"type":"integer"}`))},
			{Mode: engine.ChangeReplace, UID: "api::memo.memo", Body: []byte(fmt.Sprintf(memo, `,"m":{"type":"float","renamedFrom":"n"}`))},
			{Mode: engine.ChangeDelete, UID: "api::memo.memo", Force: true},
		}
		for round := 0; round < 3; round++ {
			for _, ch := range changes {
				time.Sleep(20 * time.Millisecond)
				ch.Kind = engine.KindContentType
				if _, err := a.Engine.ChangeSchema(ctx, ch); err != nil {
					t.Fatal(err)
				}
			}
		}
		cancel()
		for w := 0; w < 3; w++ {
			for _, f := range <-done {
				t.Errorf("failed during schema changes: %s", f)
			}
		}
	})
}
