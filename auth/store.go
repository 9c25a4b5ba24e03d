package auth

import (
	"context"
	"time"

	"github.com/stratum-cms/stratum/query"
)

// Store keeps auth's tables; package store implements it. Lookups that
// find nothing return nil and no error; a row a unique index refuses is an
// error wrapping ErrDuplicate.
type Store interface {
	// Tx runs fn in one write transaction, committed when fn returns nil.
	Tx(ctx context.Context, fn func(Tx) error) error
	// Auth runs each operation on its own, outside a transaction.
	Auth() Tx
}

// Tx is the typed operations on auth's tables.
type Tx interface {
	// Roles.
	Roles(ctx context.Context) ([]Role, error) // in id order
	RoleByID(ctx context.Context, id int64) (*Role, error)
	RoleByType(ctx context.Context, typ string) (*Role, error)
	// RoleByTypeOrName is the first role (by id) with the type or the name.
	RoleByTypeOrName(ctx context.Context, typ, name string) (*Role, error)
	// RoleTaken tells whether a role other than exceptID has the name or
	// (when typ is set) the type.
	RoleTaken(ctx context.Context, name, typ string, exceptID int64) (bool, error)
	CreateRole(ctx context.Context, r *Role) error // sets r.ID
	SaveRole(ctx context.Context, r *Role) error
	DeleteRole(ctx context.Context, id int64) error
	// Permissions of the roles (nil: every role), in action order.
	Permissions(ctx context.Context, roleIDs []int64) ([]Permission, error)
	// Grant adds permissions to a role; those it has are kept.
	Grant(ctx context.Context, roleID int64, actions []string, at time.Time) error
	// Revoke removes a role's permissions whose action starts with prefix.
	Revoke(ctx context.Context, roleID int64, prefix string) error
	// UsersPerRole counts the users of each role.
	UsersPerRole(ctx context.Context, roleIDs []int64) (map[int64]int64, error)
	// MoveUsers gives the users of one role another.
	MoveUsers(ctx context.Context, from, to int64) error

	// Users.
	UserByID(ctx context.Context, id int64) (*User, error)
	// LocalUser is the first (by id) local user with the email or username.
	LocalUser(ctx context.Context, email, username string) (*User, error)
	// UserConflicts lists users other than exceptID holding the username
	// or the email (only id, username and email are read).
	UserConflicts(ctx context.Context, username, email string, exceptID int64) ([]User, error)
	// UserByEmail is the first (by id) user with the email.
	UserByEmail(ctx context.Context, email string) (*User, error)
	// UserByResetToken and UserByConfirmationToken find the user holding
	// a reset or confirmation code's digest.
	UserByResetToken(ctx context.Context, digest string) (*User, error)
	UserByConfirmationToken(ctx context.Context, digest string) (*User, error)
	CreateUser(ctx context.Context, u *User) error // sets u.ID
	SaveUser(ctx context.Context, u *User) error
	DeleteUser(ctx context.Context, id int64) error
	// FindUsers runs the users collection's query: filters, sort and
	// pagination; with each user's role when withRole.
	FindUsers(ctx context.Context, q *query.Query, withRole bool) ([]UserWithRole, error)
	// CountUsers counts the users the filter selects.
	CountUsers(ctx context.Context, f query.Filter) (int64, error)

	// API tokens.
	Tokens(ctx context.Context) ([]APIToken, error) // in name order
	TokenByID(ctx context.Context, id int64) (*APIToken, error)
	TokenByAccessKey(ctx context.Context, key string) (*APIToken, error)
	// TokenNameTaken tells whether a token other than exceptID has the name.
	TokenNameTaken(ctx context.Context, name string, exceptID int64) (bool, error)
	CreateToken(ctx context.Context, t *APIToken) error // sets t.ID
	SaveToken(ctx context.Context, t *APIToken) error
	DeleteToken(ctx context.Context, id int64) error
	// TouchToken sets a token's last use.
	TouchToken(ctx context.Context, id int64, at time.Time) error

	// Admins.
	AdminCount(ctx context.Context) (int64, error)
	AdminByID(ctx context.Context, id int64) (*AdminUser, error)
	AdminByEmail(ctx context.Context, email string) (*AdminUser, error)
	CreateAdmin(ctx context.Context, a *AdminUser) error // sets a.ID
	// LockFirstAdmin serialises first-admin registration across nodes
	// until the transaction ends.
	LockFirstAdmin(ctx context.Context) error

	// Meta (stratum_meta).
	Meta(ctx context.Context, key string) (string, bool, error)
	// PutMetaIfAbsent stores value under key unless a value is there.
	PutMetaIfAbsent(ctx context.Context, key, value string) error
}

// UserWithRole is a user and, when asked for, its role (nil if none).
type UserWithRole struct {
	User
	Role *Role
}
