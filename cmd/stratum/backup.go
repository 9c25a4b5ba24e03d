package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/stratum-cms/stratum/app"
	"github.com/stratum-cms/stratum/backup"
)

// exportCmd is `stratum export --file F [--dir DIR]`: the archive is
// written next to F and renamed when complete, so F is never a partial
// archive.
func exportCmd(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	file := fs.String("file", "", "the archive to write (- for the standard output)")
	dir := fs.String("dir", ".", "the project folder")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *file == "" || fs.NArg() > 0 {
		return fmt.Errorf("usage: stratum export --file FILE [--dir PROJECT]")
	}
	a, err := open(*dir, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		return err
	}
	defer a.Close()
	o := backupOptions(a, false)
	if *file == "-" { // the summary goes with the progress, to stderr
		sum, err := backup.Export(context.Background(), a.Store, os.Stdout, o)
		if err == nil {
			fmt.Fprintf(progressOut, "exported %d tables (%d rows) and %d media files (%d bytes)\n", sum.Tables, sum.Rows, sum.Media, sum.Bytes)
		}
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(*file), "."+filepath.Base(*file)+".partial-*")
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	defer os.Remove(f.Name()) // gone once renamed
	sum, err := backup.Export(context.Background(), a.Store, f, o)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if err := os.Rename(f.Name(), *file); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	fmt.Fprintf(out, "exported %d tables (%d rows) and %d media files (%d bytes) to %s\n", sum.Tables, sum.Rows, sum.Media, sum.Bytes, *file)
	return nil
}

// importFileCmd is `stratum import --file F [--dir DIR] [--force]`.
func importFileCmd(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("import", flag.ContinueOnError)
	file := fs.String("file", "", "the archive to restore (- for the standard input)")
	dir := fs.String("dir", ".", "the project folder")
	force := fs.Bool("force", false, "replace the content of a project that already has documents, files, users, tokens or webhooks")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *file == "" || fs.NArg() > 0 {
		return fmt.Errorf("usage: stratum import --file FILE [--dir PROJECT] [--force]")
	}
	in := io.Reader(os.Stdin)
	if *file != "-" {
		f, err := os.Open(*file)
		if err != nil {
			return fmt.Errorf("import: %w", err)
		}
		defer f.Close()
		in = f
	}
	a, err := open(*dir, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		return err
	}
	defer a.Close()
	sum, err := backup.Import(context.Background(), a.Store, in, backupOptions(a, *force))
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "imported %d tables (%d rows) and %d media files (%d bytes) from %s\n", sum.Tables, sum.Rows, sum.Media, sum.Bytes, *file)
	return nil
}

func backupOptions(a *app.App, force bool) backup.Options {
	// The local folder is held whatever the provider: files uploaded
	// before a move to S3 (or imported from Strapi) are still served from it.
	return backup.Options{Types: a.Engine.Registry.Current().Schema.Types, UploadDir: a.Config.Upload.Dir,
		Progress: progressOut, Bar: isTerminal(progressOut), Force: force}
}
