package db

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite"
)

// SQLite result codes (sqlite3.h): the primary code is the low byte.
const (
	sqliteBusy                 = 5
	sqliteLocked               = 6
	sqliteFull                 = 13        // SQLITE_FULL: the disk (or max_page_count) is full
	sqliteConstraintUnique     = 19 | 8<<8 // SQLITE_CONSTRAINT_UNIQUE
	sqliteConstraintPK         = 19 | 6<<8 // SQLITE_CONSTRAINT_PRIMARYKEY
	sqliteConstraintForeignKey = 19 | 3<<8 // SQLITE_CONSTRAINT_FOREIGNKEY
	pgUniqueViolation          = "23505"
	pgForeignKeyViolation      = "23503"
	pgQueryCanceled            = "57014" // statement_timeout, or a cancel request
	pgDiskFull                 = "53100" // disk_full
)

// Unavailable reports whether err says the database could not be reached or
// did not answer in time (refused or dropped connections, connect and
// statement timeouts, a server shutting down or out of connections, SQLite
// busy past its timeout), as opposed to a bug or bad data. Callers answer it
// with "try again later" instead of an internal error.
func Unavailable(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, driver.ErrBadConn) ||
		errors.Is(err, sql.ErrConnDone) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		pgconn.Timeout(err) {
		return true
	}
	var connectErr *pgconn.ConnectError
	var netErr net.Error
	if errors.As(err, &connectErr) || errors.As(err, &netErr) {
		return true
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch {
		case strings.HasPrefix(pgErr.Code, "08"), // connection exception
			pgErr.Code == "53300",         // too many connections
			pgErr.Code == "57P01",         // admin shutdown
			pgErr.Code == "57P02",         // crash shutdown
			pgErr.Code == "57P03",         // cannot connect now (starting up)
			pgErr.Code == pgQueryCanceled: // statement timeout
			return true
		}
		return false
	}
	var liteErr *sqlite.Error
	if errors.As(err, &liteErr) {
		code := liteErr.Code() & 0xff
		return code == sqliteBusy || code == sqliteLocked
	}
	return false
}

// UniqueViolation reports whether err is a unique constraint (or unique
// index) refusing a row, on either engine.
func UniqueViolation(err error) bool {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code == pgUniqueViolation
	}
	var liteErr *sqlite.Error
	if errors.As(err, &liteErr) {
		return liteErr.Code() == sqliteConstraintUnique || liteErr.Code() == sqliteConstraintPK
	}
	return false
}

// DiskFull reports whether err says the database's disk is full
// (SQLITE_FULL, PostgreSQL's disk_full): writes fail until space is
// freed, while reads go on. It is not Unavailable: retrying in a few
// seconds does not help, and the answer says so.
func DiskFull(err error) bool {
	if err == nil {
		return false
	}
	var liteErr *sqlite.Error
	if errors.As(err, &liteErr) {
		return liteErr.Code()&0xff == sqliteFull
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code == pgDiskFull
	}
	return false
}

// ForeignKeyViolation reports whether err is a foreign key refusing a row
// (a reference to a row that does not exist), on either engine.
func ForeignKeyViolation(err error) bool {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code == pgForeignKeyViolation
	}
	var liteErr *sqlite.Error
	if errors.As(err, &liteErr) {
		return liteErr.Code() == sqliteConstraintForeignKey
	}
	return false
}
