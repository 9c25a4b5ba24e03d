package bench_test

import (
	"context"
	"testing"

	"github.com/stratum-cms/stratum/examples/blogseed"
	"github.com/stratum-cms/stratum/internal/testenv"
)

// seedBlog fills env with n articles and their authors, categories and tags
// with the generator of `stratum seed`: the Go benchmarks read the same
// documents as bench/load.sh, only fewer of them.
func seedBlog(b testing.TB, env *testenv.Env, n int) {
	b.Helper()
	if _, err := blogseed.Seed(context.Background(), env.Engine, n); err != nil {
		b.Fatalf("seed: %v", err)
	}
}
