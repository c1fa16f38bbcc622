package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"locator/internal/catalog"
	"locator/internal/config"
	"locator/internal/db"
	"locator/internal/inventory"
	"locator/internal/medusa"
	"locator/internal/stores"
)

const productsSyncUsage = `products sync [--json] [--status]

Reads the marketplace's Medusa server (LOCATOR_MEDUSA_URL, with
LOCATOR_MEDUSA_TOKEN or LOCATOR_MEDUSA_EMAIL and LOCATOR_MEDUSA_PASSWORD):
its stock locations, the products and variants changed since the last
sync into the catalogue, and the stock of every location mapped to a
store in /admin (docs/products.md, "From the marketplace (Medusa)").
serve does the same every LOCATOR_MEDUSA_SYNC_INTERVAL. --status prints
the sync's state without calling Medusa. Exit status 1 when Medusa could
not be read or any variant or level was refused.`

func cmdProductsSync(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	fs := newFlags("products sync", productsSyncUsage, stderr)
	s := config.Register(fs, getenv, append([]string{"database-url", "log-format", "log-level"}, config.MedusaNames...)...)
	asJSON := fs.Bool("json", false, "print the report as JSON (for scripts)")
	status := fs.Bool("status", false, "print the sync's state and the mapping, without calling Medusa")
	cfg, err := parse(fs, s, args)
	if err != nil {
		return err
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return &exitError{code: 2, msg: "products sync takes no arguments"}
	}
	if cfg.MedusaURL == "" {
		return &exitError{code: 2, msg: "products sync needs LOCATOR_MEDUSA_URL (--medusa-url)"}
	}
	d, _, err := openLogged(ctx, cfg, stderr)
	if err != nil {
		return err
	}
	defer d.Close()
	sy, err := newMedusaSyncer(cfg, d)
	if err != nil {
		return err
	}
	if *status {
		return printSyncStatus(ctx, sy, d, stdout, *asJSON)
	}
	ran, rep, runErr := sy.RunNow(ctx, cfg.MedusaInterval)
	if !ran {
		return &exitError{code: 1, msg: "another replica is syncing from Medusa right now; try again in a few minutes"}
	}
	if rep != nil {
		if *asJSON {
			if err := json.NewEncoder(stdout).Encode(rep); err != nil {
				return err
			}
		} else {
			for _, e := range rep.Errors {
				fmt.Fprintf(stdout, "%s: error: %s\n", e.What, e.Message)
			}
			if more := rep.Failed - len(rep.Errors); more > 0 {
				fmt.Fprintf(stdout, "(%d more refused not listed)\n", more)
			}
			fmt.Fprintf(stdout, "%d stock locations (%d mapped to a store); %d variants read, %d written to the catalogue, %d of products not published; %d stock rows written; %d failed\n",
				rep.Locations, rep.Mapped, rep.Variants, rep.Written, rep.Skipped, rep.Stock, rep.Failed)
			fmt.Fprintln(stdout, deletionsLine(rep.Withdrawn, rep.ProductsRemoved, rep.StockRemoved, rep.LocationsGone))
		}
	}
	if runErr != nil {
		return &exitError{code: 1, msg: "medusa sync: " + runErr.Error()}
	}
	if rep.Failed > 0 {
		return &exitError{code: 1, msg: fmt.Sprintf("%d variants or levels were refused", rep.Failed)}
	}
	return nil
}

// newMedusaSyncer is the syncer of cfg's Medusa server into d.
func newMedusaSyncer(cfg config.Config, d *db.DB) (*medusa.Syncer, error) {
	c, err := medusa.NewClient(medusa.Settings{URL: cfg.MedusaURL, Token: cfg.MedusaToken, Email: cfg.MedusaEmail, Password: cfg.MedusaPassword})
	if err != nil {
		return nil, err
	}
	cat := catalog.NewRepo(d)
	return medusa.NewSyncer(c, d, cat, inventory.NewRepo(stores.NewRepo(d), cat)), nil
}

func printSyncStatus(ctx context.Context, sy *medusa.Syncer, d *db.DB, stdout io.Writer, asJSON bool) error {
	st, err := sy.State(ctx)
	if err != nil {
		return err
	}
	locs, err := medusa.NewLocations(d).List(ctx)
	if err != nil {
		return err
	}
	if asJSON {
		return json.NewEncoder(stdout).Encode(map[string]any{"state": st, "locations": locs})
	}
	fmt.Fprintf(stdout, "source %s: cursor %q, %d failures in a row", st.Source, st.Cursor, st.Failures)
	if st.LastOKAt != nil {
		fmt.Fprintf(stdout, ", last success %s", st.LastOKAt.Format("2006-01-02 15:04:05Z"))
	}
	if st.LastError != "" {
		fmt.Fprintf(stdout, ", last error: %s", st.LastError)
	}
	fmt.Fprintln(stdout)
	if st.LastRunAt != nil {
		fmt.Fprintf(stdout, "last run: %s\n", deletionsLine(st.LastWithdrawn, st.LastProductsRemoved, st.LastStockRemoved, st.LastLocationsGone))
	}
	for _, l := range locs {
		to := "not mapped"
		if l.Store != nil {
			to = fmt.Sprintf("store %d %s", l.Store.ID, l.Store.Name)
		}
		if l.GoneAt != nil {
			to += fmt.Sprintf(", deleted in Medusa (missed since %s), its stock removed", l.GoneAt.Format("2006-01-02 15:04:05Z"))
		}
		fmt.Fprintf(stdout, "%s %s (%s, %s %s): %s\n", l.ID, l.Name, l.Address, l.City, l.PostalCode, to)
	}
	return nil
}

// deletionsLine says what a run withdrew of what Medusa deleted.
func deletionsLine(withdrawn, productsRemoved, stockRemoved, locationsGone int) string {
	return fmt.Sprintf("deletions applied: %d variants withdrawn (%d products removed from the catalogue), %d stock locations gone, %d stock rows removed",
		withdrawn, productsRemoved, locationsGone, stockRemoved)
}
