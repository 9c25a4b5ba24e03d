package strapiimport

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/stratum-cms/stratum/models"
)

// Values as the drivers give them, read into Go and JSON values.

func str(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case nil:
		return ""
	}
	return fmt.Sprint(v)
}

func strPtr(v any) *string {
	if v == nil {
		return nil
	}
	s := str(v)
	return &s
}

func toInt(v any) (int64, bool) {
	switch x := v.(type) {
	case int64:
		return x, true
	case float64:
		return int64(x), true
	case string:
		var n int64
		_, err := fmt.Sscan(strings.TrimSpace(x), &n)
		return n, err == nil
	}
	return 0, false
}

func toFloat(v any) float64 {
	switch x := v.(type) {
	case int64:
		return float64(x)
	case float64:
		return x
	case string:
		var f float64
		fmt.Sscan(strings.TrimSpace(x), &f)
		return f
	}
	return 0
}

func toBool(v any) bool {
	switch x := v.(type) {
	case bool:
		return x
	case int64:
		return x != 0
	case string:
		return x == "1" || x == "true" || x == "t"
	}
	return false
}

// toTime reads a timestamp: a time, a millisecond number (Strapi on
// SQLite), or a text date-time.
func toTime(v any) (time.Time, bool) {
	switch x := v.(type) {
	case time.Time:
		return x.UTC(), true
	case int64:
		return time.UnixMilli(x).UTC(), true
	case float64:
		return time.UnixMilli(int64(x)).UTC(), true
	case string:
		for _, l := range []string{time.RFC3339Nano, "2006-01-02 15:04:05.999999999Z07:00", "2006-01-02 15:04:05.999999999", "2006-01-02T15:04:05.999999999", "2006-01-02"} {
			if t, err := time.Parse(l, x); err == nil {
				return t.UTC(), true
			}
		}
		if n, ok := toInt(x); ok {
			return time.UnixMilli(n).UTC(), true
		}
	}
	return time.Time{}, false
}

func timePtr(v any) *time.Time {
	if t, ok := toTime(v); ok {
		return &t
	}
	return nil
}

// bodyValue turns a column's value into the JSON form the document
// service's checks take.
func bodyValue(a *models.Attribute, v any) any {
	switch x := v.(type) {
	case nil:
		return nil
	case time.Time:
		switch a.Type {
		case models.TypeDate:
			return x.Format("2006-01-02")
		case models.TypeTime:
			return x.Format("15:04:05.000")
		}
		return x.UTC().Format(time.RFC3339Nano)
	case bool:
		return x
	case int64:
		if a.Type == models.TypeBoolean {
			return x != 0
		}
		if a.Type == models.TypeDate || a.Type == models.TypeDateTime || a.Type == models.TypeTimestamp {
			t := time.UnixMilli(x).UTC()
			if a.Type == models.TypeDate {
				return t.Format("2006-01-02")
			}
			return t.Format(time.RFC3339Nano)
		}
		return json.Number(strconv.FormatInt(x, 10))
	case float64:
		return json.Number(strconv.FormatFloat(x, 'f', -1, 64))
	case string:
		switch a.Type {
		case models.TypeJSON, models.TypeBlocks:
			dec := json.NewDecoder(bytes.NewReader([]byte(x)))
			dec.UseNumber()
			var out any
			if dec.Decode(&out) == nil {
				return out
			}
			return x
		case models.TypeInteger, models.TypeBigInteger, models.TypeFloat, models.TypeDecimal:
			return json.Number(strings.TrimSpace(x))
		case models.TypeDate:
			if t, ok := toTime(x); ok && len(x) > 10 {
				return t.Format("2006-01-02")
			}
		case models.TypeDateTime, models.TypeTimestamp:
			if t, ok := toTime(x); ok {
				return t.Format(time.RFC3339Nano)
			}
		}
		return x
	}
	return v
}
