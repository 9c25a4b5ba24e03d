// Package tests3 runs a real S3 server for tests: versitygw (posix
// backend, a temp folder) on a free port of 127.0.0.1. Tests that need it
// skip, saying how to install it, when the binary is absent; .ci/run
// installs it.
package tests3

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
)

// Install is how to get the binary.
const Install = "go install github.com/versity/versitygw/cmd/versitygw@v1.8.0"

// Server is one running versitygw.
type Server struct {
	Endpoint       string // http://127.0.0.1:PORT
	Access, Secret string
	Region         string
	Dir            string // the posix backend's root: one folder per bucket
	Client         *s3.Client
}

// Binary is the path of versitygw: on PATH, else in GOBIN, GOPATH/bin or
// ~/go/bin; "" when there is none.
func Binary() string {
	if p, err := exec.LookPath("versitygw"); err == nil {
		return p
	}
	var dirs []string
	if d := os.Getenv("GOBIN"); d != "" {
		dirs = append(dirs, d)
	}
	if d := os.Getenv("GOPATH"); d != "" {
		for _, p := range filepath.SplitList(d) {
			dirs = append(dirs, filepath.Join(p, "bin"))
		}
	}
	if home, err := os.UserHomeDir(); err == nil {
		dirs = append(dirs, filepath.Join(home, "go", "bin"))
	}
	for _, d := range dirs {
		p := filepath.Join(d, "versitygw")
		if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return p
		}
	}
	return ""
}

// Start runs versitygw until the test ends, or skips the test when it is
// not installed.
func Start(t testing.TB) *Server {
	t.Helper()
	bin := Binary()
	if bin == "" {
		t.Skipf("versitygw not found on PATH or in ~/go/bin: the S3 tests need a real S3 server (%s)", Install)
	}
	s := &Server{Access: "stratumtest", Secret: "stratumtestsecret", Region: "us-east-1", Dir: t.TempDir()}
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		if lastErr = s.start(t, bin); lastErr == nil {
			break
		}
	}
	if lastErr != nil {
		t.Fatalf("versitygw did not start: %v", lastErr)
	}
	s.Client = s3.New(s3.Options{Region: s.Region, BaseEndpoint: aws.String(s.Endpoint), UsePathStyle: true,
		Credentials:                credentials.NewStaticCredentialsProvider(s.Access, s.Secret, ""),
		RequestChecksumCalculation: aws.RequestChecksumCalculationWhenRequired,
		ResponseChecksumValidation: aws.ResponseChecksumValidationWhenRequired})
	return s
}

// start runs the binary on a free port and waits until it answers.
func (s *Server) start(t testing.TB, bin string) error {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	addr := l.Addr().String()
	l.Close()
	var out bytes.Buffer
	cmd := exec.Command(bin, "--access", s.Access, "--secret", s.Secret, "--region", s.Region,
		"--port", addr, "--quiet", "posix", s.Dir)
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		return err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	endpoint := "http://" + addr
	deadline := time.Now().Add(15 * time.Second)
	for {
		select {
		case err := <-exited:
			return fmt.Errorf("exited (%v): %s", err, out.String())
		default:
		}
		if res, err := http.Get(endpoint + "/"); err == nil {
			res.Body.Close()
			if res.Header.Get("Server") != "" || res.StatusCode == http.StatusForbidden {
				break
			}
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			<-exited
			return fmt.Errorf("no answer on %s within 15s: %s", addr, out.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-exited
	})
	s.Endpoint = endpoint
	return nil
}

// CreateBucket makes a bucket.
func (s *Server) CreateBucket(t testing.TB, name string) {
	t.Helper()
	if _, err := s.Client.CreateBucket(context.Background(), &s3.CreateBucketInput{Bucket: aws.String(name)}); err != nil {
		t.Fatalf("create bucket %s: %v", name, err)
	}
}

// Get reads an object with a signed request; ok is false when there is
// none.
func (s *Server) Get(t testing.TB, bucket, key string) (body []byte, contentType string, ok bool) {
	t.Helper()
	out, err := s.Client.GetObject(context.Background(), &s3.GetObjectInput{Bucket: aws.String(bucket), Key: aws.String(key)})
	var nk *types.NoSuchKey
	if errors.As(err, &nk) {
		return nil, "", false
	}
	if err != nil {
		t.Fatalf("get %s/%s: %v", bucket, key, err)
	}
	defer out.Body.Close()
	b, err := io.ReadAll(out.Body)
	if err != nil {
		t.Fatal(err)
	}
	return b, aws.ToString(out.ContentType), true
}

// Keys lists a bucket's keys, sorted.
func (s *Server) Keys(t testing.TB, bucket string) []string {
	t.Helper()
	var keys []string
	p := s3.NewListObjectsV2Paginator(s.Client, &s3.ListObjectsV2Input{Bucket: aws.String(bucket)})
	for p.HasMorePages() {
		page, err := p.NextPage(context.Background())
		if err != nil {
			t.Fatalf("list %s: %v", bucket, err)
		}
		for _, o := range page.Contents {
			keys = append(keys, aws.ToString(o.Key))
		}
	}
	sort.Strings(keys)
	return keys
}

// ProviderOptions is the plugins.json providerOptions of the aws-s3
// provider for a bucket of this server, under baseURL (none when "") and
// rootPath.
func (s *Server) ProviderOptions(bucket, baseURL, rootPath string) string {
	return fmt.Sprintf(`{"baseUrl": %q, "rootPath": %q, "s3Options": {"endpoint": %q, "region": %q, "forcePathStyle": true,
  "credentials": {"accessKeyId": %q, "secretAccessKey": %q}, "params": {"Bucket": %q}}}`,
		baseURL, rootPath, s.Endpoint, s.Region, s.Access, s.Secret, bucket)
}

// Trim removes a prefix of every key (a rootPath).
func Trim(keys []string, prefix string) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = strings.TrimPrefix(k, prefix)
	}
	return out
}

// PublicRead lets anyone read a bucket's objects (a bucket policy), so
// that files are read at their URL as browsers would.
func (s *Server) PublicRead(t testing.TB, bucket string) {
	t.Helper()
	policy := fmt.Sprintf(`{"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Principal": "*",
  "Action": ["s3:GetObject"], "Resource": ["arn:aws:s3:::%s/*"]}]}`, bucket)
	if _, err := s.Client.PutBucketPolicy(context.Background(), &s3.PutBucketPolicyInput{Bucket: aws.String(bucket),
		Policy: aws.String(policy)}); err != nil {
		t.Fatalf("public-read policy on %s: %v", bucket, err)
	}
}
