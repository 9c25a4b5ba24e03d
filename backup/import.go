package backup

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/stratum-cms/stratum/internal/progress"
	"github.com/stratum-cms/stratum/store"
)

// Import restores the archive r into st and its media into o.UploadDir.
// Every table the archive holds is replaced, in one transaction, by its
// rows with their ids; a project that already has content is refused
// unless o.Force. Media files are written as they come (before the
// transaction commits).
func Import(ctx context.Context, st *store.Store, r io.Reader, o Options) (*Summary, error) {
	zr, err := gzip.NewReader(bufio.NewReaderSize(r, 256<<10))
	if err != nil {
		return nil, fmt.Errorf("import: not a Stratum backup (%v)", readErr(err))
	}
	lr := &lines{sc: bufio.NewScanner(zr)}
	lr.sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	var h header
	if err := lr.next(&h); err != nil {
		return nil, fmt.Errorf("import: not a Stratum backup (%v)", err)
	}
	if h.Format != Format {
		return nil, fmt.Errorf("import: not a Stratum backup (its first line names no %q format)", Format)
	}
	if h.Version > FormatVersion {
		return nil, fmt.Errorf("import: the archive's format version is %d, newer than this Stratum reads (up to %d): "+
			"restore it with a newer Stratum", h.Version, FormatVersion)
	}
	if h.Version < 1 {
		return nil, fmt.Errorf("import: the archive's format version %d is not valid", h.Version)
	}
	if h.Migration > store.LatestMigration() {
		return nil, fmt.Errorf("import: the archive was made by a newer Stratum (its database is at migration %d, "+
			"this Stratum knows up to %d): restore it with a newer Stratum", h.Migration, store.LatestMigration())
	}
	if !o.Force {
		tbl, n, err := st.HasContent(ctx, o.Types)
		if err != nil {
			return nil, fmt.Errorf("import: %w", err)
		}
		if tbl != "" {
			return nil, fmt.Errorf("import: the project's database already has %d rows in %s: "+
				"import into an empty project, or pass --force to replace its content with the archive's", n, tbl)
		}
	}
	prog := progress.New(o.Progress, o.Bar, "import")
	defer prog.Done()
	sum := &Summary{}
	var end *summaryLine
	media := &mediaWriter{dir: o.UploadDir}
	defer media.abort()
	err = st.Restore(ctx, func(tx *store.RestoreTx) error {
		var (
			table      string
			cols       []string
			want, have int64
			vals       = []json.RawMessage{}
		)
		endTable := func() error {
			if table != "" {
				if have != want {
					return fmt.Errorf("table %s: %d rows, its start said %d", table, have, want)
				}
				prog.Finish()
				sum.Tables++
			}
			table = ""
			return nil
		}
		for {
			if err := ctx.Err(); err != nil {
				return err
			}
			var l line
			if err := lr.next(&l); err != nil {
				return err
			}
			switch {
			case l.End != nil:
				if err := endTable(); err != nil {
					return err
				}
				if err := media.finishAll(); err != nil {
					return err
				}
				end = l.End
				if end.Tables != sum.Tables || end.Rows != sum.Rows || end.Media != sum.Media {
					return fmt.Errorf("the archive's end says %d tables, %d rows, %d media files; it held %d, %d, %d",
						end.Tables, end.Rows, end.Media, sum.Tables, sum.Rows, sum.Media)
				}
				return lr.eof()
			case l.Row != nil:
				if table == "" || l.Table != table {
					return lr.errorf("a row of %q outside its table", l.Table)
				}
				vals = vals[:0]
				for _, c := range cols {
					vals = append(vals, l.Row[c])
				}
				if len(l.Row) != len(cols) {
					for c := range l.Row {
						if !slices.Contains(cols, c) {
							return lr.errorf("a row of %s has a column %q its start did not name", table, c)
						}
					}
				}
				if err := tx.Row(vals); err != nil {
					return lr.errorf("%v", err)
				}
				have++
				sum.Rows++
				prog.Add(1)
			case l.Table != "":
				if err := endTable(); err != nil {
					return err
				}
				if l.Rows == nil || *l.Rows < 0 {
					return lr.errorf("table %s starts without its number of rows", l.Table)
				}
				if err := tx.Table(l.Table, l.Documents, l.Columns); err != nil {
					return lr.errorf("%v", err)
				}
				table, cols, want, have = l.Table, l.Columns, *l.Rows, 0
				prog.Start(table, int(want))
			case l.Media != "":
				if err := endTable(); err != nil {
					return err
				}
				done, err := media.write(&l)
				if err != nil {
					return lr.errorf("media %s: %v", l.Media, err)
				}
				if done {
					sum.Media++
					sum.Bytes += *l.Size
				}
			default:
				return lr.errorf("a line that is no table, row, media or end")
			}
		}
	})
	if err != nil {
		return nil, fmt.Errorf("import: %w", err)
	}
	return sum, nil
}

// lines reads an archive's lines.
type lines struct {
	sc *bufio.Scanner
	n  int
}

func (lr *lines) next(v any) error {
	if !lr.sc.Scan() {
		if err := lr.sc.Err(); err != nil {
			return fmt.Errorf("line %d: %v", lr.n+1, readErr(err))
		}
		return errors.New("the archive is truncated: it ends before its last line")
	}
	lr.n++
	if err := json.Unmarshal(lr.sc.Bytes(), v); err != nil {
		if rerr := lr.sc.Err(); rerr != nil { // the last piece before a read error
			return lr.errorf("%v", readErr(rerr))
		}
		return lr.errorf("the archive is damaged: not a line of a backup (%v)", err)
	}
	return nil
}

// eof checks that nothing follows the last line (gzip's checksum is read
// there too).
func (lr *lines) eof() error {
	if lr.sc.Scan() {
		return lr.errorf("something follows the archive's last line")
	}
	if err := lr.sc.Err(); err != nil {
		return fmt.Errorf("after the last line: %v", readErr(err))
	}
	return nil
}

func (lr *lines) errorf(format string, args ...any) error {
	return fmt.Errorf("line %d: %s", lr.n, fmt.Sprintf(format, args...))
}

// readErr says what a read error of the compressed stream means.
func readErr(err error) error {
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return errors.New("the archive is truncated")
	case errors.Is(err, bufio.ErrTooLong):
		return fmt.Errorf("the archive is damaged: a line is longer than %d MiB", maxLine>>20)
	}
	// gzip's checksum and header, flate's corrupt input, or the file.
	return fmt.Errorf("the archive is damaged (%v)", err)
}

// mediaWriter writes media files: parts go to a temporary file, renamed
// into place when the file is complete.
type mediaWriter struct {
	dir  string
	name string
	f    *os.File
	off  int64
	tmps []string
}

// write takes one media line; it answers true when the file is complete.
func (m *mediaWriter) write(l *line) (bool, error) {
	rel := l.Media
	if !filepath.IsLocal(filepath.FromSlash(rel)) || strings.Contains(rel, `\`) || path.Clean(rel) != rel {
		return false, errors.New("not a path inside the uploads folder")
	}
	if m.dir == "" {
		return false, errors.New("the project has no local uploads folder for the archive's media")
	}
	if m.f != nil && m.name != rel {
		return false, fmt.Errorf("begins before %s ends", m.name)
	}
	if m.f == nil {
		dst := filepath.Join(m.dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return false, err
		}
		f, err := os.CreateTemp(filepath.Dir(dst), ".restore-*")
		if err != nil {
			return false, err
		}
		m.f, m.name, m.off = f, rel, 0
		m.tmps = append(m.tmps, f.Name())
	}
	if l.Done {
		if l.Size == nil || *l.Size != m.off {
			return false, fmt.Errorf("%d bytes where its end says %v", m.off, l.Size)
		}
		if err := m.f.Close(); err != nil {
			return false, err
		}
		err := os.Rename(m.f.Name(), filepath.Join(m.dir, filepath.FromSlash(rel)))
		m.f = nil
		return err == nil, err
	}
	if l.Offset == nil || *l.Offset != m.off {
		return false, fmt.Errorf("a part at offset %v where %d was due", l.Offset, m.off)
	}
	n, err := m.f.Write(l.Data)
	m.off += int64(n)
	return false, err
}

// finishAll checks that no file was left half written.
func (m *mediaWriter) finishAll() error {
	if m.f != nil {
		return fmt.Errorf("media %s has no end", m.name)
	}
	return nil
}

// abort removes what is left of an incomplete file.
func (m *mediaWriter) abort() {
	if m.f != nil {
		m.f.Close()
	}
	for _, t := range m.tmps {
		_ = os.Remove(t) // renamed ones are gone already
	}
}
