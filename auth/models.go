package auth

import (
	"errors"
	"time"
)

// The records of auth's tables. The tables are made by store's numbered
// migrations and read and written by store, behind Store. Names are
// prefixed up_ (users-permissions, as in Strapi) or stratum_.

// Role is a users-permissions role: Public, Authenticated or a custom one.
type Role struct {
	ID          int64
	DocumentID  string
	Name        string
	Description string
	Type        string
	CreatedAt   time.Time
	UpdatedAt   time.Time
	// Data and Extra hold the attributes a users-permissions role
	// extension adds, as a user's do.
	Data, Extra []byte
}

// Permission grants one action (api::article.article.find,
// plugin::users-permissions.user.me, ...) to a role.
type Permission struct {
	ID        int64
	RoleID    int64
	Action    string
	CreatedAt time.Time
}

// User is an end user of the content API (users-permissions).
type User struct {
	ID                 int64
	DocumentID         string
	Username           string
	Email              string // lower-cased
	Provider           string
	Password           string // bcrypt
	ResetPasswordToken *string
	ConfirmationToken  *string
	Confirmed          bool
	Blocked            bool
	RoleID             *int64
	CreatedAt          time.Time
	UpdatedAt          time.Time
	PublishedAt        *time.Time
	// TokensValidAfter (Unix seconds) refuses the JWTs issued before it:
	// set when the password changes or the user is blocked.
	TokensValidAfter int64
	// Data and Extra hold the attributes a users-permissions extension
	// adds, as JSON objects: public scalars in Data; relations, media,
	// components and private values in Extra (as a document's columns).
	Data, Extra []byte
}

// AdminUser is a user of the admin API. Every admin is a super admin.
type AdminUser struct {
	ID         int64
	DocumentID string
	Firstname  string
	Lastname   string
	Email      string // lower-cased
	Password   string // bcrypt
	IsActive   bool
	Blocked    bool
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

// APIToken is a content-API token issued by an admin. Only the HMAC of the
// token string is stored (AccessKey).
type APIToken struct {
	ID          int64
	Name        string
	Description string
	Type        string
	AccessKey   string
	LastUsedAt  *time.Time
	ExpiresAt   *time.Time
	Lifespan    *int64 // milliseconds; nil: never expires
	Permissions []string
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

// ErrDuplicate is what Store returns (wrapped) when a unique index refuses
// a row: a name, email or username another row holds.
var ErrDuplicate = errors.New("duplicate key")

func isUniqueViolation(err error) bool { return errors.Is(err, ErrDuplicate) }

// jsTime formats a time as Strapi does: UTC with milliseconds.
func jsTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

func jsTimePtr(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := jsTime(*t)
	return &s
}
