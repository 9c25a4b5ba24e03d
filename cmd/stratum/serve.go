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
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/stratum-cms/stratum/auth"
	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/graphql"
	"github.com/stratum-cms/stratum/models"
	"github.com/stratum-cms/stratum/rest"
	"github.com/stratum-cms/stratum/store"
	"github.com/stratum-cms/stratum/upload"
)

// app is one wired Stratum instance.
type app struct {
	cfg    *config
	store  *store.Store
	engine *engine.Engine
	auth   *auth.Service
	upload *upload.Service
	http   *echo.Echo
}

// open loads the project, connects and migrates the database and builds
// the HTTP handler. Every failure names what is wrong.
func open(dir string, log *slog.Logger) (*app, error) {
	cfg, err := loadConfig(dir)
	if err != nil {
		return nil, err
	}
	types, comps, err := models.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	// Refuse a production start without its secrets before touching the database.
	if err := auth.CheckSecrets(cfg.Env, os.Getenv); err != nil {
		return nil, err
	}
	st, err := store.Open(cfg.DatabaseURL)
	if err != nil {
		return nil, err
	}
	// The file types plus those defined through the admin API, before auth
	// checks permissions.json against them.
	eng, err := engine.Boot(context.Background(), st, engine.SchemaFiles{Types: types, Components: comps}, cfg.engineConfig())
	if err != nil {
		st.Close()
		return nil, fmt.Errorf("schema: %w", err)
	}
	svc, err := openAuth(context.Background(), cfg, st, eng, log)
	if err != nil {
		st.Close()
		return nil, err
	}
	if err := svc.EnsureAdminFromEnv(context.Background()); err != nil {
		st.Close()
		return nil, err
	}
	up, err := upload.New(context.Background(), st, upload.Config{Dir: filepath.Join(dir, "public", "uploads"),
		MaxBytes: cfg.Upload.SizeLimit, Breakpoints: cfg.Upload.Breakpoints})
	if err != nil {
		st.Close()
		return nil, err
	}
	eng.UseMedia(up)
	h := rest.New(rest.Config{Prefix: cfg.API.Rest.Prefix, MaxBodyBytes: cfg.API.Rest.MaxBodySize, TrustProxy: cfg.Proxy,
		Uploads: up}, eng, svc, log)
	if err := mountGraphQL(h, cfg, eng, svc, log); err != nil {
		st.Close()
		return nil, err
	}
	return &app{cfg: cfg, store: st, engine: eng, auth: svc, upload: up, http: h}, nil
}

// mountGraphQL serves the shadow-CRUD GraphQL API at its endpoint. The
// schema follows registry snapshots: it is rebuilt after a schema change.
func mountGraphQL(h *echo.Echo, cfg *config, eng *engine.Engine, svc *auth.Service, log *slog.Logger) error {
	gcfg, err := graphql.LoadConfig(cfg.Dir)
	if err != nil {
		return err
	}
	gcfg.Env, gcfg.TrustProxy, gcfg.Logger = cfg.Env, cfg.Proxy, log
	gql, err := graphql.New(gcfg, eng, svc, graphql.UsersPermissions(svc))
	if err != nil {
		return err
	}
	if err := gql.Rebuild(eng.Registry.Current().Schema); err != nil {
		return fmt.Errorf("graphql: %w", err)
	}
	h.Any(gcfg.EndpointPath(), echo.WrapHandler(gql))
	return nil
}

// openAuth builds users-permissions, API tokens and admins on the store's
// database: secrets (required in production), default roles, and
// config/permissions.json applied to the roles.
func openAuth(ctx context.Context, cfg *config, st *store.Store, eng *engine.Engine, log *slog.Logger) (*auth.Service, error) {
	perms, err := auth.LoadPermissions(cfg.Dir)
	if err != nil {
		return nil, err
	}
	return auth.New(ctx, st.GORM(), auth.Config{
		Env:               cfg.Env,
		JWTExpiresIn:      cfg.JWTExpiresIn,
		AdminJWTExpiresIn: cfg.AdminJWTExpiresIn,
		RateLimit:         cfg.RateLimit,
		Permissions:       perms,
		Actions:           func() []string { return auth.SchemaActions(eng.Registry.Current().Schema) },
		Changed:           func() { st.Announce(context.Background()) },
		Log:               log,
	})
}

// follow keeps this node in step with the others until ctx ends: schema
// changes, and the roles' permissions they changed.
func (a *app) follow(ctx context.Context, log *slog.Logger) {
	a.store.Watch(ctx, func() {
		if err := a.engine.Reload(ctx); err != nil && ctx.Err() == nil {
			log.Error("reload schema", "err", err)
		}
		a.auth.InvalidateRoles()
	})
}

func serve(args []string) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	dir := fs.String("dir", ".", "project folder")
	host := fs.String("host", "", "listen host (default from config or HOST, else 0.0.0.0)")
	port := fs.Int("port", -1, "listen port (default from config or PORT, else 1337)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	start := time.Now()
	a, err := open(*dir, log)
	if err != nil {
		return err
	}
	defer a.store.Close()
	if *host != "" {
		a.cfg.Host = *host
	}
	if *port >= 0 {
		a.cfg.Port = *port
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(a.cfg.Host, strconv.Itoa(a.cfg.Port)))
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: a.http, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 60 * time.Second,
		IdleTimeout: 120 * time.Second, MaxHeaderBytes: 64 << 10}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	go a.follow(ctx, log)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	log.Info("stratum ready", "addr", ln.Addr().String(), "database", a.store.Dialect(),
		"types", len(a.engine.Registry.Current().Schema.Types), "startup", time.Since(start).Round(time.Millisecond))
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	// Stop accepting, let requests in flight finish (bounded), then close
	// the database: every write is one transaction, so none is half done.
	log.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
