package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"locator/internal/config"
	"locator/internal/db"
	"locator/internal/productlaw"
)

const directoriesUsage = `directories import --state CODE [--skip-bad] [--json] FILE

Loads a state's directory of the vapour products that may be sold there
(docs/products.md, "The law"), in the state's published layout (CSV or TSV,
header line; the layouts are internal/productlaw/states/*.json), replacing
that state's list in one transaction. Bad rows are listed with their line;
a file with bad rows writes nothing unless --skip-bad (a row left out makes
its product read as not sold there by law). Exit status 1 when any row was
refused. States: `

func cmdDirectories(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	fs := newFlags("directories", directoriesUsage+strings.Join(productlaw.StateCodes(), ", ")+".", stderr)
	s := config.Register(fs, getenv, "database-url", "log-format", "log-level")
	state := fs.String("state", "", "the state whose directory FILE is (USPS code)")
	skipBad := fs.Bool("skip-bad", false, "write the good rows of a file with bad rows")
	asJSON := fs.Bool("json", false, "print the report as JSON (for scripts)")
	cfg, err := parseImport(fs, s, args, func() bool { return *state != "" }, "--state and exactly one FILE")
	if err != nil {
		return err
	}
	if _, err := productlaw.Definition(*state); err != nil {
		return &exitError{code: 2, msg: err.Error()}
	}
	rep, err := importFile(ctx, cfg, fs.Arg(0), stderr, func(d *db.DB, file io.Reader, name string) (*productlaw.Report, error) {
		return productlaw.NewRepo(d).Import(ctx, *state, file, name, *skipBad)
	})
	if err != nil {
		return err
	}
	summary := fmt.Sprintf("%s: %d products listed (%d before), %d failed", rep.State, rep.Rows, rep.Removed, rep.Failed)
	if !rep.Written {
		summary = fmt.Sprintf("%s: nothing written: %d rows failed (--skip-bad writes the %d good rows)", rep.State, rep.Failed, rep.Rows)
	}
	return printImport(stdout, *asJSON, rep, rowsReport{"line", rep.Errors, rep.Failed, rep.Ignored}, summary)
}
