// Package backup writes and reads Stratum's backups (`stratum export
// --file`, `stratum import --file`): a portable archive of a project's
// database (stored schema definitions, documents, users, roles and
// permissions, API tokens, admins, webhooks, files) and of its local media.
//
// The archive is one gzip'd stream of JSON lines, written and read one line
// at a time, so its size never sits in memory:
//
//	{"format":"stratum-backup","version":1,"migration":4,"database":"sqlite","createdAt":"..."}
//	{"table":"up_users","columns":["id",...],"rows":2}
//	{"table":"up_users","row":{"id":1,...}}
//	...
//	{"media":"photo_ab12.jpg","offset":0,"data":"<base64>"}
//	{"media":"photo_ab12.jpg","done":true,"size":34567}
//	{"end":{"tables":14,"rows":1234,"media":3}}
//
// Values are portable (see store.BackupReader): an archive made on SQLite
// restores on PostgreSQL and back. It speaks no SQL: rows are read through
// store.BackupReader and written through store.RestoreTx.
package backup

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/stratum-cms/stratum/models"
)

// Format names the archive; FormatVersion is the version this Stratum
// writes and the newest it reads.
const (
	Format        = "stratum-backup"
	FormatVersion = 1
)

// header is the first line.
type header struct {
	Format    string `json:"format"`
	Version   int    `json:"version"`
	Migration int    `json:"migration"`
	Database  string `json:"database"`
	CreatedAt string `json:"createdAt"`
}

// line is any later line: a table's start, one of its rows, a part of a
// media file, or the end.
type line struct {
	Table     string                     `json:"table,omitempty"`
	Documents bool                       `json:"documents,omitempty"`
	Columns   []string                   `json:"columns,omitempty"`
	Rows      *int64                     `json:"rows,omitempty"`
	Row       map[string]json.RawMessage `json:"row,omitempty"`
	Media     string                     `json:"media,omitempty"`
	Offset    *int64                     `json:"offset,omitempty"`
	Data      []byte                     `json:"data,omitempty"`
	Done      bool                       `json:"done,omitempty"`
	Size      *int64                     `json:"size,omitempty"`
	End       *summaryLine               `json:"end,omitempty"`
}

// summaryLine is the last line's content.
type summaryLine struct {
	Tables int   `json:"tables"`
	Rows   int64 `json:"rows"`
	Media  int   `json:"media"`
}

// Options are what an export or import reads and writes.
type Options struct {
	// Types are the project's content-types (their tables are held).
	Types []*models.ContentType
	// UploadDir is the local provider's folder (public/uploads); its files
	// are held. Empty: none.
	UploadDir string
	// Progress receives progress lines (nil: none); Bar draws bars (a
	// terminal).
	Progress io.Writer
	Bar      bool
	// Force lets an import replace a project's content.
	Force bool
}

// Summary says what an archive holds.
type Summary struct {
	Tables int
	Rows   int64
	Media  int
	Bytes  int64 // of media
}

// mediaChunk is the size of a media line's data before base64.
const mediaChunk = 256 << 10

// maxLine bounds one line of an archive when it is read.
const maxLine = 64 << 20

// mediaFiles lists the files under dir as slash paths relative to it.
func mediaFiles(dir string) ([]string, error) {
	if dir == "" {
		return nil, nil
	}
	if _, err := os.Stat(dir); os.IsNotExist(err) {
		return nil, nil
	}
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() || strings.HasPrefix(d.Name(), ".") {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		out = append(out, filepath.ToSlash(rel))
		return nil
	})
	return out, err
}
