// Package blogseed fills the blog example with realistic documents, for
// `stratum seed`, the benchmarks and demos. It goes through the engine, so
// every document is validated; the same seed gives the same documents.
package blogseed

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/internal/progress"
	"github.com/stratum-cms/stratum/query"
)

// Stats says what Seed made.
type Stats struct {
	Articles, Authors, Categories, Tags int
}

// ErrSeeded is returned when the project already holds seeded documents.
var ErrSeeded = errors.New("already seeded")

// Seed creates n articles with their authors, categories and tags.
func Seed(ctx context.Context, e *engine.Engine, n int) (Stats, error) {
	return SeedWithProgress(ctx, e, n, nil)
}

// SeedWithProgress is Seed reporting the documents written to p (nil: no
// report).
func SeedWithProgress(ctx context.Context, e *engine.Engine, n int, p *progress.Progress) (Stats, error) {
	if p == nil {
		p = progress.New(nil, false, "")
	}
	var st Stats
	get := func(name string) (engine.Collection, error) {
		c, ok := e.Route(name)
		if !ok {
			return c, fmt.Errorf("seeding needs the blog example's %q type", name)
		}
		return c, nil
	}
	cols := map[string]engine.Collection{}
	for _, name := range []string{"articles", "authors", "categories", "tags"} {
		c, err := get(name)
		if err != nil {
			return st, err
		}
		cols[name] = c
	}
	// Seeding is deterministic: a second run would make the same authors
	// and categories again, and their unique emails and names refuse it.
	withCount := true
	res, err := e.Find(ctx, engine.AllowAll{}, cols["articles"], &query.Query{Status: query.Draft,
		Page: query.Pagination{PageSize: 1, WithCount: &withCount}})
	if err != nil {
		return st, err
	}
	if res.Meta.Total > 0 {
		return st, fmt.Errorf("%w: the project has %d articles; to seed again, start from an empty database", ErrSeeded, res.Meta.Total)
	}
	r := rand.New(rand.NewPCG(1, 2))
	mk := func(c engine.Collection, data map[string]any) (string, error) {
		d, err := e.Create(ctx, engine.AllowAll{}, c, jsonish(data), engine.WriteOptions{})
		if err != nil {
			return "", fmt.Errorf("%s: %w", c.Type.UID, err)
		}
		return d.DocumentID, nil
	}
	var authorIDs, catIDs, tagIDs []string
	p.Start("authors, categories and tags", max(n/100, 5)+len(topics)+40)
	for i := 0; i < max(n/100, 5); i++ {
		id, err := mk(cols["authors"], map[string]any{"name": fmt.Sprintf("%s %s", pick(r, firstNames), pick(r, lastNames)),
			"email": fmt.Sprintf("author%d@example.com", i), "bio": sentence(r, 20)})
		if err != nil {
			return st, err
		}
		authorIDs = append(authorIDs, id)
		p.Add(1)
	}
	for _, name := range topics {
		id, err := mk(cols["categories"], map[string]any{"name": name, "description": sentence(r, 12)})
		if err != nil {
			return st, err
		}
		catIDs = append(catIDs, id)
		p.Add(1)
	}
	for i := 0; i < 40; i++ {
		id, err := mk(cols["tags"], map[string]any{"name": fmt.Sprintf("%s-%d", pick(r, words), i)})
		if err != nil {
			return st, err
		}
		tagIDs = append(tagIDs, id)
		p.Add(1)
	}
	p.Finish()
	p.Start("articles", n)
	for i := 0; i < n; i++ {
		if _, err := mk(cols["articles"], article(r, i, authorIDs, catIDs, tagIDs)); err != nil {
			return st, fmt.Errorf("article %d: %w", i, err)
		}
		p.Add(1)
	}
	p.Finish()
	return Stats{Articles: n, Authors: len(authorIDs), Categories: len(catIDs), Tags: len(tagIDs)}, nil
}

// article is one realistic article: every attribute family of the example.
func article(r *rand.Rand, i int, authorIDs, catIDs, tagIDs []string) map[string]any {
	kinds := []string{"news", "tutorial", "opinion"}
	title := strings.ToUpper(sentence(r, 1)[:1]) + sentence(r, 6)[1:]
	tags := []any{tagIDs[r.IntN(len(tagIDs))], tagIDs[r.IntN(len(tagIDs))]}
	if tags[0] == tags[1] {
		tags = tags[:1]
	}
	return map[string]any{
		"title":       fmt.Sprintf("%s %d", title, i),
		"summary":     sentence(r, 30),
		"body":        sentence(r, 120),
		"content":     []any{map[string]any{"type": "paragraph", "children": []any{map[string]any{"type": "text", "text": sentence(r, 40)}}}},
		"kind":        kinds[r.IntN(3)],
		"views":       r.IntN(1000),
		"shares":      fmt.Sprint(r.Int64N(1 << 40)),
		"rating":      float64(r.IntN(50)) / 10,
		"price":       fmt.Sprintf("%d.%02d", r.IntN(100), r.IntN(100)),
		"publishDate": fmt.Sprintf("2024-%02d-%02d", 1+r.IntN(12), 1+r.IntN(28)),
		"featured":    r.IntN(10) == 0,
		"metadata":    map[string]any{"source": "seed", "n": i},
		"author":      authorIDs[r.IntN(len(authorIDs))],
		"category":    catIDs[r.IntN(len(catIDs))],
		"tags":        tags,
		"seo":         map[string]any{"metaTitle": fmt.Sprintf("Article %d", i), "metaDescription": sentence(r, 15)},
		"quotes":      []any{map[string]any{"title": "Quote", "body": sentence(r, 10)}},
		"blocks":      []any{map[string]any{"__component": "shared.rich-text", "body": sentence(r, 25)}},
	}
}

// jsonish gives values the types a decoded request body has.
func jsonish(m map[string]any) map[string]any {
	b, _ := json.Marshal(m)
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.UseNumber()
	var out map[string]any
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
