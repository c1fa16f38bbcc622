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
	cfg, file, force, err := parseCopy("backup", "backup [flags] FILE\n\nWrites a consistent copy of the running SQLite database to FILE (VACUUM INTO:\nservers go on reading and writing meanwhile). For PostgreSQL use pg_dump\n(docs/deploy.md, \"Backups\").",
		"replace FILE if it exists", args, stderr, getenv)
	if err != nil {
		return err
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
	if err := d.Backup(ctx, file, force); err != nil {
		return backupError(err)
	}
	fmt.Fprintf(stdout, "backup written to %s\n", file)
	return nil
}

func cmdRestore(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	cfg, file, force, err := parseCopy("restore", "restore [flags] FILE\n\nReplaces the SQLite database with the backup in FILE (written by locator backup).\nStop every server on the database first: a database that exists, or that a\nrunning process has open, is replaced only with --force. Start the servers\nafterwards; they migrate an older backup and rebuild their search index from it.",
		"replace an existing database, even one a running process has open", args, stderr, getenv)
	if err != nil {
		return err
	}
	if err := db.Restore(ctx, cfg.DatabaseURL, file, force); err != nil {
		return backupError(err)
	}
	fmt.Fprintf(stdout, "database restored from %s\n", file)
	return nil
}

// parseCopy reads the flags of backup and restore: the database, --force
// (forceUsage) and exactly one FILE.
func parseCopy(name, synopsis, forceUsage string, args []string, stderr io.Writer, getenv func(string) string) (config.Config, string, bool, error) {
	fs := newFlags(name, synopsis, stderr)
	s := config.Register(fs, getenv, "database-url")
	force := fs.Bool("force", false, forceUsage)
	cfg, err := parse(fs, s, args)
	if err != nil {
		return cfg, "", false, err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return cfg, "", false, &exitError{code: 2, msg: name + " needs exactly one FILE"}
	}
	return cfg, fs.Arg(0), *force, nil
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
