package db

import "context"

// MigrateUpTo applies the pending steps named up to and including last.
func MigrateUpTo(ctx context.Context, d *DB, last string) ([]string, error) {
	return d.migrate(ctx, last)
}

// StepNames lists the migration steps in the order they apply.
func StepNames() ([]string, error) {
	all, err := steps(SQLite)
	names := make([]string, len(all))
	for i, s := range all {
		names[i] = s.name
	}
	return names, err
}

// Render expands body's dialect tokens for d.
var Render = render
