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
	"github.com/stratum-cms/stratum/internal/progress"
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
	prog := progress.New(progressOut, isTerminal(progressOut), "seed")
	st, err := blogseed.SeedWithProgress(context.Background(), a.Engine, *n, prog)
	prog.Done()
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
