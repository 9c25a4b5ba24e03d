package auth

import (
	"encoding/json"
	"sort"
	"strconv"

	"github.com/stratum-cms/stratum/errs"
)

// Helpers that read plain JSON request bodies (decoded with UseNumber)
// strictly: unknown keys and wrong types are 400s naming the key.

func checkKeys(body map[string]any, allowed ...string) error {
	ok := make(map[string]bool, len(allowed))
	for _, a := range allowed {
		ok[a] = true
	}
	keys := make([]string, 0, len(body))
	for k := range body {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !ok[k] {
			return errs.InvalidKey(k, k, "body", k)
		}
	}
	return nil
}

func typeError(key, want string) error {
	return validationAt(key, nil, "%s must be a `%s` type", key, want)
}

// validationAt is a ValidationError with one details.errors entry, the
// shape of Strapi's yup errors.
func validationAt(key string, value any, format string, args ...any) error {
	var fe errs.FieldErrors
	var path []string
	if key != "" {
		path = []string{key}
	}
	fe.Add(path, value, format, args...)
	return fe.Err()
}

// str reads an optional string; null counts as absent when nullOK.
func str(body map[string]any, key string, nullOK bool) (string, bool, error) {
	v, ok := body[key]
	if !ok {
		return "", false, nil
	}
	if v == nil && nullOK {
		return "", false, nil
	}
	s, isStr := v.(string)
	if !isStr {
		return "", false, typeError(key, "string")
	}
	return s, true, nil
}

// required reads a string that must be present and not empty.
func required(body map[string]any, key string) (string, error) {
	s, ok, err := str(body, key, false)
	if err != nil {
		return "", err
	}
	if !ok || s == "" {
		return "", validationAt(key, nil, "%s is a required field", key)
	}
	return s, nil
}

func boolean(body map[string]any, key string) (bool, bool, error) {
	v, ok := body[key]
	if !ok {
		return false, false, nil
	}
	b, isBool := v.(bool)
	if !isBool {
		return false, false, typeError(key, "boolean")
	}
	return b, true, nil
}

func stringList(body map[string]any, key string) ([]string, bool, error) {
	v, ok := body[key]
	if !ok {
		return nil, false, nil
	}
	arr, isArr := v.([]any)
	if !isArr {
		return nil, true, typeError(key, "array")
	}
	out := make([]string, 0, len(arr))
	for _, x := range arr {
		s, isStr := x.(string)
		if !isStr {
			return nil, true, validationAt(key, nil, "%s must be a list of strings", key)
		}
		out = append(out, s)
	}
	return out, true, nil
}

// integer reads a JSON number (or a numeric string) as an int64.
func integer(v any) (int64, bool) {
	switch x := v.(type) {
	case json.Number:
		n, err := x.Int64()
		return n, err == nil
	case float64:
		return int64(x), x == float64(int64(x))
	case int64:
		return x, true
	case int:
		return int64(x), true
	case string:
		n, err := strconv.ParseInt(x, 10, 64)
		return n, err == nil
	}
	return 0, false
}

func dedupe(list []string) []string {
	seen := map[string]bool{}
	out := make([]string, 0, len(list))
	for _, s := range list {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}
