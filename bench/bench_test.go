// Package bench_test measures the read path over real HTTP: the whole stack
// (rest, engine, store) behind an httptest server on SQLite, and on
// PostgreSQL when TEST_DATABASE_URL is set. See bench/README.md for the
// procedure, the load test (bench/load.sh) and the figures.
//
//	go test ./bench -run '^$' -bench . -benchtime 2s
//	TEST_DATABASE_URL='postgres://postgres@127.0.0.1:5432/stratum_test?sslmode=disable' go test ./bench -run '^$' -bench .
//
// Each benchmark reports, besides ns/op (one request's latency, client and
// server in this process):
//
//	sql/op     SQL statements the store ran per request (store.Statements)
//	B/resp     response body size
//	cpu-ns/op  CPU time of this process (client and server) per request
//
// The -c32 variants run 32 client goroutines at once (like wrk -c32): their
// ns/op is wall time per request, the inverse of the in-process throughput.
// allocs/op counts client and server together (runtime stats are global).
package bench_test

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stratum-cms/stratum/internal/testenv"
)

// benchArticles is how many articles the Go benchmarks seed (1,000 so they
// stay fast; bench/load.sh uses 10,000). STRATUM_BENCH_ARTICLES overrides.
func benchArticles() int {
	if n, err := strconv.Atoi(os.Getenv("STRATUM_BENCH_ARTICLES")); err == nil && n > 0 {
		return n
	}
	return 1000
}

// The endpoints of the targets, plus a filtered list and a populate.
// "one" has its documentId filled in after seeding.
type endpoint struct{ name, path string }

const (
	pathList     = "/api/articles"
	pathFiltered = "/api/articles?filters[views][$gt]=500&sort=rating:desc"
	pathPopulate = "/api/articles?populate[author]=true&populate[category]=true&populate[tags]=true"
	// The workloads of issue #16's item 4 (bench/load.sh's EXTRA rows).
	pathPopulate2  = "/api/articles?populate[category]=true&populate[tags]=true"
	pathPopAll     = "/api/articles?populate=*"
	pathNoCount    = "/api/articles?pagination[withCount]=false"
	pathDeepFilter = "/api/articles?filters[category][name][$eq]=Engineering"
	pathRelSort    = "/api/articles?sort=category.name:asc"
)

func BenchmarkRead(b *testing.B) {
	dbs := testenv.Databases(b)
	for _, db := range []string{"sqlite", "postgres"} {
		mk, ok := dbs[db]
		if !ok {
			continue
		}
		b.Run(db, func(b *testing.B) {
			env := testenv.Start(b, mk(b), testenv.Options{Public: testenv.AllActions(b, "")})
			n := benchArticles()
			seedBlog(b, env, n)
			client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
				MaxIdleConns: 64, MaxIdleConnsPerHost: 64, IdleConnTimeout: time.Minute}}
			defer client.CloseIdleConnections()
			id := check(b, client, env, n)
			for _, ep := range []endpoint{
				{"list", pathList},
				{"one", "/api/articles/" + id},
				{"filtered", pathFiltered},
				{"populate", pathPopulate},
				{"populate2", pathPopulate2},
				{"populate-all", pathPopAll},
				{"nocount", pathNoCount},
				{"deepfilter", pathDeepFilter},
				{"relsort", pathRelSort},
			} {
				b.Run(ep.name, func(b *testing.B) { serial(b, client, env, env.URL+ep.path) })
				b.Run(ep.name+"-c32", func(b *testing.B) { parallel(b, client, env, env.URL+ep.path) })
			}
		})
	}
}

// serial sends one request at a time: ns/op is a request's latency.
func serial(b *testing.B, client *http.Client, env *testenv.Env, url string) {
	b.ReportAllocs()
	var bytes int64
	before := env.Store.Statements()
	b.ResetTimer()
	cpu := cpuTime()
	for i := 0; i < b.N; i++ {
		bytes += get(b, client, url)
	}
	b.StopTimer()
	report(b, env, before, bytes, cpu)
}

// parallel keeps 32 requests in flight (wrk -c32): ns/op is wall time per
// request, so 1e9/ns/op is the in-process throughput.
func parallel(b *testing.B, client *http.Client, env *testenv.Env, url string) {
	b.ReportAllocs()
	var bytes atomic.Int64
	before := env.Store.Statements()
	// RunParallel starts parallelism*GOMAXPROCS goroutines.
	b.SetParallelism(max(1, (32+runtimeProcs()-1)/runtimeProcs()))
	b.ResetTimer()
	cpu := cpuTime()
	b.RunParallel(func(pb *testing.PB) {
		var n int64
		for pb.Next() {
			n += get(b, client, url)
		}
		bytes.Add(n)
	})
	b.StopTimer()
	report(b, env, before, bytes.Load(), cpu)
}

func report(b *testing.B, env *testenv.Env, before, bytes int64, cpu time.Duration) {
	b.ReportMetric(float64(env.Store.Statements()-before)/float64(b.N), "sql/op")
	b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(bytes)/float64(b.N), "B/resp")
}

// get sends one GET and reads the whole body; anything but 200 stops the
// benchmark (a fast error page is not a result).
func get(b *testing.B, client *http.Client, url string) int64 {
	res, err := client.Get(url)
	if err != nil {
		b.Fatal(err)
	}
	n, err := io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if err != nil {
		b.Fatal(err)
	}
	if res.StatusCode != http.StatusOK {
		b.Fatalf("GET %s: %d", url, res.StatusCode)
	}
	return n
}

// check makes sure every endpoint answers what it should before it is
// timed, and returns the documentId of the first article.
func check(b *testing.B, client *http.Client, env *testenv.Env, n int) string {
	b.Helper()
	fetch := func(path string) map[string]any {
		res, err := client.Get(env.URL + path)
		if err != nil {
			b.Fatal(err)
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		if res.StatusCode != http.StatusOK {
			b.Fatalf("GET %s: %d %s", path, res.StatusCode, body)
		}
		var out map[string]any
		if err := json.Unmarshal(body, &out); err != nil {
			b.Fatalf("GET %s: %v", path, err)
		}
		return out
	}
	list := func(m map[string]any) []any { l, _ := m["data"].([]any); return l }
	total := func(m map[string]any) float64 {
		meta, _ := m["meta"].(map[string]any)
		p, _ := meta["pagination"].(map[string]any)
		t, _ := p["total"].(float64)
		return t
	}

	l := fetch(pathList)
	if len(list(l)) != 25 || total(l) != float64(n) {
		b.Fatalf("list: %d items, total %v; want 25 of %d", len(list(l)), total(l), n)
	}
	first, _ := list(l)[0].(map[string]any)
	id, _ := first["documentId"].(string)
	one := fetch("/api/articles/" + id)
	if d, _ := one["data"].(map[string]any); d["documentId"] != id {
		b.Fatalf("one: %v", one)
	}
	f := fetch(pathFiltered)
	if len(list(f)) != 25 || total(f) == 0 || total(f) >= float64(n) {
		b.Fatalf("filtered: %d items, total %v", len(list(f)), total(f))
	}
	p := fetch(pathPopulate)
	d, _ := list(p)[0].(map[string]any)
	if a, _ := d["author"].(map[string]any); a == nil || d["category"] == nil {
		b.Fatalf("populate: no author or category in %v", d)
	}
	if tags, _ := d["tags"].([]any); len(tags) == 0 {
		b.Fatalf("populate: no tags in %v", d)
	}
	return id
}

func runtimeProcs() int { return runtime.GOMAXPROCS(0) }

// cpuTime is the CPU time this process used so far (user and system). Per
// request it is steadier than ns/op on a shared machine: other programs'
// work does not count, though the database's (PostgreSQL) does not either.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
