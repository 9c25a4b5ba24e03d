package upload

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
)

// S3Config is the providerOptions of the aws-s3 provider, as Strapi's
// @strapi/provider-upload-aws-s3 reads them from config/plugins.json.
type S3Config struct {
	// BaseURL, when set, is where files are read (a CDN, or the bucket's
	// public address): a file's URL is BaseURL/RootPath/key. Unset, it is
	// the bucket's own URL (virtual-hosted, or path-style with
	// ForcePathStyle).
	BaseURL string `json:"baseUrl"`
	// RootPath prefixes every key in the bucket ("media" keeps files under
	// media/).
	RootPath  string    `json:"rootPath"`
	S3Options S3Options `json:"s3Options"`
	// Params at the root of providerOptions is Strapi 4's layout: refused
	// with a message saying where it goes.
	LegacyParams json.RawMessage `json:"params"`
}

// S3Options are the S3 client's settings (Strapi's s3Options).
type S3Options struct {
	// Endpoint is an S3-compatible server's URL (MinIO, R2, versitygw...);
	// unset means AWS (or AWS_ENDPOINT_URL_S3 / AWS_ENDPOINT_URL).
	Endpoint string `json:"endpoint"`
	// Region; unset means AWS_REGION or the shared configuration's.
	Region         string `json:"region"`
	ForcePathStyle bool   `json:"forcePathStyle"`
	// Credentials, when set, are used instead of the standard chain
	// (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, shared files, the
	// instance's role...).
	Credentials *S3Credentials `json:"credentials"`
	Params      struct {
		Bucket string `json:"Bucket"`
		// ACL is the canned ACL of every object: "public-read" when the
		// key is absent, as in Strapi; null or "" sends none (buckets
		// with ACLs disabled).
		ACL json.RawMessage `json:"ACL"`
	} `json:"params"`
}

// S3Credentials are static credentials.
type S3Credentials struct {
	AccessKeyID     string `json:"accessKeyId"`
	SecretAccessKey string `json:"secretAccessKey"`
	SessionToken    string `json:"sessionToken"`
}

// acl is the canned ACL sent with each object, "" for none.
func (o S3Options) acl() (string, error) {
	raw := bytes.TrimSpace(o.Params.ACL)
	if len(raw) == 0 {
		return string(types.ObjectCannedACLPublicRead), nil
	}
	if string(raw) == "null" {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", fmt.Errorf("s3Options.params.ACL must be a string (a canned ACL such as \"public-read\") or null")
	}
	return s, nil
}

// Check says what is wrong with a configuration, before any connection.
func (c S3Config) Check() error {
	if len(c.LegacyParams) > 0 && c.S3Options.Params.Bucket == "" {
		return fmt.Errorf("providerOptions.params is Strapi 4's layout: put params (and region, endpoint, credentials) inside providerOptions.s3Options")
	}
	if c.S3Options.Params.Bucket == "" {
		return fmt.Errorf("providerOptions.s3Options.params.Bucket is required")
	}
	if _, err := c.S3Options.acl(); err != nil {
		return fmt.Errorf("providerOptions.%w", err)
	}
	if c.S3Options.Endpoint != "" {
		if u, err := url.Parse(c.S3Options.Endpoint); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("providerOptions.s3Options.endpoint %q must be an http(s) URL", c.S3Options.Endpoint)
		}
	}
	if c.BaseURL != "" {
		if u, err := url.Parse(c.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("providerOptions.baseUrl %q must be an http(s) URL", c.BaseURL)
		}
	}
	for _, seg := range strings.Split(c.RootPath, "/") {
		if seg == ".." || seg == "." {
			return fmt.Errorf("providerOptions.rootPath %q must not contain . or .. segments", c.RootPath)
		}
	}
	return nil
}

// S3 keeps files in an S3 bucket (the aws-s3 provider).
type S3 struct {
	client *s3.Client
	bucket string
	acl    string
	prefix string // rootPath and a slash, or ""
	base   string // the URL keys are appended to, ending with a slash
}

// s3Timeout bounds one object operation.
const s3Timeout = 2 * time.Minute

// NewS3 builds the client: credentials from the configuration when it has
// them, else the standard AWS chain (environment, shared files, roles).
// Nothing is sent until the first upload.
func NewS3(ctx context.Context, c S3Config) (*S3, error) {
	if err := c.Check(); err != nil {
		return nil, err
	}
	o := c.S3Options
	var opts []func(*awsconfig.LoadOptions) error
	if o.Region != "" {
		opts = append(opts, awsconfig.WithRegion(o.Region))
	}
	if cr := o.Credentials; cr != nil && cr.AccessKeyID != "" {
		opts = append(opts, awsconfig.WithCredentialsProvider(
			credentials.NewStaticCredentialsProvider(cr.AccessKeyID, cr.SecretAccessKey, cr.SessionToken)))
	}
	cfg, err := awsconfig.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("aws-s3 provider: %w", err)
	}
	noRegion := cfg.Region == ""
	if noRegion {
		cfg.Region = "us-east-1" // S3-compatible servers mostly ignore it, but signing needs one
	}
	client := s3.NewFromConfig(cfg, func(so *s3.Options) {
		if o.Endpoint != "" {
			so.BaseEndpoint = aws.String(o.Endpoint)
		}
		so.UsePathStyle = o.ForcePathStyle
		// Only the checksums S3 requires: many S3-compatible servers
		// refuse the newer default ones.
		so.RequestChecksumCalculation = aws.RequestChecksumCalculationWhenRequired
		so.ResponseChecksumValidation = aws.ResponseChecksumValidationWhenRequired
	})
	acl, _ := o.acl()
	p := &S3{client: client, bucket: o.Params.Bucket, acl: acl}
	if root := strings.Trim(c.RootPath, "/"); root != "" {
		p.prefix = root + "/"
	}
	endpoint := o.Endpoint
	if endpoint == "" && client.Options().BaseEndpoint != nil {
		endpoint = *client.Options().BaseEndpoint
	}
	if noRegion && endpoint == "" {
		return nil, fmt.Errorf("aws-s3 provider: set providerOptions.s3Options.region (or AWS_REGION): AWS needs the bucket's region")
	}
	p.base = bucketURL(c.BaseURL, endpoint, cfg.Region, o.Params.Bucket, o.ForcePathStyle)
	return p, nil
}

// bucketURL is the URL object keys are appended to: baseUrl when set
// (Strapi's rule), else the bucket's address on its endpoint.
func bucketURL(baseURL, endpoint, region, bucket string, pathStyle bool) string {
	if baseURL != "" {
		return strings.TrimRight(baseURL, "/") + "/"
	}
	if endpoint == "" {
		if pathStyle {
			return "https://s3." + region + ".amazonaws.com/" + url.PathEscape(bucket) + "/"
		}
		return "https://" + bucket + ".s3." + region + ".amazonaws.com/"
	}
	u, err := url.Parse(endpoint)
	if err != nil {
		return strings.TrimRight(endpoint, "/") + "/" + url.PathEscape(bucket) + "/"
	}
	path := strings.TrimRight(u.Path, "/")
	if pathStyle {
		return u.Scheme + "://" + u.Host + path + "/" + url.PathEscape(bucket) + "/"
	}
	return u.Scheme + "://" + bucket + "." + u.Host + path + "/"
}

// Check asks the server for the bucket (HeadBucket): whether it exists
// and the credentials may use it.
func (p *S3) Check(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if _, err := p.client.HeadBucket(ctx, &s3.HeadBucketInput{Bucket: aws.String(p.bucket)}); err != nil {
		return fmt.Errorf("aws-s3: bucket %s: %w", p.bucket, err)
	}
	return nil
}

func (*S3) Name() string { return ProviderS3 }

// Key is the object key of a stored name: rootPath/name.
func (p *S3) Key(name string) string { return p.prefix + name }

// Bucket is the bucket files are kept in.
func (p *S3) Bucket() string { return p.bucket }

func (p *S3) Put(ctx context.Context, name string, body []byte, mime string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, s3Timeout)
	defer cancel()
	key := p.Key(name)
	in := &s3.PutObjectInput{Bucket: aws.String(p.bucket), Key: aws.String(key), Body: bytes.NewReader(body),
		ContentType: aws.String(mime), ContentLength: aws.Int64(int64(len(body)))}
	if p.acl != "" {
		in.ACL = types.ObjectCannedACL(p.acl)
	}
	if _, err := p.client.PutObject(ctx, in); err != nil {
		return "", fmt.Errorf("aws-s3: put %s in bucket %s: %w", key, p.bucket, err)
	}
	return p.base + escapeKey(key), nil
}

func (p *S3) Delete(ctx context.Context, name string) error {
	ctx, cancel := context.WithTimeout(ctx, s3Timeout)
	defer cancel()
	key := p.Key(name)
	_, err := p.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String(p.bucket), Key: aws.String(key)})
	var nk *types.NoSuchKey
	if err != nil && !errors.As(err, &nk) {
		return fmt.Errorf("aws-s3: delete %s in bucket %s: %w", key, p.bucket, err)
	}
	return nil
}

// escapeKey escapes each segment of a key for a URL path.
func escapeKey(key string) string {
	segs := strings.Split(key, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}
