package graphql

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stratum-cms/stratum/internal/testdb"
)

// BenchmarkHandler25 runs the 25-article query through the handler alone
// (no network, one goroutine): the server's own cost per request, with the
// fast executor and with graphql-go's (executors()).
func BenchmarkHandler25(b *testing.B) {
	for name, db := range testdb.Databases(b) {
		for _, ex := range executors {
			b.Run(name+"/"+ex.name, func(b *testing.B) {
				e := start(b, db(b), options{setup: ex.setup})
				seedBench(b, e, 200)
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					req := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(articles25))
					req.Header.Set("Content-Type", "application/json")
					w := httptest.NewRecorder()
					e.Srv.ServeHTTP(w, req)
					if w.Code != 200 {
						b.Fatal(w.Body.String())
					}
				}
				b.StopTimer()
				ex.check(b, e)
			})
		}
	}
}
