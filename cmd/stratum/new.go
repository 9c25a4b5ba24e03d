package main

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/stratum-cms/stratum/examples"
)

// scaffold writes a new project folder from an embedded template.
func scaffold(args []string) error {
	fset := flag.NewFlagSet("new", flag.ContinueOnError)
	template := fset.String("template", "blog", "project template (blog)")
	if len(args) == 0 {
		return errors.New("new: give the folder to create: stratum new DIR")
	}
	dir := args[0]
	if err := fset.Parse(args[1:]); err != nil {
		return err
	}
	if *template != "blog" {
		return fmt.Errorf("new: unknown template %q (blog)", *template)
	}
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return fmt.Errorf("new: %s exists and is not empty", dir)
	}
	src, _ := fs.Sub(examples.Blog, "blog")
	err := fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		out := filepath.Join(dir, p)
		if d.IsDir() {
			return os.MkdirAll(out, 0o755)
		}
		b, err := fs.ReadFile(src, p)
		if err != nil {
			return err
		}
		return os.WriteFile(out, b, 0o644)
	})
	if err != nil {
		return err
	}
	fmt.Printf("Created %s. Run: stratum serve --dir %s\n", dir, dir)
	return nil
}
