package bench_test

// BenchmarkMemory sends the requests of the hardening issues that turn a
// few hundred bytes into memory (a populate that fans out, GraphQL
// aliases of nested lists, three concurrent uploads of a 113 KB PNG of
// 6000×6600 pixels) and reports how far the process grows: peak RSS
// (VmHWM, reset before each run through /proc/self/clear_refs) and peak
// Go heap, over a baseline taken after a GC. "off" lifts every limit
// (engine budget, GraphQL cost and depth, the upload pixel gate);
// "defaults" is the configuration a project gets. The client runs in the
// same process, but reads and discards every body, so the figures are
// the server's. See bench/README.md ("Memory under hostile requests").
//
//	go test ./bench -run '^$' -bench Memory -benchtime 1x

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stratum-cms/stratum/app"
	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/internal/testenv"
)

// The amplification requests: author → articles → author → articles on
// 200 seeded articles (5 authors of 40 articles each) is 25 × 40 × 40
// documents in one answer when nothing stops it; the GraphQL query asks
// for the same fan-out under two aliases.
var amplification = []struct{ method, path, body string }{
	{"GET", "/api/articles?pagination[pageSize]=25&populate[author][populate][articles][populate][author][populate][articles]=*", ""},
	{"GET", "/api/authors?populate[articles][populate][author][populate][articles][populate][author]=*", ""},
	{"POST", "/graphql", graphqlFanOut()},
}

func graphqlFanOut() string {
	var q strings.Builder
	q.WriteString("{")
	for i := range 2 {
		fmt.Fprintf(&q, ` a%d: articles(pagination:{pageSize:25}) { data { attributes { title body author { data { attributes { name
			articles(pagination:{limit:100}) { data { attributes { title body author { data { attributes { name
			articles(pagination:{limit:100}) { data { attributes { title body } } } } } } } } } } } } } } }`, i)
	}
	q.WriteString("}")
	b, _ := json.Marshal(map[string]string{"query": q.String()})
	return string(b)
}

const memoryArticles = 200

func BenchmarkMemory(b *testing.B) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		b.Skip("needs /proc (Linux)")
	}
	bomb := imageBomb(6000, 6600)
	b.Logf("image bomb: %d×%d pixels in %d bytes", 6000, 6600, len(bomb))
	unlimited := engine.Limits{MaxPopulateDepth: 1000, MaxRows: 1 << 40, MaxResponseBytes: 1 << 50}
	for _, mode := range []string{"off", "defaults"} {
		o := testenv.Options{Public: append(testenv.AllActions(b, ""), "plugin::upload.content-api.upload")}
		if mode == "off" {
			o.Config.Limits = unlimited
			o.Upload.MaxConcurrentPixels = -1
			o.Tune = func(c *app.Config) { c.GraphQL.MaxCost, c.GraphQL.DepthLimit = -1, -1 }
		}
		env := testenv.Start(b, testenv.Databases(b)["sqlite"](b), o)
		seedBlog(b, env, memoryArticles)
		client := &http.Client{Timeout: 5 * time.Minute}
		b.Run(mode+"/amplification", func(b *testing.B) {
			var mu sync.Mutex
			statuses := map[int]int{}
			defer func() { b.Logf("answers by status: %v", statuses) }()
			measure(b, func() {
				var wg sync.WaitGroup
				for range 2 { // each request twice, all at once
					for _, r := range amplification {
						wg.Go(func() {
							status := send(b, client, env.URL, r.method, r.path, "application/json", strings.NewReader(r.body))
							mu.Lock()
							statuses[status]++
							mu.Unlock()
						})
					}
				}
				wg.Wait()
			})
		})
		b.Run(mode+"/image-bombs", func(b *testing.B) {
			measure(b, func() {
				var wg sync.WaitGroup
				for i := range 3 {
					wg.Go(func() {
						body, ctype := multipartFile(fmt.Sprintf("bomb%d.png", i), bomb)
						if status := send(b, client, env.URL, "POST", "/api/upload", ctype, body); status != 201 {
							b.Errorf("upload: %d", status)
						}
					})
				}
				wg.Wait()
			})
		})
		client.CloseIdleConnections()
	}
}

// measure runs fn b.N times and reports the growth of the process over
// a baseline taken after a GC that returned free memory to the OS.
func measure(b *testing.B, fn func()) {
	runtime.GC()
	debug.FreeOSMemory()
	baseRSS := procStatus(b, "VmRSS")
	baseHeap := heapBytes()
	// "5" resets VmHWM to the current RSS (Linux ≥ 4.0).
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		b.Logf("clear_refs: %v (peak RSS includes earlier runs)", err)
	}
	var peakHeap atomic.Uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() { // the heap is sampled; VmHWM is exact
		defer close(done)
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			if h := heapBytes(); h > peakHeap.Load() {
				peakHeap.Store(h)
			}
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	start := time.Now()
	b.ResetTimer()
	for range b.N {
		fn()
	}
	b.StopTimer()
	close(stop)
	<-done
	peakRSS := procStatus(b, "VmHWM")
	const mb = 1 << 20
	b.ReportMetric(float64(baseRSS)/mb, "base-RSS-MB")
	b.ReportMetric(float64(peakRSS)/mb, "peak-RSS-MB")
	b.ReportMetric(float64(peakRSS-baseRSS)/mb, "RSS-growth-MB")
	b.ReportMetric(float64(baseHeap)/mb, "base-heap-MB")
	b.ReportMetric(float64(peakHeap.Load())/mb, "peak-heap-MB")
	b.ReportMetric(time.Since(start).Seconds()/float64(b.N), "s/run")
}

// heapBytes is the Go heap in use (objects live or not yet swept).
func heapBytes() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// procStatus reads a kB field of /proc/self/status, in bytes.
func procStatus(b *testing.B, field string) uint64 {
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		b.Fatal(err)
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			n, _ := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return n << 10
		}
	}
	b.Fatalf("no %s in /proc/self/status", field)
	return 0
}

// send makes one request and discards the answer; it returns the status.
func send(b *testing.B, client *http.Client, base, method, path, ctype string, body io.Reader) int {
	req, err := http.NewRequest(method, base+path, body)
	if err != nil {
		b.Error(err)
		return 0
	}
	req.Header.Set("Content-Type", ctype)
	res, err := client.Do(req)
	if err != nil {
		b.Error(err)
		return 0
	}
	defer res.Body.Close()
	_, _ = io.Copy(io.Discard, res.Body)
	return res.StatusCode
}

// imageBomb is a PNG of w×h pixels of one colour: about 100 KB that
// decode to w×h×4 bytes.
func imageBomb(w, h int) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Bounds(), image.NewUniform(color.RGBA{30, 120, 200, 255}), image.Point{}, draw.Src)
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(&buf, img); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

func multipartFile(name string, data []byte) (io.Reader, string) {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	w, _ := mw.CreateFormFile("files", name)
	_, _ = w.Write(data)
	_ = mw.Close()
	return &body, mw.FormDataContentType()
}
