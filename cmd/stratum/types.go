package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/stratum-cms/stratum/app"
	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/store"
	"github.com/stratum-cms/stratum/tsgen"
)

// typesCmd handles `stratum types export`: the content-types and components
// defined through the admin API become schema files for version control.
func typesCmd(args []string) error {
	if len(args) > 0 && args[0] == "ts" {
		return typesTS(args[1:], os.Stdout)
	}
	if len(args) == 0 || args[0] != "export" {
		return errors.New("types: usage: stratum types export [--dir DIR] [--out DIR] | stratum types ts [--dir DIR]")
	}
	fs := flag.NewFlagSet("types export", flag.ContinueOnError)
	dir := fs.String("dir", ".", "project folder (its config and database)")
	out := fs.String("out", "", "where to write the files (default: the project folder)")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if *out == "" {
		*out = *dir
	}
	cfg, err := app.LoadConfig(*dir, os.Getenv)
	if err != nil {
		return err
	}
	st, err := store.Open(cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer st.Close()
	ctx := context.Background()
	defs, _, err := st.Definitions(ctx)
	if err != nil {
		return fmt.Errorf("read definitions (has the server run on this database?): %w", err)
	}
	if len(defs) == 0 {
		fmt.Println("No content-types or components are defined in the database.")
		return nil
	}
	for _, d := range defs {
		path, err := definitionPath(*out, d)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, schemaFile(d.Body), 0o644); err != nil {
			return err
		}
		fmt.Println("wrote", path)
	}
	// The stored copies stay: deleting them would take the types offline
	// on every node still running without these files. At the next start
	// the files define the types, and an identical stored copy is ignored.
	fmt.Printf("%d definitions written to %s; commit them. The running server keeps serving them; after a restart the files define them.\n", len(defs), *out)
	return nil
}

// definitionPath places a definition as Strapi lays out its files.
func definitionPath(root string, d engine.Definition) (string, error) {
	if d.Kind == engine.KindComponent {
		cat, name, ok := strings.Cut(d.UID, ".")
		if !ok {
			return "", fmt.Errorf("bad component uid %q", d.UID)
		}
		return filepath.Join(root, "src", "components", cat, name+".json"), nil
	}
	rest, ok := strings.CutPrefix(d.UID, "api::")
	api, name, ok2 := strings.Cut(rest, ".")
	if !ok || !ok2 {
		return "", fmt.Errorf("bad content-type uid %q", d.UID)
	}
	return filepath.Join(root, "src", "api", api, "content-types", name, "schema.json"), nil
}

// schemaFile indents a stored definition and drops the keys that only make
// sense in an admin API request (uid, renamedFrom), keeping key order.
func schemaFile(body []byte) []byte {
	clean := dropKeys(body, map[string]bool{"uid": true, "renamedFrom": true})
	var buf bytes.Buffer
	if err := json.Indent(&buf, clean, "", "  "); err != nil {
		return body
	}
	buf.WriteByte('\n')
	return buf.Bytes()
}

// dropKeys removes object keys anywhere in a JSON document, keeping the
// order of everything else.
func dropKeys(b []byte, drop map[string]bool) []byte {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var out bytes.Buffer
	var walk func() error
	walk = func() error {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case json.Delim:
			if t == '{' {
				out.WriteByte('{')
				first := true
				for dec.More() {
					kt, err := dec.Token()
					if err != nil {
						return err
					}
					key := kt.(string)
					if drop[key] {
						var skip json.RawMessage
						if err := dec.Decode(&skip); err != nil {
							return err
						}
						continue
					}
					if !first {
						out.WriteByte(',')
					}
					first = false
					k, _ := json.Marshal(key)
					out.Write(k)
					out.WriteByte(':')
					if err := walk(); err != nil {
						return err
					}
				}
				_, err = dec.Token()
				out.WriteByte('}')
				return err
			}
			out.WriteByte('[')
			for i := 0; dec.More(); i++ {
				if i > 0 {
					out.WriteByte(',')
				}
				if err := walk(); err != nil {
					return err
				}
			}
			_, err = dec.Token()
			out.WriteByte(']')
			return err
		default:
			v, _ := json.Marshal(t)
			out.Write(v)
		}
		return nil
	}
	if err := walk(); err != nil {
		return b
	}
	return out.Bytes()
}

// typesTS prints the TypeScript definitions of the project's types (files
// and those defined through the admin API).
func typesTS(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("types ts", flag.ContinueOnError)
	dir := fs.String("dir", ".", "project folder")
	if err := fs.Parse(args); err != nil {
		return err
	}
	a, err := open(*dir, slog.New(slog.DiscardHandler))
	if err != nil {
		return err
	}
	defer a.Close()
	_, err = io.WriteString(out, tsgen.Generate(a.Engine.Registry.Current().Schema))
	return err
}
