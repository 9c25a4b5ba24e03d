// Package app wires one Stratum instance from its configuration: the
// store, the engine with its schema snapshots, auth, the media library and
// both APIs behind one HTTP handler. The command, the tests, the benchmark
// server and e2e all build the server here, so none of them runs a wiring
// the binary does not.
package app

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"sync"

	"github.com/labstack/echo/v4"

	"github.com/stratum-cms/stratum/adminui"
	"github.com/stratum-cms/stratum/auth"
	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/graphql"
	"github.com/stratum-cms/stratum/mail"
	"github.com/stratum-cms/stratum/metrics"
	"github.com/stratum-cms/stratum/models"
	"github.com/stratum-cms/stratum/openapi"
	"github.com/stratum-cms/stratum/realtime"
	"github.com/stratum-cms/stratum/rest"
	"github.com/stratum-cms/stratum/store"
	"github.com/stratum-cms/stratum/upload"
	"github.com/stratum-cms/stratum/webhooks"
)

// Options tune how an App is built; the zero value builds what
// `stratum serve` runs.
type Options struct {
	// Getenv reads the environment; nil means os.Getenv.
	Getenv func(string) string
	// Log receives the server's logs; nil discards them.
	Log *slog.Logger
	// Tune changes the loaded configuration before anything is built
	// (tests: another database, permissions, limits, a clock).
	Tune func(*Config)
}

// App is one wired Stratum instance.
type App struct {
	Config  *Config
	Store   *store.Store
	Engine  *engine.Engine
	Auth    *auth.Service
	Upload  *upload.Service
	GraphQL *graphql.Server
	// Webhooks are delivered by every node from the outbox, while the
	// App is open.
	Webhooks *webhooks.Service
	// Realtime streams document events at /api/realtime.
	Realtime *realtime.Hub
	// HTTP serves the content API, the admin API, uploads and GraphQL.
	HTTP *echo.Echo
	log  *slog.Logger

	stop context.CancelFunc
	done chan struct{}
}

// Open loads the project in dir, connects and migrates the database and
// builds the HTTP handler. Every failure names what is wrong; nothing is
// left open when it fails.
func Open(dir string, o Options) (*App, error) {
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	if o.Log == nil {
		o.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if err := CheckProject(dir); err != nil {
		return nil, err
	}
	cfg, err := LoadConfig(dir, o.Getenv)
	if err != nil {
		return nil, err
	}
	if o.Tune != nil {
		o.Tune(cfg)
	}
	types, comps, err := models.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	logProject(o.Log, dir, types, comps)
	// Refuse a production start without its secrets before touching the database.
	if err := auth.CheckSecrets(cfg.Env, cfg.Auth.Getenv); err != nil {
		return nil, err
	}
	st, err := store.Open(cfg.DatabaseURL)
	if err != nil {
		return nil, err
	}
	a := &App{Config: cfg, Store: st, log: o.Log}
	if err := a.build(engine.SchemaFiles{Types: types, Components: comps}); err != nil {
		st.Close()
		return nil, err
	}
	return a, nil
}

func (a *App) build(files engine.SchemaFiles) error {
	ctx, cfg := context.Background(), a.Config
	// The file types plus those defined through the admin API, before auth
	// checks permissions.json against them.
	eng, err := engine.Boot(ctx, a.Store, files, cfg.Engine)
	if err != nil {
		return fmt.Errorf("schema: %w", err)
	}
	a.Engine = eng
	acfg := cfg.Auth
	acfg.Actions = func() []string { return auth.SchemaActions(eng.Registry.Current().Schema) }
	acfg.Changed = func() { a.Store.Announce(context.Background()) }
	acfg.Log = a.log
	acfg.Extension = eng
	if acfg.Mailer, err = mail.New(cfg.Email, cfg.Env == "production", a.log); err != nil {
		return err
	}
	if a.Auth, err = auth.New(ctx, a.Store, acfg); err != nil {
		return err
	}
	if err := a.Auth.EnsureAdminFromEnv(ctx); err != nil {
		return err
	}
	ucfg := cfg.Upload
	ucfg.Log = a.log
	if a.Upload, err = upload.New(ctx, a.Store, ucfg); err != nil {
		return err
	}
	eng.UseMedia(a.Upload)
	// One trust setting for every client address (auth.ClientIP).
	wcfg := cfg.Webhooks
	wcfg.Log = a.log
	a.Webhooks = webhooks.New(a.Store, wcfg)
	rcfg := cfg.Rest
	if !cfg.OpenAPIOff {
		oopts := openapi.Options{Title: filepath.Base(cfg.Dir) + " content API", Prefix: cfg.Rest.Prefix}
		part, err := eng.Registry.Derive("OpenAPI", func(ms *models.Schema) (any, error) { return openapi.Serve(ms, oopts) })
		if err != nil {
			return err
		}
		rcfg.OpenAPI = func() any { return eng.Registry.Current().Part(part) }
	}
	rtcfg := cfg.Realtime
	rtcfg.Log = a.log
	a.Realtime = realtime.New(a.Store, rtcfg)
	rcfg.Uploads, rcfg.TrustProxy, rcfg.Webhooks, rcfg.Realtime = a.Upload, cfg.Proxy, a.Webhooks, a.Realtime
	a.HTTP = rest.New(rcfg, eng, a.Auth, a.log)
	if !cfg.AdminPanelOff {
		a.HTTP.Pre(adminui.New().Middleware)
	}
	// The GraphQL schema becomes part of every registry snapshot: a schema
	// GraphQL cannot serve stops the start, and a change to one is refused.
	gcfg := cfg.GraphQL
	gcfg.Logger, gcfg.TrustProxy, gcfg.Uploads = a.log, cfg.Proxy, a.Upload
	if a.GraphQL, err = graphql.New(gcfg, eng, a.Auth, graphql.UsersPermissions(a.Auth)); err != nil {
		return fmt.Errorf("graphql: %w", err)
	}
	a.HTTP.Any(gcfg.EndpointPath(), echo.WrapHandler(a.GraphQL))
	if cfg.Metrics.Enabled {
		m := metrics.New(metrics.Sources{Pools: a.Store.Pools(), WebhookBacklog: a.Webhooks.Backlog,
			SchemaVersion: func() int64 { return eng.Registry.Current().Version }})
		a.HTTP.Use(m.Middleware)
		a.HTTP.GET("/metrics", echo.WrapHandler(m.Handler(cfg.Metrics.Token)))
	}
	bg, stop := context.WithCancel(context.Background())
	a.stop, a.done = stop, make(chan struct{})
	go func() {
		defer close(a.done)
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			a.Realtime.Run(bg)
		}()
		a.Webhooks.Run(bg)
		wg.Wait()
	}()
	return nil
}

// ServeHTTP serves every API of the instance.
func (a *App) ServeHTTP(w http.ResponseWriter, r *http.Request) { a.HTTP.ServeHTTP(w, r) }

// Follow keeps this node in step with the others until ctx ends: schema
// changes, and the roles' permissions they changed.
func (a *App) Follow(ctx context.Context) {
	a.Store.Watch(ctx, func() {
		if err := a.Engine.Reload(ctx); err != nil && ctx.Err() == nil {
			a.log.Error("reload schema", "err", err)
		}
		a.Auth.InvalidateRoles()
	})
}

// Close stops the webhook deliveries and closes the database.
func (a *App) Close() error {
	if a.stop != nil {
		a.stop()
		<-a.done
	}
	return a.Store.Close()
}

// logProject says, once per file, what of a Strapi project is not run, and
// what loading accepted with a change.
func logProject(log *slog.Logger, dir string, types []*models.ContentType, comps []*models.Component) {
	for _, t := range types {
		for _, w := range t.Warnings {
			log.Warn(w)
		}
	}
	for _, c := range comps {
		for _, w := range c.Warnings {
			log.Warn(w)
		}
	}
	r := Check(dir)
	for _, s := range r.Skipped {
		log.Warn("not run", "file", s.Path, "why", s.Why)
	}
	if len(r.Skipped) > 0 {
		log.Warn(fmt.Sprintf("%d files of custom code or JavaScript configuration are not run; `stratum check` lists them, the README says how to express the common cases", len(r.Skipped)))
	}
}
