package upload

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/stratum-cms/stratum/errs"
	"github.com/stratum-cms/stratum/ids"
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
	r, cleanup, err := s.store(ctx, filename, body, info)
	if err != nil {
		return nil, err
	}
	r.DocumentID = ids.NewDocumentID()
	if err := s.files.CreateFile(ctx, r); err != nil {
		cleanup()
		return nil, err
	}
	return r.View(), nil
}

// Replace puts new bytes under an existing file (Strapi's POST
// /api/upload?id= with a file): same id and documentId, a new hash, URL
// and formats; the old bytes go once the row says so.
func (s *Service) Replace(ctx context.Context, id int64, filename string, body []byte, info FileInfo) (*File, error) {
	old, err := s.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	if info.AlternativeText == nil {
		info.AlternativeText = old.AlternativeText
	}
	if info.Caption == nil {
		info.Caption = old.Caption
	}
	r, cleanup, err := s.store(ctx, filename, body, info)
	if err != nil {
		return nil, err
	}
	r.ID, r.DocumentID = old.ID, old.DocumentID
	if t, err := time.Parse(time.RFC3339Nano, old.CreatedAt); err == nil {
		r.CreatedAt = t
	}
	if err := s.files.ReplaceFile(ctx, r); err != nil {
		cleanup()
		return nil, err
	}
	s.removeBytes(old)
	return r.View(), nil
}

// store checks and writes a file's bytes and formats and returns its
// record (without ids) and how to remove what it wrote.
func (s *Service) store(ctx context.Context, filename string, body []byte, info FileInfo) (*FileRecord, func(), error) {
	if len(body) == 0 {
		return nil, nil, errs.Errorf(errs.KindValidation, "File %q is empty", filename)
	}
	name := filepath.Base(strings.ReplaceAll(filename, "\\", "/"))
	if info.Name != "" {
		name = info.Name
	}
	ext := strings.ToLower(filepath.Ext(filename))
	if !extRe.MatchString(ext) {
		ext = ""
	}
	mime := sniff(body)
	if !s.typeAllowed(mime) {
		return nil, nil, errs.Errorf(errs.KindValidation, "File %q is of type %s, which is not allowed", filename, mime)
	}
	// The header is checked before anything is written: an image over the
	// pixel cap is refused whole.
	imgCfg, imgErr := imageConfig(body, mime)
	if imgErr != nil && imgErr != errNotImage {
		return nil, nil, imgErr
	}
	hash := slug(strings.TrimSuffix(name, filepath.Ext(name))) + "_" + randomHex(5)
	r := &FileRecord{Name: name, AlternativeText: info.AlternativeText,
		Caption: info.Caption, Hash: hash, Ext: ext, Mime: mime, Size: kb(len(body)),
		URL: "/uploads/" + hash + ext, CreatedAt: s.now(), UpdatedAt: s.now()}
	written := []string{hash + ext}
	cleanup := func() {
		for _, n := range written {
			_ = os.Remove(filepath.Join(s.cfg.Dir, n))
		}
	}
	if err := os.WriteFile(filepath.Join(s.cfg.Dir, hash+ext), body, 0o644); err != nil {
		return nil, nil, err
	}
	if imgErr == nil {
		formats, files, err := s.image(ctx, body, imgCfg, name, hash, ext, mime)
		written = append(written, files...)
		switch {
		case err == nil:
			r.Width, r.Height, r.Formats = &imgCfg.Width, &imgCfg.Height, formats
		case err != errNotImage: // a body that does not decode is kept as a plain file
			cleanup()
			return nil, nil, err
		}
	}
	return r, cleanup, nil
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

// sniff is the MIME type of what the bytes are, not of what the client
// says. SVG, which http.DetectContentType calls text/xml or text/plain, is
// told apart so that type lists can name it.
func sniff(body []byte) string {
	mime, _, _ := strings.Cut(http.DetectContentType(body), ";")
	if mime == "text/xml" || mime == "text/plain" {
		head := bytes.ToLower(body[:min(len(body), 1024)])
		if bytes.Contains(head, []byte("<svg")) {
			return "image/svg+xml"
		}
	}
	return mime
}

// typeAllowed applies the configured type lists: a type named by
// DeniedTypes is refused, and when AllowedTypes is set, so is every type
// it does not name. Patterns are exact types, "type/*" or "*".
func (s *Service) typeAllowed(mime string) bool {
	if matchType(s.cfg.DeniedTypes, mime) {
		return false
	}
	return len(s.cfg.AllowedTypes) == 0 || matchType(s.cfg.AllowedTypes, mime)
}

func matchType(patterns []string, mime string) bool {
	mime = strings.ToLower(mime)
	for _, p := range patterns {
		p = strings.ToLower(strings.TrimSpace(p))
		switch {
		case p == "*", p == "*/*", p == mime:
			return true
		case strings.HasSuffix(p, "/*") && strings.HasPrefix(mime, strings.TrimSuffix(p, "*")):
			return true
		}
	}
	return false
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
