package auth

import (
	"bytes"
	"context"
	"encoding/json"
	"sort"
	"strconv"

	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/errs"
	"github.com/stratum-cms/stratum/models"
	"github.com/stratum-cms/stratum/query"
)

// Extension is what auth needs of the schema for the attributes a
// project's users-permissions extension adds to the user
// (src/extensions/users-permissions/content-types/user/schema.json): the
// engine validates, stores, resolves and populates them as it does a
// content-type's. Auth keeps the built-in attributes.
type Extension interface {
	SystemType(uid string) *models.ContentType
	PrepareExtension(ctx context.Context, ct *models.ContentType, documentID string, data, extra []byte,
		body map[string]any, create bool) ([]byte, []byte, error)
	PopulateExtension(ctx context.Context, acc engine.Access, ct *models.ContentType, rows []engine.Row,
		pop map[string]*query.Populate) ([][]byte, error)
	ResolveExtensionQuery(acc engine.Access, ct *models.ContentType, q *query.Query) error
}

// userType is the current user type, nil without an extension engine.
func (s *Service) userType() *models.ContentType { return s.systemType(models.UserUID) }

// systemType is the current type of uid (users, roles), nil without an
// extension engine.
func (s *Service) systemType(uid string) *models.ContentType {
	if s.cfg.Extension == nil {
		return nil
	}
	return s.cfg.Extension.SystemType(uid)
}

// extensionKeys are the body keys that the user extension defines
// (writable extension attributes), restricted to allowed when it is not nil.
func (s *Service) extensionKeys(allowed []string) map[string]bool {
	return typeExtensionKeys(s.userType(), allowed)
}

func typeExtensionKeys(ct *models.ContentType, allowed []string) map[string]bool {
	if ct == nil || ct.Extension() == nil {
		return nil
	}
	out := map[string]bool{}
	for _, a := range ct.Extension().Attributes {
		if a.IsWritable() {
			out[a.Name] = true
		}
	}
	if allowed != nil {
		keep := map[string]bool{}
		for _, k := range allowed {
			if out[k] {
				keep[k] = true
			}
		}
		out = keep
	}
	return out
}

// prepareExtension validates and stores the extension values of a body on
// u (create: defaults apply too).
func (s *Service) prepareExtension(ctx context.Context, u *User, ext map[string]any, create bool) error {
	var err error
	u.Data, u.Extra, err = s.prepareSystem(ctx, models.UserUID, u.DocumentID, u.Data, u.Extra, ext, create)
	return err
}

// prepareSystem validates ext, the extension values of a body for a user
// or a role, over its current data and extra, and returns the new ones. A
// key that is not a writable attribute of the extension is refused as
// Strapi refuses an unknown key.
func (s *Service) prepareSystem(ctx context.Context, uid, documentID string, data, extra []byte, ext map[string]any,
	create bool) ([]byte, []byte, error) {
	ct := s.systemType(uid)
	keys := typeExtensionKeys(ct, nil)
	for _, k := range sortedKeys(ext) {
		if !keys[k] {
			return nil, nil, errs.InvalidKey(k, k, "body", k)
		}
	}
	if ct == nil || (!create && len(ext) == 0) {
		return data, extra, nil
	}
	return s.cfg.Extension.PrepareExtension(ctx, ct, documentID, data, extra, ext, create)
}

func sortedKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// withExtension inserts ext (`"code":"x","level":2`) into the JSON object
// b before its createdAt member, where Strapi writes a type's own
// attributes.
func withExtension(b, ext []byte) []byte {
	at := bytes.Index(b, []byte(`,"createdAt":`))
	if len(ext) == 0 || at < 0 {
		return b
	}
	out := make([]byte, 0, len(b)+len(ext)+1)
	out = append(append(append(out, b[:at+1]...), ext...), ',')
	return append(out, b[at+1:]...)
}

// joinObjects writes the members of the JSON objects a and b as one object.
func joinObjects(a, b []byte) []byte {
	if len(b) <= 2 {
		return a
	}
	if len(a) <= 2 {
		return b
	}
	return append(append(a[:len(a)-1:len(a)-1], ','), b[1:]...)
}

// extensionFields are the members of a user's public extension scalars
// (`"phone":"…","newsletter":false`), from its Data.
func extensionFields(data []byte) []byte {
	d := bytes.TrimSpace(data)
	if len(d) <= 2 {
		return nil
	}
	return bytes.TrimSpace(d[1 : len(d)-1])
}

// MarshalJSON writes the user as Strapi does: the built-in attributes,
// those of the extension, the timestamps, then what was populated.
func (v *UserView) MarshalJSON() ([]byte, error) {
	type plain UserView
	b, err := json.Marshal((*plain)(v))
	if err != nil || (len(v.Ext) == 0 && len(v.Populated) == 0) {
		return b, err
	}
	b = withExtension(b, v.Ext)
	if len(v.Populated) > 0 {
		b = append(append(append(b[:len(b)-1], ','), v.Populated...), '}')
	}
	return b, nil
}

// UserMediaTarget is a media attribute of the users-permissions extension
// that an upload's ref (plugin::users-permissions.user), refId (the user's
// id) and field name, as a Strapi client sets an avatar.
type UserMediaTarget struct {
	svc  *Service
	id   int64
	attr *models.Attribute
}

// UserMediaTarget checks an upload's user target before any file is kept:
// the field is a media attribute of the extension, the uploader may update
// users (as PUT /api/users/:id asks), and the user exists.
func (s *Service) UserMediaTarget(ctx context.Context, can func(string) bool, refID, field string) (*UserMediaTarget, error) {
	ct := s.userType()
	var a *models.Attribute
	if ct != nil && ct.Extension() != nil {
		a = ct.Extension().Attr(field)
	}
	if a == nil || a.Type != models.TypeMedia {
		return nil, errs.InvalidKey("field", "field", "body", "field")
	}
	if !can(ActionUserUpdate) {
		return nil, errs.Forbidden()
	}
	id, err := strconv.ParseInt(refID, 10, 64)
	if err != nil {
		return nil, errs.NotFound()
	}
	u, err := s.st.Auth().UserByID(ctx, id)
	if err != nil {
		return nil, err
	}
	if u == nil {
		return nil, userNotFound()
	}
	return &UserMediaTarget{svc: s, id: id, attr: a}, nil
}

// Attach sets (a single media: the last file) or adds (multiple) the
// files on the user.
func (t *UserMediaTarget) Attach(ctx context.Context, fileIDs []int64) error {
	if t == nil || len(fileIDs) == 0 {
		return nil
	}
	var value any = fileIDs[len(fileIDs)-1]
	if t.attr.Multiple {
		u, err := t.svc.st.Auth().UserByID(ctx, t.id)
		if err != nil || u == nil {
			return err
		}
		var extra map[string]json.RawMessage
		_ = json.Unmarshal(u.Extra, &extra)
		var cur []any
		_ = json.Unmarshal(extra[t.attr.Name], &cur)
		for _, id := range fileIDs {
			cur = append(cur, id)
		}
		value = cur
	}
	_, err := t.svc.UpdateUser(ctx, t.id, map[string]any{t.attr.Name: value})
	return err
}
