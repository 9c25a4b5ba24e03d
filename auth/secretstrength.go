package auth

import (
	"fmt"
	"strings"
)

// minSecretBytes is the shortest secret production accepts: an HMAC key
// shorter than its hash's block is guessable offline from one token.
const minSecretBytes = 32

// placeholders begin values copied from examples and tutorials (Strapi's
// .env.example says tobemodified): a token signed with one is forgeable by
// anyone who read the same page.
var placeholders = []string{"tobemodified", "changeme", "change-me", "change_me", "replace-me", "replaceme", "your-", "your_", "example", "secret"}

// weakSecrets names the production secrets that are too short or a
// well-known placeholder.
func weakSecrets(getenv func(string) string) error {
	var weak []string
	for _, n := range SecretNames {
		v := getenv(n)
		if v == "" {
			continue // reported as missing
		}
		if len(v) < minSecretBytes || isPlaceholder(v) {
			weak = append(weak, n)
		}
	}
	if len(weak) == 0 {
		return nil
	}
	return fmt.Errorf("STRATUM_ENV=production: %s must be at least %d bytes and not a placeholder from an example "+
		"(generate each with `openssl rand -base64 32`)", strings.Join(weak, ", "), minSecretBytes)
}

func isPlaceholder(v string) bool {
	l := strings.ToLower(v)
	for _, p := range placeholders {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	distinct := map[byte]bool{}
	for i := 0; i < len(v); i++ {
		distinct[v[i]] = true
	}
	return len(distinct) < 8 // "aaaa...", "12341234..."
}
