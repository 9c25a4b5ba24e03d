package bench_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/internal/testenv"
)

// seedBlog fills env with n articles and their authors, categories and tags,
// through the engine (every document validated, as `stratum seed` does).
// The data generation is a copy of cmd/stratum/seed.go (package main, not
// importable): same generator, same seed, so the Go benchmarks read the
// same documents as bench/load.sh, only fewer of them.
func seedBlog(b testing.TB, env *testenv.Env, n int) {
	b.Helper()
	ctx := context.Background()
	e := env.Engine
	get := func(name string) engine.Collection {
		c, ok := e.Route(name)
		if !ok {
			b.Fatalf("the blog example has no %q type", name)
		}
		return c
	}
	articles, authors, categories, tags := get("articles"), get("authors"), get("categories"), get("tags")
	r := rand.New(rand.NewPCG(1, 2))
	mk := func(c engine.Collection, data map[string]any) string {
		d, err := e.Create(ctx, engine.AllowAll{}, c, jsonish(data), engine.WriteOptions{})
		if err != nil {
			b.Fatalf("seed %s: %v", c.Type.UID, err)
		}
		return d.DocumentID
	}
	var authorIDs, catIDs, tagIDs []string
	for i := 0; i < max(n/100, 5); i++ {
		authorIDs = append(authorIDs, mk(authors, map[string]any{
			"name":  fmt.Sprintf("%s %s", pick(r, firstNames), pick(r, lastNames)),
			"email": fmt.Sprintf("author%d@example.com", i), "bio": sentence(r, 20)}))
	}
	for _, name := range topics {
		catIDs = append(catIDs, mk(categories, map[string]any{"name": name, "description": sentence(r, 12)}))
	}
	for i := 0; i < 40; i++ {
		tagIDs = append(tagIDs, mk(tags, map[string]any{"name": fmt.Sprintf("%s-%d", pick(r, words), i)}))
	}
	kinds := []string{"news", "tutorial", "opinion"}
	for i := 0; i < n; i++ {
		title := strings.ToUpper(sentence(r, 1)[:1]) + sentence(r, 6)[1:]
		data := map[string]any{
			"title":       fmt.Sprintf("%s %d", title, i),
			"summary":     sentence(r, 30),
			"body":        sentence(r, 120),
			"content":     []any{map[string]any{"type": "paragraph", "children": []any{map[string]any{"type": "text", "text": sentence(r, 40)}}}},
			"kind":        kinds[r.IntN(3)],
			"views":       r.IntN(1000),
			"shares":      fmt.Sprint(r.Int64N(1 << 40)),
			"rating":      float64(r.IntN(50)) / 10,
			"price":       fmt.Sprintf("%d.%02d", r.IntN(100), r.IntN(100)),
			"publishDate": time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, r.IntN(700)).Format("2006-01-02"),
			"featured":    r.IntN(10) == 0,
			"metadata":    map[string]any{"source": "seed", "n": i},
			"author":      authorIDs[r.IntN(len(authorIDs))],
			"category":    catIDs[r.IntN(len(catIDs))],
			"tags":        []any{tagIDs[r.IntN(len(tagIDs))], tagIDs[r.IntN(len(tagIDs))]},
			"seo":         map[string]any{"metaTitle": fmt.Sprintf("Article %d", i), "metaDescription": sentence(r, 15)},
			"quotes":      []any{map[string]any{"title": "Quote", "body": sentence(r, 10)}},
			"blocks":      []any{map[string]any{"__component": "shared.rich-text", "body": sentence(r, 25)}},
		}
		if data["tags"].([]any)[0] == data["tags"].([]any)[1] {
			data["tags"] = data["tags"].([]any)[:1]
		}
		mk(articles, data)
	}
}

// jsonish gives values the types a decoded request body has.
func jsonish(m map[string]any) map[string]any {
	b, _ := json.Marshal(m)
	var out map[string]any
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.UseNumber()
	_ = dec.Decode(&out)
	return out
}

func pick(r *rand.Rand, s []string) string { return s[r.IntN(len(s))] }

func sentence(r *rand.Rand, n int) string {
	w := make([]string, n)
	for i := range w {
		w[i] = pick(r, words)
	}
	return strings.Join(w, " ")
}

var (
	firstNames = []string{"Ada", "Grace", "Alan", "Edsger", "Barbara", "Ken", "Rob", "Margaret", "Linus", "Radia"}
	lastNames  = []string{"Lovelace", "Hopper", "Turing", "Dijkstra", "Liskov", "Thompson", "Pike", "Hamilton", "Torvalds", "Perlman"}
	topics     = []string{"Engineering", "Design", "Product", "Culture", "Security", "Data", "Operations", "Research"}
	words      = strings.Fields("the quick content engine serves documents through rest and graphql with drafts locales " +
		"relations components zones media tokens roles schema types fields filters sorting pages cache index query " +
		"database postgres sqlite binary fast small simple clear stable secure private public editor author reader")
)
