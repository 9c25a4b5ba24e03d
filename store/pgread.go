package store

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/stratum-cms/stratum/engine"
)

// On PostgreSQL, the reads of documents bypass database/sql: they run on
// the pooled connection's own pgx.Conn and decode each row from the wire
// bytes (pgx's RawValues). database/sql converted every column into a
// driver.Value first (a copy of each JSON column, a boxed time per
// timestamp) and then into our fields (another copy); a page of 25
// articles with 80 related documents spent a third of the server's CPU
// there and in the garbage those copies made. The pool, its limits, the
// statement cache and the connection-lost retries stay those of the
// *sql.DB.

// rowShape says which columns surround a document row's in a read: a list
// tag before them (a batch), extra after them, the total last.
type rowShape struct {
	tag, extra, total bool
}

// pgDirect tells whether reads on db go through pgx directly: PostgreSQL's
// read pool, not a transaction.
func (s *Store) pgDirect(db querier) bool {
	if s.d.Name() != "postgres" {
		return false
	}
	_, isPool := db.(*sql.DB)
	return isPool
}

// readRows runs a read of document rows of shape sh and calls each with
// every row, in order; the row's bytes are its own.
func (s *Store) readRows(ctx context.Context, db querier, q string, args []any, sh rowShape, reset func(), each func(tag int, r engine.Row, total int64) error) error {
	s.statements.Add(1)
	if s.pgDirect(db) {
		return again(ctx, func() error {
			reset()
			return s.pgRead(ctx, db.(*sql.DB), q, args, sh, each)
		})
	}
	return sqlRead(ctx, db, q, args, reset, func(rows *sql.Rows) error {
		var tag int
		var total int64
		r, err := s.scan(shaped{rows: rows, sh: sh, tag: &tag, total: &total}, sh.extra)
		if err != nil {
			return err
		}
		return each(tag, r, total)
	})
}

// shaped scans a row of a read whose shape adds a tag or a total.
type shaped struct {
	rows  *sql.Rows
	sh    rowShape
	tag   *int
	total *int64
}

func (s shaped) Scan(dest ...any) error {
	if s.sh.tag {
		dest = append([]any{s.tag}, dest...)
	}
	if s.sh.total {
		dest = append(dest, s.total)
	}
	return s.rows.Scan(dest...)
}

// pgRead runs q on one of db's connections through pgx.
func (s *Store) pgRead(ctx context.Context, db *sql.DB, q string, args []any, sh rowShape, each func(int, engine.Row, int64) error) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		sc, ok := dc.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("store: unexpected PostgreSQL driver connection %T", dc)
		}
		pc := sc.Conn()
		rows, err := pc.Query(ctx, q, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		d := pgDecoder{m: pc.TypeMap()}
		want := 8
		if sh.tag {
			want++
		}
		if sh.extra {
			want++
		}
		if sh.total {
			want++
		}
		for rows.Next() {
			fds, vals := rows.FieldDescriptions(), rows.RawValues()
			if len(vals) != want || len(fds) != want {
				return fmt.Errorf("store: a document read has %d columns, not %d", len(vals), want)
			}
			var tag int
			var total int64
			if sh.tag {
				n, err := d.int(&fds[0], vals[0])
				if err != nil {
					return err
				}
				tag, fds, vals = int(n), fds[1:], vals[1:]
			}
			r, err := d.row(fds, vals, sh.extra)
			if err != nil {
				return err
			}
			if sh.total {
				if total, err = d.int(&fds[len(fds)-1], vals[len(vals)-1]); err != nil {
					return err
				}
			}
			if err := each(tag, r, total); err != nil {
				return err
			}
		}
		return rows.Err()
	})
}

// pgDecoder reads column values from PostgreSQL's wire format: the common
// ones by hand, any other through pgx's type map.
type pgDecoder struct{ m *pgtype.Map }

var errNullColumn = errors.New("store: unexpected NULL in a document column")

// row decodes rowCols (and extra): the raw JSON is copied once, data and
// large joined into one object.
func (d pgDecoder) row(fds []pgconn.FieldDescription, vals [][]byte, extra bool) (engine.Row, error) {
	var r engine.Row
	var err error
	if r.ID, err = d.int(&fds[0], vals[0]); err != nil {
		return r, err
	}
	if vals[1] == nil || vals[2] == nil {
		return r, errNullColumn
	}
	r.DocumentID, r.Locale = string(vals[1]), internLocale(vals[2])
	if vals[3] != nil {
		t, err := d.time(&fds[3], vals[3])
		if err != nil {
			return r, err
		}
		r.PublishedAt = &t
	}
	if r.CreatedAt, err = d.time(&fds[4], vals[4]); err != nil {
		return r, err
	}
	if r.UpdatedAt, err = d.time(&fds[5], vals[5]); err != nil {
		return r, err
	}
	r.Data = joinedCopy(d.json(&fds[6], vals[6]), d.json(&fds[7], vals[7]))
	if extra && vals[8] != nil {
		r.Extra = append([]byte(nil), d.json(&fds[8], vals[8])...)
	}
	return r, nil
}

func (d pgDecoder) int(fd *pgconn.FieldDescription, v []byte) (int64, error) {
	if v == nil {
		return 0, errNullColumn
	}
	if fd.Format == pgtype.BinaryFormatCode {
		switch {
		case fd.DataTypeOID == pgtype.Int8OID && len(v) == 8:
			return int64(binary.BigEndian.Uint64(v)), nil
		case fd.DataTypeOID == pgtype.Int4OID && len(v) == 4:
			return int64(int32(binary.BigEndian.Uint32(v))), nil
		}
	} else if fd.Format == pgtype.TextFormatCode {
		if n, err := strconv.ParseInt(string(v), 10, 64); err == nil {
			return n, nil
		}
	}
	var n int64
	err := d.m.Scan(fd.DataTypeOID, fd.Format, v, &n)
	return n, err
}

// y2k is PostgreSQL's epoch for binary timestamps (microseconds since).
var y2k = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro()

func (d pgDecoder) time(fd *pgconn.FieldDescription, v []byte) (time.Time, error) {
	if v == nil {
		return time.Time{}, errNullColumn
	}
	if fd.Format == pgtype.BinaryFormatCode && len(v) == 8 &&
		(fd.DataTypeOID == pgtype.TimestamptzOID || fd.DataTypeOID == pgtype.TimestampOID) {
		us := int64(binary.BigEndian.Uint64(v))
		if us != 1<<63-1 && us != -1<<63 { // ±infinity
			return time.UnixMicro(y2k + us).UTC(), nil
		}
	}
	var t time.Time
	if err := d.m.Scan(fd.DataTypeOID, fd.Format, v, &t); err != nil {
		return t, err
	}
	return t.UTC(), nil
}

// json is a json or jsonb column's text: jsonb's binary format is a version
// byte before it.
func (d pgDecoder) json(fd *pgconn.FieldDescription, v []byte) []byte {
	if fd.Format == pgtype.BinaryFormatCode && fd.DataTypeOID == pgtype.JSONBOID && len(v) > 0 && v[0] == 1 {
		return v[1:]
	}
	return v
}

// internLocale returns the common locale codes without allocating.
func internLocale(b []byte) string {
	switch string(b) { // no allocation: the compiler compares in place
	case "":
		return ""
	case "en":
		return "en"
	}
	return string(b)
}
