package upload_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stratum-cms/stratum/errs"
	"github.com/stratum-cms/stratum/internal/tests3"
	"github.com/stratum-cms/stratum/upload"
)

// s3Service is a media library whose bytes go to a bucket of a real S3
// server (versitygw).
func s3Service(t *testing.T, srv *tests3.Server, bucket, baseURL, rootPath string) (*upload.Service, *memFiles) {
	t.Helper()
	var c upload.S3Config
	if err := json.Unmarshal([]byte(srv.ProviderOptions(bucket, baseURL, rootPath)), &c); err != nil {
		t.Fatal(err)
	}
	m := &memFiles{rows: map[int64]upload.FileRecord{}}
	s, err := upload.New(t.Context(), m, upload.Config{Dir: filepath.Join(t.TempDir(), "uploads"),
		Breakpoints: map[string]int{"small": 500}, Provider: "aws-s3", S3: c})
	if err != nil {
		t.Fatal(err)
	}
	return s, m
}

// formatKeys are the stored names of a file and its formats.
func formatKeys(t *testing.T, f *upload.File) []string {
	t.Helper()
	keys := []string{f.Hash + f.Ext}
	var formats map[string]struct {
		Hash, Ext, URL string
	}
	if err := json.Unmarshal(f.Formats, &formats); err != nil {
		t.Fatal(err)
	}
	for _, v := range formats {
		keys = append(keys, v.Hash+v.Ext)
	}
	slices.Sort(keys)
	return keys
}

// TestS3Provider: an image and its formats go to the bucket under
// rootPath, with their type; URLs are baseUrl/rootPath/key; replacing puts
// the new objects and removes the old; deleting removes them all.
func TestS3Provider(t *testing.T) {
	srv := tests3.Start(t)
	srv.CreateBucket(t, "media")
	s, m := s3Service(t, srv, "media", "https://cdn.example.com/assets/", "site/uploads")
	if s.LocalDir() != "" {
		t.Fatalf("LocalDir %q: nothing is served from the disk with S3", s.LocalDir())
	}
	body := pngOf(800, 600)
	f, err := s.Save(t.Context(), "Sunset.png", body, upload.FileInfo{})
	if err != nil {
		t.Fatal(err)
	}
	if f.Provider != "aws-s3" || m.rows[f.ID].Provider != "aws-s3" {
		t.Fatalf("provider: %q, record %q", f.Provider, m.rows[f.ID].Provider)
	}
	if want := "https://cdn.example.com/assets/site/uploads/" + f.Hash + ".png"; f.URL != want {
		t.Fatalf("url %s, want %s", f.URL, want)
	}
	keys := formatKeys(t, f)
	if len(keys) != 3 { // the original, thumbnail, small
		t.Fatalf("keys %v", keys)
	}
	if got := tests3.Trim(srv.Keys(t, "media"), "site/uploads/"); !slices.Equal(got, keys) {
		t.Fatalf("bucket holds %v, want %v", got, keys)
	}
	got, typ, ok := srv.Get(t, "media", "site/uploads/"+f.Hash+".png")
	if !ok || !bytes.Equal(got, body) || typ != "image/png" {
		t.Fatalf("object: %v %d bytes, type %q", ok, len(got), typ)
	}
	var formats map[string]struct{ Hash, Ext, URL string }
	_ = json.Unmarshal(f.Formats, &formats)
	for name, v := range formats {
		if v.URL != "https://cdn.example.com/assets/site/uploads/"+v.Hash+v.Ext {
			t.Errorf("format %s url %s", name, v.URL)
		}
	}

	// Replace: same id, new objects, the old ones gone.
	r, err := s.Replace(t.Context(), f.ID, "Dawn.png", pngOf(300, 200), upload.FileInfo{})
	if err != nil {
		t.Fatal(err)
	}
	if r.ID != f.ID || r.Hash == f.Hash || r.Provider != "aws-s3" {
		t.Fatalf("replaced: %+v", r)
	}
	if got, want := tests3.Trim(srv.Keys(t, "media"), "site/uploads/"), formatKeys(t, r); !slices.Equal(got, want) {
		t.Fatalf("after replace the bucket holds %v, want %v", got, want)
	}

	// Delete removes the row and every object.
	if _, err := s.Delete(t.Context(), f.ID); err != nil {
		t.Fatal(err)
	}
	if got := srv.Keys(t, "media"); len(got) != 0 || len(m.rows) != 0 {
		t.Fatalf("after delete: bucket %v, rows %d", got, len(m.rows))
	}
}

// TestS3URLWithoutBaseURL: without baseUrl a file's URL is the bucket's
// (path-style on the endpoint), and reading it there gives the bytes (the
// objects are public-read, Strapi's default ACL).
func TestS3URLWithoutBaseURL(t *testing.T) {
	srv := tests3.Start(t)
	srv.CreateBucket(t, "pub")
	srv.PublicRead(t, "pub")
	s, _ := s3Service(t, srv, "pub", "", "")
	body := []byte("hello, bucket")
	f, err := s.Save(t.Context(), "note.txt", body, upload.FileInfo{})
	if err != nil {
		t.Fatal(err)
	}
	if want := srv.Endpoint + "/pub/" + f.Hash + ".txt"; f.URL != want {
		t.Fatalf("url %s, want %s", f.URL, want)
	}
	res, err := http.Get(f.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	got, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 || !bytes.Equal(got, body) {
		t.Fatalf("GET %s: %d %s", f.URL, res.StatusCode, got)
	}
}

// TestS3Failures: bytes that cannot be stored leave no row and no object;
// a row that cannot be written removes the objects already put.
func TestS3Failures(t *testing.T) {
	srv := tests3.Start(t)
	srv.CreateBucket(t, "media")

	// No such bucket: the upload fails (a 500, the server's fault), no row.
	s, m := s3Service(t, srv, "missing", "", "")
	_, err := s.Save(t.Context(), "a.png", pngOf(800, 600), upload.FileInfo{})
	var e *errs.Error
	if !errors.As(err, &e) || e.Kind != errs.KindInternal || strings.Contains(e.Message, "missing") {
		t.Fatalf("save into a missing bucket: %v", err)
	}
	if len(m.rows) != 0 {
		t.Fatalf("rows %v", m.rows)
	}

	// The database refuses the row: the objects go.
	s, m = s3Service(t, srv, "media", "", "")
	m.failWrite = errors.New("database is down")
	if _, err := s.Save(t.Context(), "a.png", pngOf(800, 600), upload.FileInfo{}); err == nil || err.Error() != "database is down" {
		t.Fatalf("save with the database down: %v", err)
	}
	if keys := srv.Keys(t, "media"); len(keys) != 0 {
		t.Fatalf("orphan objects: %v", keys)
	}

	// Replacing with the database down keeps the old objects and removes
	// the new ones.
	m.failWrite = nil
	f, err := s.Save(t.Context(), "a.png", pngOf(800, 600), upload.FileInfo{})
	if err != nil {
		t.Fatal(err)
	}
	before := srv.Keys(t, "media")
	m.failReplace = errors.New("database is down")
	if _, err := s.Replace(t.Context(), f.ID, "b.png", pngOf(600, 400), upload.FileInfo{}); err == nil {
		t.Fatal("replace with the database down succeeded")
	}
	if after := srv.Keys(t, "media"); !slices.Equal(after, before) || len(before) != 3 {
		t.Fatalf("objects before %v, after a failed replace %v", before, after)
	}
}

// TestS3Config: what the provider refuses before connecting.
func TestS3Config(t *testing.T) {
	for _, tc := range []struct{ name, json, want string }{
		{"no bucket", `{"s3Options": {"region": "eu-west-1"}}`, "params.Bucket is required"},
		{"Strapi 4 layout", `{"params": {"Bucket": "b"}, "region": "eu-west-1"}`, "inside providerOptions.s3Options"},
		{"bad endpoint", `{"s3Options": {"endpoint": "ftp://x", "params": {"Bucket": "b"}}}`, "must be an http(s) URL"},
		{"bad baseUrl", `{"baseUrl": "cdn.example.com", "s3Options": {"params": {"Bucket": "b"}}}`, "baseUrl"},
		{"ACL not a string", `{"s3Options": {"params": {"Bucket": "b", "ACL": 1}}}`, "ACL must be a string"},
		{"rootPath escapes", `{"rootPath": "a/../b", "s3Options": {"params": {"Bucket": "b"}}}`, "rootPath"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var c upload.S3Config
			if err := json.Unmarshal([]byte(tc.json), &c); err != nil {
				t.Fatal(err)
			}
			err := c.Check()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
		})
	}
	if _, err := upload.ProviderName("cloudinary"); err == nil || !strings.Contains(err.Error(), `"cloudinary" is not supported`) {
		t.Fatalf("unknown provider: %v", err)
	}
}

// TestS3CredentialsFromEnvironment: without credentials in the
// configuration, the standard AWS chain gives them (here
// AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY), AWS_REGION the region and
// AWS_ENDPOINT_URL_S3 the endpoint (which file URLs then use).
func TestS3CredentialsFromEnvironment(t *testing.T) {
	srv := tests3.Start(t)
	srv.CreateBucket(t, "env")
	t.Setenv("AWS_ACCESS_KEY_ID", srv.Access)
	t.Setenv("AWS_SECRET_ACCESS_KEY", srv.Secret)
	t.Setenv("AWS_REGION", srv.Region)
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(t.TempDir(), "none"))
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(t.TempDir(), "none"))
	t.Setenv("AWS_ENDPOINT_URL_S3", srv.Endpoint)
	c := upload.S3Config{}
	c.S3Options.ForcePathStyle, c.S3Options.Params.Bucket = true, "env"
	m := &memFiles{rows: map[int64]upload.FileRecord{}}
	s, err := upload.New(t.Context(), m, upload.Config{Provider: "aws-s3", S3: c})
	if err != nil {
		t.Fatal(err)
	}
	f, err := s.Save(t.Context(), "a.txt", []byte("from the environment"), upload.FileInfo{})
	if err != nil {
		t.Fatal(err)
	}
	if got, _, ok := srv.Get(t, "env", f.Hash+".txt"); !ok || string(got) != "from the environment" {
		t.Fatalf("object: %v %q", ok, got)
	}
	if want := srv.Endpoint + "/env/" + f.Hash + ".txt"; f.URL != want {
		t.Fatalf("url %s, want %s", f.URL, want)
	}

	// Wrong credentials: refused by the server, so the upload fails.
	t.Setenv("AWS_SECRET_ACCESS_KEY", "wrong")
	s, err = upload.New(t.Context(), m, upload.Config{Provider: "aws-s3", S3: c})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Save(t.Context(), "b.txt", []byte("x"), upload.FileInfo{}); err == nil {
		t.Fatal("saved with a wrong secret")
	}
}

// TestS3RegionRequiredOnAWS: on AWS (no endpoint) a bucket's region must
// be known, from the configuration or the environment; start says so.
func TestS3RegionRequiredOnAWS(t *testing.T) {
	for _, v := range []string{"AWS_REGION", "AWS_DEFAULT_REGION", "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_S3", "AWS_PROFILE"} {
		t.Setenv(v, "")
	}
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(t.TempDir(), "none"))
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(t.TempDir(), "none"))
	c := upload.S3Config{}
	c.S3Options.Params.Bucket = "b"
	m := &memFiles{rows: map[int64]upload.FileRecord{}}
	if _, err := upload.New(t.Context(), m, upload.Config{Provider: "aws-s3", S3: c}); err == nil || !strings.Contains(err.Error(), "region") {
		t.Fatalf("no region: %v", err)
	}
	c.S3Options.Region = "eu-west-3"
	s, err := upload.New(t.Context(), m, upload.Config{Provider: "aws-s3", S3: c})
	if err != nil {
		t.Fatal(err)
	}
	if s.Provider().Name() != "aws-s3" || s.LocalDir() != "" {
		t.Fatalf("provider %s, local dir %q", s.Provider().Name(), s.LocalDir())
	}
}

// TestS3Check: the bucket check the server logs at start.
func TestS3Check(t *testing.T) {
	srv := tests3.Start(t)
	srv.CreateBucket(t, "here")
	for _, tc := range []struct {
		bucket string
		ok     bool
	}{{"here", true}, {"not-here", false}} {
		var c upload.S3Config
		if err := json.Unmarshal([]byte(srv.ProviderOptions(tc.bucket, "", "")), &c); err != nil {
			t.Fatal(err)
		}
		p, err := upload.NewS3(t.Context(), c)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Check(t.Context()); (err == nil) != tc.ok || (err != nil && !strings.Contains(err.Error(), "bucket not-here")) {
			t.Errorf("bucket %s: %v", tc.bucket, err)
		}
	}
}
