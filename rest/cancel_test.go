package rest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/internal/testenv"
)

// TestClientsHangingUp: requests whose clients hang up mid-way (their
// queries cancelled) never leave a broken pooled connection behind: every
// request after them succeeds. Run on both databases; the failure was seen
// on PostgreSQL.
func TestClientsHangingUp(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := testenv.Start(t, db(t), testenv.Options{Public: testenv.AllActions(t, "")})
		ctx := context.Background()
		articles, _ := e.Engine.Route("articles")
		for i := 0; i < 60; i++ {
			if _, err := e.Engine.Create(ctx, engine.AllowAll{}, articles, map[string]any{"title": fmt.Sprintf("A%02d", i), "views": json.Number(fmt.Sprint(i))}, engine.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		paths := []string{"/api/articles?populate=*&pagination[pageSize]=60", "/api/articles?filters[title][$containsi]=a&sort=views:desc",
			"/api/articles?filters[$or][0][views][$gt]=5&filters[$or][1][title][$endsWith]=9"}
		client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
		var wg sync.WaitGroup
		for w := 0; w < 32; w++ {
			wg.Add(1)
			go func(w int) {
				defer wg.Done()
				r := rand.New(rand.NewSource(int64(w)))
				for i := 0; i < 40; i++ {
					cctx, cancel := context.WithTimeout(ctx, time.Duration(r.Intn(3000))*time.Microsecond)
					req, _ := http.NewRequestWithContext(cctx, "GET", e.URL+paths[r.Intn(len(paths))], nil)
					if i%3 == 0 { // writes too: a transaction cut short
						req, _ = http.NewRequestWithContext(cctx, "POST", e.URL+"/api/articles",
							strings.NewReader(fmt.Sprintf(`{"data":{"title":"W%d-%d","views":%d}}`, w, i, i)))
						req.Header.Set("Content-Type", "application/json")
					}
					if res, err := client.Do(req); err == nil {
						res.Body.Close()
					}
					cancel()
				}
			}(w)
		}
		wg.Wait()
		for i := 0; i < 60; i++ {
			r := e.Do("GET", paths[i%len(paths)], nil)
			if r.Status != 200 {
				t.Fatalf("request %d after the hang-ups: %d %s", i, r.Status, r.Body)
			}
		}
	})
}
