package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"locator/internal/config"
	"locator/internal/db"
)

func cmdBackup(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	fs := newFlags("backup", "backup [flags] FILE\n\nWrites a consistent copy of the running SQLite database to FILE (VACUUM INTO:\nservers go on reading and writing meanwhile). For PostgreSQL use pg_dump\n(docs/deploy.md, \"Backups\").", stderr)
	s := config.Register(fs, getenv, "database-url")
	force := fs.Bool("force", false, "replace FILE if it exists")
	cfg, err := parse(fs, s, args)
	if err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return &exitError{code: 2, msg: "backup needs exactly one FILE"}
	}
	// Opened as it is: a backup never migrates (nor creates) the database.
	path, ok := strings.CutPrefix(cfg.DatabaseURL, "sqlite:")
	if !ok {
		return backupError(db.ErrPostgresBackup)
	}
	if _, err := os.Stat(path); err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	d, err := db.Open(ctx, cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Backup(ctx, fs.Arg(0), *force); err != nil {
		return backupError(err)
	}
	fmt.Fprintf(stdout, "backup written to %s\n", fs.Arg(0))
	return nil
}

func cmdRestore(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	fs := newFlags("restore", "restore [flags] FILE\n\nReplaces the SQLite database with the backup in FILE (written by locator backup).\nStop every server on the database first: a database that exists, or that a\nrunning process has open, is replaced only with --force. Start the servers\nafterwards; they migrate an older backup and rebuild their search index from it.", stderr)
	s := config.Register(fs, getenv, "database-url")
	force := fs.Bool("force", false, "replace an existing database, even one a running process has open")
	cfg, err := parse(fs, s, args)
	if err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return &exitError{code: 2, msg: "restore needs exactly one FILE"}
	}
	if err := db.Restore(ctx, cfg.DatabaseURL, fs.Arg(0), *force); err != nil {
		return backupError(err)
	}
	fmt.Fprintf(stdout, "database restored from %s\n", fs.Arg(0))
	return nil
}

// backupError gives a refusal its exit status: 2 for a PostgreSQL database
// (wrong tool), 1 for a database restore would overwrite.
func backupError(err error) error {
	var refused *db.RefusedError
	switch {
	case errors.Is(err, db.ErrPostgresBackup):
		return &exitError{code: 2, msg: err.Error()}
	case errors.As(err, &refused):
		return &exitError{code: 1, msg: err.Error()}
	}
	return err
}
