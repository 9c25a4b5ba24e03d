package auth

import (
	"context"
	"strings"

	"github.com/stratum-cms/stratum/errs"
	"github.com/stratum-cms/stratum/ids"
)

// AdminView is an admin user as the admin API shows it (never the password):
// the columns of Strapi 5's admin::user that its sanitizeUser keeps.
// preferedLanguage (Strapi's spelling) is the admin panel's language, unset
// here; locale is null as admin users are not localized; publishedAt is the
// last write, as for every type without draft & publish.
type AdminView struct {
	ID               int64   `json:"id"`
	DocumentID       string  `json:"documentId"`
	Firstname        string  `json:"firstname"`
	Lastname         *string `json:"lastname"`
	Username         *string `json:"username"`
	Email            string  `json:"email"`
	IsActive         bool    `json:"isActive"`
	Blocked          bool    `json:"blocked"`
	PreferedLanguage *string `json:"preferedLanguage"`
	CreatedAt        string  `json:"createdAt"`
	UpdatedAt        string  `json:"updatedAt"`
	PublishedAt      string  `json:"publishedAt"`
	Locale           *string `json:"locale"`
}

func adminView(a *AdminUser) *AdminView {
	v := &AdminView{ID: a.ID, DocumentID: a.DocumentID, Firstname: a.Firstname, Email: a.Email, IsActive: a.IsActive,
		Blocked: a.Blocked, CreatedAt: jsTime(a.CreatedAt), UpdatedAt: jsTime(a.UpdatedAt), PublishedAt: jsTime(a.UpdatedAt)}
	if a.Lastname != "" {
		v.Lastname = &a.Lastname
	}
	return v
}

// AdminSession is the answer of /admin/login and /admin/register-admin.
type AdminSession struct {
	Token string `json:"token"`
	// AccessToken is the same token: Strapi 5 with sessions (its default)
	// answers the short-lived access token under both names.
	AccessToken string     `json:"accessToken"`
	User        *AdminView `json:"user"`
}

// AdminInput creates an admin.
type AdminInput struct {
	Email, Password, Firstname, Lastname string
}

// ParseAdminInput reads the body of /admin/register-admin.
func ParseAdminInput(body map[string]any) (AdminInput, error) {
	var in AdminInput
	if err := checkKeys(body, "email", "password", "firstname", "lastname"); err != nil {
		return in, err
	}
	var err error
	if in.Email, err = required(body, "email"); err != nil {
		return in, err
	}
	if in.Password, err = required(body, "password"); err != nil {
		return in, err
	}
	if in.Firstname, _, err = str(body, "firstname", true); err != nil {
		return in, err
	}
	if in.Lastname, _, err = str(body, "lastname", true); err != nil {
		return in, err
	}
	return in, nil
}

func (in *AdminInput) check() error {
	in.Email = strings.ToLower(strings.TrimSpace(in.Email))
	if err := checkEmail("email", in.Email); err != nil {
		return err
	}
	return checkAdminPassword(in.Password)
}

// AdminCount is the number of admins.
func (s *Service) AdminCount(ctx context.Context) (int64, error) {
	return s.st.Auth().AdminCount(ctx)
}

func (s *Service) insertAdmin(ctx context.Context, tx Tx, in AdminInput) (*AdminUser, error) {
	if err := in.check(); err != nil {
		return nil, err
	}
	hash, err := hashPassword(in.Password)
	if err != nil {
		return nil, err
	}
	other, err := tx.AdminByEmail(ctx, in.Email)
	if err != nil {
		return nil, err
	}
	if other != nil {
		return nil, errs.Errorf(errs.KindApplication, "Email already taken")
	}
	now := s.now()
	a := &AdminUser{DocumentID: ids.NewDocumentID(), Firstname: strings.TrimSpace(in.Firstname),
		Lastname: strings.TrimSpace(in.Lastname), Email: in.Email, Password: hash, IsActive: true,
		CreatedAt: now, UpdatedAt: now}
	return a, tx.CreateAdmin(ctx, a)
}

// CreateAdmin adds an admin (stratum admin create, STRATUM_ADMIN_*).
func (s *Service) CreateAdmin(ctx context.Context, in AdminInput) (*AdminView, error) {
	var a *AdminUser
	err := s.st.Tx(ctx, func(tx Tx) error {
		var err error
		a, err = s.insertAdmin(ctx, tx, in)
		return err
	})
	if err != nil {
		return nil, err
	}
	return adminView(a), nil
}

// RegisterAdmin creates the first admin and logs them in; once an admin
// exists it is refused. Concurrent calls, on any node, agree on one winner:
// the transaction takes the first-admin lock before counting.
func (s *Service) RegisterAdmin(ctx context.Context, in AdminInput) (*AdminSession, error) {
	refused := errs.Errorf(errs.KindApplication, "You cannot register a new super admin")
	var a *AdminUser
	err := s.st.Tx(ctx, func(tx Tx) error {
		if err := tx.LockFirstAdmin(ctx); err != nil {
			return err
		}
		n, err := tx.AdminCount(ctx)
		if err != nil {
			return err
		}
		if n > 0 {
			return refused
		}
		a, err = s.insertAdmin(ctx, tx, in)
		return err
	})
	if isUniqueViolation(err) {
		return nil, refused
	}
	if err != nil {
		return nil, err
	}
	tok, err := s.IssueAdminJWT(a.ID)
	if err != nil {
		return nil, err
	}
	return &AdminSession{Token: tok, AccessToken: tok, User: adminView(a)}, nil
}

// AdminLogin checks {email, password}.
func (s *Service) AdminLogin(ctx context.Context, body map[string]any) (*AdminSession, error) {
	if err := checkKeys(body, "email", "password"); err != nil {
		return nil, err
	}
	var fe errs.FieldErrors
	email, _, err := str(body, "email", false)
	if err != nil {
		return nil, err
	}
	pw, _, err := str(body, "password", false)
	if err != nil {
		return nil, err
	}
	if email == "" {
		fe.Add([]string{"email"}, nil, "email is a required field")
	}
	if pw == "" {
		fe.Add([]string{"password"}, nil, "password is a required field")
	}
	if err := fe.Err(); err != nil {
		return nil, err
	}
	found, err := s.st.Auth().AdminByEmail(ctx, strings.ToLower(strings.TrimSpace(email)))
	if err != nil {
		return nil, err
	}
	var a AdminUser
	if found != nil {
		a = *found
	}
	if !checkPassword(a.Password, pw) {
		return nil, errs.Errorf(errs.KindValidation, "Invalid credentials")
	}
	if !a.IsActive || a.Blocked {
		return nil, errs.Errorf(errs.KindApplication, "User not active")
	}
	tok, err := s.IssueAdminJWT(a.ID)
	if err != nil {
		return nil, err
	}
	return &AdminSession{Token: tok, AccessToken: tok, User: adminView(&a)}, nil
}

func (s *Service) adminByID(ctx context.Context, id int64) (*AdminUser, error) {
	return s.st.Auth().AdminByID(ctx, id)
}
