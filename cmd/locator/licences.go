package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"locator/internal/config"
	"locator/internal/licences"
	"locator/internal/stores"
)

const licencesUsage = `licences import --source NAME [--date YYYY-MM-DD] [--json] FILE
       locator licences status [--json]

Imports a public registry's export of retailer licences or enforcement
actions (CSV or JSON, as the registry publishes it; the operator downloads
it) and matches its rows to stores (docs/licences.md). The newest file of a
source replaces that source's rows; a licence's status history is kept, and
so are moderators' decisions. --date is the date the registry published the
file (default: the file's modification date). Rows that cannot be read are
listed with their line and skipped; exit status 1 when any was.
"status" prints per source the rows, the date of the newest file and how
many rows are matched, ambiguous (waiting in /admin) and unmatched.
Sources: `

func cmdLicences(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	fs := newFlags("licences", licencesUsage+strings.Join(licences.SourceNames(), ", "), stderr)
	s := config.Register(fs, getenv, "database-url", "log-format", "log-level")
	source := fs.String("source", "", "import: the registry ("+strings.Join(licences.SourceNames(), ", ")+")")
	date := fs.String("date", "", "import: the date the registry published the file, YYYY-MM-DD")
	asJSON := fs.Bool("json", false, "print JSON (for scripts)")
	if len(args) == 0 || (args[0] != "import" && args[0] != "status") {
		fs.Usage()
		return &exitError{code: 2, msg: "licences needs import or status"}
	}
	action := args[0]
	cfg, err := parse(fs, s, args[1:])
	if err != nil {
		return err
	}
	var f *os.File
	if action == "import" {
		if fs.NArg() != 1 || *source == "" {
			fs.Usage()
			return &exitError{code: 2, msg: "licences import needs --source NAME and one FILE"}
		}
		if f, err = os.Open(fs.Arg(0)); err != nil {
			return err
		}
		defer f.Close()
		if *date == "" {
			st, err := f.Stat()
			if err != nil {
				return err
			}
			*date = st.ModTime().UTC().Format(time.DateOnly)
		}
	} else if fs.NArg() != 0 {
		return &exitError{code: 2, msg: "licences status takes no arguments"}
	}
	log := newLogger(cfg, stderr)
	d, err := openDB(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer d.Close()
	g, err := licences.New(stores.NewRepo(d), (&lazyZones{log: log}).ZoneAt, nil) // the zones load on first use
	if err != nil {
		return err
	}
	if action == "status" {
		st, err := g.Status(ctx)
		if err != nil {
			return err
		}
		if *asJSON {
			return json.NewEncoder(stdout).Encode(st)
		}
		w := tabwriter.NewWriter(stdout, 0, 2, 2, ' ', 0)
		fmt.Fprintln(w, "SOURCE\tFILE DATE\tROWS\tMATCHED\tAMBIGUOUS\tUNMATCHED\tBAD ROWS")
		for _, s := range st {
			fd := s.FileDate
			if fd == "" {
				fd = "never imported"
			}
			fmt.Fprintf(w, "%s\t%s\t%d\t%d\t%d\t%d\t%d\n", s.Source, fd, s.Rows, s.Matched, s.Ambiguous, s.Unmatched, s.Errors)
		}
		return w.Flush()
	}
	rep, err := g.Import(ctx, *source, f, filepath.Base(f.Name()), *date)
	if err != nil {
		return err
	}
	if *asJSON {
		if err := json.NewEncoder(stdout).Encode(rep); err != nil {
			return err
		}
	} else {
		for _, e := range rep.Errors {
			fmt.Fprintf(stdout, "line %d: error: %s\n", e.Line, e.Message)
		}
		fmt.Fprintf(stdout, "%s %s: %d rows (%d new, %d changed, %d gone), %d bad; %d matched, %d ambiguous, %d unmatched; %d stores changed\n",
			rep.Source, rep.FileDate, rep.Rows, rep.Added, rep.Changed, rep.Gone, len(rep.Errors), rep.Sure, rep.Doubtful, rep.Unmatched, rep.StoresChanged)
	}
	if len(rep.Errors) > 0 {
		return &exitError{code: 1, msg: fmt.Sprintf("%d rows could not be read", len(rep.Errors))}
	}
	return nil
}
