package mail

import (
	"html"
	"regexp"
	"strings"
)

// Render fills Strapi's email templates: `<%= NAME %>` and
// `<%= USER.field %>` placeholders (lodash's syntax, as the
// users-permissions templates are written) replaced by values, escaped for
// HTML when escape is set. Unknown names render empty; no code runs.
func Render(tpl string, vars map[string]string, escape bool) string {
	return placeholder.ReplaceAllStringFunc(tpl, func(m string) string {
		name := placeholder.FindStringSubmatch(m)[1]
		v := vars[name]
		if escape {
			return html.EscapeString(v)
		}
		return v
	})
}

var placeholder = regexp.MustCompile(`<%=?-?\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?)\s*-?%>`)

// Text is a plain-text version of an HTML template's output: tags out,
// paragraphs as lines.
func Text(h string) string {
	h = strings.NewReplacer("</p>", "\n", "<br>", "\n", "<br/>", "\n", "<br />", "\n").Replace(h)
	h = tag.ReplaceAllString(h, "")
	lines := strings.Split(html.UnescapeString(h), "\n")
	out := lines[:0]
	for _, l := range lines {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

var tag = regexp.MustCompile(`<[^>]*>`)
