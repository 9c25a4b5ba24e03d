package auth

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/lestrrat-go/jwx/v2/jwa"
	"github.com/lestrrat-go/jwx/v2/jwt"
)

// Users' JWTs are Strapi's: HS256 over JWT_SECRET with exactly the claims
// {id, iat, exp}, so tokens issued by a Strapi sharing the secret keep
// working. Admins' JWTs are signed with ADMIN_JWT_SECRET and carry
// "typ":"admin" too. Each parser pins the algorithm and the key (so
// alg:none and algorithm swaps fail by construction), validates exp and
// iat, and refuses the other kind's claim: even with equal secrets a user
// token is never an admin token nor the reverse.

const (
	claimID   = "id"
	claimType = "typ"
	adminType = "admin"
)

// jwtSkew tolerates small clock differences between nodes.
const jwtSkew = 30 * time.Second

func (s *Service) clock() jwt.Clock { return jwt.ClockFunc(s.cfg.Now) }

func (s *Service) sign(key []byte, id int64, ttl time.Duration, admin bool) (string, error) {
	now := s.cfg.Now().Truncate(time.Second)
	t := jwt.New()
	_ = t.Set(claimID, id)
	if admin {
		_ = t.Set(claimType, adminType)
	}
	_ = t.Set(jwt.IssuedAtKey, now)
	_ = t.Set(jwt.ExpirationKey, now.Add(ttl))
	b, err := jwt.Sign(t, jwt.WithKey(jwa.HS256, key))
	if err != nil {
		return "", fmt.Errorf("sign JWT: %w", err)
	}
	return string(b), nil
}

// IssueUserJWT signs a users' JWT for a user id.
func (s *Service) IssueUserJWT(id int64) (string, error) {
	return s.sign(s.secrets.JWT, id, s.cfg.JWTExpiresIn, false)
}

// IssueAdminJWT signs an admin JWT for an admin id.
func (s *Service) IssueAdminJWT(id int64) (string, error) {
	return s.sign(s.secrets.AdminJWT, id, s.cfg.AdminJWTExpiresIn, true)
}

func (s *Service) parse(raw string, key []byte, admin bool) (int64, error) {
	id, _, err := s.parseIssued(raw, key, admin)
	return id, err
}

// parseIssued verifies a JWT and returns its id and issue time (iat; zero
// when the token has none).
func (s *Service) parseIssued(raw string, key []byte, admin bool) (int64, time.Time, error) {
	opts := []jwt.ParseOption{
		jwt.WithKey(jwa.HS256, key),
		jwt.WithValidate(true),
		jwt.WithClock(s.clock()),
		jwt.WithAcceptableSkew(jwtSkew),
		jwt.WithRequiredClaim(jwt.ExpirationKey),
		jwt.WithRequiredClaim(claimID),
	}
	if admin {
		opts = append(opts, jwt.WithClaimValue(claimType, adminType))
	}
	t, err := jwt.Parse([]byte(raw), opts...)
	if err != nil {
		return 0, time.Time{}, err
	}
	if !admin {
		if _, ok := t.Get(claimType); ok {
			return 0, time.Time{}, fmt.Errorf("not a users' token")
		}
	}
	v, _ := t.Get(claimID)
	id, err := claimInt(v)
	return id, t.IssuedAt(), err
}

// ParseUserJWT verifies a users' JWT and returns the user id.
func (s *Service) ParseUserJWT(raw string) (int64, error) { return s.parse(raw, s.secrets.JWT, false) }

// ParseAdminJWT verifies an admin JWT and returns the admin id.
func (s *Service) ParseAdminJWT(raw string) (int64, error) {
	return s.parse(raw, s.secrets.AdminJWT, true)
}

func claimInt(v any) (int64, error) {
	var f float64
	switch x := v.(type) {
	case float64:
		f = x
	case int64:
		f = float64(x)
	case json.Number:
		n, err := x.Int64()
		if err != nil {
			return 0, err
		}
		f = float64(n)
	default:
		return 0, fmt.Errorf("id claim is not a number")
	}
	if f < 1 || f != math.Trunc(f) || f > 1<<53 {
		return 0, fmt.Errorf("id claim is not a row id")
	}
	return int64(f), nil
}

var durationRe = regexp.MustCompile(`^(-?(?:\d+)?\.?\d+)\s*([a-z]*)$`)

// ParseExpiresIn reads jwt.expiresIn the way jsonwebtoken does: a JSON
// number is seconds; a string uses the `ms` package's format ("30d",
// "12h", "90 minutes", "2 weeks"; a bare number in a string is milliseconds).
func ParseExpiresIn(raw json.RawMessage) (time.Duration, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return 0, nil
	}
	var n float64
	if err := json.Unmarshal(raw, &n); err == nil {
		if n <= 0 {
			return 0, fmt.Errorf("expiresIn must be positive")
		}
		return time.Duration(n * float64(time.Second)), nil
	}
	var str string
	if err := json.Unmarshal(raw, &str); err != nil {
		return 0, fmt.Errorf("expiresIn must be a number of seconds or a string like \"30d\"")
	}
	m := durationRe.FindStringSubmatch(strings.ToLower(strings.TrimSpace(str)))
	if m == nil {
		return 0, fmt.Errorf("expiresIn %q: expected a duration like \"30d\", \"12h\" or \"90m\"", str)
	}
	f, err := strconv.ParseFloat(m[1], 64)
	if err != nil || f <= 0 {
		return 0, fmt.Errorf("expiresIn %q must be positive", str)
	}
	var unit time.Duration
	switch m[2] {
	case "years", "year", "yrs", "yr", "y":
		unit = time.Duration(365.25 * 24 * float64(time.Hour))
	case "weeks", "week", "w":
		unit = 7 * 24 * time.Hour
	case "days", "day", "d":
		unit = 24 * time.Hour
	case "hours", "hour", "hrs", "hr", "h":
		unit = time.Hour
	case "minutes", "minute", "mins", "min", "m":
		unit = time.Minute
	case "seconds", "second", "secs", "sec", "s":
		unit = time.Second
	case "milliseconds", "millisecond", "msecs", "msec", "ms", "":
		unit = time.Millisecond
	default:
		return 0, fmt.Errorf("expiresIn %q: unknown unit %q", str, m[2])
	}
	return time.Duration(f * float64(unit)), nil
}
