package gqlschema

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"
	"unicode"

	gql "github.com/graphql-go/graphql"
	"github.com/graphql-go/graphql/language/ast"

	"github.com/stratum-cms/stratum/graphql/executor"
	"github.com/stratum-cms/stratum/models"
	"github.com/stratum-cms/stratum/query"
)

// Naming follows Strapi 4's plugin (services/utils/naming): PascalCase of
// the singular API id for types, camelCase for queries.

// words splits a kebab, snake or dotted name into its parts.
func words(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == '-' || r == '_' || r == '.' || r == ' ' })
}

func pascal(s string) string {
	var b strings.Builder
	for _, w := range words(s) {
		r := []rune(w)
		r[0] = unicode.ToUpper(r[0])
		b.WriteString(string(r))
	}
	return b.String()
}

func camel(s string) string {
	p := pascal(s)
	if p == "" {
		return p
	}
	r := []rune(p)
	r[0] = unicode.ToLower(r[0])
	return string(r)
}

// TypeName is the GraphQL name of a content-type: Article, UsersPermissionsUser.
func TypeName(ct *models.ContentType) string {
	name := pascal(ct.Info.SingularName)
	if rest, ok := strings.CutPrefix(ct.UID, "plugin::"); ok {
		plugin, _, _ := strings.Cut(rest, ".")
		name = pascal(plugin) + name
	}
	return name
}

// ComponentName is the GraphQL name of a component: ComponentSharedSeo.
func ComponentName(c *models.Component) string {
	cat, name, _ := strings.Cut(c.UID, ".")
	return "Component" + pascal(cat) + pascal(name)
}

func enumName(owner string, a *models.Attribute) string {
	if a.EnumName != "" {
		return a.EnumName
	}
	return "ENUM_" + strings.ToUpper(owner) + "_" + strings.ToUpper(a.Name)
}

// enumValueName makes a stored enumeration value a valid GraphQL name, as
// Strapi's slugify with "_" does: "foo-bar" -> foo_bar, "1st" -> _1st.
func enumValueName(v string) string {
	var b strings.Builder
	for i, r := range v {
		ok := r == '_' || (r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r)))
		if i == 0 && unicode.IsDigit(r) {
			b.WriteByte('_')
		}
		if ok {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "_"
	}
	return b.String()
}

const timeLayout = "2006-01-02T15:04:05.000Z"

// Scalars of the shadow CRUD schema.
var (
	jsonScalar = gql.NewScalar(gql.ScalarConfig{
		Name:         "JSON",
		Description:  "The `JSON` scalar type represents JSON values as specified by [ECMA-404](http://www.ecma-international.org/publications/files/ECMA-ST/ECMA-404.pdf).",
		Serialize:    serializeJSON,
		ParseValue:   func(v any) any { return v },
		ParseLiteral: func(v ast.Value) any { return executor.LiteralValue(v, nil) },
	})
	dateTimeScalar = gql.NewScalar(gql.ScalarConfig{
		Name:        "DateTime",
		Description: "A date-time string at UTC, such as 2007-12-03T10:15:30Z, compliant with the `date-time` format outlined in section 5.6 of the RFC 3339 profile of the ISO 8601 standard for representation of dates and times using the Gregorian calendar.",
		Serialize:   serializeTimeString,
		ParseValue:  parseStringValue,
		ParseLiteral: func(v ast.Value) any {
			if s, ok := v.(*ast.StringValue); ok {
				return s.Value
			}
			if i, ok := v.(*ast.IntValue); ok { // a millisecond timestamp
				return json.Number(i.Value)
			}
			return nil
		},
	})
	dateScalar = gql.NewScalar(gql.ScalarConfig{
		Name:         "Date",
		Description:  "A date string, such as 2007-12-03, compliant with the `full-date` format outlined in section 5.6 of the RFC 3339 profile of the ISO 8601 standard for representation of dates and times using the Gregorian calendar.",
		Serialize:    serializeTimeString,
		ParseValue:   parseStringValue,
		ParseLiteral: parseStringLiteral,
	})
	timeScalar = gql.NewScalar(gql.ScalarConfig{
		Name:         "Time",
		Description:  "A time string with format HH:mm:ss.SSS",
		Serialize:    serializeTimeString,
		ParseValue:   parseStringValue,
		ParseLiteral: parseStringLiteral,
	})
	longScalar = gql.NewScalar(gql.ScalarConfig{
		Name:        "Long",
		Description: "The `BigInt` scalar type represents non-fractional signed whole numeric values.",
		Serialize:   serializeLong,
		ParseValue: func(v any) any {
			switch x := v.(type) {
			case string:
				if _, err := strconv.ParseInt(x, 10, 64); err == nil {
					return x
				}
			case json.Number:
				if _, err := strconv.ParseInt(string(x), 10, 64); err == nil {
					return string(x)
				}
			case float64:
				if x == float64(int64(x)) {
					return strconv.FormatInt(int64(x), 10)
				}
			case int:
				return strconv.Itoa(x)
			}
			return nil
		},
		ParseLiteral: func(v ast.Value) any {
			switch x := v.(type) {
			case *ast.IntValue:
				return x.Value
			case *ast.StringValue:
				if _, err := strconv.ParseInt(x.Value, 10, 64); err == nil {
					return x.Value
				}
			}
			return nil
		},
	})
	localeScalar = gql.NewScalar(gql.ScalarConfig{
		Name:         "I18NLocaleCode",
		Description:  "A string used to identify an i18n locale",
		Serialize:    func(v any) any { return v },
		ParseValue:   parseStringValue,
		ParseLiteral: parseStringLiteral,
	})
)

func parseStringValue(v any) any {
	if s, ok := v.(string); ok {
		return s
	}
	return nil
}

func parseStringLiteral(v ast.Value) any {
	if s, ok := v.(*ast.StringValue); ok {
		return s.Value
	}
	return nil
}

func serializeJSON(v any) any {
	switch x := v.(type) {
	case json.RawMessage:
		if len(x) == 0 || string(x) == "null" {
			return nil
		}
	}
	return v
}

func serializeTimeString(v any) any {
	switch x := v.(type) {
	case string:
		return x
	case time.Time:
		return x.UTC().Format(timeLayout)
	case *time.Time:
		if x == nil {
			return nil
		}
		return x.UTC().Format(timeLayout)
	}
	return nil
}

func serializeLong(v any) any {
	switch x := v.(type) {
	case string:
		if _, err := strconv.ParseInt(x, 10, 64); err == nil {
			return json.Number(x)
		}
	case json.Number:
		return x
	case int64:
		return json.Number(strconv.FormatInt(x, 10))
	case int:
		return json.Number(strconv.Itoa(x))
	case float64:
		return json.Number(strconv.FormatFloat(x, 'f', -1, 64))
	}
	return nil
}

// shared holds the types every schema has, built once per schema (graphql-go
// types must not be shared between schemas that differ).
type shared struct {
	pagination, meta  *gql.Object
	paginationArg     *gql.InputObject
	publicationState  *gql.Enum
	publicationStatus *gql.Enum
	errorType         *gql.Object
	filters           map[gql.Type]*gql.InputObject // scalar -> <Scalar>FilterInput
	idFilter          *gql.InputObject
	uploadFile        *gql.Object
	uploadEntity      *gql.Object
	uploadResponse    *gql.Object
	uploadRelation    *gql.Object
}

func newShared() *shared {
	s := &shared{filters: map[gql.Type]*gql.InputObject{}}
	s.pagination = gql.NewObject(gql.ObjectConfig{Name: "Pagination", Fields: gql.Fields{
		"total":     &gql.Field{Type: gql.NewNonNull(gql.Int), Resolve: pageField("total")},
		"page":      &gql.Field{Type: gql.NewNonNull(gql.Int), Resolve: pageField("page")},
		"pageSize":  &gql.Field{Type: gql.NewNonNull(gql.Int), Resolve: pageField("pageSize")},
		"pageCount": &gql.Field{Type: gql.NewNonNull(gql.Int), Resolve: pageField("pageCount")},
	}})
	s.meta = gql.NewObject(gql.ObjectConfig{Name: "ResponseCollectionMeta", Fields: gql.Fields{
		"pagination": &gql.Field{Type: gql.NewNonNull(s.pagination), Resolve: func(p gql.ResolveParams) (any, error) {
			return p.Source, nil
		}},
	}})
	s.paginationArg = gql.NewInputObject(gql.InputObjectConfig{Name: "PaginationArg", Fields: gql.InputObjectConfigFieldMap{
		"page": {Type: gql.Int}, "pageSize": {Type: gql.Int}, "start": {Type: gql.Int}, "limit": {Type: gql.Int},
	}})
	s.publicationState = orderEnum(gql.NewEnum(gql.EnumConfig{Name: "PublicationState", Values: gql.EnumValueConfigMap{
		"LIVE":    {Value: "LIVE", Description: "The published version of documents"},
		"PREVIEW": {Value: "PREVIEW", Description: "The draft version of documents (every document has one)"},
	}}), []string{"LIVE", "PREVIEW"})
	s.publicationStatus = orderEnum(gql.NewEnum(gql.EnumConfig{Name: "PublicationStatus", Values: gql.EnumValueConfigMap{
		"DRAFT":     {Value: "DRAFT"},
		"PUBLISHED": {Value: "PUBLISHED"},
	}}), []string{"DRAFT", "PUBLISHED"})
	s.errorType = gql.NewObject(gql.ObjectConfig{Name: "Error", Fields: gql.Fields{
		"code":    &gql.Field{Type: gql.NewNonNull(gql.String), Resolve: mapField("code")},
		"message": &gql.Field{Type: gql.String, Resolve: mapField("message")},
	}})
	for _, sc := range []*gql.Scalar{gql.ID, gql.Boolean, gql.String, gql.Int, longScalar, gql.Float, dateScalar, timeScalar, dateTimeScalar, jsonScalar} {
		s.filters[sc] = scalarFilter(sc)
	}
	s.idFilter = s.filters[gql.ID]
	s.buildUpload()
	return s
}

// filterOps are the operators of every <Scalar>FilterInput (Strapi 4's set)
// and the engine operator each maps to.
var filterOps = []struct {
	name string
	op   query.Op
	list bool
}{
	{"eq", query.OpEq, false}, {"eqi", query.OpEqi, false}, {"ne", query.OpNe, false}, {"nei", query.OpNei, false},
	{"startsWith", query.OpStartsWith, false}, {"endsWith", query.OpEndsWith, false},
	{"contains", query.OpContains, false}, {"notContains", query.OpNotContains, false},
	{"containsi", query.OpContainsi, false}, {"notContainsi", query.OpNotContainsi, false},
	{"gt", query.OpGt, false}, {"gte", query.OpGte, false}, {"lt", query.OpLt, false}, {"lte", query.OpLte, false},
	{"in", query.OpIn, true}, {"notIn", query.OpNotIn, true}, {"between", query.OpBetween, true},
}

func scalarFilter(sc *gql.Scalar) *gql.InputObject {
	var self *gql.InputObject
	self = gql.NewInputObject(gql.InputObjectConfig{Name: sc.Name() + "FilterInput",
		Fields: gql.InputObjectConfigFieldMapThunk(func() gql.InputObjectConfigFieldMap {
			m := gql.InputObjectConfigFieldMap{
				"and": {Type: gql.NewList(sc)}, "or": {Type: gql.NewList(sc)}, "not": {Type: self},
				"null": {Type: gql.Boolean}, "notNull": {Type: gql.Boolean},
			}
			for _, o := range filterOps {
				if o.list {
					m[o.name] = &gql.InputObjectFieldConfig{Type: gql.NewList(sc)}
				} else {
					m[o.name] = &gql.InputObjectFieldConfig{Type: sc}
				}
			}
			return m
		})})
	return self
}

func pageField(name string) gql.FieldResolveFn {
	return func(p gql.ResolveParams) (any, error) {
		m, _ := p.Source.(*pageInfo)
		if m == nil {
			return 0, nil
		}
		switch name {
		case "total":
			return m.total, nil
		case "page":
			return m.page, nil
		case "pageSize":
			return m.pageSize, nil
		}
		return m.pageCount, nil
	}
}

func mapField(name string) gql.FieldResolveFn {
	return func(p gql.ResolveParams) (any, error) {
		if m, ok := p.Source.(map[string]any); ok {
			return m[name], nil
		}
		return nil, nil
	}
}

// buildUpload makes the file types of the upload plugin's shape, without the
// Upload scalar: media cannot be uploaded through GraphQL.
func (s *shared) buildUpload() {
	str := func(n string) *gql.Field { return &gql.Field{Type: gql.String, Resolve: fileField(n, decodeString)} }
	s.uploadFile = gql.NewObject(gql.ObjectConfig{Name: "UploadFile", Fields: gql.Fields{
		"name":              &gql.Field{Type: gql.NewNonNull(gql.String), Resolve: fileField("name", decodeStringNonNull)},
		"alternativeText":   str("alternativeText"),
		"caption":           str("caption"),
		"width":             &gql.Field{Type: gql.Int, Resolve: fileField("width", decodeInt)},
		"height":            &gql.Field{Type: gql.Int, Resolve: fileField("height", decodeInt)},
		"formats":           &gql.Field{Type: jsonScalar, Resolve: fileField("formats", decodeJSON)},
		"hash":              &gql.Field{Type: gql.NewNonNull(gql.String), Resolve: fileField("hash", decodeStringNonNull)},
		"ext":               str("ext"),
		"mime":              &gql.Field{Type: gql.NewNonNull(gql.String), Resolve: fileField("mime", decodeStringNonNull)},
		"size":              &gql.Field{Type: gql.NewNonNull(gql.Float), Resolve: fileField("size", decodeFloatNonNull)},
		"url":               &gql.Field{Type: gql.NewNonNull(gql.String), Resolve: fileField("url", decodeStringNonNull)},
		"previewUrl":        str("previewUrl"),
		"provider":          &gql.Field{Type: gql.NewNonNull(gql.String), Resolve: fileField("provider", decodeStringNonNull)},
		"provider_metadata": &gql.Field{Type: jsonScalar, Resolve: fileField("provider_metadata", decodeJSON)},
		"createdAt":         &gql.Field{Type: dateTimeScalar, Resolve: fileField("createdAt", decodeString)},
		"updatedAt":         &gql.Field{Type: dateTimeScalar, Resolve: fileField("updatedAt", decodeString)},
	}})
	s.uploadEntity = gql.NewObject(gql.ObjectConfig{Name: "UploadFileEntity", Fields: gql.Fields{
		"id": &gql.Field{Type: gql.ID, Resolve: func(p gql.ResolveParams) (any, error) {
			f, _ := p.Source.(*fileValue)
			if f == nil {
				return nil, nil
			}
			return f.id(), nil
		}},
		"attributes": &gql.Field{Type: s.uploadFile, Resolve: func(p gql.ResolveParams) (any, error) {
			f, _ := p.Source.(*fileValue)
			if f == nil || f.m == nil {
				return nil, nil
			}
			return f, nil
		}},
	}})
	s.uploadResponse = gql.NewObject(gql.ObjectConfig{Name: "UploadFileEntityResponse", Fields: gql.Fields{
		"data": &gql.Field{Type: s.uploadEntity, Resolve: func(p gql.ResolveParams) (any, error) {
			if f, ok := p.Source.(*fileValue); ok && f != nil {
				return f, nil
			}
			return nil, nil
		}},
	}})
	s.uploadRelation = gql.NewObject(gql.ObjectConfig{Name: "UploadFileRelationResponseCollection", Fields: gql.Fields{
		"data": &gql.Field{Type: gql.NewNonNull(gql.NewList(gql.NewNonNull(s.uploadEntity))), Resolve: func(p gql.ResolveParams) (any, error) {
			fs, _ := p.Source.([]*fileValue)
			if fs == nil {
				fs = []*fileValue{}
			}
			return fs, nil
		}},
	}})
}

// fileValue is a media value as stored: a file object, or a bare reference.
type fileValue struct {
	ref json.RawMessage
	m   map[string]json.RawMessage
}

func (f *fileValue) id() any {
	if f.m != nil {
		if v, ok := f.m["documentId"]; ok {
			return decodeString(v)
		}
		return rawToID(f.m["id"])
	}
	return rawToID(f.ref)
}

func rawToID(raw json.RawMessage) any {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var n json.Number
	d := json.NewDecoder(strings.NewReader(string(raw)))
	d.UseNumber()
	if d.Decode(&n) == nil {
		return string(n)
	}
	return nil
}

func fileField(name string, dec func(json.RawMessage) any) gql.FieldResolveFn {
	return func(p gql.ResolveParams) (any, error) {
		f, _ := p.Source.(*fileValue)
		if f == nil || f.m == nil {
			return nil, nil
		}
		return dec(f.m[name]), nil
	}
}

func decodeFiles(raw json.RawMessage, multiple bool) any {
	if multiple {
		var items []json.RawMessage
		_ = json.Unmarshal(raw, &items)
		out := make([]*fileValue, 0, len(items))
		for _, it := range items {
			if f := decodeFile(it); f != nil {
				out = append(out, f)
			}
		}
		return out
	}
	if f := decodeFile(raw); f != nil {
		return f
	}
	return (*fileValue)(nil)
}

func decodeFile(raw json.RawMessage) *fileValue {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	f := &fileValue{ref: raw}
	if raw[0] == '{' {
		_ = json.Unmarshal(raw, &f.m)
	}
	return f
}

// Decoders turn a stored JSON value into what a field serialises.

func isNull(raw json.RawMessage) bool { return len(raw) == 0 || string(raw) == "null" }

func decodeString(raw json.RawMessage) any {
	if isNull(raw) {
		return nil
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
		return nil
	}
	return string(raw)
}

func decodeStringNonNull(raw json.RawMessage) any {
	if v := decodeString(raw); v != nil {
		return v
	}
	return ""
}

func decodeInt(raw json.RawMessage) any {
	if isNull(raw) {
		return nil
	}
	s := strings.Trim(string(raw), `"`)
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return int(n)
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return int(f)
	}
	return nil
}

func decodeFloat(raw json.RawMessage) any {
	if isNull(raw) {
		return nil
	}
	if f, err := strconv.ParseFloat(strings.Trim(string(raw), `"`), 64); err == nil {
		return f
	}
	return nil
}

func decodeFloatNonNull(raw json.RawMessage) any {
	if v := decodeFloat(raw); v != nil {
		return v
	}
	return 0.0
}

func decodeLong(raw json.RawMessage) any {
	if isNull(raw) {
		return nil
	}
	return json.Number(strings.Trim(string(raw), `"`))
}

func decodeBool(raw json.RawMessage) any {
	switch string(raw) {
	case "true":
		return true
	case "false":
		return false
	}
	return nil
}

func decodeJSON(raw json.RawMessage) any {
	if isNull(raw) {
		return nil
	}
	return raw
}
