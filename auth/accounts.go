package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/stratum-cms/stratum/errs"
	"github.com/stratum-cms/stratum/mail"
)

// The account flows of users-permissions: forgot and reset password,
// change password, email confirmation. Their mails go through
// Config.Mailer.

// Advanced is users-permissions' advanced settings, with Strapi's keys
// (Strapi keeps them in its admin panel; Stratum reads them from
// config/plugins.json users-permissions.config.advanced).
type Advanced struct {
	// RegisterDisabled closes /api/auth/local/register (Strapi's
	// allow_register: false).
	RegisterDisabled bool
	// EmailConfirmation makes new users confirm their email before they
	// can log in.
	EmailConfirmation bool
	// EmailResetPassword is the front-end page the reset mail links to
	// (with ?code=...).
	EmailResetPassword string
	// EmailConfirmationRedirection is where a confirmed email lands.
	EmailConfirmationRedirection string
	// DefaultRole is the type of the role new users get (default
	// "authenticated").
	DefaultRole string
}

// EmailTemplate is one of the users-permissions mails: Strapi's `object`
// (subject) and `message` (HTML with <%= %> placeholders).
type EmailTemplate struct {
	Subject string
	Message string
	From    string
	ReplyTo string
}

// Strapi's default templates (users-permissions bootstrap).
var (
	DefaultResetPasswordTemplate = EmailTemplate{Subject: "Reset password", Message: `<p>We heard that you lost your password. Sorry about that!</p>

<p>But don’t worry! You can use the following link to reset your password:</p>
<p><%= URL %>?code=<%= TOKEN %></p>

<p>Thanks.</p>`}
	DefaultEmailConfirmationTemplate = EmailTemplate{Subject: "Account confirmation", Message: `<p>Thank you for registering!</p>

<p>You have to confirm your email address. Please click on the link below.</p>

<p><%= URL %>?confirmation=<%= CODE %></p>

<p>Thanks.</p>`}
)

// or fills the empty parts of a template from another.
func (t EmailTemplate) or(d EmailTemplate) EmailTemplate {
	if t.Subject == "" {
		t.Subject = d.Subject
	}
	if t.Message == "" {
		t.Message = d.Message
	}
	return t
}

// Mailer sends the account flows' mails (mail.Sender).
type Mailer interface {
	Send(ctx context.Context, m mail.Message) error
}

// defaultResetTTL bounds a reset code's life. Strapi's never expire; a
// code that lives forever in a mailbox is a standing key to the account.
const defaultResetTTL = time.Hour

// tokenDigest is how a reset or confirmation code is kept: its SHA-256,
// so that reading the users table does not hand out the accounts.
func tokenDigest(code string) string {
	sum := sha256.Sum256([]byte(code))
	return hex.EncodeToString(sum[:])
}

// newResetCode is 8 bytes of expiry (Unix seconds) and 32 random bytes,
// in hex. The expiry is inside the code, and the code's digest is what
// the table keeps: changing the expiry changes the digest, so it cannot be
// extended.
func newResetCode(expires time.Time) string {
	var b [40]byte
	binary.BigEndian.PutUint64(b[:8], uint64(expires.Unix()))
	_, _ = rand.Read(b[8:])
	return hex.EncodeToString(b[:])
}

func resetCodeExpiry(code string) (time.Time, bool) {
	b, err := hex.DecodeString(code)
	if err != nil || len(b) != 40 {
		return time.Time{}, false
	}
	return time.Unix(int64(binary.BigEndian.Uint64(b[:8])), 0), true
}

func newConfirmationCode() string {
	var b [20]byte // Strapi's length
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// readKeys reads an object of string fields, refusing unknown keys and
// wrong types (Strapi's yup schemas with noUnknown); missing or empty
// required fields are reported together.
func readKeys(body map[string]any, keys ...string) (map[string]string, error) {
	if err := checkKeys(body, keys...); err != nil {
		return nil, err
	}
	out := make(map[string]string, len(keys))
	var fe errs.FieldErrors
	for _, k := range keys {
		s, _, err := str(body, k, false)
		if err != nil {
			return nil, err
		}
		if s == "" {
			fe.Add([]string{k}, nil, "%s is a required field", k)
		}
		out[k] = s
	}
	return out, fe.Err()
}

// ForgotPassword is POST /api/auth/forgot-password {email}: the user (if
// any, and not blocked) gets a mail with a reset link. The answer is the
// same whether or not the email is known.
func (s *Service) ForgotPassword(ctx context.Context, body map[string]any) error {
	in, err := readKeys(body, "email")
	if err != nil {
		return err
	}
	email := strings.ToLower(strings.TrimSpace(in["email"]))
	if err := checkEmail("email", email); err != nil {
		return err
	}
	u, err := s.st.Auth().UserByEmail(ctx, email)
	if err != nil {
		return err
	}
	if u == nil || u.Blocked || u.Email != email {
		return nil
	}
	code := newResetCode(s.now().Add(s.cfg.ResetTokenTTL))
	digest := tokenDigest(code)
	err = s.st.Tx(ctx, func(tx Tx) error {
		cur, err := tx.UserByID(ctx, u.ID)
		if err != nil || cur == nil {
			return err
		}
		cur.ResetPasswordToken = &digest
		return tx.SaveUser(ctx, cur)
	})
	if err != nil {
		return err
	}
	// Saved before sending, as Strapi does: a mail that fails leaves a
	// code an operator can still act on, and the answer stays the same.
	vars := userVars(u)
	vars["URL"], vars["TOKEN"] = s.cfg.Advanced.EmailResetPassword, code
	vars["SERVER_URL"] = s.cfg.ServerURL
	if err := s.sendTemplate(ctx, u.Email, s.cfg.ResetPasswordEmail, vars); err != nil {
		s.log.Error("forgot-password: the reset mail was not sent", "user", u.ID, "err", err)
	}
	return nil
}

// ResetPassword is POST /api/auth/reset-password {code, password,
// passwordConfirmation}: the code of a reset mail sets a new password,
// ends the user's earlier JWTs and logs them in.
func (s *Service) ResetPassword(ctx context.Context, body map[string]any) (*Session, error) {
	in, err := readKeys(body, "password", "passwordConfirmation", "code")
	if err != nil {
		return nil, err
	}
	if in["password"] != in["passwordConfirmation"] {
		return nil, validationAt("passwordConfirmation", nil, "Passwords do not match")
	}
	if err := checkUserPassword(in["password"]); err != nil {
		return nil, err
	}
	bad := errs.Errorf(errs.KindValidation, "Incorrect code provided")
	exp, ok := resetCodeExpiry(in["code"])
	if !ok {
		return nil, bad
	}
	hash, err := hashPassword(in["password"])
	if err != nil {
		return nil, err
	}
	digest := tokenDigest(in["code"])
	var u *User
	err = s.st.Tx(ctx, func(tx Tx) error {
		var err error
		if u, err = tx.UserByResetToken(ctx, digest); err != nil {
			return err
		}
		if u == nil || u.ResetPasswordToken == nil || subtle.ConstantTimeCompare([]byte(*u.ResetPasswordToken), []byte(digest)) != 1 {
			return bad
		}
		if !s.now().Before(exp) { // only a code that was issued says it expired
			return errs.Errorf(errs.KindValidation, "Incorrect code provided: it has expired, ask for a new one")
		}
		if u.Blocked {
			return errs.Errorf(errs.KindApplication, "Your account has been blocked by an administrator")
		}
		now := s.now()
		u.Password, u.ResetPasswordToken = hash, nil
		u.UpdatedAt, u.TokensValidAfter = now, now.Unix()
		return tx.SaveUser(ctx, u)
	})
	if err != nil {
		return nil, err
	}
	return s.session(u)
}

// ChangePassword is POST /api/auth/change-password {currentPassword,
// password, passwordConfirmation} for the logged-in user: a new password,
// earlier JWTs ended, a new JWT.
func (s *Service) ChangePassword(ctx context.Context, p *Principal, body map[string]any) (*Session, error) {
	if p == nil || p.Kind != KindUser {
		return nil, errs.Errorf(errs.KindApplication, "You must be authenticated to reset your password")
	}
	in, err := readKeys(body, "currentPassword", "password", "passwordConfirmation")
	if err != nil {
		return nil, err
	}
	if in["password"] != in["passwordConfirmation"] {
		return nil, validationAt("passwordConfirmation", nil, "Passwords do not match")
	}
	if in["password"] == in["currentPassword"] {
		return nil, validationAt("password", nil, "Your new password must be different than your current password")
	}
	if err := checkUserPassword(in["password"]); err != nil {
		return nil, err
	}
	u, err := s.st.Auth().UserByID(ctx, p.UserID)
	if err != nil {
		return nil, err
	}
	if u == nil {
		return nil, userNotFound()
	}
	if !checkPassword(u.Password, in["currentPassword"]) {
		return nil, errs.Errorf(errs.KindValidation, "The provided current password is invalid")
	}
	hash, err := hashPassword(in["password"])
	if err != nil {
		return nil, err
	}
	err = s.st.Tx(ctx, func(tx Tx) error {
		cur, err := tx.UserByID(ctx, u.ID)
		if err != nil {
			return err
		}
		if cur == nil {
			return userNotFound()
		}
		now := s.now()
		cur.Password, cur.UpdatedAt, cur.TokensValidAfter = hash, now, now.Unix()
		u = cur
		return tx.SaveUser(ctx, cur)
	})
	if err != nil {
		return nil, err
	}
	return s.session(u)
}

// ConfirmEmail is GET /api/auth/email-confirmation?confirmation=CODE: the
// user is confirmed; the answer is where to redirect (the advanced
// settings' email_confirmation_redirection, or "/").
func (s *Service) ConfirmEmail(ctx context.Context, code string) (string, error) {
	if _, err := s.confirm(ctx, code); err != nil {
		return "", err
	}
	if r := s.cfg.Advanced.EmailConfirmationRedirection; r != "" {
		return r, nil
	}
	return "/", nil
}

// ConfirmEmailSession confirms as ConfirmEmail and logs the user in (the
// GraphQL emailConfirmation mutation).
func (s *Service) ConfirmEmailSession(ctx context.Context, code string) (*Session, error) {
	u, err := s.confirm(ctx, code)
	if err != nil {
		return nil, err
	}
	return s.session(u)
}

func (s *Service) confirm(ctx context.Context, code string) (*User, error) {
	if code == "" {
		return nil, validationAt("confirmation", nil, "confirmation is a required field")
	}
	digest := tokenDigest(code)
	var u *User
	err := s.st.Tx(ctx, func(tx Tx) error {
		var err error
		if u, err = tx.UserByConfirmationToken(ctx, digest); err != nil {
			return err
		}
		if u == nil || u.ConfirmationToken == nil || subtle.ConstantTimeCompare([]byte(*u.ConfirmationToken), []byte(digest)) != 1 {
			return errs.Errorf(errs.KindValidation, "Invalid token")
		}
		u.Confirmed, u.ConfirmationToken, u.UpdatedAt = true, nil, s.now()
		return tx.SaveUser(ctx, u)
	})
	return u, err
}

// SendEmailConfirmation is POST /api/auth/send-email-confirmation
// {email}: a new confirmation mail for an unconfirmed user. An unknown
// email gets the same answer as a known one.
func (s *Service) SendEmailConfirmation(ctx context.Context, body map[string]any) (string, error) {
	in, err := readKeys(body, "email")
	if err != nil {
		return "", err
	}
	email := strings.ToLower(strings.TrimSpace(in["email"]))
	if err := checkEmail("email", email); err != nil {
		return "", err
	}
	u, err := s.st.Auth().UserByEmail(ctx, email)
	if err != nil {
		return "", err
	}
	if u == nil || u.Email != email {
		return email, nil
	}
	if u.Confirmed {
		return "", errs.Errorf(errs.KindApplication, "Already confirmed")
	}
	if u.Blocked {
		return "", errs.Errorf(errs.KindApplication, "User blocked")
	}
	if err := s.sendConfirmation(ctx, u); err != nil {
		return "", err
	}
	return u.Email, nil
}

// sendConfirmation stores a new confirmation code for the user and mails
// it. A mail that cannot be sent is an error the caller reports (Strapi
// answers it as an ApplicationError).
func (s *Service) sendConfirmation(ctx context.Context, u *User) error {
	code := newConfirmationCode()
	digest := tokenDigest(code)
	err := s.st.Tx(ctx, func(tx Tx) error {
		cur, err := tx.UserByID(ctx, u.ID)
		if err != nil || cur == nil {
			return err
		}
		cur.ConfirmationToken = &digest
		return tx.SaveUser(ctx, cur)
	})
	if err != nil {
		return err
	}
	vars := userVars(u)
	vars["URL"] = strings.TrimRight(s.cfg.ServerURL, "/") + s.cfg.APIPrefix + "/auth/email-confirmation"
	vars["CODE"], vars["SERVER_URL"] = code, s.cfg.ServerURL
	if err := s.sendTemplate(ctx, u.Email, s.cfg.EmailConfirmationEmail, vars); err != nil {
		s.log.Error("the confirmation mail was not sent", "user", u.ID, "err", err)
		if errors.Is(err, mail.ErrNoProvider) {
			return errs.Errorf(errs.KindApplication, "The confirmation email could not be sent: no email provider is configured")
		}
		return errs.Errorf(errs.KindApplication, "The confirmation email could not be sent")
	}
	return nil
}

func userVars(u *User) map[string]string {
	return map[string]string{"USER.username": u.Username, "USER.email": u.Email, "USER.id": strconv.FormatInt(u.ID, 10),
		"USER.documentId": u.DocumentID}
}

func (s *Service) sendTemplate(ctx context.Context, to string, t EmailTemplate, vars map[string]string) error {
	if s.cfg.Mailer == nil {
		return mail.ErrNoProvider
	}
	html := mail.Render(t.Message, vars, true)
	return s.cfg.Mailer.Send(ctx, mail.Message{To: to, From: t.From, ReplyTo: t.ReplyTo,
		Subject: mail.Render(t.Subject, vars, false), HTML: html, Text: mail.Text(html)})
}

// session logs a user in: {jwt, user}.
func (s *Service) session(u *User) (*Session, error) {
	tok, err := s.IssueUserJWT(u.ID)
	if err != nil {
		return nil, err
	}
	return &Session{JWT: tok, User: userView(u, nil)}, nil
}
