package models

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// JSONError adds the line and column of a JSON decoding error in b, so a
// broken schema or config file says where it breaks.
func JSONError(b []byte, err error) error {
	var off int64 = -1
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	}
	if off < 0 {
		return err
	}
	line, col := Position(b, off)
	return fmt.Errorf("line %d, column %d: %w", line, col, err)
}

// Position is the 1-based line and column of the byte before offset off
// (encoding/json's offsets count the bytes read, the bad one included).
func Position(b []byte, off int64) (line, col int) {
	if off > int64(len(b)) {
		off = int64(len(b))
	}
	before := b[:off]
	line = bytes.Count(before, []byte{'\n'}) + 1
	col = int(off) - (bytes.LastIndexByte(before, '\n') + 1)
	if col == 0 {
		col = 1
	}
	return line, col
}
