package upload

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"math"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/stratum-cms/stratum/errs"
	"github.com/stratum-cms/stratum/ids"
	"golang.org/x/sync/errgroup"
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
	old, err := s.files.File(ctx, id)
	if err != nil {
		return nil, err
	}
	if old == nil {
		return nil, notFound()
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
	r.ID, r.DocumentID, r.CreatedAt = old.ID, old.DocumentID, old.CreatedAt
	if err := s.files.ReplaceFile(ctx, r); err != nil {
		cleanup()
		return nil, err
	}
	s.removeFile(ctx, old)
	return r.View(), nil
}

// store checks a file, makes its formats, puts the bytes with the
// provider and returns its record (without ids) and how to remove what it
// put. Nothing is left behind when it fails.
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
		Provider: s.provider.Name(), CreatedAt: s.now(), UpdatedAt: s.now()}
	objects := []object{{key: hash + ext, body: body, mime: mime}}
	var formats map[string]*format
	if imgErr == nil {
		f, fobjs, err := s.image(ctx, body, imgCfg, name, hash, ext, mime)
		switch {
		case err == nil:
			r.Width, r.Height, formats = &imgCfg.Width, &imgCfg.Height, f
			objects = append(objects, fobjs...)
		case err != errNotImage: // a body that does not decode is kept as a plain file
			return nil, nil, err
		}
	}
	urls, err := s.putAll(ctx, objects)
	if err != nil {
		return nil, nil, err
	}
	r.URL = urls[0]
	for i, o := range objects[1:] {
		for _, f := range formats {
			if f.Hash+f.Ext == o.key {
				f.URL = urls[i+1]
			}
		}
	}
	// The cleanup keeps the keys, not the bytes.
	keys := make([]object, len(objects))
	for i, o := range objects {
		keys[i] = object{key: o.key}
	}
	cleanup := func() { s.removeKeys(ctx, s.provider, keys) }
	if formats != nil {
		b, err := json.Marshal(formats)
		if err != nil {
			cleanup()
			return nil, nil, err
		}
		str := string(b)
		r.Formats = &str
	}
	return r, cleanup, nil
}

// putConcurrency is how many objects of one upload are put at once.
const putConcurrency = 4

// putAll puts a file's objects (the original and its formats) at once and
// returns their URLs in order. When one fails, those put are removed.
func (s *Service) putAll(ctx context.Context, objects []object) ([]string, error) {
	urls := make([]string, len(objects))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(putConcurrency)
	for i, o := range objects {
		g.Go(func() error {
			u, err := s.provider.Put(gctx, o.key, o.body, o.mime)
			urls[i] = u
			return err
		})
	}
	if err := g.Wait(); err != nil {
		s.removeKeys(ctx, s.provider, objects)
		s.log().Error("upload: storing a file failed", "provider", s.provider.Name(), "err", err)
		return nil, &errs.Error{Kind: errs.KindInternal, Message: "The file could not be stored"}
	}
	return urls, nil
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
