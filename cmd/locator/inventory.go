package main

import (
	"context"
	"fmt"
	"io"

	"locator/internal/catalog"
	"locator/internal/config"
	"locator/internal/db"
	"locator/internal/inventory"
	"locator/internal/stores"
)

const inventoryUsage = `inventory import [--replace] [--json] FILE

Imports stock per store from a file in the layout of Google's local
inventory feed (CSV or TSV, header line; docs/products.md): store_code (a
store's store_id, or its id), id or gtin (a product of the catalogue),
availability, quantity, price, sale_price, pickup_method, pickup_sla.
By default rows not in the file keep theirs; with --replace each store the
file names keeps only the products it names. Bad rows are listed with
their line and skipped; the good rows are written in one transaction.
Exit status 1 when any row was refused.`

func cmdInventory(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	fs := newFlags("inventory", inventoryUsage, stderr)
	s := config.Register(fs, getenv, "database-url", "log-format", "log-level")
	replace := fs.Bool("replace", false, "a full feed: remove the named stores' rows the file does not name")
	asJSON := fs.Bool("json", false, "print the report as JSON (for scripts)")
	cfg, err := parseImport(fs, s, args, func() bool { return true }, "exactly one FILE")
	if err != nil {
		return err
	}
	rep, err := importFile(ctx, cfg, fs.Arg(0), stderr, func(d *db.DB, file io.Reader, name string) (*inventory.Report, error) {
		return inventory.NewRepo(stores.NewRepo(d), catalog.NewRepo(d)).Import(ctx, file, name, *replace)
	})
	if err != nil {
		return err
	}
	return printImport(stdout, *asJSON, rep, rowsReport{"line", rep.Errors, rep.Failed, rep.Ignored},
		fmt.Sprintf("%d rows written for %d stores, %d removed, %d failed", rep.Rows, rep.Stores, rep.Removed, rep.Failed))
}
