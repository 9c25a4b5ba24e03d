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

// scalarError is a value failure message without the attribute path; the
// caller prefixes the attribute name as Strapi's yup messages do.
type scalarError string

var (
	dateRe   = regexp.MustCompile(`^(\d{4})-(\d{2})-(\d{2})$`)
	timeRe   = regexp.MustCompile(`^(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$`)
	uidRe    = regexp.MustCompile(`^[A-Za-z0-9\-_.~]*$`)
	bigIntRe = regexp.MustCompile(`^[+-]?\d+$`)
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
			return nil, "must be a `string` type"
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
		return nil, "must be a `boolean` type"
	case models.TypeDate:
		s, ok := v.(string)
		if !ok {
			return nil, "must be a valid date (YYYY-MM-DD)"
		}
		d, err := ParseDate(s)
		if err != nil {
			return nil, "must be a valid date (YYYY-MM-DD)"
		}
		return d, ""
	case models.TypeTime:
		s, ok := v.(string)
		if !ok {
			return nil, "must be a valid time (HH:mm:ss.SSS)"
		}
		t, err := ParseTimeOfDay(s)
		if err != nil {
			return nil, "must be a valid time (HH:mm:ss.SSS)"
		}
		return t, ""
	case models.TypeDateTime, models.TypeTimestamp:
		t, err := ParseDateTime(v)
		if err != nil {
			return nil, "must be a valid ISO 8601 datetime or a millisecond timestamp"
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
		if s != "" {
			if addr, err := mail.ParseAddress(s); err != nil || addr.Address != s || !strings.Contains(s, "@") {
				return nil, "must be a valid email"
			}
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
		return nil, scalarError("must be one of the following values: " + strings.Join(a.Enum, ", "))
	case models.TypePassword:
		if len(s) > 72 {
			return nil, "must be less than 73 bytes"
		}
	}
	return s, ""
}

func checkNumber(a *models.Attribute, v any) (any, scalarError) {
	var raw string
	switch x := v.(type) {
	case json.Number:
		raw = string(x)
	case string: // non-strict like Strapi: "12" is accepted for a number
		raw = strings.TrimSpace(x)
	default:
		return nil, scalarError("must be a `number` type")
	}
	switch a.Type {
	case models.TypeInteger:
		n, err := strconv.ParseInt(raw, 10, 32)
		if err != nil {
			return nil, "must be an integer between -2147483648 and 2147483647"
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
	f, err := strconv.ParseFloat(raw, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return nil, scalarError("must be a `number` type, but the final value was: `" + raw + "`")
	}
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
