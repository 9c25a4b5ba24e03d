package store

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/upload"
)

// The media library's rows (stratum_files). Times are bound as time.Time,
// as GORM did, so rows written before and after read alike.

var _ upload.FileStore = (*Store)(nil)

// ext, mime and url may be NULL in tables made by AutoMigrate.
const fileCols = "id, document_id, name, alternative_text, caption, width, height, formats, hash, " +
	"COALESCE(ext, ''), COALESCE(mime, ''), COALESCE(size, 0), COALESCE(url, ''), created_at, updated_at, " +
	"focal_point, preview_url, COALESCE(provider, ''), provider_metadata"

// CreateFile inserts a file row, sets its id and writes its media.create
// event, in one transaction.
func (s *Store) CreateFile(ctx context.Context, r *upload.FileRecord) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, "INSERT INTO stratum_files (document_id, name, alternative_text, caption, width, height, "+
			"formats, hash, ext, mime, size, url, created_at, updated_at, provider) VALUES ("+s.phs(1, 15)+") RETURNING id",
			r.DocumentID, r.Name, r.AlternativeText, r.Caption, r.Width, r.Height, r.Formats, r.Hash, r.Ext, r.Mime, r.Size, r.URL,
			r.CreatedAt, r.UpdatedAt, fileProvider(r)).Scan(&r.ID)
		if err != nil {
			return err
		}
		return s.emitMedia(ctx, tx, upload.EventMediaCreate, r)
	})
}

// emitMedia writes a media event to the outbox in tx.
func (s *Store) emitMedia(ctx context.Context, tx *sql.Tx, event string, r *upload.FileRecord) error {
	now := time.Now()
	return s.insertEvents(ctx, tx, []*engine.Event{{Name: event, UID: upload.FileUID, DocumentID: r.DocumentID,
		Payload: upload.MediaPayload(event, r, now), At: now}})
}

// File returns one file row, nil when there is none. It reads on the read
// pool: media are populated inside document writes, which on SQLite hold
// the only writer connection.
func (s *Store) File(ctx context.Context, id int64) (*upload.FileRecord, error) {
	r, err := scanFile(s.read.QueryRowContext(ctx, "SELECT "+fileCols+" FROM stratum_files WHERE id = "+s.d.Placeholder(1), id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return r, err
}

// FileID returns the id of the row with documentID, 0 when none.
func (s *Store) FileID(ctx context.Context, documentID string) (int64, error) {
	var id int64
	err := s.read.QueryRowContext(ctx, "SELECT id FROM stratum_files WHERE document_id = "+s.d.Placeholder(1), documentID).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return id, err
}

// Files returns the rows of ids (those that exist) in id order; nil ids
// means every file.
func (s *Store) Files(ctx context.Context, ids []int64) ([]*upload.FileRecord, error) {
	q := "SELECT " + fileCols + " FROM stratum_files"
	var args []any
	if ids != nil {
		if len(ids) == 0 {
			return nil, nil
		}
		var cond string
		cond, args = inArgs(s.d, "id", ids)
		q += " WHERE " + cond
	}
	rows, err := s.read.QueryContext(ctx, q+" ORDER BY id", args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*upload.FileRecord
	for rows.Next() {
		r, err := scanFile(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// FilePage returns one page of the files, newest first, whose name contains
// search (any case; empty: every file), and how many match.
func (s *Store) FilePage(ctx context.Context, offset, limit int, search string) ([]*upload.FileRecord, int64, error) {
	where, args := "", []any{}
	if search != "" {
		esc := strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`).Replace(strings.ToLower(search))
		args = append(args, "%"+esc+"%")
		where = " WHERE LOWER(name) LIKE " + s.d.Placeholder(1) + ` ESCAPE '\'`
	}
	var total int64
	if err := s.read.QueryRowContext(ctx, "SELECT COUNT(*) FROM stratum_files"+where, args...).Scan(&total); err != nil {
		return nil, 0, err
	}
	args = append(args, limit, offset)
	rows, err := s.read.QueryContext(ctx, "SELECT "+fileCols+" FROM stratum_files"+where+" ORDER BY id DESC LIMIT "+
		s.d.Placeholder(len(args)-1)+" OFFSET "+s.d.Placeholder(len(args)), args...)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	var out []*upload.FileRecord
	for rows.Next() {
		r, err := scanFile(rows)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, r)
	}
	return out, total, rows.Err()
}

// UpdateFile sets what is said about a file; nil fields stay.
func (s *Store) UpdateFile(ctx context.Context, id int64, u upload.FileUpdate) error {
	set := []string{"updated_at = " + s.d.Placeholder(1)}
	args := []any{u.UpdatedAt}
	for _, c := range []struct {
		col string
		v   *string
	}{{"name", u.Name}, {"alternative_text", u.AlternativeText}, {"caption", u.Caption}} {
		if c.v != nil {
			args = append(args, *c.v)
			set = append(set, c.col+" = "+s.d.Placeholder(len(args)))
		}
	}
	args = append(args, id)
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, "UPDATE stratum_files SET "+strings.Join(set, ", ")+" WHERE id = "+s.d.Placeholder(len(args)), args...); err != nil {
			return err
		}
		r, err := scanFile(tx.QueryRowContext(ctx, "SELECT "+fileCols+" FROM stratum_files WHERE id = "+s.d.Placeholder(1), id))
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		return s.emitMedia(ctx, tx, upload.EventMediaUpdate, r)
	})
}

// ReplaceFile writes new bytes' description over a file row (ids and
// creation stay) and its media.update event.
func (s *Store) ReplaceFile(ctx context.Context, r *upload.FileRecord) error {
	p := s.d.Placeholder
	return s.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, "UPDATE stratum_files SET name = "+p(1)+", alternative_text = "+p(2)+", caption = "+p(3)+
			", width = "+p(4)+", height = "+p(5)+", formats = "+p(6)+", hash = "+p(7)+", ext = "+p(8)+", mime = "+p(9)+
			", size = "+p(10)+", url = "+p(11)+", updated_at = "+p(12)+
			", preview_url = NULL, provider_metadata = NULL, provider = "+p(13)+" WHERE id = "+p(14), // what Strapi said of the old bytes goes
			r.Name, r.AlternativeText, r.Caption, r.Width, r.Height, r.Formats, r.Hash, r.Ext, r.Mime, r.Size, r.URL, r.UpdatedAt,
			fileProvider(r), r.ID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return sql.ErrNoRows
		}
		return s.emitMedia(ctx, tx, upload.EventMediaUpdate, r)
	})
}

// DeleteFile removes a file row and writes its media.delete event.
func (s *Store) DeleteFile(ctx context.Context, id int64) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		r, err := scanFile(tx.QueryRowContext(ctx, "SELECT "+fileCols+" FROM stratum_files WHERE id = "+s.d.Placeholder(1), id))
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "DELETE FROM stratum_files WHERE id = "+s.d.Placeholder(1), id); err != nil {
			return err
		}
		return s.emitMedia(ctx, tx, upload.EventMediaDelete, r)
	})
}

// fileProvider is the provider column of r: "local" unless said.
func fileProvider(r *upload.FileRecord) string {
	if r.Provider == "" {
		return upload.ProviderLocal
	}
	return r.Provider
}

func scanFile(row interface{ Scan(...any) error }) (*upload.FileRecord, error) {
	r := &upload.FileRecord{}
	err := row.Scan(&r.ID, &r.DocumentID, &r.Name, &r.AlternativeText, &r.Caption, &r.Width, &r.Height, &r.Formats,
		&r.Hash, &r.Ext, &r.Mime, &r.Size, &r.URL, &r.CreatedAt, &r.UpdatedAt, &r.FocalPoint, &r.PreviewURL, &r.Provider,
		&r.ProviderMetadata)
	if err != nil {
		return nil, err
	}
	return r, nil
}
