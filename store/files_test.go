package store_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/stratum-cms/stratum/internal/testenv"
	"github.com/stratum-cms/stratum/upload"
)

// TestFileStore: file records round-trip through the store as written,
// NULLs included, and reads see only what exists.
func TestFileStore(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		ctx := context.Background()
		st := open(t, db(t))
		now := time.Now().UTC().Truncate(time.Millisecond)
		w, h, formats, alt := 3, 2, `{"thumbnail":{}}`, "alt"
		a := &upload.FileRecord{DocumentID: "doc-a", Name: "a.png", AlternativeText: &alt, Width: &w, Height: &h,
			Formats: &formats, Hash: "a_1", Ext: ".png", Mime: "image/png", Size: 12.34, URL: "https://bucket.example/a_1.png", Provider: "aws-s3", CreatedAt: now, UpdatedAt: now}
		b := &upload.FileRecord{DocumentID: "doc-b", Name: "b.txt", Hash: "b_1", Ext: ".txt", Mime: "text/plain", Size: 0.01,
			URL: "/uploads/b_1.txt", CreatedAt: now, UpdatedAt: now}
		for _, r := range []*upload.FileRecord{a, b} {
			if err := st.CreateFile(ctx, r); err != nil {
				t.Fatal(err)
			}
		}
		if a.ID == 0 || b.ID <= a.ID {
			t.Fatalf("ids %d %d", a.ID, b.ID)
		}
		got, err := st.File(ctx, a.ID)
		if err != nil {
			t.Fatal(err)
		}
		got.CreatedAt, got.UpdatedAt = got.CreatedAt.UTC(), got.UpdatedAt.UTC()
		if !reflect.DeepEqual(got, a) {
			t.Fatalf("read back %+v, wrote %+v", got, a)
		}
		if none, err := st.File(ctx, 999); none != nil || err != nil {
			t.Fatalf("unknown id: %v %v", none, err)
		}
		caption, later := "c", now.Add(time.Second)
		if err := st.UpdateFile(ctx, b.ID, upload.FileUpdate{Caption: &caption, UpdatedAt: later}); err != nil {
			t.Fatal(err)
		}
		rows, err := st.Files(ctx, []int64{b.ID, 999})
		if err != nil || len(rows) != 1 || rows[0].Caption == nil || *rows[0].Caption != "c" || rows[0].Name != "b.txt" ||
			rows[0].AlternativeText != nil || rows[0].Width != nil || !rows[0].UpdatedAt.Equal(later) || rows[0].Provider != "local" {
			t.Fatalf("updated: %+v %v", rows, err)
		}
		if err := st.DeleteFile(ctx, a.ID); err != nil {
			t.Fatal(err)
		}
		if all, err := st.Files(ctx, nil); err != nil || len(all) != 1 || all[0].ID != b.ID {
			t.Fatalf("after delete: %v %v", all, err)
		}
		if empty, err := st.Files(ctx, []int64{}); err != nil || len(empty) != 0 {
			t.Fatalf("no ids: %v %v", empty, err)
		}
	})
}
