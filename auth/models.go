package auth

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// The system tables of auth. auth keeps them itself through GORM on the
// handle it is given; their names are prefixed up_ (users-permissions, as
// in Strapi) or stratum_.

// metaRow is the key/value table of system settings the store also uses;
// auth keeps its generated secrets there.
type metaRow struct {
	Key   string `gorm:"primaryKey;column:key"`
	Value string `gorm:"column:value;not null"`
}

func (metaRow) TableName() string { return "stratum_meta" }

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

// schemaVersion names the shape of auth's tables; bump it when a model
// changes so the next start migrates again.
const schemaVersion = "auth-1"

const schemaKey = "auth:schema"

// migrateLock is the PostgreSQL advisory lock of auth's migration.
const migrateLock = 0x5374726174756d02

// Migrate creates or completes auth's system tables. It only adds. When
// the database already has this version's tables it costs one query.
func Migrate(ctx context.Context, db *gorm.DB) error {
	db = db.WithContext(ctx)
	var m metaRow
	if db.Where("key = ?", schemaKey).Take(&m).Error == nil && m.Value == schemaVersion {
		return nil
	}
	migrate := func(tx *gorm.DB) error {
		return tx.AutoMigrate(&metaRow{}, &Role{}, &Permission{}, &User{}, &AdminUser{}, &APIToken{})
	}
	var err error
	if db.Dialector.Name() == "postgres" {
		// Nodes starting together take turns: DDL is transactional there.
		err = db.Transaction(func(tx *gorm.DB) error {
			if err := tx.Exec("SELECT pg_advisory_xact_lock(?)", int64(migrateLock)).Error; err != nil {
				return err
			}
			return migrate(tx)
		})
	} else {
		// Another handle on the same file (a command run while serving)
		// may be creating the tables: once it is done, ours find them.
		for try := 0; try < 5; try++ {
			if err = migrate(db); err == nil {
				break
			}
			time.Sleep(time.Duration(try+1) * 20 * time.Millisecond)
		}
	}
	if err != nil {
		return fmt.Errorf("migrate auth tables: %w", err)
	}
	err = db.Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "key"}}, DoUpdates: clause.AssignmentColumns([]string{"value"})}).
		Create(&metaRow{Key: schemaKey, Value: schemaVersion}).Error
	if err != nil {
		return fmt.Errorf("migrate auth tables: %w", err)
	}
	return nil
}

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
