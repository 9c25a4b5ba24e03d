package backup

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/stratum-cms/stratum/internal/progress"
	"github.com/stratum-cms/stratum/store"
)

// Export writes the archive of st (one consistent snapshot of its tables)
// and of the files under o.UploadDir to w.
func Export(ctx context.Context, st *store.Store, w io.Writer, o Options) (*Summary, error) {
	bw := bufio.NewWriterSize(w, 256<<10)
	zw := gzip.NewWriter(bw)
	enc := json.NewEncoder(zw)
	enc.SetEscapeHTML(false)
	prog := progress.New(o.Progress, o.Bar, "export")
	defer prog.Done()
	sum := &Summary{}
	err := enc.Encode(header{Format: Format, Version: FormatVersion, Migration: store.LatestMigration(),
		Database: st.Dialect(), CreatedAt: time.Now().UTC().Format(time.RFC3339)})
	if err != nil {
		return nil, err
	}
	err = st.ReadBackup(ctx, func(r *store.BackupReader) error {
		tables, err := r.Tables(o.Types)
		if err != nil {
			return err
		}
		for _, t := range tables {
			n, err := r.Count(t)
			if err != nil {
				return err
			}
			if err := enc.Encode(line{Table: t.Name, Documents: t.Documents, Columns: t.Columns, Rows: &n}); err != nil {
				return err
			}
			prog.Start(t.Name, int(n))
			row := map[string]any{}
			out := struct {
				Table string         `json:"table"`
				Row   map[string]any `json:"row"`
			}{t.Name, row}
			var written int64
			err = r.Rows(t, func(vals []any) error {
				if err := ctx.Err(); err != nil {
					return err
				}
				for i, c := range t.Columns {
					row[c] = vals[i]
				}
				written++
				prog.Add(1)
				return enc.Encode(out)
			})
			if err != nil {
				return err
			}
			if written != n {
				return fmt.Errorf("table %s: %d rows read, %d counted", t.Name, written, n)
			}
			prog.Finish()
			sum.Tables++
			sum.Rows += n
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	files, err := mediaFiles(o.UploadDir)
	if err != nil {
		return nil, fmt.Errorf("export: media: %w", err)
	}
	prog.Start("media", len(files))
	for _, f := range files {
		n, err := writeMedia(enc, o.UploadDir, f)
		if err != nil {
			return nil, fmt.Errorf("export: media %s: %w", f, err)
		}
		sum.Media++
		sum.Bytes += n
		prog.Add(1)
	}
	prog.Finish()
	if err := enc.Encode(line{End: &summaryLine{Tables: sum.Tables, Rows: sum.Rows, Media: sum.Media}}); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return sum, bw.Flush()
}

// writeMedia writes one file as lines of at most mediaChunk bytes.
func writeMedia(enc *json.Encoder, dir, rel string) (int64, error) {
	f, err := os.Open(filepath.Join(dir, filepath.FromSlash(rel)))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	buf := make([]byte, mediaChunk)
	var off int64
	for {
		n, err := io.ReadFull(f, buf)
		if n > 0 {
			o := off
			if err := enc.Encode(line{Media: rel, Offset: &o, Data: buf[:n]}); err != nil {
				return 0, err
			}
			off += int64(n)
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return 0, err
		}
	}
	return off, enc.Encode(line{Media: rel, Done: true, Size: &off})
}
