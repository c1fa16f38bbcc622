package db_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"locator/internal/db"
	"locator/internal/db/dbtest"
)

// A database that refuses or hangs fails each bounded call with an error
// Unavailable recognises, within the call timeout, and the pool recovers
// once the database answers again.
func TestCallsAreBoundedThroughOutages(t *testing.T) {
	d, proxy := dbtest.ProxiedPostgres(t)
	const timeout = 300 * time.Millisecond
	ctx := db.WithCallTimeout(context.Background(), timeout)
	query := func() error {
		var one int
		return d.QueryRow(ctx, "SELECT 1").Scan(&one)
	}
	exec := func() error {
		_, err := d.Exec(ctx, "UPDATE search_version SET version = version WHERE id = 1")
		return err
	}
	inTx := func() error {
		return d.InTx(ctx, func(tx *db.Tx) error {
			_, err := tx.Exec(ctx, "UPDATE search_version SET version = version WHERE id = 1")
			return err
		})
	}
	dbtest.Must(t, query(), "query through the proxy")

	for _, mode := range []struct {
		name string
		mode dbtest.Mode
	}{{"refuse", dbtest.Refuse}, {"hang", dbtest.Hang}} {
		proxy.Set(mode.mode)
		for _, call := range []struct {
			name string
			fn   func() error
		}{{"query", query}, {"exec", exec}, {"transaction", inTx}} {
			var err error
			took := dbtest.WithinBound(t, timeout+10*time.Second, func() { err = call.fn() })
			if err == nil || !db.Unavailable(err) {
				t.Fatalf("%s, %s: %v (%T), want an Unavailable error", mode.name, call.name, err, err)
			}
			t.Logf("%s, %s: failed after %v: %v", mode.name, call.name, took.Round(time.Millisecond), err)
		}
		proxy.Set(dbtest.Pass)
		var err error
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			if err = query(); err == nil {
				break
			}
		}
		if err != nil {
			t.Fatalf("after the %s outage: %v", mode.name, err)
		}
	}

	// Inside a transaction: a statement or the commit that meets a hanging
	// database fails within the bound; slow work between statements does
	// not count.
	update := func(tx *db.Tx) error {
		_, err := tx.Exec(ctx, "UPDATE search_version SET version = version WHERE id = 1")
		return err
	}
	for _, c := range []struct {
		name string
		fn   func(tx *db.Tx) error
	}{
		{"statement", func(tx *db.Tx) error { proxy.Set(dbtest.Hang); return update(tx) }},
		{"commit", func(tx *db.Tx) error { err := update(tx); proxy.Set(dbtest.Hang); return err }},
	} {
		var err error
		dbtest.WithinBound(t, 2*timeout+10*time.Second, func() { err = d.InTx(ctx, c.fn) })
		if !db.Unavailable(err) {
			t.Fatalf("hang at the %s of a transaction: %v", c.name, err)
		}
		proxy.Set(dbtest.Pass)
	}
	var err error
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		err = d.InTx(ctx, func(tx *db.Tx) error {
			if err := update(tx); err != nil {
				return err
			}
			time.Sleep(2 * timeout) // e.g. a geocoder
			return update(tx)
		})
		if err == nil {
			break
		}
	}
	dbtest.Must(t, err, "a transaction with slow work between its statements")

	// Without a call timeout only the caller's context bounds a call.
	proxy.Set(dbtest.Hang)
	cctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var one int
	err = d.QueryRow(cctx, "SELECT 1").Scan(&one)
	if !errors.Is(err, context.DeadlineExceeded) || !db.Unavailable(err) {
		t.Fatalf("hang with a caller deadline: %v", err)
	}
	proxy.Set(dbtest.Pass)
}

func TestStatementTimeout(t *testing.T) {
	u, _ := dbtest.NewSchema(t)
	ctx := context.Background()
	d, err := db.Open(ctx, u)
	dbtest.Must(t, err, "open")
	defer d.Close()
	var v string
	dbtest.Must(t, d.QueryRow(ctx, "SHOW statement_timeout").Scan(&v), "show")
	if v != "1min" {
		t.Fatalf("default statement_timeout %q, want 1min", v)
	}
	short, err := db.Open(ctx, u+"&statement_timeout=50")
	dbtest.Must(t, err, "open with statement_timeout")
	defer short.Close()
	_, err = short.Exec(ctx, "SELECT pg_sleep(2)")
	if err == nil || !db.Unavailable(err) {
		t.Fatalf("a statement past statement_timeout: %v, want an Unavailable error", err)
	}
	if db.Unavailable(errors.New("some bug")) || db.Unavailable(nil) {
		t.Fatal("Unavailable is true for an ordinary error")
	}
}
