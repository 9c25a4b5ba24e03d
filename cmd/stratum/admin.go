package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/stratum-cms/stratum/auth"
	"github.com/stratum-cms/stratum/errs"
)

// openAuthOnly opens a project's instance for the admin and token
// commands, without serving.
func openAuthOnly(dir string) (*auth.Service, func(), error) {
	a, err := open(dir, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		return nil, nil, err
	}
	return a.Auth, func() { a.Close() }, nil
}

// adminCmd is `stratum admin create --email E --password P [--dir DIR]`.
func adminCmd(args []string) error {
	if len(args) == 0 || args[0] != "create" {
		return fmt.Errorf("usage: stratum admin create --email E --password P [--firstname F] [--lastname L] [--dir DIR]")
	}
	fs := flag.NewFlagSet("admin create", flag.ContinueOnError)
	dir := fs.String("dir", ".", "project folder")
	email := fs.String("email", "", "the admin's email")
	password := fs.String("password", "", "the admin's password (default: $STRATUM_ADMIN_PASSWORD)")
	first := fs.String("firstname", "", "first name")
	last := fs.String("lastname", "", "last name")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if *password == "" {
		*password = os.Getenv("STRATUM_ADMIN_PASSWORD")
	}
	if *email == "" || *password == "" {
		return fmt.Errorf("admin create: --email and --password are required")
	}
	svc, closeDB, err := openAuthOnly(*dir)
	if err != nil {
		return err
	}
	defer closeDB()
	a, err := svc.CreateAdmin(context.Background(), auth.AdminInput{Email: *email, Password: *password, Firstname: *first, Lastname: *last})
	if err != nil {
		return fmt.Errorf("admin create: %s", errs.From(err).Message)
	}
	fmt.Fprintf(os.Stderr, "created admin %s (id %d); log in with POST /admin/login\n", a.Email, a.ID)
	return nil
}
