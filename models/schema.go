package models

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// Schema is one validated, resolved set of content-types and components.
// It is never changed after Build: a change builds a new Schema.
type Schema struct {
	Types      []*ContentType // sorted by UID
	Components []*Component   // sorted by UID
	// Version is the stored schema version this schema serves (0: the
	// files alone). The registry sets it once, before anyone reads the
	// schema; writes compare it with the stored one (the write fence).
	Version int64

	byUID       map[string]*ContentType
	byRoute     map[string]*ContentType // plural names of collection types, singular names of single types
	byAPIName   map[string]*ContentType // plural and singular names
	components  map[string]*Component
	referencing map[string][]Reference
	morphs      []Reference
	system      []*ContentType
}

// MorphReferences lists the polymorphic owning relations, which may point
// at any type.
func (s *Schema) MorphReferences() []Reference { return s.morphs }

// Reference is a relation attribute stored on Owner that points at a type.
type Reference struct {
	Owner *ContentType
	Attr  *Attribute
}

// Type returns the content-type with the uid, or nil.
func (s *Schema) Type(uid string) *ContentType { return s.byUID[uid] }

// Route returns the type served at /api/<name>: a collection type by its
// plural name, a single type by its singular name.
func (s *Schema) Route(name string) *ContentType { return s.byRoute[name] }

// Component returns the component with the uid, or nil.
func (s *Schema) Component(uid string) *Component { return s.components[uid] }

// ReferencesTo lists the owning relation attributes that point at uid.
func (s *Schema) ReferencesTo(uid string) []Reference { return s.referencing[uid] }

// Inverse returns the owning attribute that a mappedBy attribute mirrors.
func (s *Schema) Inverse(a *Attribute) *Attribute {
	if a.MappedBy == "" {
		return nil
	}
	if t := s.byUID[a.Target]; t != nil {
		return t.Attr(a.MappedBy)
	}
	return nil
}

var (
	attrNameRe   = regexp.MustCompile(`^[A-Za-z][_0-9A-Za-z]*$`)
	apiNameRe    = regexp.MustCompile(`^[a-z][a-z0-9-]*$`)
	tableNameRe  = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	componentRe  = regexp.MustCompile(`^[a-z0-9-]+\.[a-z0-9-]+$`)
	contentUIDRe = regexp.MustCompile(`^(api|plugin)::[a-z0-9-]+\.[a-z0-9-]+$`)
)

// reservedNames are attribute names the engine or Strapi's wire format owns.
var reservedNames = map[string]bool{
	"id": true, "documentId": true, "document_id": true, "createdAt": true, "created_at": true,
	"updatedAt": true, "updated_at": true, "publishedAt": true, "published_at": true,
	"createdBy": true, "created_by": true, "created_by_id": true, "updatedBy": true,
	"updated_by": true, "updated_by_id": true, "publishedBy": true, "locale": true,
	"localizations": true, "status": true, "meta": true, "__component": true,
	"__contentType": true, "__type": true, "__typename": true,
}

var allowedMedia = map[string]bool{"images": true, "videos": true, "files": true, "audios": true}

// Build validates types and components as one set and resolves their
// cross references. Errors name the file and the attribute.
func Build(types []*ContentType, components []*Component) (*Schema, error) {
	s := &Schema{
		byUID: map[string]*ContentType{}, byRoute: map[string]*ContentType{},
		byAPIName: map[string]*ContentType{}, components: map[string]*Component{},
		referencing: map[string][]Reference{},
	}
	for _, c := range components {
		if !componentRe.MatchString(c.UID) {
			return nil, defErr(c.Source, "", "component uid %q must be <category>.<name> in lower case", c.UID)
		}
		if s.components[c.UID] != nil {
			return nil, defErr(c.Source, "", "component %q is defined twice (also in %s)", c.UID, s.components[c.UID].Source)
		}
		s.components[c.UID] = c
		s.Components = append(s.Components, c)
	}
	types, err := s.addSystemTypes(types)
	if err != nil {
		return nil, err
	}
	uids := map[string]bool{}
	for _, t := range types {
		uids[t.UID] = true
	}
	for _, t := range s.system {
		uids[t.UID] = true
	}
	for _, t := range types {
		if attrs, w := withoutPluginRelations(t.Source, t.Attributes, t.Warnings, uids); len(attrs) < len(t.Attributes) {
			t.Attributes, t.Warnings, t.byName = attrs, w, indexAttrs(attrs)
		}
	}
	for _, c := range s.Components {
		if attrs, w := withoutPluginRelations(c.Source, c.Attributes, c.Warnings, uids); len(attrs) < len(c.Attributes) {
			c.Attributes, c.Warnings, c.byName = attrs, w, indexAttrs(attrs)
		}
	}
	for _, t := range s.system {
		if attrs, w := withoutPluginRelations(t.Source, t.Attributes, t.Warnings, uids); len(attrs) < len(t.Attributes) {
			t.Attributes, t.Warnings, t.byName = attrs, w, indexAttrs(attrs)
		}
	}
	for _, t := range types {
		for _, a := range t.Attributes {
			if a.Type == TypeRelation {
				if w := s.systemInverse(t.Source, a); w != "" {
					t.Warnings = append(t.Warnings, w)
				}
			}
		}
	}
	tables := map[string]string{}
	for _, t := range types {
		if err := s.addType(t, tables); err != nil {
			return nil, err
		}
	}
	for _, c := range s.Components {
		for _, a := range c.Attributes {
			if err := s.checkAttribute(c.Source, nil, a, true); err != nil {
				return nil, err
			}
		}
	}
	for _, t := range s.Types {
		for _, a := range t.Attributes {
			if err := s.checkAttribute(t.Source, t, a, false); err != nil {
				return nil, err
			}
			if a.Type == TypeRelation && a.IsOwner() && a.Target != "" {
				s.referencing[a.Target] = append(s.referencing[a.Target], Reference{Owner: t, Attr: a})
			}
			if a.IsMorph() {
				s.morphs = append(s.morphs, Reference{Owner: t, Attr: a})
			}
		}
	}
	if err := s.checkSystemTypes(); err != nil {
		return nil, err
	}
	for _, c := range s.Components {
		if err := s.checkComponentCycle(c, map[string]bool{}); err != nil {
			return nil, err
		}
	}
	sort.Slice(s.Types, func(i, j int) bool { return s.Types[i].UID < s.Types[j].UID })
	sort.Slice(s.Components, func(i, j int) bool { return s.Components[i].UID < s.Components[j].UID })
	return s, nil
}

func (s *Schema) addType(t *ContentType, tables map[string]string) error {
	src := t.Source
	if !contentUIDRe.MatchString(t.UID) {
		return defErr(src, "", "content-type uid %q must be api::<api>.<name>", t.UID)
	}
	if s.byUID[t.UID] != nil {
		return defErr(src, "", "content-type %q is defined twice (also in %s)", t.UID, s.byUID[t.UID].Source)
	}
	if t.Kind != CollectionType && t.Kind != SingleType {
		return defErr(src, "", "unknown kind %q (expected collectionType or singleType)", t.Kind)
	}
	sing, plur := t.Info.SingularName, t.Info.PluralName
	if !apiNameRe.MatchString(sing) {
		return defErr(src, "", "info.singularName %q must be kebab-case (a-z, 0-9, -)", sing)
	}
	if !apiNameRe.MatchString(plur) {
		return defErr(src, "", "info.pluralName %q must be kebab-case (a-z, 0-9, -)", plur)
	}
	if sing == plur {
		return defErr(src, "", "info.singularName and info.pluralName are both %q; they must differ", sing)
	}
	for _, n := range []string{sing, plur} {
		if o := s.byAPIName[n]; o != nil {
			return defErr(src, "", "API name %q is already used by %s (%s)", n, o.UID, o.Source)
		}
		if reservedRoutes[n] {
			return defErr(src, "", "API name %q is reserved", n)
		}
	}
	if t.CollectionName == "" {
		t.CollectionName = strings.ReplaceAll(plur, "-", "_")
	}
	if !tableNameRe.MatchString(t.CollectionName) || len(t.CollectionName) > 55 {
		return defErr(src, "", "collectionName %q must be letters, digits and _ (at most 55)", t.CollectionName)
	}
	lt := strings.ToLower(t.CollectionName)
	if IsReservedTable(lt) {
		return defErr(src, "", "collectionName %q is reserved: Stratum or the database keeps a table of that name (prefixes stratum_, sqlite_ and pg_, and up_users, up_roles, up_permissions)", t.CollectionName)
	}
	if o, ok := tables[lt]; ok {
		return defErr(src, "", "collectionName %q is already used by %s", t.CollectionName, o)
	}
	tables[lt] = t.UID
	s.byUID[t.UID] = t
	s.byAPIName[sing], s.byAPIName[plur] = t, t
	if t.IsSingle() {
		s.byRoute[sing] = t
	} else {
		s.byRoute[plur] = t
	}
	s.Types = append(s.Types, t)
	return nil
}

// reservedRoutes are /api/<name> paths that plugins own.
var reservedRoutes = map[string]bool{
	"users": true, "auth": true, "upload": true, "users-permissions": true, "i18n": true,
	"connect": true, "graphql": true,
}

func (s *Schema) checkAttribute(src string, owner *ContentType, a *Attribute, inComponent bool) error {
	n := a.Name
	if !attrNameRe.MatchString(n) {
		return defErr(src, n, "name must start with a letter and hold only letters, digits and _")
	}
	if reservedNames[n] {
		return defErr(src, n, "name is reserved")
	}
	if a.Type == "" {
		return defErr(src, n, "missing \"type\"")
	}
	if !knownTypes[a.Type] {
		return defErr(src, n, "unknown type %q", a.Type)
	}
	if a.MinLength != nil && *a.MinLength < 0 || a.MaxLength != nil && *a.MaxLength < 0 {
		return defErr(src, n, "minLength and maxLength must not be negative")
	}
	if a.MinLength != nil && a.MaxLength != nil && *a.MinLength > *a.MaxLength {
		return defErr(src, n, "minLength %d is greater than maxLength %d", *a.MinLength, *a.MaxLength)
	}
	if a.Min != nil && a.Max != nil && a.Min.Value > a.Max.Value {
		return defErr(src, n, "min %s is greater than max %s", a.Min.Raw, a.Max.Raw)
	}
	if a.Regex != "" {
		re, err := regexp.Compile(a.Regex)
		if err != nil {
			return defErr(src, n, "regex does not compile: %v", err)
		}
		a.pattern = re
	}
	switch a.Type {
	case TypeEnumeration:
		if len(a.Enum) == 0 {
			return defErr(src, n, "enumeration needs a non-empty \"enum\" list")
		}
	case TypeUID:
		if a.TargetField != "" {
			var target *Attribute
			if owner != nil {
				target = owner.Attr(a.TargetField)
			}
			if target == nil && !inComponent {
				return defErr(src, n, "targetField %q is not an attribute of the type", a.TargetField)
			}
			if target != nil && target.Type != TypeString && target.Type != TypeText && target.Type != TypeUID {
				return defErr(src, n, "targetField %q must be a string attribute", a.TargetField)
			}
		}
	case TypeMedia:
		for _, m := range a.AllowedTypes {
			if !allowedMedia[m] {
				return defErr(src, n, "unknown allowedTypes entry %q (images, videos, files, audios)", m)
			}
		}
	case TypeComponent:
		if a.Component == "" {
			return defErr(src, n, "component attribute needs \"component\"")
		}
		if s.components[a.Component] == nil {
			return defErr(src, n, "component %q does not exist", a.Component)
		}
	case TypeDynamicZone:
		if inComponent {
			return defErr(src, n, "a component cannot hold a dynamic zone")
		}
		if len(a.Components) == 0 {
			return defErr(src, n, "dynamiczone needs a non-empty \"components\" list")
		}
		for _, c := range a.Components {
			if s.components[c] == nil {
				return defErr(src, n, "component %q does not exist", c)
			}
		}
	case TypeRelation:
		return s.checkRelation(src, owner, a, inComponent)
	}
	if len(a.Default) > 0 {
		if err := checkDefault(a); err != nil {
			return defErr(src, n, "default: %v", err)
		}
	}
	return nil
}

func (s *Schema) checkRelation(src string, owner *ContentType, a *Attribute, inComponent bool) error {
	n := a.Name
	if !knownRelations[a.Relation] {
		return defErr(src, n, "unknown relation %q", a.Relation)
	}
	switch a.Relation {
	case MorphToOne, MorphToMany:
		return nil // polymorphic: any type, no target
	case MorphOne, MorphMany:
		if a.Target == "" || a.MorphBy == "" {
			return defErr(src, n, "%s needs \"target\" and \"morphBy\"", a.Relation)
		}
		t := s.byUID[a.Target]
		if t == nil {
			return defErr(src, n, "target %q does not exist", a.Target)
		}
		if by := t.Attr(a.MorphBy); by == nil || !by.IsMorph() {
			return defErr(src, n, "morphBy %q is not a morphToOne or morphToMany relation of %s", a.MorphBy, a.Target)
		}
		return nil
	}
	if a.Target == "" {
		return defErr(src, n, "relation needs a \"target\"")
	}
	target := s.byUID[a.Target]
	if target == nil {
		return defErr(src, n, "target %q does not exist", a.Target)
	}
	if inComponent && (a.MappedBy != "" || a.InversedBy != "") {
		return defErr(src, n, "relations in components are one-way: no mappedBy or inversedBy")
	}
	if a.MappedBy != "" && a.InversedBy != "" {
		return defErr(src, n, "a relation has mappedBy or inversedBy, not both")
	}
	if a.MappedBy != "" {
		other := target.Attr(a.MappedBy)
		if other == nil || other.Type != TypeRelation || other.Target != owner.UID {
			return defErr(src, n, "mappedBy %q is not a relation of %s pointing back to %s", a.MappedBy, a.Target, owner.UID)
		}
		if other.InversedBy != "" && other.InversedBy != n {
			return defErr(src, n, "mappedBy %q: %s.%s has inversedBy %q", a.MappedBy, a.Target, a.MappedBy, other.InversedBy)
		}
	}
	if a.InversedBy != "" {
		other := target.Attr(a.InversedBy)
		if other == nil || other.Type != TypeRelation || other.Target != owner.UID || other.MappedBy != n {
			return defErr(src, n, "inversedBy %q: %s has no relation %q with mappedBy %q", a.InversedBy, a.Target, a.InversedBy, n)
		}
	}
	return nil
}

func (s *Schema) checkComponentCycle(c *Component, path map[string]bool) error {
	if path[c.UID] {
		return defErr(c.Source, "", "component %q contains itself", c.UID)
	}
	path[c.UID] = true
	defer delete(path, c.UID)
	for _, a := range c.Attributes {
		if a.Type == TypeComponent {
			if err := s.checkComponentCycle(s.components[a.Component], path); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkDefault refuses a default whose JSON type cannot be the attribute's.
func checkDefault(a *Attribute) error {
	var v any
	if err := json.Unmarshal(a.Default, &v); err != nil {
		return err
	}
	if v == nil {
		return nil
	}
	ok := true
	switch {
	case a.IsText() || a.Type == TypeDate || a.Type == TypeTime || a.Type == TypeDateTime || a.Type == TypeTimestamp:
		_, ok = v.(string)
		if a.Type == TypeEnumeration && ok {
			ok = false
			for _, e := range a.Enum {
				if e == v.(string) {
					ok = true
				}
			}
			if !ok {
				return errorString("not one of the enum values")
			}
		}
	case a.Type == TypeBoolean:
		_, ok = v.(bool)
	case a.Type == TypeBigInteger:
		switch v.(type) {
		case string, float64:
		default:
			ok = false
		}
	case a.IsNumeric():
		_, ok = v.(float64)
	}
	if !ok {
		return errorString("does not fit type " + string(a.Type))
	}
	return nil
}

type errorString string

func (e errorString) Error() string { return string(e) }

// systemTables are the tables of users-permissions, which keep Strapi's
// names (so a Strapi database reads as it is); Stratum's other tables all
// start with stratum_.
var systemTables = map[string]bool{"up_users": true, "up_roles": true, "up_permissions": true}

// IsReservedTable reports whether a content-type may not use a table name:
// Stratum's own tables, and the prefixes SQLite and PostgreSQL keep.
func IsReservedTable(name string) bool {
	n := strings.ToLower(name)
	return systemTables[n] || strings.HasPrefix(n, "stratum_") || strings.HasPrefix(n, "sqlite_") || strings.HasPrefix(n, "pg_")
}

// pluginTargets are the uids of Strapi's own types (users, roles, files,
// admin users), which Stratum keeps in its own tables.
func pluginTarget(uid string) bool {
	return strings.HasPrefix(uid, "plugin::users-permissions.") || strings.HasPrefix(uid, "plugin::upload.") ||
		strings.HasPrefix(uid, "plugin::i18n.") || strings.HasPrefix(uid, "admin::")
}

// withoutPluginRelations leaves out, with a warning, the relations to
// Strapi's own types that the schema does not define: Stratum does not
// serve them yet, and a project that has one still starts (every other
// attribute served) rather than being refused.
func withoutPluginRelations(src string, attrs []*Attribute, warnings []string, uids map[string]bool) ([]*Attribute, []string) {
	out := attrs[:0:0]
	for _, a := range attrs {
		if a.Type == TypeRelation && pluginTarget(a.Target) && !uids[a.Target] {
			warnings = append(warnings, fmt.Sprintf("%s: attribute %q: relations to %s are not served yet: the attribute is left out", src, a.Name, a.Target))
			continue
		}
		out = append(out, a)
	}
	return out, warnings
}
