package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"locator/internal/config"
	"locator/internal/db"
	"locator/internal/tabfile"
)

// parseImport is the start of the "NAME import [flags] FILE" commands:
// args[0] must be "import", then the flags, then exactly one FILE (more
// is a usage error naming what is missing: need).
func parseImport(fs *flag.FlagSet, s *config.Settings, args []string, ok func() bool, need string) (config.Config, error) {
	if len(args) == 0 || args[0] != "import" {
		fs.Usage()
		return config.Config{}, &exitError{code: 2, msg: fs.Name() + " needs import"}
	}
	cfg, err := parse(fs, s, args[1:])
	if err != nil {
		return cfg, err
	}
	if fs.NArg() != 1 || !ok() {
		fs.Usage()
		return cfg, &exitError{code: 2, msg: fs.Name() + " import needs " + need}
	}
	return cfg, nil
}

// importFile opens the file at path, then the database, and hands both to
// imp with the file's base name; imp's error is reported as that file's.
func importFile[R any](ctx context.Context, cfg config.Config, path string, stderr io.Writer,
	imp func(d *db.DB, file io.Reader, name string) (R, error)) (R, error) {
	var rep R
	file, err := os.Open(path)
	if err != nil {
		return rep, err
	}
	defer file.Close()
	d, _, err := openLogged(ctx, cfg, stderr)
	if err != nil {
		return rep, err
	}
	defer d.Close()
	name := filepath.Base(path)
	if rep, err = imp(d, file, name); err != nil {
		return rep, fmt.Errorf("%s: %w", name, err)
	}
	return rep, nil
}

// rowsReport is what an import command prints of its report besides the
// summary line: the refused rows listed (where: "line", or "item" in a
// JSON array), how many were refused in all, the columns it did not read.
type rowsReport struct {
	where   string
	errors  []tabfile.RowError
	failed  int
	ignored []string
}

// printImport prints rep as JSON with --json; else the refused rows, how
// many more were left out of the list, the columns not read and summary.
// Any refused row makes the command's exit status 1.
func printImport(stdout io.Writer, asJSON bool, rep any, rows rowsReport, summary string) error {
	if asJSON {
		if err := json.NewEncoder(stdout).Encode(rep); err != nil {
			return err
		}
	} else {
		for _, e := range rows.errors {
			fmt.Fprintf(stdout, "%s %d: error: %s\n", rows.where, e.Line, e.Message)
		}
		if more := rows.failed - len(rows.errors); more > 0 {
			fmt.Fprintf(stdout, "(%d more bad rows not listed)\n", more)
		}
		if len(rows.ignored) > 0 {
			fmt.Fprintf(stdout, "columns not read: %s\n", strings.Join(rows.ignored, ", "))
		}
		fmt.Fprintln(stdout, summary)
	}
	if rows.failed > 0 {
		return &exitError{code: 1, msg: fmt.Sprintf("%d rows failed", rows.failed)}
	}
	return nil
}
