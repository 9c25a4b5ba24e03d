package auth

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/models"
	"github.com/stratum-cms/stratum/query"
)

// Extension is what auth needs of the schema for the attributes a
// project's users-permissions extension adds to the user
// (src/extensions/users-permissions/content-types/user/schema.json): the
// engine validates, stores, resolves and populates them as it does a
// content-type's. Auth keeps the built-in attributes.
type Extension interface {
	UserType() *models.ContentType
	PrepareExtension(ctx context.Context, ct *models.ContentType, documentID string, data, extra []byte,
		body map[string]any, create bool) ([]byte, []byte, error)
	PopulateExtension(ctx context.Context, acc engine.Access, ct *models.ContentType, rows []engine.Row,
		pop map[string]*query.Populate) ([][]byte, error)
	ResolveExtensionQuery(acc engine.Access, ct *models.ContentType, q *query.Query) error
}

// userType is the current user type, nil without an extension engine.
func (s *Service) userType() *models.ContentType {
	if s.cfg.Extension == nil {
		return nil
	}
	return s.cfg.Extension.UserType()
}

// extensionKeys are the body keys that the extension defines (writable
// extension attributes), restricted to allowed when it is not nil.
func (s *Service) extensionKeys(allowed []string) map[string]bool {
	ct := s.userType()
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
	ct := s.userType()
	if ct == nil || (!create && len(ext) == 0) {
		return nil
	}
	data, extra, err := s.cfg.Extension.PrepareExtension(ctx, ct, u.DocumentID, u.Data, u.Extra, ext, create)
	if err != nil {
		return err
	}
	u.Data, u.Extra = data, extra
	return nil
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
	if len(v.Ext) > 0 {
		at := bytes.Index(b, []byte(`,"createdAt":`))
		b = append(b[:at+1], append(append(append([]byte{}, v.Ext...), ','), b[at+1:]...)...)
	}
	if len(v.Populated) > 0 {
		b = append(append(append(b[:len(b)-1], ','), v.Populated...), '}')
	}
	return b, nil
}
