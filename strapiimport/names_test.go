package strapiimport

import "testing"

func TestSnake(t *testing.T) {
	for in, want := range map[string]string{
		"title":         "title",
		"publishedDate": "published_date",
		"siteName":      "site_name",
		"metaTitle":     "meta_title",
		"field2":        "field_2",
		"HTMLParser":    "html_parser",
		"is-active":     "is_active",
		"already_snake": "already_snake",
		"seoURL":        "seo_url",
	} {
		if got := snake(in); got != want {
			t.Errorf("snake(%q) = %q, want %q", in, got, want)
		}
	}
}
