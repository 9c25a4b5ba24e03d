package store

import (
	"context"
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
)

// A pooled PostgreSQL connection can be dead before it is used: the server
// restarted, failed over, ended idle sessions or was told to end this
// backend. database/sql only learns it when a statement fails on it (pgx
// then closes it and the pool drops it). Reads, and the BEGIN of a write,
// are safe to run again on another connection: the server never ran them.

// maxConnRetries bounds the retries of one statement: each retry drops one
// dead connection, and a pool full of them is a server that is down.
const maxConnRetries = 3

// connLost tells an error of a connection the server had already ended
// from an error of the statement.
func connLost(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch pe.Code {
		case "57P01", "57P02", "57P03": // admin_shutdown, crash_shutdown, cannot_connect_now
			return true
		case "0A000": // cached plan must not change result type: pgx has dropped the statement
			return strings.Contains(pe.Message, "cached plan")
		}
		return len(pe.Code) == 5 && pe.Code[:2] == "08" // connection_exception
	}
	var ne net.Error
	return errors.Is(err, driver.ErrBadConn) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, net.ErrClosed) || errors.As(err, &ne) || pgconn.SafeToRetry(err)
}

// again runs fn, and again on another connection while it meets a dead
// one, unless the request itself ended.
func again(ctx context.Context, fn func() error) error {
	for i := 0; ; i++ {
		err := fn()
		if err == nil || i == maxConnRetries || ctx.Err() != nil || !connLost(err) {
			return err
		}
	}
}
