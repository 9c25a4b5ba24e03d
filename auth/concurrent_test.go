package auth_test

import (
	"sync"
	"testing"

	"github.com/stratum-cms/stratum/auth"
	"github.com/stratum-cms/stratum/internal/testenv"
	"github.com/stratum-cms/stratum/store"
)

// TestConcurrentStarts: nodes starting together over one database all come
// up, agree on the generated secrets and create each role once.
func TestConcurrentStarts(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		url := db(t)
		const nodes = 4
		var wg sync.WaitGroup
		svcs := make([]*auth.Service, nodes)
		errs := make([]error, nodes)
		for i := range nodes {
			st, err := store.Open(url)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { st.Close() })
			wg.Add(1)
			go func() {
				defer wg.Done()
				svcs[i], errs[i] = auth.New(t.Context(), st, auth.Config{Permissions: auth.Permissions{
					"Editors": {"plugin::users-permissions.user.me"}, "public": {"plugin::users-permissions.user.find"}}})
			}()
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		tok, err := svcs[0].IssueUserJWT(1)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range svcs[1:] {
			if id, err := s.ParseUserJWT(tok); err != nil || id != 1 {
				t.Fatalf("nodes disagree on JWT_SECRET: %v", err)
			}
		}
		roles, err := svcs[0].ListRoles(t.Context())
		if err != nil || len(roles) != 3 {
			t.Fatalf("roles: %v %v", roles, err)
		}
	})
}
