package gqlschema

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"

	gql "github.com/graphql-go/graphql"
)

var introspectionOnce sync.Once

// fixIntrospection corrects two things of graphql-go v0.8's introspection,
// once per process:
//   - defaultValue is printed without the argument's type (enum defaults
//     come out as strings, `{}` and `[]` not at all); clients such as
//     graphql-js' buildClientSchema read it back, so it must be valid SDL;
//   - field arguments, input fields and types come out in Go map order,
//     different on every build: they are sorted by name, so the schema a
//     client sees (and caches) is stable.
func fixIntrospection() {
	introspectionOnce.Do(func() {
		gql.InputValueType.Fields()["defaultValue"].Resolve = func(p gql.ResolveParams) (any, error) {
			switch v := p.Source.(type) {
			case *gql.Argument:
				return printDefault(v.DefaultValue, v.Type), nil
			case *gql.InputObjectField:
				return printDefault(v.DefaultValue, v.Type), nil
			}
			return nil, nil
		}
		gql.FieldType.Fields()["args"].Resolve = func(p gql.ResolveParams) (any, error) {
			f, ok := p.Source.(*gql.FieldDefinition)
			if !ok {
				return []any{}, nil
			}
			args := append([]*gql.Argument(nil), f.Args...)
			sort.Slice(args, func(i, j int) bool { return args[i].Name() < args[j].Name() })
			return args, nil
		}
		gql.TypeType.Fields()["inputFields"].Resolve = func(p gql.ResolveParams) (any, error) {
			t, ok := p.Source.(*gql.InputObject)
			if !ok {
				return nil, nil
			}
			fm := t.Fields()
			names := make([]string, 0, len(fm))
			for n := range fm {
				names = append(names, n)
			}
			sort.Strings(names)
			out := make([]*gql.InputObjectField, len(names))
			for i, n := range names {
				out[i] = fm[n]
			}
			return out, nil
		}
		prevTypes := gql.SchemaType.Fields()["types"].Resolve
		gql.SchemaType.Fields()["types"].Resolve = func(p gql.ResolveParams) (any, error) {
			s, ok := p.Source.(gql.Schema)
			if !ok {
				return prevTypes(p)
			}
			tm := s.TypeMap()
			names := make([]string, 0, len(tm))
			for n := range tm {
				names = append(names, n)
			}
			sort.Strings(names)
			out := make([]gql.Type, len(names))
			for i, n := range names {
				out[i] = tm[n]
			}
			return out, nil
		}
		prevPossible := gql.TypeType.Fields()["possibleTypes"].Resolve
		gql.TypeType.Fields()["possibleTypes"].Resolve = func(p gql.ResolveParams) (any, error) {
			v, err := prevPossible(p)
			if objs, ok := v.([]*gql.Object); ok {
				objs = append([]*gql.Object(nil), objs...)
				sort.Slice(objs, func(i, j int) bool { return objs[i].Name() < objs[j].Name() })
				return objs, err
			}
			return v, err
		}
	})
}

// printDefault prints a default value as a GraphQL literal of type t.
func printDefault(v any, t gql.Type) any {
	if v == nil {
		return nil
	}
	return printValue(v, t)
}

func printValue(v any, t gql.Type) string {
	if nn, ok := t.(*gql.NonNull); ok {
		t = nn.OfType
	}
	switch tt := t.(type) {
	case *gql.List:
		list, ok := v.([]any)
		if !ok {
			return printValue(v, tt.OfType)
		}
		parts := make([]string, len(list))
		for i, x := range list {
			parts[i] = printValue(x, tt.OfType)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case *gql.InputObject:
		m, _ := v.(map[string]any)
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		fields := tt.Fields()
		for i, k := range keys {
			var ft gql.Type = gql.String
			if f := fields[k]; f != nil {
				ft = f.Type
			}
			parts[i] = k + ": " + printValue(m[k], ft)
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case *gql.Enum:
		for _, ev := range tt.Values() {
			if ev.Value == v || ev.Name == v {
				return ev.Name
			}
		}
	}
	switch x := v.(type) {
	case string:
		b, _ := json.Marshal(x)
		return string(b)
	case bool:
		return strconv.FormatBool(x)
	case nil:
		return "null"
	}
	return fmt.Sprint(v)
}
