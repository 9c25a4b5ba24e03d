// Package upload is the media library: files uploaded through
// /api/upload, kept by a provider (the local disk, public/uploads, or an
// S3 bucket) and described in a table, with Strapi's thumbnail and
// responsive formats for images.
package upload

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/stratum-cms/stratum/errs"
)

// Actions of the upload plugin's routes, as roles and tokens name them.
const (
	ActionUpload  = "plugin::upload.content-api.upload"
	ActionFind    = "plugin::upload.content-api.find"
	ActionFindOne = "plugin::upload.content-api.findOne"
	ActionDestroy = "plugin::upload.content-api.destroy"
)

// FileRecord is a file as stored.
type FileRecord struct {
	ID              int64
	DocumentID      string
	Name            string
	AlternativeText *string
	Caption         *string
	Width           *int
	Height          *int
	Formats         *string // JSON object, null for files that are not images
	Hash            string  // the stored name without its extension; unique
	Ext             string
	Mime            string
	Size            float64 // kB, two decimals
	URL             string
	CreatedAt       time.Time
	UpdatedAt       time.Time
	// What Strapi's files table says and uploads here leave empty (files
	// imported from Strapi): a focal point (JSON), a preview URL, the
	// provider ("" is local) and its metadata (JSON).
	FocalPoint       *string
	PreviewURL       *string
	Provider         string
	ProviderMetadata *string
}

// FileUpdate changes what is said about a file; nil fields stay.
type FileUpdate struct {
	Name, AlternativeText, Caption *string
	UpdatedAt                      time.Time
}

// FileStore keeps the file records; the store implements it over the
// database, so this package touches no SQL.
type FileStore interface {
	// CreateFile inserts r and sets r.ID.
	CreateFile(ctx context.Context, r *FileRecord) error
	// File returns one record, nil when there is none.
	File(ctx context.Context, id int64) (*FileRecord, error)
	// FileID returns the id of the record with documentID, 0 when there
	// is none.
	FileID(ctx context.Context, documentID string) (int64, error)
	// Files returns the records of ids that exist, in id order; nil ids
	// means every record. Reads must not wait for a document write in
	// progress (media are populated inside one).
	Files(ctx context.Context, ids []int64) ([]*FileRecord, error)
	// FilePage returns one page of the records, newest first, whose name
	// contains search (any case; empty: all), and how many match.
	FilePage(ctx context.Context, offset, limit int, search string) ([]*FileRecord, int64, error)
	UpdateFile(ctx context.Context, id int64, u FileUpdate) error
	// ReplaceFile writes every column of r's row but its ids and creation.
	ReplaceFile(ctx context.Context, r *FileRecord) error
	DeleteFile(ctx context.Context, id int64) error
}

// File is a file as the API shows it (Strapi's upload file object).
type File struct {
	ID               int64           `json:"id"`
	DocumentID       string          `json:"documentId"`
	Name             string          `json:"name"`
	AlternativeText  *string         `json:"alternativeText"`
	Caption          *string         `json:"caption"`
	FocalPoint       json.RawMessage `json:"focalPoint"`
	Width            *int            `json:"width"`
	Height           *int            `json:"height"`
	Formats          json.RawMessage `json:"formats"`
	Hash             string          `json:"hash"`
	Ext              string          `json:"ext"`
	Mime             string          `json:"mime"`
	Size             float64         `json:"size"`
	URL              string          `json:"url"`
	PreviewURL       *string         `json:"previewUrl"`
	Provider         string          `json:"provider"`
	ProviderMetadata json.RawMessage `json:"provider_metadata"`
	CreatedAt        string          `json:"createdAt"`
	UpdatedAt        string          `json:"updatedAt"`
	PublishedAt      string          `json:"publishedAt"`
}

const timeLayout = "2006-01-02T15:04:05.000Z"

func (r *FileRecord) View() *File {
	f := &File{ID: r.ID, DocumentID: r.DocumentID, Name: r.Name, AlternativeText: r.AlternativeText, Caption: r.Caption,
		Width: r.Width, Height: r.Height, Formats: json.RawMessage("null"), Hash: r.Hash, Ext: r.Ext, Mime: r.Mime,
		Size: r.Size, URL: r.URL, PreviewURL: r.PreviewURL, Provider: r.Provider, FocalPoint: json.RawMessage("null"),
		ProviderMetadata: json.RawMessage("null"),
		CreatedAt:        r.CreatedAt.UTC().Format(timeLayout), UpdatedAt: r.UpdatedAt.UTC().Format(timeLayout)}
	f.PublishedAt = f.CreatedAt
	if f.Provider == "" {
		f.Provider = "local"
	}
	if r.FocalPoint != nil && json.Valid([]byte(*r.FocalPoint)) {
		f.FocalPoint = json.RawMessage(*r.FocalPoint)
	}
	if r.ProviderMetadata != nil && json.Valid([]byte(*r.ProviderMetadata)) {
		f.ProviderMetadata = json.RawMessage(*r.ProviderMetadata)
	}
	if r.Formats != nil {
		f.Formats = json.RawMessage(*r.Formats)
	}
	return f
}

// provider is the record's provider, "local" for rows older than providers.
func (r *FileRecord) provider() string {
	if r.Provider == "" {
		return ProviderLocal
	}
	return r.Provider
}

// Config tunes the media library.
type Config struct {
	// Dir is where files are written (<project>/public/uploads).
	Dir string
	// MaxBytes bounds one upload request (default 50 MiB).
	MaxBytes int64
	// Breakpoints are the responsive widths (default large 1000, medium
	// 750, small 500); nil keeps the defaults, empty turns them off.
	Breakpoints map[string]int
	// MaxConcurrentPixels bounds the pixels of the images being decoded
	// and resized at once, across requests; the others wait their turn
	// (default DefaultMaxConcurrentPixels, negative for no bound).
	MaxConcurrentPixels int64
	// AllowedTypes, when set, are the only MIME types accepted, and
	// DeniedTypes are refused; both are checked against the type sniffed
	// from the bytes and take "image/png", "image/*" or "*".
	AllowedTypes, DeniedTypes []string
	// Provider keeps the bytes: "local" (the default: Dir, served under
	// /uploads) or "aws-s3" (the bucket of S3).
	Provider string
	S3       S3Config
	// Log receives what fails after the answer is decided (an object
	// that could not be removed); nil discards it.
	Log *slog.Logger
}

// Service is the media library over a database and a provider.
type Service struct {
	files    FileStore
	cfg      Config
	provider Provider   // where new files go
	local    Local      // where files of the local provider are (older rows)
	pixels   *pixelGate // shared by every upload of this process's service
	now      func() time.Time
}

// New makes the folder or the S3 client; files keeps the records.
func New(ctx context.Context, files FileStore, cfg Config) (*Service, error) {
	if cfg.MaxBytes <= 0 {
		cfg.MaxBytes = 50 << 20
	}
	if cfg.Breakpoints == nil {
		cfg.Breakpoints = map[string]int{"large": 1000, "medium": 750, "small": 500}
	}
	if cfg.MaxConcurrentPixels == 0 {
		cfg.MaxConcurrentPixels = DefaultMaxConcurrentPixels
	}
	if cfg.MaxConcurrentPixels < 0 {
		cfg.MaxConcurrentPixels = math.MaxInt64
	}
	name, err := ProviderName(cfg.Provider)
	if err != nil {
		return nil, err
	}
	s := &Service{files: files, cfg: cfg, local: Local{Dir: cfg.Dir}, pixels: newPixelGate(cfg.MaxConcurrentPixels),
		now: func() time.Time { return time.Now().UTC().Truncate(time.Millisecond) }}
	switch name {
	case ProviderS3:
		p, err := NewS3(ctx, cfg.S3)
		if err != nil {
			return nil, err
		}
		s.provider = p
		// Said at start, not at the first upload; the server may come up
		// after this node, so it does not stop the start.
		go func() {
			if err := p.Check(context.WithoutCancel(ctx)); err != nil {
				s.log().Warn("uploads will fail until the bucket is reachable", "err", err)
			}
		}()
	default:
		if err := os.MkdirAll(cfg.Dir, 0o755); err != nil {
			return nil, fmt.Errorf("uploads folder: %w", err)
		}
		s.provider = s.local
	}
	return s, nil
}

func (s *Service) log() *slog.Logger {
	if s.cfg.Log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return s.cfg.Log
}

// Provider is where new files go.
func (s *Service) Provider() Provider { return s.provider }

// MaxBytes is the size limit of one upload request.
func (s *Service) MaxBytes() int64 { return s.cfg.MaxBytes }

// LocalDir is the folder served under /uploads: the local provider's, ""
// when files go elsewhere (nothing is served from the disk then).
func (s *Service) LocalDir() string {
	if s.provider.Name() != ProviderLocal {
		return ""
	}
	return s.cfg.Dir
}

func notFound() error { return &errs.Error{Kind: errs.KindNotFound, Message: "file.notFound"} }

// List returns every file, newest last.
func (s *Service) List(ctx context.Context) ([]*File, error) {
	rows, err := s.files.Files(ctx, nil)
	if err != nil {
		return nil, err
	}
	out := make([]*File, len(rows))
	for i, r := range rows {
		out[i] = r.View()
	}
	return out, nil
}

// Page returns one page of the files (page from 1), newest first, whose
// name contains search, and how many match: the admin's media library.
func (s *Service) Page(ctx context.Context, page, pageSize int, search string) ([]*File, int64, error) {
	return s.Range(ctx, (page-1)*pageSize, pageSize, search)
}

// Range is Page by offset and limit.
func (s *Service) Range(ctx context.Context, offset, limit int, search string) ([]*File, int64, error) {
	rows, total, err := s.files.FilePage(ctx, offset, limit, search)
	if err != nil {
		return nil, 0, err
	}
	out := make([]*File, len(rows))
	for i, r := range rows {
		out[i] = r.View()
	}
	return out, total, nil
}

// ID returns the id of the file with documentID, or a 404.
func (s *Service) ID(ctx context.Context, documentID string) (int64, error) {
	id, err := s.files.FileID(ctx, documentID)
	if err == nil && id == 0 {
		err = notFound()
	}
	return id, err
}

// Get returns one file, or a 404.
func (s *Service) Get(ctx context.Context, id int64) (*File, error) {
	r, err := s.files.File(ctx, id)
	if err != nil {
		return nil, err
	}
	if r == nil {
		return nil, notFound()
	}
	return r.View(), nil
}

// Delete removes a file's row, then its bytes and its formats' from its
// provider (a failure there is logged: the file is gone for the API).
func (s *Service) Delete(ctx context.Context, id int64) (*File, error) {
	r, err := s.files.File(ctx, id)
	if err != nil {
		return nil, err
	}
	if r == nil {
		return nil, notFound()
	}
	if err := s.files.DeleteFile(ctx, id); err != nil {
		return nil, err
	}
	s.removeFile(ctx, r)
	return r.View(), nil
}

// removeFile removes a record's bytes and its formats' from the provider
// that keeps them.
func (s *Service) removeFile(ctx context.Context, r *FileRecord) {
	var p Provider
	switch r.provider() {
	case s.provider.Name():
		p = s.provider
	case ProviderLocal:
		p = s.local
	default:
		s.log().Warn("upload: the file's bytes are kept by another provider than the configured one: not removed",
			"file", r.ID, "provider", r.provider())
		return
	}
	objects := []object{{key: r.Hash + r.Ext}}
	var formats map[string]struct {
		Hash string `json:"hash"`
		Ext  string `json:"ext"`
	}
	if r.Formats != nil && json.Unmarshal([]byte(*r.Formats), &formats) == nil {
		for _, v := range formats {
			objects = append(objects, object{key: v.Hash + v.Ext})
		}
	}
	s.removeKeys(ctx, p, objects)
}

// removeKeys removes objects from p, even when ctx has ended (the
// request's: its client may have gone), and logs what fails.
func (s *Service) removeKeys(ctx context.Context, p Provider, objects []object) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s3Timeout)
	defer cancel()
	var wg sync.WaitGroup
	sem := make(chan struct{}, putConcurrency)
	for _, o := range objects {
		if o.key == "" || strings.ContainsAny(o.key, "/\\") {
			continue // never a path out of the provider's place
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			if err := p.Delete(ctx, o.key); err != nil {
				s.log().Error("upload: removing a stored object failed", "provider", p.Name(), "key", o.key, "err", err)
			}
		}()
	}
	wg.Wait()
}

// Files returns the API JSON of files by id, for media attributes (the
// engine's Media interface): one query for any number of ids.
func (s *Service) Files(ctx context.Context, ids []int64) (map[int64]json.RawMessage, error) {
	out := map[int64]json.RawMessage{}
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := s.files.Files(ctx, ids)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		b, err := json.Marshal(r.View())
		if err != nil {
			return nil, err
		}
		out[r.ID] = b
	}
	return out, nil
}
