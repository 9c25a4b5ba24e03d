package app

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func writeConfig(t *testing.T, name, body string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "config"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "config", name), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestUploadConfig: upload.config's limits reach the media library, and a
// type pattern that could never match is refused at start.
func TestUploadConfig(t *testing.T) {
	noenv := func(string) string { return "" }
	dir := writeConfig(t, "plugins.json", `{"upload":{"config":{"sizeLimit":1000,"maxConcurrentPixels":5000000,
		"allowedTypes":["image/*","application/pdf"],"deniedTypes":["image/svg+xml"]}}}`)
	c, err := LoadConfig(dir, noenv)
	if err != nil {
		t.Fatal(err)
	}
	u := c.Upload
	if u.MaxBytes != 1000 || u.MaxConcurrentPixels != 5_000_000 || !slices.Equal(u.AllowedTypes, []string{"image/*", "application/pdf"}) ||
		!slices.Equal(u.DeniedTypes, []string{"image/svg+xml"}) {
		t.Fatalf("upload config: %+v", u)
	}
	for _, bad := range []string{`"image"`, `"image/png; charset=x"`, `"/png"`, `"images"`} {
		dir := writeConfig(t, "plugins.json", `{"upload":{"config":{"deniedTypes":[`+bad+`]}}}`)
		if _, err := LoadConfig(dir, noenv); err == nil || !strings.Contains(err.Error(), "not a MIME type pattern") {
			t.Errorf("%s: %v", bad, err)
		}
	}
}

// TestCORSConfig: config/middlewares.json in Strapi's form sets strapi::cors.
func TestCORSConfig(t *testing.T) {
	noenv := func(string) string { return "" }
	for _, c := range []struct {
		name, body string
		check      func(t *testing.T, c *Config)
		err        string
	}{
		{"no file", "", func(t *testing.T, c *Config) {
			if c.Rest.CORS.Disabled || c.Rest.CORS.Origins != nil {
				t.Fatalf("%+v", c.Rest.CORS)
			}
		}, ""},
		{"name only", `["strapi::errors", "strapi::cors"]`, func(t *testing.T, c *Config) {
			if c.Rest.CORS.Disabled {
				t.Fatal("disabled")
			}
		}, ""},
		{"removed", `["strapi::errors", "strapi::security"]`, func(t *testing.T, c *Config) {
			if !c.Rest.CORS.Disabled {
				t.Fatal("enabled")
			}
		}, ""},
		{"configured", `["strapi::errors", {"name": "strapi::cors", "config": {"origin": "https://a.example, https://b.example",
			"methods": ["GET", "POST"], "headers": "Content-Type,Authorization,X-Custom", "maxAge": 600, "credentials": false, "expose": ["X-Total"]}}]`,
			func(t *testing.T, c *Config) {
				cc := c.Rest.CORS
				if !slices.Equal(cc.Origins, []string{"https://a.example", "https://b.example"}) || !slices.Equal(cc.Methods, []string{"GET", "POST"}) ||
					!slices.Equal(cc.Headers, []string{"Content-Type", "Authorization", "X-Custom"}) || cc.MaxAge != 600 || !cc.NoCredentials ||
					!slices.Equal(cc.Expose, []string{"X-Total"}) {
					t.Fatalf("%+v", cc)
				}
			}, ""},
		{"bad entry", `[{"name": "strapi::cors", "config": {"origin": 3}}]`, nil, "config/middlewares.json"},
		{"not a list", `{"cors": true}`, nil, "config/middlewares.json"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if c.body != "" {
				dir = writeConfig(t, "middlewares.json", c.body)
			}
			cfg, err := LoadConfig(dir, noenv)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err = %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			c.check(t, cfg)
		})
	}
}

// TestDatabaseURL: supported URLs pass, others are refused with the
// supported ones named, and Strapi's DATABASE_* variables build one.
func TestDatabaseURL(t *testing.T) {
	dir := writeConfig(t, "server.json", `{}`)
	for _, c := range []struct {
		name string
		env  map[string]string
		want string
		err  string
	}{
		{"default", nil, filepath.Join(dir, ".tmp", "data.db"), ""},
		{"postgres", map[string]string{"DATABASE_URL": "postgres://u@h:5432/db"}, "postgres://u@h:5432/db", ""},
		{"postgresql", map[string]string{"DATABASE_URL": "postgresql://u@h/db"}, "postgresql://u@h/db", ""},
		{"file path", map[string]string{"DATABASE_URL": "/var/lib/stratum/data.db"}, "/var/lib/stratum/data.db", ""},
		{"sqlite scheme", map[string]string{"DATABASE_URL": "sqlite:///var/data.db"}, "/var/data.db", ""},
		{"sqlite colon", map[string]string{"DATABASE_URL": "sqlite:data.db"}, "data.db", ""},
		{"mysql", map[string]string{"DATABASE_URL": "mysql://root@localhost/strapi"}, "", `scheme "mysql" is not supported: use postgres://`},
		{"empty sqlite", map[string]string{"DATABASE_URL": "sqlite:"}, "", "names no file"},
		{"strapi postgres", map[string]string{"DATABASE_CLIENT": "postgres", "DATABASE_HOST": "db.internal", "DATABASE_PORT": "6543",
			"DATABASE_NAME": "cms", "DATABASE_USERNAME": "strapi", "DATABASE_PASSWORD": "p@ss word", "DATABASE_SSL": "true"},
			"postgres://strapi:p%40ss%20word@db.internal:6543/cms?sslmode=require", ""},
		{"strapi postgres defaults", map[string]string{"DATABASE_CLIENT": "postgres"}, "postgres://127.0.0.1:5432/strapi?sslmode=disable", ""},
		{"strapi sqlite", map[string]string{"DATABASE_CLIENT": "sqlite", "DATABASE_FILENAME": ".tmp/other.db"}, filepath.Join(dir, ".tmp", "other.db"), ""},
		{"strapi mysql", map[string]string{"DATABASE_CLIENT": "mysql"}, "", `DATABASE_CLIENT="mysql" is not supported`},
		{"url wins", map[string]string{"DATABASE_CLIENT": "mysql", "DATABASE_URL": "postgres://u@h/db"}, "postgres://u@h/db", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg, err := LoadConfig(dir, func(k string) string { return c.env[k] })
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err = %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if cfg.DatabaseURL != c.want {
				t.Fatalf("url %q, want %q", cfg.DatabaseURL, c.want)
			}
		})
	}
}

// TestCheckProject: a missing folder or one without a project is refused
// before anything is created in it.
func TestCheckProject(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope")
	empty := t.TempDir()
	file := filepath.Join(empty, "f")
	_ = os.WriteFile(file, nil, 0o644)
	for _, c := range []struct{ dir, err string }{
		{missing, "does not exist: create a project with `stratum new"},
		{empty, "holds no project"},
		{file, "is not a folder"},
	} {
		_, err := Open(c.dir, Options{Getenv: func(string) string { return "" }})
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: %v", c.dir, err)
		}
	}
	if _, err := os.Stat(filepath.Join(empty, ".tmp")); err == nil {
		t.Fatal("a refused folder got a database")
	}
	if _, err := os.Stat(missing); err == nil {
		t.Fatal("a missing folder was created")
	}
}

// TestUploadProviderConfig: upload.config.provider and providerOptions as
// Strapi's aws-s3 provider reads them; an unknown provider, or options the
// provider cannot use, stop the start with a message naming them.
func TestUploadProviderConfig(t *testing.T) {
	noenv := func(string) string { return "" }
	for _, tc := range []struct{ name, body, err string }{
		{"local by default", `{}`, ""},
		{"local", `{"upload":{"config":{"provider":"local"}}}`, ""},
		{"aws-s3", `{"upload":{"config":{"provider":"aws-s3","providerOptions":{"baseUrl":"https://cdn.example.com","rootPath":"media",
			"s3Options":{"region":"eu-west-3","forcePathStyle":true,"params":{"Bucket":"site","ACL":"private"}}}}}}`, ""},
		{"Strapi's package name", `{"upload":{"config":{"provider":"@strapi/provider-upload-aws-s3",
			"providerOptions":{"s3Options":{"params":{"Bucket":"site"}}}}}}`, ""},
		{"unknown provider", `{"upload":{"config":{"provider":"cloudinary"}}}`,
			`config/plugins.json: upload.config.provider: upload provider "cloudinary" is not supported`},
		{"aws-s3 without options", `{"upload":{"config":{"provider":"aws-s3"}}}`, "needs providerOptions.s3Options.params.Bucket"},
		{"aws-s3 without a bucket", `{"upload":{"config":{"provider":"aws-s3","providerOptions":{"s3Options":{}}}}}`,
			"upload.config.providerOptions.s3Options.params.Bucket is required"},
		{"options of the wrong shape", `{"upload":{"config":{"provider":"aws-s3","providerOptions":{"rootPath":1}}}}`,
			"upload.config.providerOptions: json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := LoadConfig(writeConfig(t, "plugins.json", tc.body), noenv)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("got %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(tc.body, "s3") {
				if c.Upload.Provider != "aws-s3" || c.Upload.S3.S3Options.Params.Bucket != "site" {
					t.Fatalf("upload config: %+v", c.Upload)
				}
			} else if c.Upload.Provider != "local" {
				t.Fatalf("provider %q", c.Upload.Provider)
			}
		})
	}
}
