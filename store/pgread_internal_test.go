package store

import (
	"encoding/binary"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
)

// TestPGDecoder: the hand decoding of wire values agrees with what each
// format means, falls back to pgx for the formats it does not read itself,
// and refuses what a document column cannot hold.
func TestPGDecoder(t *testing.T) {
	d := pgDecoder{m: pgtype.NewMap()}
	fd := func(oid uint32, format int16) *pgconn.FieldDescription {
		return &pgconn.FieldDescription{DataTypeOID: oid, Format: format}
	}
	be64 := func(v int64) []byte { return binary.BigEndian.AppendUint64(nil, uint64(v)) }
	bin, text := int16(pgtype.BinaryFormatCode), int16(pgtype.TextFormatCode)

	for _, c := range []struct {
		fd   *pgconn.FieldDescription
		raw  []byte
		want int64
	}{
		{fd(pgtype.Int8OID, bin), be64(-42), -42},
		{fd(pgtype.Int4OID, bin), binary.BigEndian.AppendUint32(nil, uint32(7)), 7},
		{fd(pgtype.Int8OID, text), []byte("123456789012"), 123456789012},
		{fd(pgtype.Int2OID, bin), []byte{0, 5}, 5}, // through pgx
	} {
		if got, err := d.int(c.fd, c.raw); err != nil || got != c.want {
			t.Errorf("int(%d/%d, %v) = %d, %v; want %d", c.fd.DataTypeOID, c.fd.Format, c.raw, got, err, c.want)
		}
	}
	if _, err := d.int(fd(pgtype.Int8OID, bin), nil); err == nil {
		t.Error("a NULL id decoded")
	}

	at := time.Date(2026, 11, 26, 13, 56, 36, 104000000, time.UTC)
	us := at.UnixMicro() - time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro()
	for _, c := range []struct {
		fd  *pgconn.FieldDescription
		raw []byte
	}{
		{fd(pgtype.TimestamptzOID, bin), be64(us)},
		{fd(pgtype.TimestampOID, bin), be64(us)},
		{fd(pgtype.TimestamptzOID, text), []byte("2026-11-26 14:56:36.104+01")}, // through pgx
	} {
		got, err := d.time(c.fd, c.raw)
		if err != nil || !got.Equal(at) || got.Location() != time.UTC {
			t.Errorf("time(%d/%d, %q) = %v, %v; want %v in UTC", c.fd.DataTypeOID, c.fd.Format, c.raw, got, err, at)
		}
	}
	if _, err := d.time(fd(pgtype.TimestamptzOID, bin), be64(1<<63-1)); err == nil {
		t.Error("infinity decoded as a time")
	}

	for _, c := range []struct {
		fd        *pgconn.FieldDescription
		raw, want string
	}{
		{fd(pgtype.JSONBOID, text), `{"a":1}`, `{"a":1}`},
		{fd(pgtype.JSONBOID, bin), "\x01{\"a\":1}", `{"a":1}`},
		{fd(pgtype.JSONOID, bin), `{"a":1}`, `{"a":1}`},
	} {
		if got := string(d.json(c.fd, []byte(c.raw))); got != c.want {
			t.Errorf("json(%d/%d, %q) = %q, want %q", c.fd.DataTypeOID, c.fd.Format, c.raw, got, c.want)
		}
	}

	// A whole row: its JSON is its own (the wire buffer is reused), data
	// and large joined, a NULL published_at and extra left empty.
	fds := []pgconn.FieldDescription{*fd(pgtype.Int8OID, bin), *fd(pgtype.TextOID, text), *fd(pgtype.TextOID, text),
		*fd(pgtype.TimestamptzOID, bin), *fd(pgtype.TimestamptzOID, bin), *fd(pgtype.TimestamptzOID, bin),
		*fd(pgtype.JSONBOID, text), *fd(pgtype.JSONOID, text), *fd(pgtype.JSONBOID, text)}
	data, large := []byte(`{"title":"x"}`), []byte(`{"body":"y"}`)
	vals := [][]byte{be64(9), []byte("doc"), []byte("en"), nil, be64(us), be64(us), data, large, nil}
	r, err := d.row(fds, vals, true)
	if err != nil {
		t.Fatal(err)
	}
	copy(data, "XXXXXXXXXXXXX")
	if r.ID != 9 || r.DocumentID != "doc" || r.Locale != "en" || r.PublishedAt != nil || !r.CreatedAt.Equal(at) ||
		string(r.Data) != `{"title":"x","body":"y"}` || r.Extra != nil {
		t.Errorf("row = %+v (data %s)", r, r.Data)
	}
	vals[1] = nil
	if _, err := d.row(fds, vals, true); err == nil {
		t.Error("a row without a document id decoded")
	}
}
