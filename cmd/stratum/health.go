package main

import (
	"flag"
	"fmt"
	"net/http"
	"time"
)

// health checks a running server, for container health checks in images
// that have no curl: exit 0 when /_health answers 200.
func health(args []string) error {
	fs := flag.NewFlagSet("health", flag.ContinueOnError)
	url := fs.String("url", "http://127.0.0.1:1337/_health", "health endpoint")
	if err := fs.Parse(args); err != nil {
		return err
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
