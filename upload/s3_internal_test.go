package upload

import "testing"

// TestBucketURL: where file URLs point without baseUrl, as Strapi's
// provider makes them (baseUrl first, then the bucket on its endpoint).
func TestBucketURL(t *testing.T) {
	for _, tc := range []struct {
		base, endpoint, region, bucket string
		pathStyle                      bool
		want                           string
	}{
		{"https://cdn.example.com/", "http://s3:7070", "us-east-1", "b", true, "https://cdn.example.com/"},
		{"", "", "eu-west-3", "media", false, "https://media.s3.eu-west-3.amazonaws.com/"},
		{"", "", "eu-west-3", "media", true, "https://s3.eu-west-3.amazonaws.com/media/"},
		{"", "http://127.0.0.1:7070", "us-east-1", "media", true, "http://127.0.0.1:7070/media/"},
		{"", "https://minio.example.com/s3/", "us-east-1", "media", false, "https://media.minio.example.com/s3/"},
	} {
		if got := bucketURL(tc.base, tc.endpoint, tc.region, tc.bucket, tc.pathStyle); got != tc.want {
			t.Errorf("bucketURL(%q, %q, %q, %q, %v) = %q, want %q", tc.base, tc.endpoint, tc.region, tc.bucket, tc.pathStyle, got, tc.want)
		}
	}
	if got := escapeKey("root path/a b.png"); got != "root%20path/a%20b.png" {
		t.Errorf("escapeKey: %q", got)
	}
}
