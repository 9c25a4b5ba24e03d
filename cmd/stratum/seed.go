package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/stratum-cms/stratum/examples/blogseed"
)

// seed fills the blog example with realistic documents, for benchmarks and
// demos.
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
	defer a.Close()
	start := time.Now()
	st, err := blogseed.Seed(context.Background(), a.Engine, *n)
	if errors.Is(err, blogseed.ErrSeeded) {
		fmt.Println(err) // nothing to do is not a failure
		return nil
	}
	if err != nil {
		return err
	}
	fmt.Printf("seeded %d articles, %d authors, %d categories, %d tags in %s\n", st.Articles, st.Authors, st.Categories, st.Tags,
		time.Since(start).Round(time.Millisecond))
	return nil
}
