package store_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stratum-cms/stratum/auth"
	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/internal/testenv"
)

// TestAuthUsersQuery: the users collection's filters (through the
// documents' compiler), sort, pagination and role join on both databases,
// times included.
func TestAuthUsersQuery(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		ctx := context.Background()
		st := open(t, db(t))
		base := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
		editors := &auth.Role{DocumentID: "r1", Name: "Editors", Type: "editors", CreatedAt: base, UpdatedAt: base}
		if err := st.Auth().CreateRole(ctx, editors); err != nil {
			t.Fatal(err)
		}
		for i, name := range []string{"ann", "bob", "cid", "dan"} {
			at := base.Add(time.Duration(i) * 24 * time.Hour)
			email := name + "@x.io"
			if i == 1 {
				email = "bob.été@x.io"
			}
			u := &auth.User{DocumentID: "u" + name, Username: name, Email: email, Provider: "local",
				Blocked: i == 3, CreatedAt: at, UpdatedAt: at}
			if i < 2 {
				u.RoleID = &editors.ID
			}
			if i != 2 {
				u.PublishedAt = &at
			}
			if err := st.Auth().CreateUser(ctx, u); err != nil {
				t.Fatal(err)
			}
		}
		dup := &auth.User{DocumentID: "x", Username: "ann", Email: "other@x.io", Provider: "local", CreatedAt: base, UpdatedAt: base}
		if err := st.Auth().CreateUser(ctx, dup); !errors.Is(err, auth.ErrDuplicate) {
			t.Fatalf("duplicate username: %v", err)
		}
		cond := func(op engine.Op, v any, path ...string) engine.Filter {
			return &engine.Cond{Path: path, Op: op, Value: v}
		}
		for _, c := range []struct {
			name string
			q    engine.Query
			want string
		}{
			{"after", engine.Query{Filter: cond(engine.OpGt, "2024-05-02T12:00:00Z", "createdAt")}, "[cid dan]"},
			{"on or after, ms", engine.Query{Filter: cond(engine.OpGte, fmt.Sprint(base.Add(24*time.Hour).UnixMilli()), "createdAt")}, "[bob cid dan]"},
			{"between days", engine.Query{Filter: cond(engine.OpBetween, []any{"2024-05-01", "2024-05-03"}, "createdAt")}, "[ann bob]"},
			{"not published", engine.Query{Filter: cond(engine.OpNull, "true", "publishedAt")}, "[cid]"},
			{"eq null", engine.Query{Filter: cond(engine.OpEq, nil, "publishedAt")}, "[cid]"},
			{"without role", engine.Query{Filter: cond(engine.OpNull, "true", "role")}, "[cid dan]"},
			{"role name", engine.Query{Filter: cond(engine.OpEqi, "EDITORS", "role", "name")}, "[ann bob]"},
			{"role name not", engine.Query{Filter: cond(engine.OpNe, "Editors", "role", "name")}, "[]"},
			{"eqi, not ASCII", engine.Query{Filter: cond(engine.OpEqi, "BOB.ÉTÉ@X.IO", "email")}, "[bob]"},
			{"containsi, not ASCII", engine.Query{Filter: cond(engine.OpContainsi, "ÉTÉ", "email")}, "[bob]"},
			{"blocked", engine.Query{Filter: cond(engine.OpEq, "true", "blocked")}, "[dan]"},
			{"not contains", engine.Query{Filter: cond(engine.OpNotContains, "n", "username")}, "[bob cid]"},
			{"eq list", engine.Query{Filter: cond(engine.OpEq, []any{"ann", "cid"}, "username")}, "[ann cid]"},
			{"not in ids", engine.Query{Filter: engine.Not{Filter: cond(engine.OpIn, []any{"1", "2"}, "id")}}, "[cid dan]"},
			{"sort desc", engine.Query{Sort: []engine.Sort{{Path: []string{"username"}, Desc: true}}}, "[dan cid bob ann]"},
			{"offset only", engine.Query{Page: engine.Pagination{OffsetMode: true, Start: 3}}, "[dan]"},
			{"page", engine.Query{Page: engine.Pagination{Page: 2, PageSize: 3}}, "[dan]"},
		} {
			users, err := st.Auth().FindUsers(ctx, &c.q, false)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			got := []string{}
			for _, u := range users {
				got = append(got, u.Username)
			}
			if fmt.Sprint(got) != c.want {
				t.Errorf("%s: %v, want %s", c.name, got, c.want)
			}
		}
		users, err := st.Auth().FindUsers(ctx, nil, true)
		if err != nil || len(users) != 4 {
			t.Fatalf("with roles: %v %v", users, err)
		}
		if r := users[0].Role; r == nil || r.Name != "Editors" || !r.CreatedAt.Equal(base) || users[2].Role != nil {
			t.Fatalf("roles: %+v %+v", users[0].Role, users[2].Role)
		}
		if n, err := st.Auth().CountUsers(ctx, cond(engine.OpStartsWith, "d", "username")); err != nil || n != 1 {
			t.Fatalf("count: %d %v", n, err)
		}
		for _, f := range []engine.Filter{cond(engine.OpEq, "x", "password"), cond(engine.OpEq, "abc", "id"),
			cond(engine.OpContains, "1", "id"), cond(engine.OpEq, "x", "role")} {
			if _, err := st.Auth().FindUsers(ctx, &engine.Query{Filter: f}, false); engine.AsError(err).Kind != engine.KindValidation {
				t.Errorf("%+v: %v", f, err)
			}
		}
	})
}

// TestAuthTx: a failed transaction leaves nothing; tokens' permissions and
// nullable times round-trip.
func TestAuthTx(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		ctx := context.Background()
		st := open(t, db(t))
		now := time.Now().UTC().Truncate(time.Millisecond)
		boom := errors.New("boom")
		err := st.Tx(ctx, func(tx auth.Tx) error {
			if err := tx.PutMetaIfAbsent(ctx, "k", "v1"); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatal(err)
		}
		if _, ok, err := st.Auth().Meta(ctx, "k"); ok || err != nil {
			t.Fatalf("rolled back meta: %v %v", ok, err)
		}
		for _, v := range []string{"v1", "v2"} {
			if err := st.Auth().PutMetaIfAbsent(ctx, "k", v); err != nil {
				t.Fatal(err)
			}
		}
		if v, ok, err := st.Auth().Meta(ctx, "k"); v != "v1" || !ok || err != nil {
			t.Fatalf("meta: %q %v %v", v, ok, err)
		}
		life := int64(1000)
		tok := &auth.APIToken{Name: "ci", Type: "custom", AccessKey: "key", Lifespan: &life, ExpiresAt: &now,
			Permissions: []string{"a", "b"}, CreatedAt: now, UpdatedAt: now}
		if err := st.Auth().CreateToken(ctx, tok); err != nil {
			t.Fatal(err)
		}
		if err := st.Auth().TouchToken(ctx, tok.ID, now); err != nil {
			t.Fatal(err)
		}
		got, err := st.Auth().TokenByAccessKey(ctx, "key")
		if err != nil || got == nil || fmt.Sprint(got.Permissions) != "[a b]" || *got.Lifespan != life ||
			got.LastUsedAt == nil || !got.LastUsedAt.Equal(now) || !got.ExpiresAt.Equal(now) {
			t.Fatalf("token: %+v %v", got, err)
		}
		if got, err := st.Auth().TokenByAccessKey(ctx, "other"); got != nil || err != nil {
			t.Fatalf("unknown key: %+v %v", got, err)
		}
	})
}
