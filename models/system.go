package models

import "fmt"

// The users-permissions plugin's types. Stratum keeps users and roles in
// its own tables (auth writes them), but the schema holds them as system
// types so that content-types can relate to them as to any type: write,
// populate, filter and sort through them. A project's
// src/extensions/users-permissions/content-types/user/schema.json adds
// attributes to the user; its other attributes are Strapi's own, kept here.
const (
	UserUID      = "plugin::users-permissions.user"
	RoleUID      = "plugin::users-permissions.role"
	FileUID      = "plugin::upload.file"
	AdminUserUID = "admin::user"
)

// userSchema and roleSchema are Strapi 5's definitions. Each built-in
// attribute is kept in a column of auth's table (Column); an extension's
// attributes are kept like a content-type's (data, extra).
const userSchema = `{"kind":"collectionType","collectionName":"up_users",
"info":{"singularName":"user","pluralName":"users","displayName":"User"},"options":{"draftAndPublish":false},
"attributes":{
"username":{"type":"string","minLength":3,"unique":true,"configurable":false,"required":true},
"email":{"type":"email","minLength":6,"configurable":false,"required":true},
"provider":{"type":"string","configurable":false},
"password":{"type":"password","minLength":6,"configurable":false,"private":true},
"resetPasswordToken":{"type":"string","configurable":false,"private":true},
"confirmationToken":{"type":"string","configurable":false,"private":true},
"confirmed":{"type":"boolean","default":false,"configurable":false},
"blocked":{"type":"boolean","default":false,"configurable":false},
"role":{"type":"relation","relation":"manyToOne","target":"plugin::users-permissions.role","configurable":false}}}`

const roleSchema = `{"kind":"collectionType","collectionName":"up_roles",
"info":{"singularName":"role","pluralName":"roles","displayName":"Role"},"options":{"draftAndPublish":false},
"attributes":{
"name":{"type":"string","minLength":3,"required":true,"configurable":false},
"description":{"type":"string","configurable":false},
"type":{"type":"string","unique":true,"configurable":false}}}`

// fileSchema is the media library's file (stratum_files), as a relation
// target: `"target": "plugin::upload.file"`.
const fileSchema = `{"kind":"collectionType","collectionName":"stratum_files",
"info":{"singularName":"file","pluralName":"files","displayName":"File"},"options":{"draftAndPublish":false},
"attributes":{
"name":{"type":"string"},"alternativeText":{"type":"string"},"caption":{"type":"string"},
"focalPoint":{"type":"json"},"width":{"type":"integer"},"height":{"type":"integer"},"formats":{"type":"json"},
"hash":{"type":"string"},"ext":{"type":"string"},"mime":{"type":"string"},"size":{"type":"decimal"},
"url":{"type":"string"},"previewUrl":{"type":"string"},"provider":{"type":"string","default":"local"},"provider_metadata":{"type":"json"}}}`

// adminUserSchema is an admin of the panel (stratum_admin_users). No
// content-API permission can name it: a relation to admins is written and
// read in the admin panel, never shown to the content API.
const adminUserSchema = `{"kind":"collectionType","collectionName":"stratum_admin_users",
"info":{"singularName":"user","pluralName":"users","displayName":"User"},"options":{"draftAndPublish":false},
"attributes":{
"firstname":{"type":"string"},"lastname":{"type":"string"},"email":{"type":"email"},
"password":{"type":"password","private":true},"isActive":{"type":"boolean"},"blocked":{"type":"boolean"}}}`

// systemColumns maps the built-in attributes to their columns.
var systemColumns = map[string]map[string]string{
	UserUID: {"username": "username", "email": "email", "provider": "provider", "password": "password",
		"resetPasswordToken": "reset_password_token", "confirmationToken": "confirmation_token",
		"confirmed": "confirmed", "blocked": "blocked", "role": "role_id"},
	RoleUID: {"name": "name", "description": "description", "type": "type"},
	FileUID: {"name": "name", "alternativeText": "alternative_text", "caption": "caption", "focalPoint": "focal_point",
		"width": "width", "height": "height", "formats": "formats", "hash": "hash", "ext": "ext", "mime": "mime", "size": "size",
		"url": "url", "previewUrl": "preview_url", "provider": "provider", "provider_metadata": "provider_metadata"},
	AdminUserUID: {"firstname": "firstname", "lastname": "lastname", "email": "email", "password": "password",
		"isActive": "is_active", "blocked": "blocked"},
}

var systemSchemas = map[string]string{UserUID: userSchema, RoleUID: roleSchema, FileUID: fileSchema, AdminUserUID: adminUserSchema}

// systemActions are the permission prefixes of system types whose actions
// Strapi does not name after the uid: reading files is the upload
// plugin's content-API find.
var systemActions = map[string]string{FileUID: "plugin::upload.content-api"}

// Extensible reports whether a system type keeps an extension's
// attributes (users and roles: their tables have data and extra columns).
func (c *ContentType) Extensible() bool { return c.UID == UserUID || c.UID == RoleUID }

// IsSystemUID reports whether uid names a system type.
func IsSystemUID(uid string) bool { return systemSchemas[uid] != "" }

// ExtensionPath is where a project extends a system type, relative to
// its folder.
func ExtensionPath(uid string) string {
	switch uid {
	case UserUID:
		return "src/extensions/users-permissions/content-types/user/schema.json"
	case RoleUID:
		return "src/extensions/users-permissions/content-types/role/schema.json"
	}
	return ""
}

// systemType builds a system type: Strapi's definition, plus the
// attributes an extension file adds (ext may be nil). The extension's
// copies of built-in attributes are ignored: auth keeps their rules.
func systemType(uid string, ext *ContentType) (*ContentType, error) {
	t, err := ParseContentType(uid, "users-permissions", []byte(systemSchemas[uid]))
	if err != nil {
		return nil, err
	}
	t.System = true
	t.actionUID = systemActions[uid]
	cols := systemColumns[uid]
	for _, a := range t.Attributes {
		a.Column = cols[a.Name]
	}
	if ext == nil {
		return t, nil
	}
	if !t.Extensible() {
		return nil, defErr(ext.Source, "", "%s cannot be extended", uid)
	}
	t.Source, t.Raw, t.Warnings = ext.Source, ext.Raw, ext.Warnings
	for _, a := range ext.Attributes {
		if cols[a.Name] != "" {
			continue
		}
		if t.byName[a.Name] != nil {
			return nil, defErr(ext.Source, a.Name, "defined twice")
		}
		switch a.Type {
		case TypeDynamicZone, TypeUID:
			return nil, defErr(ext.Source, a.Name, "a %s attribute on %s is not supported", a.Type, uid)
		}
		t.Attributes = append(t.Attributes, a)
		t.byName[a.Name] = a
	}
	return t, nil
}

// ExtraAttributes lists the attributes an extension added to a system
// type (those without a column).
func (c *ContentType) ExtraAttributes() []*Attribute {
	var out []*Attribute
	for _, a := range c.Attributes {
		if a.Column == "" {
			out = append(out, a)
		}
	}
	return out
}

// Extension is a system type reduced to the attributes its extension
// adds: what the engine validates and stores for it. nil for other types.
func (c *ContentType) Extension() *ContentType { return c.ext }

// SystemTypes lists the system types of the schema (users, roles).
func (s *Schema) SystemTypes() []*ContentType { return s.system }

// addSystemTypes puts the system types in the schema, from the
// extensions among types (which it removes from the list).
func (s *Schema) addSystemTypes(types []*ContentType) ([]*ContentType, error) {
	ext := map[string]*ContentType{}
	rest := types[:0:0]
	for _, t := range types {
		if IsSystemUID(t.UID) {
			ext[t.UID] = t
			continue
		}
		rest = append(rest, t)
	}
	for _, uid := range []string{RoleUID, UserUID, FileUID, AdminUserUID} {
		t, err := systemType(uid, ext[uid])
		if err != nil {
			return nil, err
		}
		s.byUID[uid] = t
		s.system = append(s.system, t)
	}
	return rest, nil
}

// checkSystemTypes checks the extensions' attributes once every type is
// known, and records their references.
func (s *Schema) checkSystemTypes() error {
	for _, t := range s.system {
		attrs := t.ExtraAttributes()
		t.ext = &ContentType{UID: t.UID, Kind: t.Kind, CollectionName: t.CollectionName, Info: t.Info, System: true,
			Source: t.Source, Attributes: attrs, byName: indexAttrs(attrs)}
		for _, a := range t.Attributes {
			if a.Column != "" {
				continue
			}
			if err := s.checkAttribute(t.Source, t, a, false); err != nil {
				return err
			}
			if a.Type == TypeRelation && a.IsOwner() && a.Target != "" && !a.IsMorph() {
				s.referencing[a.Target] = append(s.referencing[a.Target], Reference{Owner: t, Attr: a})
			}
		}
	}
	return nil
}

// systemInverse reports a relation to a system type whose inversedBy the
// system type does not define (a project without the user extension):
// Strapi's own user has no such attribute, so the relation is one-way.
func (s *Schema) systemInverse(src string, a *Attribute) string {
	t := s.byUID[a.Target]
	if t == nil || !t.System || a.InversedBy == "" || t.Attr(a.InversedBy) != nil {
		return ""
	}
	w := fmt.Sprintf("%s: attribute %q: inversedBy %q: %s has no such attribute (add it in %s): the relation is one-way",
		src, a.Name, a.InversedBy, a.Target, ExtensionPath(a.Target))
	a.InversedBy = ""
	return w
}
