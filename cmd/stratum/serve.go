package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/stratum-cms/stratum/app"
)

// open builds the instance of the project in dir, as `serve` runs it.
func open(dir string, log *slog.Logger) (*app.App, error) {
	return app.Open(dir, app.Options{Log: log})
}

func serve(args []string) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	dir := fs.String("dir", ".", "project folder")
	host := fs.String("host", "", "listen host (default from config or HOST, else 0.0.0.0)")
	port := fs.Int("port", -1, "listen port (default from config or PORT, else 1337)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	log, err := serverLog(os.Getenv)
	if err != nil {
		return err
	}
	app.TuneGC(os.Getenv)
	start := time.Now()
	a, err := open(*dir, log)
	if err != nil {
		return err
	}
	defer a.Close()
	if *host != "" {
		a.Config.Host = *host
	}
	if *port >= 0 {
		a.Config.Port = *port
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(a.Config.Host, strconv.Itoa(a.Config.Port)))
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: a.HTTP, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 60 * time.Second,
		IdleTimeout: 120 * time.Second, MaxHeaderBytes: 64 << 10}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	go a.Follow(ctx)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	log.Info("stratum ready", "addr", ln.Addr().String(), "database", a.Store.Dialect(),
		"types", len(a.Engine.Registry.Current().Schema.Types), "startup", time.Since(start).Round(time.Millisecond))
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	// Stop accepting, let requests in flight finish (bounded), then close
	// the database: every write is one transaction, so none is half done.
	log.Info("shutting down")
	// Event streams end first (clients reconnect to another node with
	// Last-Event-ID); they would otherwise hold Shutdown to its limit.
	srv.RegisterOnShutdown(a.Realtime.Close)
	sctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// serverLog is the server's structured log: text, or JSON lines with
// STRATUM_LOG_FORMAT=json (for log collectors); STRATUM_LOG_LEVEL debug,
// info (default: one line per request), warn or error.
func serverLog(getenv func(string) string) (*slog.Logger, error) {
	var level slog.Level
	if v := getenv("STRATUM_LOG_LEVEL"); v != "" {
		if err := level.UnmarshalText([]byte(v)); err != nil {
			return nil, fmt.Errorf("STRATUM_LOG_LEVEL=%q: expected debug, info, warn or error", v)
		}
	}
	opts := &slog.HandlerOptions{Level: level}
	switch v := getenv("STRATUM_LOG_FORMAT"); v {
	case "", "text":
		return slog.New(slog.NewTextHandler(os.Stderr, opts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(os.Stderr, opts)), nil
	default:
		return nil, fmt.Errorf("STRATUM_LOG_FORMAT=%q: expected text or json", v)
	}
}
