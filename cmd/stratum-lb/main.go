// Command stratum-lb is a small load balancer for running several Stratum
// nodes on one machine without Docker (deploy/local-cluster.sh): requests
// go to the nodes in turn; a node whose health check fails, or that fails
// a request, is skipped; a request that did not reach a node, or a GET
// (HEAD, OPTIONS) whose node died while answering, is sent to the next
// one. Production deployments put a real load balancer there (nginx in
// docker-compose.yml).
//
//	stratum-lb --listen 127.0.0.1:8080 --backend http://127.0.0.1:1337 --backend http://127.0.0.1:1338
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"
)

type urlList []*url.URL

func (l *urlList) String() string { return fmt.Sprint(*l) }

func (l *urlList) Set(v string) error {
	for _, s := range strings.Split(v, ",") {
		u, err := url.Parse(strings.TrimSpace(s))
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("%q is not an http(s) URL", s)
		}
		*l = append(*l, u)
	}
	return nil
}

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "stratum-lb:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("stratum-lb", flag.ContinueOnError)
	listen := fs.String("listen", "127.0.0.1:8080", "address to listen on")
	var backends urlList
	fs.Var(&backends, "backend", "a node's URL (repeat, or separate with commas)")
	health := fs.String("health", "/_ready", "path of the nodes' health check")
	interval := fs.Duration("interval", 500*time.Millisecond, "time between health checks")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if len(backends) == 0 {
		return errors.New("no --backend given")
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	b := newBalancer(backends, log)
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go b.check(ctx, *health, *interval)
	srv := &http.Server{Handler: b.handler(), ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}()
	log.Info("balancing", "listen", ln.Addr().String(), "backends", backends.String())
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
