// Package licences loads public registries of retailer licences and
// enforcement actions (NYC DCWP, NYS tobacco vendors, Philadelphia permits,
// FDA compliance checks; one definition file each under sources/), keeps
// their rows with the history of each licence's status, matches them to
// stores (normalised address, postal code, distance, name), and writes the
// outcome to the stores through stores.Writer (docs/licences.md).
package licences

import (
	"embed"
	"encoding/json"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"
)

//go:embed sources/*.json
var sourceFiles embed.FS

// Source is one registry's definition: how its export's columns, statuses
// and dates read. Adding a registry is adding a file under sources/.
type Source struct {
	Name         string `json:"name"` // what --source takes
	Title        string `json:"title"`
	Jurisdiction string `json:"jurisdiction"`
	// Rows is "licences" (each row a licence) or "actions" (each row an
	// enforcement decision).
	Rows string `json:"rows"`
	// Columns maps our fields to the export's column names: number, name,
	// trade_name, building and street (or address), city, state,
	// postal_code, kind, status, expires_on, latitude, longitude; for
	// actions decided_on, until, result, product.
	Columns  map[string]string `json:"columns"`
	Required []string          `json:"required"` // fields a row cannot go without
	// Kinds maps the kind column's values to the licence kind shown; rows
	// of other kinds (a registry of every business) are skipped. Without a
	// kind column every row is Kind.
	Kinds map[string]string `json:"kinds"`
	Kind  string            `json:"kind"`
	// Statuses maps the status column's values to active, expired,
	// revoked or inactive; without a status column every row is Status.
	Statuses map[string]string `json:"statuses"`
	Status   string            `json:"status"`
	// Actions maps the result column's values to an enforcement kind; ""
	// records nothing (an inspection without a violation).
	Actions map[string]string `json:"actions"`
	// ActionDays is how long an action of a kind runs when the export has
	// no end date.
	ActionDays  map[string]int `json:"action_days"`
	DateFormats []string       `json:"date_formats"` // Go layouts, tried in order
	// RecordURL is the public record of a licence, {number} replaced.
	RecordURL string `json:"record_url"`
	// State and City fill rows whose export has no such column.
	State string `json:"state"`
	City  string `json:"city"`
}

// Actions reports whether the source's rows are enforcement actions.
func (s *Source) IsActions() bool { return s.Rows == "actions" }

// fields a definition may map.
var knownFields = []string{"number", "name", "trade_name", "building", "street", "address", "city", "state",
	"postal_code", "kind", "status", "expires_on", "latitude", "longitude", "decided_on", "until", "result", "product"}

var validStatuses = []string{"active", "expired", "revoked", "inactive"}

// check refuses a definition that cannot work (a mistake in the file, found
// by the tests before any import).
func (s *Source) check() error {
	switch {
	case s.Name == "" || s.Jurisdiction == "":
		return fmt.Errorf("name and jurisdiction are required")
	case s.Rows != "licences" && s.Rows != "actions":
		return fmt.Errorf("rows must be licences or actions")
	case len(s.DateFormats) == 0:
		return fmt.Errorf("date_formats is empty")
	}
	for f := range s.Columns {
		if !slices.Contains(knownFields, f) {
			return fmt.Errorf("unknown field %q in columns", f)
		}
	}
	for _, f := range s.Required {
		if s.Columns[f] == "" {
			return fmt.Errorf("required field %q has no column", f)
		}
	}
	if s.Columns["address"] == "" && (s.Columns["building"] == "" || s.Columns["street"] == "") {
		return fmt.Errorf("columns need address, or building and street")
	}
	if s.IsActions() {
		if s.Columns["result"] == "" || s.Columns["decided_on"] == "" || len(s.Actions) == 0 {
			return fmt.Errorf("actions need result and decided_on columns and an actions map")
		}
		return nil
	}
	if s.Columns["kind"] == "" && s.Kind == "" {
		return fmt.Errorf("licences need a kind column or a kind")
	}
	if s.Columns["status"] == "" && !slices.Contains(validStatuses, s.Status) {
		return fmt.Errorf("licences need a status column or a status")
	}
	for k, v := range s.Statuses {
		if !slices.Contains(validStatuses, v) {
			return fmt.Errorf("status %q maps to %q, not one of %s", k, v, strings.Join(validStatuses, ", "))
		}
	}
	return nil
}

// Sources returns the shipped definitions by name.
func Sources() (map[string]*Source, error) {
	ents, err := sourceFiles.ReadDir("sources")
	if err != nil {
		return nil, fmt.Errorf("read source definitions: %w", err)
	}
	out := make(map[string]*Source, len(ents))
	for _, e := range ents {
		b, err := sourceFiles.ReadFile(path.Join("sources", e.Name()))
		if err != nil {
			return nil, fmt.Errorf("read source definition %s: %w", e.Name(), err)
		}
		var s Source
		if err := json.Unmarshal(b, &s); err != nil {
			return nil, fmt.Errorf("source definition %s: %w", e.Name(), err)
		}
		if err := s.check(); err != nil {
			return nil, fmt.Errorf("source definition %s: %w", e.Name(), err)
		}
		if s.Name+".json" != e.Name() {
			return nil, fmt.Errorf("source definition %s: name %q must match the file name", e.Name(), s.Name)
		}
		out[s.Name] = &s
	}
	return out, nil
}

// SourceNames lists the shipped definitions' names, sorted.
func SourceNames() []string {
	ss, _ := Sources()
	return slices.Sorted(maps.Keys(ss))
}
