package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"io"
	"log/slog"
	"path/filepath"

	"github.com/stratum-cms/stratum/openapi"
)

// openAPICmd prints the project's OpenAPI document without a server.
func openAPICmd(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("openapi", flag.ContinueOnError)
	dir := fs.String("dir", ".", "project folder")
	if err := fs.Parse(args); err != nil {
		return err
	}
	a, err := open(*dir, slog.New(slog.DiscardHandler))
	if err != nil {
		return err
	}
	defer a.Close()
	abs, _ := filepath.Abs(*dir)
	b, err := openapi.Build(a.Engine.Registry.Current().Schema, openapi.Options{Title: filepath.Base(abs) + " content API", Prefix: a.Config.Rest.Prefix})
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	_ = json.Indent(&buf, b, "", "  ")
	buf.WriteByte('\n')
	_, err = out.Write(buf.Bytes())
	return err
}
