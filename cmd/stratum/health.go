package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"strconv"
	"time"

	"github.com/stratum-cms/stratum/app"
)

// health checks a running server, for container health checks in images
// that have no curl: exit 0 when /_health answers 200. Without --url it
// asks the project's configured address (config/server.json, HOST, PORT).
func health(args []string) error {
	fs := flag.NewFlagSet("health", flag.ContinueOnError)
	url := fs.String("url", "", "health endpoint (default: the project's host and port, /_health)")
	dir := fs.String("dir", ".", "project folder whose address to ask")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *url == "" {
		*url = healthURL(*dir)
	}
	c := &http.Client{Timeout: 3 * time.Second}
	res, err := c.Get(*url)
	if err != nil {
		return err
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("health: %s answered %d", *url, res.StatusCode)
	}
	return nil
}

// healthURL is the project's /_health; a server listening on every
// address is asked on the loopback one.
func healthURL(dir string) string {
	host, port := "127.0.0.1", 1337
	if cfg, err := app.LoadConfig(dir, os.Getenv); err == nil {
		port = cfg.Port
		if cfg.Host != "" && cfg.Host != "0.0.0.0" && cfg.Host != "::" {
			host = cfg.Host
		}
	}
	return "http://" + net.JoinHostPort(host, strconv.Itoa(port)) + "/_health"
}
