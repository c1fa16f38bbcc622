// Command locator is the whole product in one binary: the store search API,
// the embedded web app, and the operator's commands.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// version is set at build time: -ldflags "-X main.version=..."
var version = "dev"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	// The first signal starts a graceful stop (serve drains first); a
	// second one ends the process at once.
	go func() { <-ctx.Done(); stop() }()
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr, os.Getenv)
	stop()
	if errors.Is(err, flag.ErrHelp) {
		os.Exit(0)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "locator:", err)
		os.Exit(exitCode(err))
	}
}

// exitError carries an exit status other than 1.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

func exitCode(err error) int {
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	return 1
}

const usage = `locator: the store locator.

Usage:
  locator serve     run the web app and the API (seeds demo data into an empty database)
  locator migrate   apply database migrations
  locator seed      write the offline demo data set (--demo)
  locator import    import stores from a CSV or JSON file
  locator snapshot  write a search snapshot now (replicas start from it; serve writes them too)
  locator backup    copy the running SQLite database to a file (PostgreSQL: pg_dump)
  locator restore   replace the SQLite database with such a copy (servers stopped)
  locator claims    moderate store claims: list, show, approve, reject
  locator licences  import a public registry of licences (--source NAME FILE), or its status
  locator products  import the product catalogue (import FILE: CSV or JSON), or sync it and stock from Medusa (sync)
  locator inventory import stock per store from a local inventory feed (import [--replace] FILE)
  locator directories load a state's directory of vapour products that may be sold (import --state CODE FILE)
  locator insights  searches, zero-result searches and their top places (--days N)
  locator moderators add EMAIL: a moderator for the /admin page
  locator version   print the version

Run "locator COMMAND --help" for a command's flags. Every flag can also be
set with its LOCATOR_* environment variable; flags win.
`

// command is a subcommand: its arguments, output and environment.
type command func(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error

// commands are the subcommands by name (moderators also reads stdin; version
// and help are run's own).
var commands = map[string]command{
	"serve": cmdServe, "migrate": cmdMigrate, "seed": cmdSeed, "import": cmdImport, "snapshot": cmdSnapshot,
	"backup": cmdBackup, "restore": cmdRestore, "claims": cmdClaims, "licences": cmdLicences,
	"insights": cmdInsights, "products": cmdProducts, "inventory": cmdInventory,
	"directories": cmdDirectories,
}

// run is main without the process: tests call it with their own arguments,
// output and environment.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return &exitError{code: 2, msg: "no command given"}
	}
	cmd, rest := args[0], args[1:]
	if c, ok := commands[cmd]; ok {
		return c(ctx, rest, stdout, stderr, getenv)
	}
	switch cmd {
	case "moderators":
		return cmdModerators(ctx, rest, os.Stdin, stdout, stderr, getenv)
	case "version", "--version", "-v":
		fmt.Fprintln(stdout, "locator", version)
		return nil
	case "help", "--help", "-h":
		fmt.Fprint(stdout, usage)
		return nil
	default:
		fmt.Fprint(stderr, usage)
		return &exitError{code: 2, msg: fmt.Sprintf("unknown command %q", cmd)}
	}
}

// newFlags returns a flag set whose --help prints a description first.
func newFlags(name, synopsis string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: locator %s\n\n", synopsis)
		fs.PrintDefaults()
	}
	return fs
}
