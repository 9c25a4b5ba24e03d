package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/stratum-cms/stratum/store"
	"github.com/stratum-cms/stratum/strapiimport"
)

// progressOut receives import progress (tests replace it).
var progressOut io.Writer = os.Stderr

// isTerminal reports whether w is a terminal (a bar is drawn then).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// importCmd is `stratum import strapi --from URL [--dir DIR] [--uploads DIR]`,
// or `stratum import --file F` (a backup: importFileCmd).
func importCmd(args []string, out io.Writer) error {
	if len(args) > 0 && strings.HasPrefix(args[0], "-") {
		return importFileCmd(args, out)
	}
	if len(args) == 0 || args[0] != "strapi" {
		return fmt.Errorf("usage: stratum import strapi --from STRAPI_DATABASE_URL [--dir PROJECT] [--uploads DIR] [--force]\n" +
			"       stratum import --file FILE [--dir PROJECT] [--force]")
	}
	fs := flag.NewFlagSet("import strapi", flag.ContinueOnError)
	from := fs.String("from", "", "the Strapi database: a postgres:// URL or a SQLite file")
	dir := fs.String("dir", ".", "the project folder (the Strapi project's folder: its schema files)")
	uploads := fs.String("uploads", "", "the folder of Strapi's uploaded files (default: DIR/public/uploads)")
	force := fs.Bool("force", false, "import into a project that already has documents, files, users or tokens (same ids are overwritten)")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if *from == "" {
		return fmt.Errorf("import strapi: --from is required (the Strapi database: postgres://... or a SQLite file)")
	}
	if *uploads == "" {
		*uploads = filepath.Join(*dir, "public", "uploads")
	}
	ctx := context.Background()
	src, err := store.OpenStrapiSource(ctx, *from)
	if err != nil {
		return fmt.Errorf("import strapi: %w", err)
	}
	defer src.Close()
	a, err := open(*dir, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		return err
	}
	defer a.Close()
	rep, err := strapiimport.Run(ctx, src, a.Store, strapiimport.Options{
		Schema: a.Engine.Registry.Current().Schema, Project: *dir,
		Uploads: *uploads, UploadDir: a.Config.Upload.Dir, Progress: progressOut, Bar: isTerminal(progressOut), Force: *force,
	})
	if err != nil {
		return err
	}
	rep.Write(out)
	return nil
}
