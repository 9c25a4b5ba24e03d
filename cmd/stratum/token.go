package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/stratum-cms/stratum/auth"
	"github.com/stratum-cms/stratum/errs"
)

// listFlag collects a repeated flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

var lifespanFlags = map[string]int64{"7d": auth.Lifespans[0], "30d": auth.Lifespans[1], "90d": auth.Lifespans[2]}

// tokenCmd is `stratum token create --name N --type T [--permission A]...
// [--lifespan 7d|30d|90d]`: it prints the token string, shown only once.
func tokenCmd(args []string, out io.Writer) error {
	if len(args) == 0 || args[0] != "create" {
		return fmt.Errorf("usage: stratum token create --name N --type read-only|full-access|custom [--permission ACTION]... [--lifespan 7d|30d|90d] [--description D] [--dir DIR]")
	}
	fs := flag.NewFlagSet("token create", flag.ContinueOnError)
	dir := fs.String("dir", ".", "project folder")
	name := fs.String("name", "", "token name (unique)")
	typ := fs.String("type", auth.TokenReadOnly, "read-only, full-access or custom")
	desc := fs.String("description", "", "description")
	lifespan := fs.String("lifespan", "", "7d, 30d or 90d (default: never expires)")
	var perms listFlag
	fs.Var(&perms, "permission", "an action a custom token may perform, e.g. api::article.article.find (repeatable)")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if strings.TrimSpace(*name) == "" {
		return fmt.Errorf("token create: --name is required")
	}
	in := auth.TokenInput{Name: strings.TrimSpace(*name), Description: *desc, Type: *typ,
		Permissions: perms, HasPermissions: *typ == auth.TokenCustom || len(perms) > 0}
	if *lifespan != "" {
		ms, ok := lifespanFlags[*lifespan]
		if !ok {
			return fmt.Errorf("token create: --lifespan must be 7d, 30d or 90d")
		}
		in.Lifespan = &ms
	}
	svc, closeDB, err := openAuthOnly(*dir)
	if err != nil {
		return err
	}
	defer closeDB()
	t, err := svc.CreateToken(context.Background(), in)
	if err != nil {
		return fmt.Errorf("token create: %s", errs.From(err).Message)
	}
	exp := "never expires"
	if t.ExpiresAt != nil {
		exp = "expires " + *t.ExpiresAt
	}
	fmt.Fprintf(os.Stderr, "created %s token %q (id %d, %s); it is shown only once:\n", t.Type, t.Name, t.ID, exp)
	fmt.Fprintln(out, t.AccessKey)
	return nil
}
