package upload

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/stratum-cms/stratum/engine"
)

// FileInfo is what a client may say about a file it uploads.
type FileInfo struct {
	Name            string  `json:"name"`
	AlternativeText *string `json:"alternativeText"`
	Caption         *string `json:"caption"`
}

var extRe = regexp.MustCompile(`^\.[a-z0-9]{1,10}$`)

// Save stores one uploaded file: the bytes under a generated name (the
// client's name never reaches the file system), its formats when it is an
// image, and its row.
func (s *Service) Save(ctx context.Context, filename string, body []byte, info FileInfo) (*File, error) {
	if len(body) == 0 {
		return nil, engine.Errorf(engine.KindValidation, "File %q is empty", filename)
	}
	name := filepath.Base(strings.ReplaceAll(filename, "\\", "/"))
	if info.Name != "" {
		name = info.Name
	}
	ext := strings.ToLower(filepath.Ext(filename))
	if !extRe.MatchString(ext) {
		ext = ""
	}
	mime := http.DetectContentType(body) // what the bytes are, not what the client says
	if i := strings.IndexByte(mime, ';'); i > 0 {
		mime = mime[:i]
	}
	hash := slug(strings.TrimSuffix(name, filepath.Ext(name))) + "_" + randomHex(5)
	r := &FileRecord{DocumentID: engine.NewDocumentID(), Name: name, AlternativeText: info.AlternativeText,
		Caption: info.Caption, Hash: hash, Ext: ext, Mime: mime, Size: kb(len(body)),
		URL: "/uploads/" + hash + ext, CreatedAt: s.now(), UpdatedAt: s.now()}
	written := []string{hash + ext}
	cleanup := func() {
		for _, n := range written {
			_ = os.Remove(filepath.Join(s.cfg.Dir, n))
		}
	}
	if err := os.WriteFile(filepath.Join(s.cfg.Dir, hash+ext), body, 0o644); err != nil {
		return nil, err
	}
	if img, err := decodeImage(body, mime); err == nil {
		w, h := img.Bounds().Dx(), img.Bounds().Dy()
		r.Width, r.Height = &w, &h
		formats, files, err := s.formats(img, name, hash, ext, mime)
		written = append(written, files...)
		if err != nil {
			cleanup()
			return nil, err
		}
		r.Formats = formats
	} else if err != errNotImage {
		cleanup()
		return nil, err
	}
	if err := s.files.CreateFile(ctx, r); err != nil {
		cleanup()
		return nil, err
	}
	return r.view(), nil
}

// Update changes what is said about a file (Strapi's POST /api/upload?id=).
func (s *Service) Update(ctx context.Context, id int64, info FileInfo) (*File, error) {
	if _, err := s.Get(ctx, id); err != nil {
		return nil, err
	}
	u := FileUpdate{AlternativeText: info.AlternativeText, Caption: info.Caption, UpdatedAt: s.now()}
	if info.Name != "" {
		u.Name = &info.Name
	}
	if err := s.files.UpdateFile(ctx, id, u); err != nil {
		return nil, err
	}
	return s.Get(ctx, id)
}

// slug makes the readable part of a stored file name.
func slug(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "_"):
			b.WriteByte('_')
		}
		if b.Len() >= 60 {
			break
		}
	}
	out := strings.Trim(b.String(), "_")
	if out == "" {
		return "file"
	}
	return out
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// kb is Strapi's size: kilobytes with two decimals.
func kb(n int) float64 { return math.Round(float64(n)/1000*100) / 100 }
