package graphql

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"testing"

	"github.com/stratum-cms/stratum/internal/testdb"
)

// articles25 is the bench query: a page of 25 articles with two relations.
const articles25 = `{"query":"{ articles(pagination: {pageSize: 25}, sort: \"title\") { data { id attributes { title summary views publishedAt category { data { id attributes { name } } } tags { data { id attributes { name } } } } } meta { pagination { total } } } }"}`

// seedBench fills the blog with n articles, each with a category and two tags.
func seedBench(tb testing.TB, e *env, n int) {
	var cats, tags []string
	for i := 0; i < 10; i++ {
		cats = append(cats, e.seed("categories", map[string]any{"name": fmt.Sprintf("category %d", i)}))
		tags = append(tags, e.seed("tags", map[string]any{"name": fmt.Sprintf("tag %d", i)}))
	}
	for i := 0; i < n; i++ {
		e.seed("articles", map[string]any{"title": fmt.Sprintf("Article %05d", i), "summary": "A summary of the article", "views": i,
			"category": cats[i%10], "tags": []any{tags[i%10], tags[(i+3)%10]}})
	}
}

// go test ./graphql -run '^$' -bench Articles25 -benchtime 5s
// (TEST_DATABASE_URL set: PostgreSQL too). Client and server share the
// machine. Each database runs the query on the fast executor and on
// graphql-go's.
func BenchmarkArticles25(b *testing.B) {
	for name, db := range testdb.Databases(b) {
		for _, ex := range executors {
			b.Run(name+"/"+ex.name, func(b *testing.B) { benchArticles25(b, db, ex) })
		}
	}
}

// execPath is one of the two ways a query runs.
type execPath struct {
	name  string
	setup func(*Server)
	check func(testing.TB, *env) // it did run the benchmark's requests
}

// executors: the fast executor (the default) and graphql-go's (Server.slow).
var executors = []execPath{
	{"fast", nil, func(t testing.TB, e *env) {
		if e.Srv.fastRuns.Load() == 0 {
			t.Fatal("the fast executor did not run")
		}
	}},
	{"graphql-go", func(s *Server) { s.slow = true }, func(t testing.TB, e *env) {
		if e.Srv.fastRuns.Load() != 0 {
			t.Fatal("the fast executor ran")
		}
	}},
}

func benchArticles25(b *testing.B, db func(testing.TB) string, ex execPath) {
	e := start(b, db(b), options{setup: ex.setup})
	seedBench(b, e, 200)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	before := e.Store.Statements()
	res, err := client.Post(e.URL+"/graphql", "application/json", bytes.NewBufferString(articles25))
	if err != nil {
		b.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || bytes.Contains(body, []byte(`"errors"`)) {
		b.Fatalf("%d %s", res.StatusCode, body)
	}
	b.ReportMetric(float64(e.Store.Statements()-before), "sql/op")
	b.SetParallelism(8)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			res, err := client.Post(e.URL+"/graphql", "application/json", bytes.NewBufferString(articles25))
			if err != nil {
				b.Error(err)
				return
			}
			_, _ = io.Copy(io.Discard, res.Body)
			res.Body.Close()
		}
	})
	b.StopTimer()
	ex.check(b, e)
}
