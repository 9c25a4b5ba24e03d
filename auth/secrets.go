package auth

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
)

// Secrets are the keys auth signs and hashes with.
type Secrets struct {
	JWT          []byte // users' JWTs (JWT_SECRET)
	AdminJWT     []byte // admins' JWTs (ADMIN_JWT_SECRET)
	APITokenSalt []byte // HMAC key of API tokens (API_TOKEN_SALT)
}

// SecretNames are the environment variables of the secrets.
var SecretNames = []string{"JWT_SECRET", "ADMIN_JWT_SECRET", "API_TOKEN_SALT"}

// CheckSecrets refuses a production start without every secret in the
// environment, naming the missing variables; other environments may
// generate them.
func CheckSecrets(env string, getenv func(string) string) error {
	if env != "production" {
		return nil
	}
	return checkProductionSecrets(getenv)
}

// checkProductionSecrets names the secrets missing from the environment.
func checkProductionSecrets(getenv func(string) string) error {
	var missing []string
	for _, n := range SecretNames {
		if getenv(n) == "" {
			missing = append(missing, n)
		}
	}
	if len(missing) == 0 {
		return weakSecrets(getenv)
	}
	verb := "is"
	if len(missing) > 1 {
		verb = "are"
	}
	return fmt.Errorf("STRATUM_ENV=production: %s %s not set; production requires JWT_SECRET, ADMIN_JWT_SECRET and API_TOKEN_SALT in the environment (generate each with `openssl rand -base64 32`)",
		strings.Join(missing, ", "), verb)
}

// loadSecrets takes each secret from the environment; outside production a
// missing one is generated once and kept in stratum_meta, so every node and
// every restart use the same value.
func loadSecrets(ctx context.Context, db Tx, env string, getenv func(string) string) (Secrets, error) {
	if env == "production" {
		if err := checkProductionSecrets(getenv); err != nil {
			return Secrets{}, err
		}
	}
	vals := make([][]byte, len(SecretNames))
	for i, n := range SecretNames {
		if v := getenv(n); v != "" {
			vals[i] = []byte(v)
			continue
		}
		v, err := storedSecret(ctx, db, n)
		if err != nil {
			return Secrets{}, err
		}
		vals[i] = []byte(v)
	}
	return Secrets{JWT: vals[0], AdminJWT: vals[1], APITokenSalt: vals[2]}, nil
}

// storedSecret returns the generated secret kept under the variable's
// name, generating it if it is not there; concurrent starts agree on the
// first one written.
func storedSecret(ctx context.Context, db Tx, name string) (string, error) {
	key := "secret:" + name
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	if err := db.PutMetaIfAbsent(ctx, key, base64.StdEncoding.EncodeToString(b[:])); err != nil {
		return "", fmt.Errorf("keep the generated %s: %w", name, err)
	}
	got, ok, err := db.Meta(ctx, key)
	if err == nil && !ok {
		err = errors.New("not kept")
	}
	if err != nil {
		return "", fmt.Errorf("read the generated %s: %w", name, err)
	}
	return got, nil
}
