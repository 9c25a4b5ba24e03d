package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"strings"
	"time"

	"github.com/stratum-cms/stratum/engine"
)

// seed fills the blog example with realistic documents, for benchmarks and
// demos. It goes through the engine, so every document is validated.
func seed(args []string) error {
	fs := flag.NewFlagSet("seed", flag.ContinueOnError)
	dir := fs.String("dir", ".", "project folder (the blog example or a copy)")
	n := fs.Int("articles", 1000, "number of articles")
	if err := fs.Parse(args); err != nil {
		return err
	}
	a, err := open(*dir, slog.New(slog.NewTextHandler(os.Stderr, nil)))
	if err != nil {
		return err
	}
	defer a.store.Close()
	ctx := context.Background()
	e := a.engine
	get := func(name string) (engine.Collection, error) {
		c, ok := e.Route(name)
		if !ok {
			return c, fmt.Errorf("seed needs the blog example's %q type", name)
		}
		return c, nil
	}
	articles, err := get("articles")
	if err != nil {
		return err
	}
	authors, _ := get("authors")
	categories, _ := get("categories")
	tags, _ := get("tags")
	r := rand.New(rand.NewPCG(1, 2))
	mk := func(c engine.Collection, data map[string]any) (string, error) {
		d, err := e.Create(ctx, engine.AllowAll{}, c, jsonish(data), engine.WriteOptions{})
		if err != nil {
			return "", err
		}
		return d.DocumentID, nil
	}
	var authorIDs, catIDs, tagIDs []string
	start := time.Now()
	for i := 0; i < max(*n/100, 5); i++ {
		id, err := mk(authors, map[string]any{"name": fmt.Sprintf("%s %s", pick(r, firstNames), pick(r, lastNames)),
			"email": fmt.Sprintf("author%d@example.com", i), "bio": sentence(r, 20)})
		if err != nil {
			return fmt.Errorf("author: %w", err)
		}
		authorIDs = append(authorIDs, id)
	}
	for i, name := range topics {
		id, err := mk(categories, map[string]any{"name": name, "description": sentence(r, 12)})
		if err != nil {
			return fmt.Errorf("category %d: %w", i, err)
		}
		catIDs = append(catIDs, id)
	}
	for i := 0; i < 40; i++ {
		id, err := mk(tags, map[string]any{"name": fmt.Sprintf("%s-%d", pick(r, words), i)})
		if err != nil {
			return fmt.Errorf("tag: %w", err)
		}
		tagIDs = append(tagIDs, id)
	}
	kinds := []string{"news", "tutorial", "opinion"}
	for i := 0; i < *n; i++ {
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
		if _, err := mk(articles, data); err != nil {
			return fmt.Errorf("article %d: %w", i, err)
		}
	}
	fmt.Printf("seeded %d articles, %d authors, %d categories, %d tags in %s\n", *n, len(authorIDs), len(catIDs), len(tagIDs),
		time.Since(start).Round(time.Millisecond))
	return nil
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
