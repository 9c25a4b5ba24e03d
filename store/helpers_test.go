package store_test

import (
	"testing"

	"github.com/stratum-cms/stratum/internal/testenv"
)

// docMaker returns a function that creates a document through the API
// (POST path {data}) and returns its documentId, failing the test on any
// other answer than 201.
func docMaker(t *testing.T, e *testenv.Env) func(path string, data map[string]any) string {
	return func(path string, data map[string]any) string {
		t.Helper()
		r := e.Do("POST", path, map[string]any{"data": data})
		if r.Status != 201 {
			t.Fatalf("POST %s: %d %s", path, r.Status, r.Body)
		}
		return r.Data()["documentId"].(string)
	}
}
