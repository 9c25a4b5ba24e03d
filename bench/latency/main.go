// Command latency requests one URL over and over, one request at a time on
// one kept-alive connection, and prints the latency percentiles (p50, p90,
// p95, p99, max). It reads every answer whole and counts non-200 answers.
// wrk -c1 gives latencies that do not add up for large answers on this
// machine (a 1 s p99 over 10,000 requests in 8 s), so the size figures of
// bench/README.md are measured with this.
//
//	go run ./bench/latency -d 8s 'http://127.0.0.1:1339/api/articles?sort=rating:desc'
package main

import (
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"time"
)

func main() {
	dur := flag.Duration("d", 8*time.Second, "how long to run")
	warm := flag.Int("warm", 20, "requests before measuring")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: latency [-d 8s] [-warm 20] URL")
		os.Exit(2)
	}
	url := flag.Arg(0)
	client := &http.Client{Timeout: 30 * time.Second}
	get := func() (time.Duration, bool, error) {
		t0 := time.Now()
		res, err := client.Get(url)
		if err != nil {
			return 0, false, err
		}
		_, err = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return time.Since(t0), res.StatusCode == http.StatusOK, err
	}
	for range *warm {
		if _, _, err := get(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	var lat []time.Duration
	bad := 0
	for end := time.Now().Add(*dur); time.Now().Before(end); {
		d, ok, err := get()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		if !ok {
			bad++
		}
		lat = append(lat, d)
	}
	slices.Sort(lat)
	p := func(q float64) string {
		return fmt.Sprintf("%.2f ms", float64(lat[min(len(lat)-1, int(q*float64(len(lat))))].Microseconds())/1000)
	}
	fmt.Printf("p50 %s  p90 %s  p95 %s  p99 %s  max %s  (%d requests, %d not 200)\n",
		p(0.50), p(0.90), p(0.95), p(0.99), p(1), len(lat), bad)
}
