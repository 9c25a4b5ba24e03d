package rest

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/stratum-cms/stratum/errs"
)

// This file parses query strings the way Strapi 5 does: with the npm `qs`
// package (6.15 in current Strapi 5 releases) called with
// { strictNullHandling: true, arrayLimit: 100, depth: 20 }
// (core/src/middlewares/query.ts). It ports qs's parse algorithm
// (parseValues, splitKeyIntoSegments, parseObject, merge, combine,
// compact), so the odd corners come out as Strapi sees them:
//
//   - `a[1]=x&a[5]=y` is ["x","y"] (holes are compacted);
//   - an index of 100 or more, or an array growing past 100 elements,
//     gives an object with integer keys instead of an array;
//   - `a=x&a=y` is ["x","y"]; `a[0]=x&a[b]=y` is {"0":"x","b":"y"};
//   - keys named after members of JavaScript's Object.prototype
//     (`constructor`, `toString`, `__proto__`, ...) drop their pair.
//
// Differences: more than qsMaxPairs pairs, or a key nested deeper than
// qsMaxDepth brackets, is a 400 instead of being silently truncated.

// qsValue is a node of a parsed query: a string, nil (a key without `=`),
// a map[string]any or a []any.
type qsValue = any

const (
	qsMaxPairs   = 1000 // qs parameterLimit
	qsMaxDepth   = 20   // qs depth: bracket groups after the first name
	qsArrayLimit = 100  // qs arrayLimit
)

// qsArray is a JavaScript array while the tree is built: it can have holes
// (`a[3]=x` is an array of length 4 with one element). Only present
// elements are stored, so a large index costs nothing.
type qsArray struct {
	n     int
	items map[int]qsValue
}

// qsObject is a JavaScript object while the tree is built. An overflow
// object stands for an array that went past the array limit; max is its
// highest integer key, where qs appends next.
type qsObject struct {
	m        map[string]qsValue
	overflow bool
	max      int
}

func newQSArray() *qsArray   { return &qsArray{items: map[int]qsValue{}} }
func newQSObject() *qsObject { return &qsObject{m: map[string]qsValue{}} }

func (a *qsArray) set(i int, v qsValue) {
	a.items[i] = v
	if i >= a.n {
		a.n = i + 1
	}
}

func (a *qsArray) push(v qsValue) { a.set(a.n, v) }

// indices lists the present elements' indices in order.
func (a *qsArray) indices() []int {
	idx := make([]int, 0, len(a.items))
	for i := range a.items {
		idx = append(idx, i)
	}
	slices.Sort(idx)
	return idx
}

// concat appends v as Array.prototype.concat does: an array is spread,
// holes included; anything else is one element.
func (a *qsArray) concat(v qsValue) {
	if b, ok := v.(*qsArray); ok {
		base := a.n
		for i, x := range b.items {
			a.items[base+i] = x
		}
		a.n = base + b.n
		return
	}
	a.push(v)
}

// toObject is qs's arrayToObject: present indices become keys.
func (a *qsArray) toObject() *qsObject {
	o := &qsObject{m: make(map[string]qsValue, len(a.items))}
	for i, v := range a.items {
		o.m[strconv.Itoa(i)] = v
	}
	return o
}

// qsLimit turns an array longer than the array limit into an overflow object.
func qsLimit(a *qsArray) qsValue {
	if a.n <= qsArrayLimit {
		return a
	}
	o := a.toObject()
	o.overflow, o.max = true, a.n-1
	return o
}

func qsIsOverflow(v qsValue) bool {
	o, ok := v.(*qsObject)
	return ok && o.overflow
}

// qsError is the 400 for a query string that cannot be parsed.
func qsError(format string, args ...any) *errs.Error {
	return errs.Errorf(errs.KindValidation, format, args...)
}

// parseQuery parses a raw query string (without the leading `?`) into a
// tree. The caller bounds the length of raw.
func parseQuery(raw string) (map[string]any, error) {
	s := qsReplaceEncodedBrackets(raw)

	// parseValues: flat keys in first-seen order, duplicates combined.
	flat := map[string]qsValue{}
	var keys []string
	pairs := 0
	for len(s) > 0 {
		var part string
		if i := strings.IndexByte(s, '&'); i >= 0 {
			part, s = s[:i], s[i+1:]
		} else {
			part, s = s, ""
		}
		if part == "" {
			continue
		}
		pairs++
		if pairs > qsMaxPairs {
			return nil, qsError("Too many query parameters: at most %d are allowed", qsMaxPairs)
		}
		pos := strings.Index(part, "]=")
		if pos >= 0 {
			pos++
		} else {
			pos = strings.IndexByte(part, '=')
		}
		var key string
		var val qsValue
		if pos < 0 {
			key = qsDecode(part) // strictNullHandling: `?a` is null
		} else {
			key, val = qsDecode(part[:pos]), qsDecode(part[pos+1:])
		}
		if key == "" {
			continue
		}
		if old, ok := flat[key]; ok {
			flat[key] = qsCombine(old, val)
		} else {
			flat[key] = val
			keys = append(keys, key)
		}
	}
	// Object.keys order: integer-like keys first, ascending.
	slices.SortStableFunc(keys, qsCompareKeys)

	obj := newQSObject()
	for _, key := range keys {
		chain, ok, err := qsSplitKey(key)
		if err != nil {
			return nil, err
		}
		if ok {
			obj = qsMerge(obj, qsBuild(chain, flat[key])).(*qsObject)
		}
	}
	return qsCompact(obj).(map[string]any), nil
}

// qsCompareKeys orders keys as Object.keys does: array indices first in
// numeric order, the rest in insertion order (a stable sort keeps it).
func qsCompareKeys(a, b string) int {
	ai, aok := qsArrayIndex(a)
	bi, bok := qsArrayIndex(b)
	switch {
	case aok && bok:
		return ai - bi
	case aok:
		return -1
	case bok:
		return 1
	}
	return 0
}

// qsArrayIndex tells whether s is a JavaScript array index: a canonical
// integer below 2^32-1.
func qsArrayIndex(s string) (int, bool) {
	n, ok := qsCanonicalInt(s)
	return n, ok && n < 1<<32-1
}

// qsCanonicalInt tells whether s is a non-negative integer written as
// String(parseInt(s)) writes it (no sign, no leading zero), up to 2^53.
func qsCanonicalInt(s string) (int, bool) {
	if s == "" || len(s) > 16 || (len(s) > 1 && s[0] == '0') {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, n <= 1<<53
}

// qsReplaceEncodedBrackets turns %5B and %5D (any case) into brackets,
// as qs does on the whole string before splitting it.
func qsReplaceEncodedBrackets(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && s[i+1] == '5' {
			switch s[i+2] {
			case 'B', 'b':
				b.WriteByte('[')
				i += 2
				continue
			case 'D', 'd':
				b.WriteByte(']')
				i += 2
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// qsDecode is qs's default decoder: `+` is a space, then
// decodeURIComponent; a malformed escape leaves the string as it is.
func qsDecode(s string) string {
	s = strings.ReplaceAll(s, "+", " ")
	if !strings.Contains(s, "%") {
		return s
	}
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		if s[i] != '%' {
			out = append(out, s[i])
			i++
			continue
		}
		// A run of escapes must decode to valid UTF-8, as decodeURIComponent requires.
		start := len(out)
		for i < len(s) && s[i] == '%' {
			if i+2 >= len(s) || !qsIsHex(s[i+1]) || !qsIsHex(s[i+2]) {
				return s
			}
			out = append(out, qsUnhex(s[i+1])<<4|qsUnhex(s[i+2]))
			i += 3
		}
		if !utf8.Valid(out[start:]) {
			return s
		}
	}
	return string(out)
}

func qsIsHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func qsUnhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c >= 'a':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

// qsCombine is utils.combine: [].concat(a, b), or an append to an
// overflow object.
func qsCombine(a, b qsValue) qsValue {
	if o, ok := a.(*qsObject); ok && o.overflow {
		o.max++
		o.m[strconv.Itoa(o.max)] = b
		return o
	}
	r := newQSArray()
	r.concat(a)
	r.concat(b)
	return qsLimit(r)
}

// qsPrototypeKeys are Object.prototype's own properties: qs drops a pair
// whose key names one of them (allowPrototypes is false).
var qsPrototypeKeys = map[string]bool{
	"constructor": true, "__defineGetter__": true, "__defineSetter__": true, "hasOwnProperty": true,
	"__lookupGetter__": true, "__lookupSetter__": true, "isPrototypeOf": true,
	"propertyIsEnumerable": true, "toString": true, "valueOf": true, "__proto__": true,
	"toLocaleString": true,
}

// qsSplitKey is splitKeyIntoSegments: `a[b][]` becomes ["a", "[b]", "[]"].
// Groups are bracket-balanced (`a[[b]]` is ["a", "[[b]]"]); text between
// groups is dropped; an unterminated group keeps the rest of the key.
// ok is false when the pair is to be dropped.
func qsSplitKey(key string) (chain []string, ok bool, err error) {
	first := strings.IndexByte(key, '[')
	parent := key
	if first >= 0 {
		parent = key[:first]
	}
	if parent != "" {
		if qsPrototypeKeys[parent] {
			return nil, false, nil
		}
		chain = append(chain, parent)
	}
	open := first
	for collected := 0; open >= 0; collected++ {
		if collected == qsMaxDepth {
			return nil, false, qsError("Query parameter %q is nested too deeply: at most %d levels are allowed",
				qsTruncate(key), qsMaxDepth)
		}
		level, closing := 1, -1
		for i := open + 1; i < len(key) && closing < 0; i++ {
			switch key[i] {
			case '[':
				level++
			case ']':
				if level--; level == 0 {
					closing = i
				}
			}
		}
		if closing < 0 {
			return append(chain, "["+key[open:]+"]"), true, nil
		}
		if qsPrototypeKeys[key[open+1:closing]] {
			return nil, false, nil
		}
		chain = append(chain, key[open:closing+1])
		open = strings.IndexByte(key[closing+1:], '[')
		if open >= 0 {
			open += closing + 1
		}
	}
	return chain, true, nil
}

func qsTruncate(s string) string {
	if len(s) <= 64 {
		return s
	}
	return strings.ToValidUTF8(s[:64], "") + "…"
}

// qsBuild is parseObject: it wraps leaf in the containers the chain names.
func qsBuild(chain []string, leaf qsValue) qsValue {
	for i := len(chain) - 1; i >= 0; i-- {
		root := chain[i]
		if root == "[]" {
			if !qsIsOverflow(leaf) {
				leaf = qsCombine(newQSArray(), leaf)
			}
			continue
		}
		clean := root
		bracketed := len(root) >= 2 && root[0] == '[' && root[len(root)-1] == ']'
		if bracketed {
			clean = root[1 : len(root)-1]
		}
		obj := newQSObject()
		if idx, ok := qsCanonicalInt(clean); ok && bracketed {
			if idx < qsArrayLimit {
				arr := newQSArray()
				arr.set(idx, leaf)
				leaf = arr
				continue
			}
			obj.m[clean] = leaf
			obj.overflow, obj.max = true, idx
		} else if clean != "__proto__" {
			obj.m[clean] = leaf
		}
		leaf = obj
	}
	return leaf
}

func qsIsObject(v qsValue) bool {
	switch v.(type) {
	case *qsObject, *qsArray:
		return true
	}
	return false
}

// qsMerge is qs's utils.merge (with strictMerge), returning the merged target.
func qsMerge(target, source qsValue) qsValue {
	if source == nil || source == "" { // !source
		return target
	}
	if s, ok := source.(string); ok {
		switch t := target.(type) {
		case *qsArray:
			if t.n >= qsArrayLimit {
				o := t.toObject()
				o.m[strconv.Itoa(t.n)] = s
				o.overflow, o.max = true, t.n
				return o
			}
			t.push(s)
			return t
		case *qsObject:
			if t.overflow {
				t.max++
				t.m[strconv.Itoa(t.max)] = s
				return t
			}
		}
		arr := newQSArray()
		arr.push(target)
		arr.push(s)
		return arr
	}
	if !qsIsObject(target) {
		if so, ok := source.(*qsObject); ok && so.overflow {
			o := newQSObject()
			o.m["0"] = target
			for k, v := range so.m {
				o.m[qsShiftKey(k)] = v
			}
			o.overflow, o.max = true, so.max+1
			return o
		}
		arr := newQSArray()
		arr.push(target)
		arr.concat(source)
		return qsLimit(arr)
	}
	ta, tArr := target.(*qsArray)
	sa, sArr := source.(*qsArray)
	if tArr && sArr {
		for _, i := range sa.indices() {
			item := sa.items[i]
			if cur, ok := ta.items[i]; ok {
				if qsIsObject(cur) && qsIsObject(item) {
					ta.items[i] = qsMerge(cur, item)
				} else {
					ta.push(item)
				}
			} else {
				ta.set(i, item)
			}
		}
		return qsLimit(ta)
	}
	var acc *qsObject
	if tArr {
		acc = ta.toObject()
	} else {
		acc = target.(*qsObject)
	}
	so, _ := source.(*qsObject)
	add := func(k string, v qsValue) {
		if cur, ok := acc.m[k]; ok {
			acc.m[k] = qsMerge(cur, v)
		} else {
			acc.m[k] = v
		}
		if so != nil && so.overflow && !acc.overflow {
			acc.overflow, acc.max = true, so.max
		}
		if acc.overflow {
			if n, ok := qsCanonicalInt(k); ok && n > acc.max {
				acc.max = n
			}
		}
	}
	if sArr {
		for _, i := range sa.indices() {
			add(strconv.Itoa(i), sa.items[i])
		}
	} else {
		for k, v := range so.m {
			add(k, v)
		}
	}
	return acc
}

// qsShiftKey is String(parseInt(k, 10) + 1), used when an overflow
// object is prepended with one element.
func qsShiftKey(k string) string {
	t := strings.TrimLeft(k, " \t\n\v\f\r")
	neg := false
	if t != "" && (t[0] == '-' || t[0] == '+') {
		neg, t = t[0] == '-', t[1:]
	}
	end := 0
	for end < len(t) && end < 15 && t[end] >= '0' && t[end] <= '9' {
		end++
	}
	if end == 0 {
		return "NaN"
	}
	n, _ := strconv.Atoi(t[:end])
	if neg {
		n = -n
	}
	return strconv.Itoa(n + 1)
}

// qsCompact drops array holes and turns the build types into
// map[string]any and []any.
func qsCompact(v qsValue) qsValue {
	switch x := v.(type) {
	case *qsArray:
		out := make([]any, 0, len(x.items))
		for _, i := range x.indices() {
			out = append(out, qsCompact(x.items[i]))
		}
		return out
	case *qsObject:
		out := make(map[string]any, len(x.m))
		for k, e := range x.m {
			out[k] = qsCompact(e)
		}
		return out
	}
	return v
}
