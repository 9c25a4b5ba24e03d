package gqlschema

import (
	"fmt"
	"sort"
	"strings"
)

// IntrospectionQuery is graphql-js' getIntrospectionQuery() (v16 defaults),
// what GraphQL clients and code generators send.
const IntrospectionQuery = `query IntrospectionQuery {
  __schema {
    queryType { name }
    mutationType { name }
    subscriptionType { name }
    types { ...FullType }
    directives { name description locations args { ...InputValue } }
  }
}
fragment FullType on __Type {
  kind name description
  fields(includeDeprecated: true) { name description args { ...InputValue } type { ...TypeRef } isDeprecated deprecationReason }
  inputFields { ...InputValue }
  interfaces { ...TypeRef }
  enumValues(includeDeprecated: true) { name description isDeprecated deprecationReason }
  possibleTypes { ...TypeRef }
}
fragment InputValue on __InputValue { name description type { ...TypeRef } defaultValue }
fragment TypeRef on __Type {
  kind name
  ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } }
}`

// PrintSDL prints the schema an introspection result (the `data` of
// IntrospectionQuery) describes, in SDL, types sorted by name: what
// graphql-js' printSchema(buildClientSchema(...)) gives, less the built-in
// scalars and directives.
func PrintSDL(data map[string]any) string {
	schema, _ := data["__schema"].(map[string]any)
	var b strings.Builder
	rootName := func(k string) string {
		m, _ := schema[k].(map[string]any)
		s, _ := m["name"].(string)
		return s
	}
	q, m, s := rootName("queryType"), rootName("mutationType"), rootName("subscriptionType")
	if (q != "" && q != "Query") || (m != "" && m != "Mutation") || (s != "" && s != "Subscription") {
		b.WriteString("schema {\n")
		for _, r := range [][2]string{{"query", q}, {"mutation", m}, {"subscription", s}} {
			if r[1] != "" {
				fmt.Fprintf(&b, "  %s: %s\n", r[0], r[1])
			}
		}
		b.WriteString("}\n\n")
	}
	for _, d := range asList(schema["directives"]) {
		dm := d.(map[string]any)
		name := dm["name"].(string)
		switch name {
		case "skip", "include", "deprecated", "specifiedBy":
			continue
		}
		printDescription(&b, dm["description"], "")
		fmt.Fprintf(&b, "directive @%s%s on ", name, printArgs(dm["args"]))
		var locs []string
		for _, l := range asList(dm["locations"]) {
			locs = append(locs, fmt.Sprint(l))
		}
		b.WriteString(strings.Join(locs, " | ") + "\n\n")
	}
	types := asList(schema["types"])
	sort.Slice(types, func(i, j int) bool {
		return fmt.Sprint(types[i].(map[string]any)["name"]) < fmt.Sprint(types[j].(map[string]any)["name"])
	})
	for _, t := range types {
		tm := t.(map[string]any)
		name, _ := tm["name"].(string)
		kind, _ := tm["kind"].(string)
		if strings.HasPrefix(name, "__") {
			continue
		}
		switch name {
		case "String", "Int", "Float", "Boolean", "ID":
			if kind == "SCALAR" {
				continue
			}
		}
		printDescription(&b, tm["description"], "")
		switch kind {
		case "SCALAR":
			fmt.Fprintf(&b, "scalar %s\n\n", name)
		case "ENUM":
			fmt.Fprintf(&b, "enum %s {\n", name)
			for _, v := range asList(tm["enumValues"]) {
				vm := v.(map[string]any)
				printDescription(&b, vm["description"], "  ")
				fmt.Fprintf(&b, "  %s%s\n", vm["name"], deprecated(vm))
			}
			b.WriteString("}\n\n")
		case "UNION":
			var names []string
			for _, p := range asList(tm["possibleTypes"]) {
				names = append(names, fmt.Sprint(p.(map[string]any)["name"]))
			}
			fmt.Fprintf(&b, "union %s = %s\n\n", name, strings.Join(names, " | "))
		case "INPUT_OBJECT":
			fmt.Fprintf(&b, "input %s {\n", name)
			for _, f := range asList(tm["inputFields"]) {
				fm := f.(map[string]any)
				printDescription(&b, fm["description"], "  ")
				fmt.Fprintf(&b, "  %s\n", printInputValue(fm))
			}
			b.WriteString("}\n\n")
		case "OBJECT", "INTERFACE":
			word := "type"
			if kind == "INTERFACE" {
				word = "interface"
			}
			fmt.Fprintf(&b, "%s %s", word, name)
			var ifs []string
			for _, i := range asList(tm["interfaces"]) {
				ifs = append(ifs, fmt.Sprint(i.(map[string]any)["name"]))
			}
			if len(ifs) > 0 {
				b.WriteString(" implements " + strings.Join(ifs, " & "))
			}
			b.WriteString(" {\n")
			for _, f := range asList(tm["fields"]) {
				fm := f.(map[string]any)
				printDescription(&b, fm["description"], "  ")
				fmt.Fprintf(&b, "  %s%s: %s%s\n", fm["name"], printArgs(fm["args"]), typeRef(fm["type"]), deprecated(fm))
			}
			b.WriteString("}\n\n")
		}
	}
	return strings.TrimRight(b.String(), "\n") + "\n"
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

func typeRef(v any) string {
	m, _ := v.(map[string]any)
	switch m["kind"] {
	case "NON_NULL":
		return typeRef(m["ofType"]) + "!"
	case "LIST":
		return "[" + typeRef(m["ofType"]) + "]"
	}
	s, _ := m["name"].(string)
	return s
}

func printInputValue(m map[string]any) string {
	s := fmt.Sprintf("%s: %s", m["name"], typeRef(m["type"]))
	if d, ok := m["defaultValue"].(string); ok {
		s += " = " + d
	}
	return s
}

func printArgs(v any) string {
	args := asList(v)
	if len(args) == 0 {
		return ""
	}
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = printInputValue(a.(map[string]any))
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func deprecated(m map[string]any) string {
	if dep, _ := m["isDeprecated"].(bool); !dep {
		return ""
	}
	if r, ok := m["deprecationReason"].(string); ok && r != "" && r != "No longer supported" {
		return fmt.Sprintf(" @deprecated(reason: %q)", r)
	}
	return " @deprecated"
}

func printDescription(b *strings.Builder, v any, indent string) {
	d, _ := v.(string)
	if d == "" {
		return
	}
	d = strings.ReplaceAll(d, `"""`, `\"""`)
	if len(d) <= 70 && !strings.Contains(d, "\n") {
		fmt.Fprintf(b, "%s\"\"\"%s\"\"\"\n", indent, d)
		return
	}
	fmt.Fprintf(b, "%s\"\"\"\n", indent)
	for _, line := range strings.Split(d, "\n") {
		fmt.Fprintf(b, "%s%s\n", indent, line)
	}
	fmt.Fprintf(b, "%s\"\"\"\n", indent)
}
