package strapiimport

import (
	"encoding/json"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/stratum-cms/stratum/store"
	"github.com/stratum-cms/stratum/upload"
)

// files imports the media library's rows and copies local files.
func (im *importer) files() error {
	if !im.src.Has("files", "id", "hash") {
		im.rep.skip("media: no files table in the Strapi database")
		return nil
	}
	var recs []*upload.FileRecord
	copied, missing := 0, 0
	err := im.src.Rows(im.ctx, "files", nil, []string{"id"}, func(r map[string]any) error {
		id, ok := toInt(r["id"])
		if !ok {
			return nil
		}
		f := &upload.FileRecord{ID: id, DocumentID: str(r["document_id"]), Name: str(r["name"]),
			AlternativeText: strPtr(r["alternative_text"]), Caption: strPtr(r["caption"]), Hash: str(r["hash"]),
			Ext: str(r["ext"]), Mime: str(r["mime"]), Size: toFloat(r["size"]), URL: str(r["url"])}
		if w, ok := toInt(r["width"]); ok {
			n := int(w)
			f.Width = &n
		}
		if h, ok := toInt(r["height"]); ok {
			n := int(h)
			f.Height = &n
		}
		f.FocalPoint, f.PreviewURL, f.ProviderMetadata = jsonText(r["focal_point"]), strPtr(r["preview_url"]), jsonText(r["provider_metadata"])
		if p := str(r["provider"]); p != "local" {
			f.Provider = p
		}
		if r["formats"] != nil {
			s := str(r["formats"])
			if s != "null" && s != "" {
				f.Formats = &s
			}
		}
		f.CreatedAt = time.Now().UTC()
		if t, ok := toTime(r["created_at"]); ok {
			f.CreatedAt = t
		}
		f.UpdatedAt = f.CreatedAt
		if t, ok := toTime(r["updated_at"]); ok {
			f.UpdatedAt = t
		}
		if p := str(r["provider"]); p != "local" && p != "" {
			im.rep.warn("file %d (%s): provider %s: its URL %s is kept as is", id, f.Name, p, f.URL)
		} else {
			c, m := im.copyLocal(f)
			copied, missing = copied+c, missing+m
		}
		recs = append(recs, f)
		return nil
	})
	if err != nil {
		return err
	}
	if err := batch(im, "files", recs, func(tx *store.ImportTx, f *upload.FileRecord) error { return tx.PutFile(f) }); err != nil {
		return err
	}
	im.rep.Counts["files"] = len(recs)
	im.rep.Counts["files copied"] = copied
	if missing > 0 {
		im.rep.skip("%d local files are not in %s: their rows are imported, their URLs answer 404", missing, im.o.Uploads)
	}
	return nil
}

// copyLocal copies a local file and its formats from Strapi's uploads
// folder to Stratum's (nothing when they are the same folder, or the file
// is there with the same size).
func (im *importer) copyLocal(f *upload.FileRecord) (copied, missing int) {
	urls := []string{f.URL}
	if f.Formats != nil {
		var formats map[string]struct {
			URL string `json:"url"`
		}
		if json.Unmarshal([]byte(*f.Formats), &formats) == nil {
			for _, v := range formats {
				urls = append(urls, v.URL)
			}
		}
	}
	for _, u := range urls {
		if !strings.HasPrefix(u, "/uploads/") {
			continue
		}
		name := path.Base(u)
		from := filepath.Join(im.o.Uploads, name)
		to := filepath.Join(im.o.UploadDir, name)
		if im.o.Uploads == "" || im.o.UploadDir == "" {
			continue
		}
		fi, err := os.Stat(from)
		if err != nil {
			missing++
			continue
		}
		if same(from, to) {
			continue
		}
		if ti, err := os.Stat(to); err == nil && ti.Size() == fi.Size() {
			continue
		}
		if err := copyFile(from, to); err != nil {
			im.rep.warn("file %d: copy %s: %v", f.ID, name, err)
			continue
		}
		copied++
	}
	return copied, missing
}

func same(a, b string) bool {
	x, err1 := os.Stat(a)
	y, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(x, y)
}

func copyFile(from, to string) error {
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	tmp := to + ".importing"
	out, err := os.Create(tmp)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		os.Remove(tmp)
		return err
	}
	if err := out.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, to)
}

// jsonText is a JSON column's text, nil for NULL or JSON null.
func jsonText(v any) *string {
	if v == nil {
		return nil
	}
	s := str(v)
	if s == "" || s == "null" || !json.Valid([]byte(s)) {
		return nil
	}
	return &s
}
