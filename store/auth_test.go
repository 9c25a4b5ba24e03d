package store_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stratum-cms/stratum/auth"
	"github.com/stratum-cms/stratum/errs"
	"github.com/stratum-cms/stratum/internal/testenv"
	"github.com/stratum-cms/stratum/query"
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
		cond := func(op query.Op, v any, path ...string) query.Filter {
			return &query.Cond{Path: path, Op: op, Value: v}
		}
		for _, c := range []struct {
			name string
			q    query.Query
			want string
		}{
			{"after", query.Query{Filter: cond(query.OpGt, "2024-05-02T12:00:00Z", "createdAt")}, "[cid dan]"},
			{"on or after, ms", query.Query{Filter: cond(query.OpGte, fmt.Sprint(base.Add(24*time.Hour).UnixMilli()), "createdAt")}, "[bob cid dan]"},
			{"between days", query.Query{Filter: cond(query.OpBetween, []any{"2024-05-01", "2024-05-03"}, "createdAt")}, "[ann bob]"},
			{"not published", query.Query{Filter: cond(query.OpNull, "true", "publishedAt")}, "[cid]"},
			{"eq null", query.Query{Filter: cond(query.OpEq, nil, "publishedAt")}, "[cid]"},
			{"without role", query.Query{Filter: cond(query.OpNull, "true", "role")}, "[cid dan]"},
			{"role name", query.Query{Filter: cond(query.OpEqi, "EDITORS", "role", "name")}, "[ann bob]"},
			{"role name not", query.Query{Filter: cond(query.OpNe, "Editors", "role", "name")}, "[]"},
			{"eqi, not ASCII", query.Query{Filter: cond(query.OpEqi, "BOB.ÉTÉ@X.IO", "email")}, "[bob]"},
			{"containsi, not ASCII", query.Query{Filter: cond(query.OpContainsi, "ÉTÉ", "email")}, "[bob]"},
			{"blocked", query.Query{Filter: cond(query.OpEq, "true", "blocked")}, "[dan]"},
			{"not contains", query.Query{Filter: cond(query.OpNotContains, "n", "username")}, "[bob cid]"},
			{"eq list", query.Query{Filter: cond(query.OpEq, []any{"ann", "cid"}, "username")}, "[ann cid]"},
			{"not in ids", query.Query{Filter: query.Not{Filter: cond(query.OpIn, []any{"1", "2"}, "id")}}, "[cid dan]"},
			{"sort desc", query.Query{Sort: []query.Sort{{Path: []string{"username"}, Desc: true}}}, "[dan cid bob ann]"},
			{"offset only", query.Query{Page: query.Pagination{OffsetMode: true, Start: 3}}, "[dan]"},
			{"page", query.Query{Page: query.Pagination{Page: 2, PageSize: 3}}, "[dan]"},
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
		if n, err := st.Auth().CountUsers(ctx, cond(query.OpStartsWith, "d", "username")); err != nil || n != 1 {
			t.Fatalf("count: %d %v", n, err)
		}
		for _, f := range []query.Filter{cond(query.OpEq, "x", "password"), cond(query.OpEq, "abc", "id"),
			cond(query.OpContains, "1", "id"), cond(query.OpEq, "x", "role")} {
			if _, err := st.Auth().FindUsers(ctx, &query.Query{Filter: f}, false); errs.From(err).Kind != errs.KindValidation {
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
