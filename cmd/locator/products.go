package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"locator/internal/catalog"
	"locator/internal/config"
)

const productsUsage = `products import [--format csv|json] [--json] FILE
       products sync [--json] [--status] (from Medusa; products sync --help)

Imports the catalogue from a CSV file (comma or tab separated, header
line) or a JSON array of objects (docs/products.md). A row whose id is in
the catalogue updates that product; a row without an id updates the
product with its GTIN; other rows create products. Bad rows are listed
with their line (JSON: their position) and skipped; the good rows are
written in one transaction, so a failure leaves nothing half done.
Exit status 1 when any row was refused.`

func cmdProducts(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	fs := newFlags("products", productsUsage, stderr)
	s := config.Register(fs, getenv, "database-url", "log-format", "log-level")
	format := fs.String("format", "", "csv or json (default: from the file's extension, else from its first character)")
	asJSON := fs.Bool("json", false, "print the report as JSON (for scripts)")
	if len(args) > 0 && args[0] == "sync" {
		return cmdProductsSync(ctx, args[1:], stdout, stderr, getenv)
	}
	if len(args) == 0 || args[0] != "import" {
		fs.Usage()
		return &exitError{code: 2, msg: "products needs import or sync"}
	}
	cfg, err := parse(fs, s, args[1:])
	if err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return &exitError{code: 2, msg: "products import needs exactly one FILE"}
	}
	f, err := fileFormat(fs.Arg(0), *format, map[string]string{".csv": "csv", ".tsv": "csv", ".txt": "csv", ".json": "json"})
	if err != nil {
		return err
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
	rep, err := catalog.NewRepo(d).Import(ctx, file, catalog.Format(f))
	if err != nil {
		return fmt.Errorf("%s: %w", filepath.Base(fs.Arg(0)), err)
	}
	if *asJSON {
		if err := json.NewEncoder(stdout).Encode(rep); err != nil {
			return err
		}
	} else {
		where := "line"
		if rep.Format == catalog.JSON {
			where = "item"
		}
		for _, e := range rep.Errors {
			fmt.Fprintf(stdout, "%s %d: error: %s\n", where, e.Line, e.Message)
		}
		if more := rep.Failed - len(rep.Errors); more > 0 {
			fmt.Fprintf(stdout, "(%d more bad rows not listed)\n", more)
		}
		fmt.Fprintf(stdout, "%d created, %d updated, %d failed\n", rep.Created, rep.Updated, rep.Failed)
	}
	if rep.Failed > 0 {
		return &exitError{code: 1, msg: fmt.Sprintf("%d rows failed", rep.Failed)}
	}
	return nil
}

// fileFormat is the format flag's value, or the one the file's extension
// names in byExt, or "" (the reader sniffs it).
func fileFormat(path, flagValue string, byExt map[string]string) (string, error) {
	if flagValue != "" {
		for _, v := range byExt {
			if v == flagValue {
				return flagValue, nil
			}
		}
		return "", &exitError{code: 2, msg: fmt.Sprintf("unknown --format %q", flagValue)}
	}
	return byExt[strings.ToLower(filepath.Ext(path))], nil
}
