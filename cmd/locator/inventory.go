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
	if len(args) == 0 || args[0] != "import" {
		fs.Usage()
		return &exitError{code: 2, msg: "inventory needs import"}
	}
	cfg, err := parse(fs, s, args[1:])
	if err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return &exitError{code: 2, msg: "inventory import needs exactly one FILE"}
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
	rep, err := inventory.NewRepo(stores.NewRepo(d), catalog.NewRepo(d)).Import(ctx, file, name, *replace)
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
		fmt.Fprintf(stdout, "%d rows written for %d stores, %d removed, %d failed\n", rep.Rows, rep.Stores, rep.Removed, rep.Failed)
	}
	if rep.Failed > 0 {
		return &exitError{code: 1, msg: fmt.Sprintf("%d rows failed", rep.Failed)}
	}
	return nil
}
