package main

import (
	"errors"
	"flag"
	"io"

	"github.com/stratum-cms/stratum/app"
)

// checkCmd is `stratum check`: what of a project runs, what is skipped and
// why, what stops it; non-zero exit when something stops it.
func checkCmd(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	dir := fs.String("dir", ".", "project folder")
	if err := fs.Parse(args); err != nil {
		return err
	}
	r := app.Check(*dir)
	r.Print(out)
	if len(r.Errors) > 0 {
		return errors.New("check: the project cannot start")
	}
	return nil
}
