package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"locator/internal/config"
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
	if len(args) == 0 || args[0] != "import" {
		fs.Usage()
		return &exitError{code: 2, msg: "directories needs import"}
	}
	cfg, err := parse(fs, s, args[1:])
	if err != nil {
		return err
	}
	if fs.NArg() != 1 || *state == "" {
		fs.Usage()
		return &exitError{code: 2, msg: "directories import needs --state and exactly one FILE"}
	}
	if _, err := productlaw.Definition(*state); err != nil {
		return &exitError{code: 2, msg: err.Error()}
	}
	file, err := os.Open(fs.Arg(0))
	if err != nil {
		return err
	}
	defer file.Close()
	d, _, err := openLogged(ctx, cfg, stderr)
	if err != nil {
		return err
	}
	defer d.Close()
	name := filepath.Base(fs.Arg(0))
	rep, err := productlaw.NewRepo(d).Import(ctx, *state, file, name, *skipBad)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if *asJSON {
		if err := json.NewEncoder(stdout).Encode(rep); err != nil {
			return err
		}
	} else {
		for _, e := range rep.Errors {
			fmt.Fprintf(stdout, "line %d: error: %s\n", e.Line, e.Message)
		}
		if more := rep.Failed - len(rep.Errors); more > 0 {
			fmt.Fprintf(stdout, "(%d more bad rows not listed)\n", more)
		}
		if len(rep.Ignored) > 0 {
			fmt.Fprintf(stdout, "columns not read: %s\n", strings.Join(rep.Ignored, ", "))
		}
		if rep.Written {
			fmt.Fprintf(stdout, "%s: %d products listed (%d before), %d failed\n", rep.State, rep.Rows, rep.Removed, rep.Failed)
		} else {
			fmt.Fprintf(stdout, "%s: nothing written: %d rows failed (--skip-bad writes the %d good rows)\n", rep.State, rep.Failed, rep.Rows)
		}
	}
	if rep.Failed > 0 {
		return &exitError{code: 1, msg: fmt.Sprintf("%d rows failed", rep.Failed)}
	}
	return nil
}
