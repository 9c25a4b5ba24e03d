package upload

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Provider keeps the bytes of uploaded files, each under a key: its
// stored name (hash and extension, generated, never the client's).
type Provider interface {
	// Name is what file objects say in "provider" ("local", "aws-s3").
	Name() string
	// Put stores body under key and returns the URL the file is read at:
	// relative to the server ("/uploads/...") for the local provider,
	// absolute for the others.
	Put(ctx context.Context, key string, body []byte, mime string) (string, error)
	// Delete removes key; a key that is not there is no error.
	Delete(ctx context.Context, key string) error
}

// Provider names of config/plugins.json upload.config.provider.
const (
	ProviderLocal = "local"
	ProviderS3    = "aws-s3"
)

// ProviderName normalises a configured provider name: "" and "local" are
// the local folder; "aws-s3" and Strapi's package name
// "@strapi/provider-upload-aws-s3" are S3. Any other name is refused.
func ProviderName(name string) (string, error) {
	switch name {
	case "", ProviderLocal:
		return ProviderLocal, nil
	case ProviderS3, "@strapi/provider-upload-aws-s3", "strapi-provider-upload-aws-s3":
		return ProviderS3, nil
	}
	return "", fmt.Errorf("upload provider %q is not supported: use \"local\" (the default) or \"aws-s3\"", name)
}

// Local keeps files in a folder, served by the server under /uploads.
type Local struct{ Dir string }

func (Local) Name() string { return ProviderLocal }

func (l Local) Put(_ context.Context, key string, body []byte, _ string) (string, error) {
	if err := os.WriteFile(filepath.Join(l.Dir, filepath.Base(key)), body, 0o644); err != nil {
		return "", err
	}
	return "/uploads/" + key, nil
}

func (l Local) Delete(_ context.Context, key string) error {
	err := os.Remove(filepath.Join(l.Dir, filepath.Base(key)))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	return err
}
