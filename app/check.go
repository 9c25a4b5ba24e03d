package app

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/stratum-cms/stratum/models"
)

// Report is what Stratum makes of a project folder: what will run, what is
// skipped and why, and what stops it.
type Report struct {
	Types      []string // content-type uids served
	Components []string
	Config     []string // config/*.json files read
	// Extensions are the users-permissions extension schemas read.
	Extensions []string
	// Core are controller, router and service files that only call
	// Strapi's core factory: what they would do is what Stratum serves.
	Core     []string
	Skipped  []Skipped
	Warnings []string
	Errors   []string
}

// Skipped is a file Stratum does not run.
type Skipped struct {
	Path string
	Why  string
}

// customCode names the JavaScript of a Strapi project Stratum cannot run,
// by where it lives, with what is skipped.
var customCode = []struct{ glob, why string }{
	{"src/index.js", "register/bootstrap code is not run"},
	{"src/index.ts", "register/bootstrap code is not run"},
	{"src/api/*/controllers/*", "custom controller is not run: the core controller's behaviour is served"},
	{"src/api/*/services/*", "custom service is not run"},
	{"src/api/*/routes/*", "custom routes are not added: the core routes are served (permissions in config/permissions.json)"},
	{"src/api/*/middlewares/*", "route middleware is not run"},
	{"src/api/*/policies/*", "policy is not run: express access with roles and permissions"},
	{"src/api/*/content-types/*/lifecycles.js", "lifecycle hooks are not run: use webhooks or /api/realtime"},
	{"src/api/*/content-types/*/lifecycles.ts", "lifecycle hooks are not run: use webhooks or /api/realtime"},
	{"src/middlewares/*", "global middleware is not run"},
	{"src/policies/*", "global policy is not run"},
	{"src/plugins/*", "local plugin is not loaded"},
	{"src/admin/*", "admin panel customisation is not used"},
}

// Check reads a project folder without touching a database.
func Check(dir string) Report {
	var r Report
	if err := CheckProject(dir); err != nil {
		r.Errors = append(r.Errors, err.Error())
		return r
	}
	types, comps, err := models.ReadDir(dir)
	if err != nil {
		r.Errors = append(r.Errors, "schema: "+err.Error())
	} else if _, err := models.Build(types, comps); err != nil {
		r.Errors = append(r.Errors, "schema: "+err.Error())
	} else {
		for _, t := range types {
			if models.IsSystemUID(t.UID) {
				r.Extensions = append(r.Extensions, t.Source)
			} else {
				r.Types = append(r.Types, t.UID)
			}
			r.Warnings = append(r.Warnings, t.Warnings...)
		}
		for _, c := range comps {
			r.Components = append(r.Components, c.UID)
			r.Warnings = append(r.Warnings, c.Warnings...)
		}
	}
	if _, err := LoadConfig(dir, func(string) string { return "" }); err != nil {
		r.Errors = append(r.Errors, err.Error())
	}
	jsonCfg, _ := filepath.Glob(filepath.Join(dir, "config", "*.json"))
	for _, f := range jsonCfg {
		r.Config = append(r.Config, rel(dir, f))
	}
	for _, ext := range []string{"js", "ts", "mjs", "cjs"} {
		files, _ := filepath.Glob(filepath.Join(dir, "config", "*."+ext))
		envFiles, _ := filepath.Glob(filepath.Join(dir, "config", "env", "*", "*."+ext))
		for _, f := range append(files, envFiles...) {
			base := strings.TrimSuffix(filepath.Base(f), filepath.Ext(f))
			why := "JavaScript configuration is not read: write it as config/" + base + ".json"
			if _, err := os.Stat(filepath.Join(dir, "config", base+".json")); err == nil {
				why = "JavaScript configuration is not read: config/" + base + ".json is used instead"
			}
			r.Skipped = append(r.Skipped, Skipped{rel(dir, f), why})
		}
	}
	seen := map[string]bool{}
	for _, c := range customCode {
		matches, _ := filepath.Glob(filepath.Join(dir, filepath.FromSlash(c.glob)))
		for _, m := range matches {
			p := rel(dir, m)
			if seen[p] || strings.HasSuffix(p, "schema.json") {
				continue
			}
			seen[p] = true
			if b, err := os.ReadFile(m); err == nil && coreFactoryRe.Match(b) {
				r.Core = append(r.Core, p)
				continue
			}
			r.Skipped = append(r.Skipped, Skipped{p, c.why})
		}
	}
	// Extensions: the users-permissions schemas are read; the rest is code.
	_ = filepath.WalkDir(filepath.Join(dir, "src", "extensions"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		rp := rel(dir, p)
		if strings.HasPrefix(rp, "src/extensions/users-permissions/content-types/") && strings.HasSuffix(rp, "/schema.json") &&
			(strings.Contains(rp, "/user/") || strings.Contains(rp, "/role/")) {
			return nil
		}
		r.Skipped = append(r.Skipped, Skipped{rp, "plugin extension code is not run"})
		return nil
	})
	sort.Slice(r.Skipped, func(i, j int) bool { return r.Skipped[i].Path < r.Skipped[j].Path })
	return r
}

// coreFactoryRe matches a file that only exports Strapi's core
// controller, router or service of a type, without customisation.
var coreFactoryRe = regexp.MustCompile(`^\s*(?:['"]use strict['"];?\s*)?(?:/\*[^*]*\*/\s*|//[^\n]*\n\s*)*` +
	`(?:const\s*\{\s*factories\s*\}\s*=\s*require\(\s*['"]@strapi/strapi['"]\s*\)|import\s*\{\s*factories\s*\}\s*from\s*['"]@strapi/strapi['"]);?\s*` +
	`(?:module\.exports\s*=|export\s+default)\s*factories\.createCore(?:Controller|Router|Service)\(\s*['"][\w:.\-]+['"]\s*\)\s*;?\s*$`)

func rel(dir, p string) string {
	if r, err := filepath.Rel(dir, p); err == nil {
		return filepath.ToSlash(r)
	}
	return p
}

// Print writes the report for a person.
func (r Report) Print(w io.Writer) {
	fmt.Fprintf(w, "Runs:\n  %d content types: %s\n  %d components: %s\n  config: %s\n", len(r.Types), strings.Join(r.Types, ", "),
		len(r.Components), strings.Join(r.Components, ", "), strings.Join(r.Config, ", "))
	if len(r.Extensions) > 0 {
		fmt.Fprintf(w, "  extensions (their attributes are served): %s\n", strings.Join(r.Extensions, ", "))
	}
	if len(r.Core) > 0 {
		fmt.Fprintf(w, "  core controllers, routers and services (as Stratum serves them): %s\n", strings.Join(r.Core, ", "))
	}
	if len(r.Skipped) > 0 {
		fmt.Fprintf(w, "Skipped (%d files; see the README, \"Moving a Strapi project\"):\n", len(r.Skipped))
		for _, s := range r.Skipped {
			fmt.Fprintf(w, "  %s: %s\n", s.Path, s.Why)
		}
	}
	if len(r.Warnings) > 0 {
		fmt.Fprintln(w, "Warnings:")
		for _, s := range r.Warnings {
			fmt.Fprintf(w, "  %s\n", s)
		}
	}
	if len(r.Errors) > 0 {
		fmt.Fprintln(w, "Errors (the server will not start):")
		for _, s := range r.Errors {
			fmt.Fprintf(w, "  %s\n", s)
		}
	}
}
