package engine

import (
	"encoding/json"
	"math"
	"math/big"
	"net/mail"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/stratum-cms/stratum/errs"
	"github.com/stratum-cms/stratum/models"
)

// scalarError is a value failure message without the attribute path; at
// puts the path in front, as Strapi's yup messages do. The messages of
// Strapi's database layer (dates and times) name no path and stay as they
// are.
type scalarError string

// at is the message for the attribute at path, written as yup writes
// paths: "title", "seo.metaTitle", "quotes[0].body".
func (e scalarError) at(path string) string {
	if strings.HasPrefix(string(e), "Invalid ") || strings.HasPrefix(string(e), "Expected ") {
		return string(e)
	}
	return path + " " + string(e)
}

// notType is yup's type error as Strapi words it (utils/src/yup.ts):
// the value after yup's cast, and the original when the cast changed it.
func notType(typ string, final string, original any) scalarError {
	msg := "must be a `" + typ + "` type, but the final value was: `" + final + "`"
	if orig := printValue(original); original != nil && orig != final {
		return scalarError(msg + " (cast from the value `" + orig + "`).")
	}
	return scalarError(msg + ".")
}

// printValue prints a body value as yup's printValue(value, true) does:
// strings in double quotes, objects and arrays as JSON indented by two
// spaces with their scalars printed the same way.
func printValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return `"` + x + `"`
	case json.Number:
		if f, err := strconv.ParseFloat(string(x), 64); err == nil {
			return strconv.FormatFloat(f, 'f', -1, 64)
		}
		return string(x)
	case bool:
		return strconv.FormatBool(x)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	var simple func(any) any
	simple = func(v any) any {
		switch x := v.(type) {
		case map[string]any:
			out := make(map[string]any, len(x))
			for k, c := range x {
				out[k] = simple(c)
			}
			return out
		case []any:
			out := make([]any, len(x))
			for i, c := range x {
				out[i] = simple(c)
			}
			return out
		}
		switch v.(type) {
		case nil, string, json.Number, bool, float64:
			return printValue(v)
		}
		return v // a Go value from elsewhere (an int): JSON as it is
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // JSON.stringify leaves <, > and & as they are
	enc.SetIndent("", "  ")
	_ = enc.Encode(simple(v))
	return strings.TrimSuffix(b.String(), "\n")
}

var (
	dateRe = regexp.MustCompile(`^(\d{4})-(\d{2})-(\d{2})$`)
	// dateFormatRe is Strapi's DATE_REGEX: a date that may not exist
	// (2023-02-30) has the format, and is then "Invalid date".
	dateFormatRe = regexp.MustCompile(`^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$`)
	timeRe       = regexp.MustCompile(`^(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$`)
	uidRe        = regexp.MustCompile(`^[A-Za-z0-9\-_.~]*$`)
	bigIntRe     = regexp.MustCompile(`^[+-]?\d+$`)
)

// normalizeScalar checks a body value against a scalar attribute and
// returns it in stored form. v is what encoding/json decoded with
// UseNumber: nil, bool, string, json.Number, []any or map[string]any.
func normalizeScalar(a *models.Attribute, v any) (any, scalarError) {
	if v == nil {
		return nil, ""
	}
	switch a.Type {
	case models.TypeString, models.TypeText, models.TypeRichText, models.TypeEmail, models.TypeUID,
		models.TypeEnumeration, models.TypePassword:
		s, ok := v.(string)
		if !ok {
			if a.Type == models.TypeEnumeration { // no transform: yup casts to a string
				return nil, scalarError("must be one of the following values: " + enumValues(a))
			}
			return nil, notType("string", printValue(v), nil)
		}
		return checkString(a, s)
	case models.TypeInteger, models.TypeBigInteger, models.TypeFloat, models.TypeDecimal:
		return checkNumber(a, v)
	case models.TypeBoolean:
		switch x := v.(type) {
		case bool:
			return x, ""
		case string:
			if b, ok := parseBool(x); ok {
				return b, ""
			}
		case json.Number:
			if x == "1" {
				return true, ""
			} else if x == "0" {
				return false, ""
			}
		}
		return nil, notType("boolean", printValue(v), nil)
	case models.TypeDate:
		// Strapi's database layer's messages: a value that is not a date,
		// or a date that does not exist. (Strapi still reads a date with
		// more after it, with a deprecation warning; that is refused here.)
		s, ok := v.(string)
		if !ok || !dateFormatRe.MatchString(s) {
			return nil, "Invalid format, expected yyyy-MM-dd"
		}
		d, err := ParseDate(s)
		if err != nil {
			return nil, "Invalid date"
		}
		return d, ""
	case models.TypeTime:
		s, ok := v.(string)
		if !ok {
			return nil, scalarError("Expected a string, got a " + jsType(v))
		}
		t, err := ParseTimeOfDay(s)
		if err != nil {
			return nil, "Invalid time format, expected HH:mm:ss.SSS"
		}
		return t, ""
	case models.TypeDateTime, models.TypeTimestamp:
		t, err := ParseDateTime(v)
		if err != nil {
			return nil, "Invalid format, expected a timestamp or an ISO date"
		}
		return t.UTC().Format(timeLayout), ""
	case models.TypeJSON:
		return v, ""
	case models.TypeBlocks:
		return checkBlocks(v)
	}
	return v, ""
}

const timeLayout = "2006-01-02T15:04:05.000Z"

func checkString(a *models.Attribute, s string) (any, scalarError) {
	n := utf8.RuneCountInString(s)
	if a.MinLength != nil && n < *a.MinLength && s != "" {
		return nil, scalarError("must be at least " + strconv.Itoa(*a.MinLength) + " characters")
	}
	if a.MaxLength != nil && n > *a.MaxLength {
		return nil, scalarError("must be at most " + strconv.Itoa(*a.MaxLength) + " characters")
	}
	if re := a.Pattern(); re != nil && s != "" {
		if !re.MatchString(s) {
			return nil, scalarError("must match the following: \"/" + a.Regex + "/\"")
		}
	}
	switch a.Type {
	case models.TypeEmail:
		if s == "" {
			return nil, "cannot be empty"
		}
		if addr, err := mail.ParseAddress(s); err != nil || addr.Address != s || !strings.Contains(s, "@") {
			return nil, "must be a valid email"
		}
	case models.TypeUID:
		if !uidRe.MatchString(s) {
			return nil, "must match the following: \"/^[A-Za-z0-9-_.~]*$/\""
		}
	case models.TypeEnumeration:
		for _, e := range a.Enum {
			if e == s {
				return s, ""
			}
		}
		return nil, scalarError("must be one of the following values: " + enumValues(a))
	case models.TypePassword:
		if len(s) > 72 {
			return nil, "must be less than 73 bytes"
		}
	}
	return s, ""
}

// enumValues lists an enumeration's values as yup's oneOf does; Strapi
// adds null to them, which the list prints as an empty last item.
func enumValues(a *models.Attribute) string {
	return strings.Join(append(append([]string(nil), a.Enum...), ""), ", ")
}

// jsType is JavaScript's typeof of a body value.
func jsType(v any) string {
	switch v.(type) {
	case json.Number, float64:
		return "number"
	case bool:
		return "boolean"
	case string:
		return "string"
	}
	return "object"
}

func checkNumber(a *models.Attribute, v any) (any, scalarError) {
	var raw string
	switch x := v.(type) {
	case json.Number:
		raw = string(x)
	case string: // non-strict like Strapi: "12" is accepted for a number
		raw = strings.Join(strings.Fields(x), "")
	default: // yup's parseFloat of anything else is NaN
		return nil, notType("number", "NaN", v)
	}
	if a.Type != models.TypeBigInteger {
		if f, err := strconv.ParseFloat(raw, 64); err != nil || raw == "" || math.IsInf(f, 0) || math.IsNaN(f) {
			return nil, notType("number", "NaN", v)
		}
	}
	switch a.Type {
	case models.TypeInteger:
		n, err := strconv.ParseInt(raw, 10, 32)
		if err != nil {
			// yup reads 1e3 or 2.0 as the integers they are.
			f, _ := strconv.ParseFloat(raw, 64)
			if f != math.Trunc(f) {
				return nil, "must be an integer"
			}
			if f < math.MinInt32 || f > math.MaxInt32 {
				return nil, "must be an integer between -2147483648 and 2147483647"
			}
			n = int64(f)
		}
		if e := checkRange(a, float64(n)); e != "" {
			return nil, e
		}
		return n, ""
	case models.TypeBigInteger:
		if !bigIntRe.MatchString(raw) {
			return nil, "must be an integer"
		}
		n, err := strconv.ParseInt(raw, 10, 64)
		if err != nil {
			return nil, "must be an integer between -9223372036854775808 and 9223372036854775807"
		}
		if e := checkRange(a, float64(n)); e != "" {
			return nil, e
		}
		return strconv.FormatInt(n, 10), "" // Strapi returns bigintegers as strings
	}
	f, _ := strconv.ParseFloat(raw, 64)
	if e := checkRange(a, f); e != "" {
		return nil, e
	}
	if a.Type == models.TypeDecimal {
		// Keep the exact digits the client sent, within float64's range.
		if r, ok := new(big.Float).SetString(raw); ok {
			return json.Number(r.Text('g', -1)), ""
		}
	}
	return f, ""
}

func checkRange(a *models.Attribute, f float64) scalarError {
	if a.Min != nil && f < a.Min.Value {
		return scalarError("must be greater than or equal to " + a.Min.Raw)
	}
	if a.Max != nil && f > a.Max.Value {
		return scalarError("must be less than or equal to " + a.Max.Raw)
	}
	return ""
}

func parseBool(s string) (bool, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "true", "t", "1":
		return true, true
	case "false", "f", "0":
		return false, true
	}
	return false, false
}

// ParseDate checks a YYYY-MM-DD calendar date.
func ParseDate(s string) (string, error) {
	t, err := time.Parse("2006-01-02", s)
	if err != nil || !dateRe.MatchString(s) {
		return "", errBadValue
	}
	return t.Format("2006-01-02"), nil
}

// ParseTimeOfDay checks HH:mm[:ss[.SSS]] and returns HH:mm:ss.SSS.
func ParseTimeOfDay(s string) (string, error) {
	m := timeRe.FindStringSubmatch(s)
	if m == nil {
		return "", errBadValue
	}
	h, _ := strconv.Atoi(m[1])
	mi, _ := strconv.Atoi(m[2])
	sec := 0
	if m[3] != "" {
		sec, _ = strconv.Atoi(m[3])
	}
	ms := m[4]
	for len(ms) < 3 {
		ms += "0"
	}
	if h > 23 || mi > 59 || sec > 59 {
		return "", errBadValue
	}
	return strconv.Itoa(100 + h)[1:] + ":" + strconv.Itoa(100 + mi)[1:] + ":" + strconv.Itoa(100 + sec)[1:] + "." + ms, nil
}

// dialecter is a backend that names its database (the store does).
type dialecter interface{ Dialect() string }

// timeOfDay is a time value (HH:mm:ss.SSS) as Strapi returns it on the
// engine's database: on PostgreSQL its time(3) column reads back without
// the trailing zeros of the fraction ("08:30:00", "08:30:00.12"); on
// SQLite it is kept as written ("08:30:00.000").
func (e *Engine) timeOfDay(a *models.Attribute, v any) any {
	s, ok := v.(string)
	if !ok || a.Type != models.TypeTime {
		return v
	}
	if d, ok := e.store.(dialecter); !ok || d.Dialect() != "postgres" {
		return v
	}
	return ShortTime(s)
}

// ShortTime drops the trailing zeros of a time's fraction, and the point
// when nothing is left of it.
func ShortTime(s string) string {
	if !strings.Contains(s, ".") {
		return s
	}
	return strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
}

// ParseDateTime accepts an ISO 8601 date-time (or date) string, or a
// millisecond Unix timestamp as a number or numeric string.
func ParseDateTime(v any) (time.Time, error) {
	var s string
	switch x := v.(type) {
	case string:
		s = strings.TrimSpace(x)
	case json.Number:
		s = string(x)
	case float64:
		return time.UnixMilli(int64(x)).UTC(), nil
	case time.Time:
		return x, nil
	default:
		return time.Time{}, errBadValue
	}
	if ms, err := strconv.ParseInt(s, 10, 64); err == nil {
		return time.UnixMilli(ms).UTC(), nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02T15:04:05Z0700", "2006-01-02T15:04Z07:00", "2006-01-02T15:04", "2006-01-02 15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, errBadValue
}

var errBadValue = errs.Errorf(errs.KindValidation, "invalid value")
