// Command profserve is `stratum serve` with net/http/pprof on a second,
// loopback-only port, for profiling the server under bench/load.sh's load
// (PROFILE=1). It builds the server with app.Open, exactly as `stratum
// serve` does; cmd/stratum has no pprof endpoint and is not edited for
// benchmarks.
//
//	go build -o /tmp/stratum-prof ./bench/profserve
//	DATABASE_URL=postgres://... /tmp/stratum-prof --dir DIR --port 1339 --pprof 127.0.0.1:6061
//	go tool pprof -top 'http://127.0.0.1:6061/debug/pprof/profile?seconds=10'
package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/stratum-cms/stratum/app"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "profserve:", err)
		os.Exit(1)
	}
}

func run() error {
	dir := flag.String("dir", ".", "project folder")
	host := flag.String("host", "127.0.0.1", "API host")
	port := flag.Int("port", 1339, "API port")
	pp := flag.String("pprof", "127.0.0.1:6061", "pprof listen address")
	flag.Parse()
	app.TuneGC(os.Getenv) // as stratum serve
	start := time.Now()
	a, err := app.Open(*dir, app.Options{})
	if err != nil {
		return err
	}
	defer a.Close()
	h := a.HTTP

	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	pln, err := net.Listen("tcp", *pp)
	if err != nil {
		return err
	}
	go func() { _ = http.Serve(pln, mux) }()

	ln, err := net.Listen("tcp", net.JoinHostPort(*host, strconv.Itoa(*port)))
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 120 * time.Second}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	fmt.Fprintf(os.Stderr, "profserve ready on %s (pprof %s) startup=%s\n", ln.Addr(), pln.Addr(), time.Since(start).Round(time.Millisecond))
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	return srv.Shutdown(sctx)
}
