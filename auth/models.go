package auth

import (
	"errors"
	"strings"
	"time"
)

// The models of auth's tables. The tables are made by store's numbered
// migrations; auth only queries them, through GORM on the handle it is
// given. Names are prefixed up_ (users-permissions, as in Strapi) or
// stratum_.

// Role is a users-permissions role: Public, Authenticated or a custom one.
type Role struct {
	ID          int64     `gorm:"primaryKey;autoIncrement"`
	DocumentID  string    `gorm:"column:document_id;size:24;not null"`
	Name        string    `gorm:"size:255;not null;uniqueIndex:up_roles_name_uq"`
	Description string    `gorm:"size:1024;not null;default:''"`
	Type        string    `gorm:"size:255;not null;uniqueIndex:up_roles_type_uq"`
	CreatedAt   time.Time `gorm:"not null;autoCreateTime:false"`
	UpdatedAt   time.Time `gorm:"not null;autoUpdateTime:false"`
}

func (Role) TableName() string { return "up_roles" }

// Permission grants one action (api::article.article.find,
// plugin::users-permissions.user.me, ...) to a role.
type Permission struct {
	ID        int64     `gorm:"primaryKey;autoIncrement"`
	RoleID    int64     `gorm:"not null;uniqueIndex:up_permissions_role_action_uq,priority:1"`
	Action    string    `gorm:"size:255;not null;uniqueIndex:up_permissions_role_action_uq,priority:2"`
	CreatedAt time.Time `gorm:"not null;autoCreateTime:false"`
}

func (Permission) TableName() string { return "up_permissions" }

// User is an end user of the content API (users-permissions).
type User struct {
	ID                 int64     `gorm:"primaryKey;autoIncrement"`
	DocumentID         string    `gorm:"column:document_id;size:24;not null"`
	Username           string    `gorm:"size:255;not null;uniqueIndex:up_users_username_uq"`
	Email              string    `gorm:"size:255;not null;uniqueIndex:up_users_email_uq"` // lower-cased
	Provider           string    `gorm:"size:255;not null;default:'local'"`
	Password           string    `gorm:"size:255;not null;default:''"` // bcrypt
	ResetPasswordToken *string   `gorm:"size:255"`
	ConfirmationToken  *string   `gorm:"size:255"`
	Confirmed          bool      `gorm:"not null;default:false"`
	Blocked            bool      `gorm:"not null;default:false"`
	RoleID             *int64    `gorm:"index:up_users_role_idx"`
	CreatedAt          time.Time `gorm:"not null;autoCreateTime:false"`
	UpdatedAt          time.Time `gorm:"not null;autoUpdateTime:false"`
	PublishedAt        *time.Time
}

func (User) TableName() string { return "up_users" }

// AdminUser is a user of the admin API. Every admin is a super admin.
type AdminUser struct {
	ID         int64     `gorm:"primaryKey;autoIncrement"`
	DocumentID string    `gorm:"column:document_id;size:24;not null"`
	Firstname  string    `gorm:"size:255;not null;default:''"`
	Lastname   string    `gorm:"size:255;not null;default:''"`
	Email      string    `gorm:"size:255;not null;uniqueIndex:stratum_admin_users_email_uq"` // lower-cased
	Password   string    `gorm:"size:255;not null"`                                          // bcrypt
	IsActive   bool      `gorm:"not null;default:true"`
	Blocked    bool      `gorm:"not null;default:false"`
	CreatedAt  time.Time `gorm:"not null;autoCreateTime:false"`
	UpdatedAt  time.Time `gorm:"not null;autoUpdateTime:false"`
}

func (AdminUser) TableName() string { return "stratum_admin_users" }

// APIToken is a content-API token issued by an admin. Only the HMAC of the
// token string is stored (AccessKey).
type APIToken struct {
	ID          int64  `gorm:"primaryKey;autoIncrement"`
	Name        string `gorm:"size:255;not null;uniqueIndex:stratum_api_tokens_name_uq"`
	Description string `gorm:"size:1024;not null;default:''"`
	Type        string `gorm:"size:32;not null"`
	AccessKey   string `gorm:"size:128;not null;uniqueIndex:stratum_api_tokens_access_key_uq"`
	LastUsedAt  *time.Time
	ExpiresAt   *time.Time
	Lifespan    *int64    // milliseconds; nil: never expires
	Permissions []string  `gorm:"serializer:json;type:text;not null"`
	CreatedAt   time.Time `gorm:"not null;autoCreateTime:false"`
	UpdatedAt   time.Time `gorm:"not null;autoUpdateTime:false"`
}

func (APIToken) TableName() string { return "stratum_api_tokens" }

// isUniqueViolation recognises a unique index refusal on PostgreSQL
// (SQLSTATE 23505) and SQLite.
func isUniqueViolation(err error) bool {
	if err == nil {
		return false
	}
	var coded interface{ SQLState() string }
	if errors.As(err, &coded) && coded.SQLState() == "23505" {
		return true
	}
	msg := err.Error()
	return strings.Contains(msg, "UNIQUE constraint failed") || strings.Contains(msg, "SQLSTATE 23505") ||
		strings.Contains(msg, "duplicate key value")
}

// jsTime formats a time as Strapi does: UTC with milliseconds.
func jsTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

func jsTimePtr(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := jsTime(*t)
	return &s
}
