package auth

import (
	"regexp"
	"sync"
	"unicode"

	"github.com/stratum-cms/stratum/errs"
	"golang.org/x/crypto/bcrypt"
)

// bcryptCost is Strapi's (bcryptjs, 10 rounds): hashes move both ways.
const bcryptCost = 10

func hashPassword(pw string) (string, error) {
	h, err := bcrypt.GenerateFromPassword([]byte(pw), bcryptCost)
	return string(h), err
}

var (
	dummyOnce sync.Once
	dummyHash []byte
)

// checkPassword compares a password with a bcrypt hash. With no hash (an
// unknown user) it compares against a dummy one, so both answers take the
// same time and say nothing about whether the user exists.
func checkPassword(hash, pw string) bool {
	if hash == "" {
		dummyOnce.Do(func() { dummyHash, _ = bcrypt.GenerateFromPassword([]byte("stratum-no-such-user"), bcryptCost) })
		_ = bcrypt.CompareHashAndPassword(dummyHash, []byte(pw))
		return false
	}
	return bcrypt.CompareHashAndPassword([]byte(hash), []byte(pw)) == nil
}

var emailRe = regexp.MustCompile(`^[^\s@]+@[^\s@]+\.[^\s@]+$`)

func checkEmail(key, email string) error {
	if len(email) > 254 || !emailRe.MatchString(email) {
		return validationAt(key, email, "%s must be a valid email", key)
	}
	return nil
}

// checkUserPassword applies the users-permissions rules: 6 characters at
// least, 72 bytes at most (bcrypt's limit).
func checkUserPassword(pw string) error {
	if len([]rune(pw)) < 6 {
		return validationAt("password", nil, "password must be at least 6 characters")
	}
	if len(pw) > 72 {
		return validationAt("password", nil, "Password must be less than 73 bytes")
	}
	return nil
}

// checkAdminPassword applies Strapi's admin rules: 8 characters at least,
// 72 bytes at most, with a lowercase letter, an uppercase letter and a number.
func checkAdminPassword(pw string) error {
	var lower, upper, digit bool
	for _, r := range pw {
		lower = lower || unicode.IsLower(r)
		upper = upper || unicode.IsUpper(r)
		digit = digit || unicode.IsDigit(r)
	}
	switch {
	case len([]rune(pw)) < 8:
		return validationAt("password", nil, "password must be at least 8 characters")
	case len(pw) > 72:
		return validationAt("password", nil, "Password must be less than 73 bytes")
	case !lower:
		return validationAt("password", nil, "password must contain at least one lowercase character")
	case !upper:
		return validationAt("password", nil, "password must contain at least one uppercase character")
	case !digit:
		return validationAt("password", nil, "password must contain at least one number")
	}
	return nil
}

func invalidCredentials() error {
	return &errs.Error{Kind: errs.KindUnauthorized, Message: "Missing or invalid credentials"}
}
