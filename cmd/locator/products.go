package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"locator/internal/catalog"
	"locator/internal/config"
	"locator/internal/db"
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
	cfg, err := parseImport(fs, s, args, func() bool { return true }, "exactly one FILE")
	if err != nil {
		return err
	}
	f, err := fileFormat(fs.Arg(0), *format, map[string]string{".csv": "csv", ".tsv": "csv", ".txt": "csv", ".json": "json"})
	if err != nil {
		return err
	}
	rep, err := importFile(ctx, cfg, fs.Arg(0), stderr, func(d *db.DB, file io.Reader, _ string) (*catalog.Report, error) {
		return catalog.NewRepo(d).Import(ctx, file, catalog.Format(f))
	})
	if err != nil {
		return err
	}
	where := "line"
	if rep.Format == catalog.JSON {
		where = "item"
	}
	return printImport(stdout, *asJSON, rep, rowsReport{where, rep.Errors, rep.Failed, nil},
		fmt.Sprintf("%d created, %d updated, %d failed", rep.Created, rep.Updated, rep.Failed))
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
