package engine

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
)

// The rich-text blocks format of Strapi 5's editor, checked node by node as
// Strapi's blocks validator does: a block is a paragraph, heading (level 1
// to 6), quote, code, list (ordered or unordered, of list items and nested
// lists) or image; paragraphs, headings, quotes and list items hold inline
// nodes, text (with its marks) or links (a URL and text children). A bad
// node is reported with its path in the value, e.g. "[2].children[0]".

func checkBlocks(v any) (any, scalarError) {
	arr, ok := v.([]any)
	if !ok {
		return nil, "must be an array of blocks"
	}
	for i, b := range arr {
		if msg := checkBlock(b, fmt.Sprintf("[%d]", i)); msg != "" {
			return nil, scalarError(msg)
		}
	}
	return arr, ""
}

func nodeOf(v any, path string) (map[string]any, string, string) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, "", path + ": a node must be an object"
	}
	t, _ := m["type"].(string)
	return m, t, ""
}

func checkBlock(v any, path string) string {
	m, t, msg := nodeOf(v, path)
	if msg != "" {
		return msg
	}
	switch t {
	case "paragraph", "quote":
		return children(m, path, 1, checkInline)
	case "heading":
		if l, ok := numberText(m["level"]); !ok || !oneOf(l, "1", "2", "3", "4", "5", "6") {
			return path + ": a heading's level must be 1 to 6"
		}
		return children(m, path, 1, checkInline)
	case "code":
		if s, present := m["syntax"]; present && s != nil {
			if _, ok := s.(string); !ok {
				return path + ": a code block's syntax must be a string"
			}
		}
		return children(m, path, 1, checkText)
	case "list":
		return checkList(m, path)
	case "image":
		if msg := checkImage(m["image"], path+".image"); msg != "" {
			return msg
		}
		return children(m, path, 0, checkInline)
	}
	if t == "" {
		return path + ": a block needs a `type` (paragraph, heading, quote, code, list or image)"
	}
	return fmt.Sprintf("%s: unknown block `type` %q (paragraph, heading, quote, code, list or image)", path, t)
}

func checkList(m map[string]any, path string) string {
	if f, _ := m["format"].(string); f != "ordered" && f != "unordered" {
		return path + ": a list's format must be ordered or unordered"
	}
	return children(m, path, 1, func(v any, p string) string {
		item, t, msg := nodeOf(v, p)
		switch {
		case msg != "":
			return msg
		case t == "list":
			return checkList(item, p)
		case t == "list-item":
			return children(item, p, 0, checkInline)
		}
		return fmt.Sprintf("%s: a list holds list items and lists, not %q", p, t)
	})
}

func checkInline(v any, path string) string {
	m, t, msg := nodeOf(v, path)
	if msg != "" {
		return msg
	}
	switch t {
	case "text":
		return checkText(v, path)
	case "link":
		u, _ := m["url"].(string)
		if !validLink(u) {
			return path + ": a link needs a valid url"
		}
		return children(m, path, 0, checkText)
	}
	return fmt.Sprintf("%s: an inline node must be text or link, not %q", path, t)
}

func checkText(v any, path string) string {
	m, t, msg := nodeOf(v, path)
	if msg != "" {
		return msg
	}
	if t != "text" {
		return fmt.Sprintf("%s: expected a text node, not %q", path, t)
	}
	if _, ok := m["text"].(string); !ok {
		return path + ": a text node's text must be a string (at least empty)"
	}
	for _, mark := range []string{"bold", "italic", "underline", "strikethrough", "code"} {
		if x, present := m[mark]; present {
			if _, ok := x.(bool); !ok {
				return fmt.Sprintf("%s: the %s mark must be true or false", path, mark)
			}
		}
	}
	return ""
}

// children checks a node's children: an array of at least min nodes.
func children(m map[string]any, path string, min int, check func(any, string) string) string {
	list, ok := m["children"].([]any)
	if !ok {
		return path + ": children must be an array"
	}
	if len(list) < min {
		return path + ": children must hold at least one node"
	}
	for i, c := range list {
		if msg := check(c, fmt.Sprintf("%s.children[%d]", path, i)); msg != "" {
			return msg
		}
	}
	return ""
}

// checkImage follows Strapi: the image object is optional, but when given
// it carries the file's fields.
func checkImage(v any, path string) string {
	if v == nil {
		return ""
	}
	m, ok := v.(map[string]any)
	if !ok {
		return path + ": must be a file object"
	}
	for _, k := range []string{"name", "url", "hash", "ext", "mime", "provider", "createdAt", "updatedAt"} {
		if _, ok := m[k].(string); !ok {
			return fmt.Sprintf("%s: %s must be a string", path, k)
		}
	}
	for _, k := range []string{"width", "height", "size"} {
		if _, ok := numberText(m[k]); !ok {
			return fmt.Sprintf("%s: %s must be a number", path, k)
		}
	}
	if _, ok := m["formats"].(map[string]any); !ok {
		return path + ": formats must be an object"
	}
	return ""
}

// validLink accepts absolute URLs and paths, as Strapi's editor does;
// javascript: and other non-web schemes are refused.
func validLink(s string) bool {
	if strings.HasPrefix(s, "/") {
		_, err := url.Parse(s)
		return err == nil && !strings.HasPrefix(s, "//")
	}
	u, err := url.Parse(s)
	if err != nil || u.Scheme == "" {
		return false
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https", "mailto", "tel":
		return u.Opaque != "" || u.Host != ""
	}
	return false
}

func oneOf(s string, options ...string) bool {
	for _, o := range options {
		if s == o {
			return true
		}
	}
	return false
}

// numberText is a JSON number as text, whichever way it was decoded.
func numberText(v any) (string, bool) {
	switch v.(type) {
	case json.Number, float64, int, int64:
		s, _ := scalarString(v)
		return s, true
	}
	return "", false
}
