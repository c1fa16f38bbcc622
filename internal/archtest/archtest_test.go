// Package archtest checks that the imports between the project's packages
// point one way (docs/architecture.md, "Packages"): cmd -> httpapi ->
// features -> stores -> db, with the schedule on the ground floor under them
// and apperr and a few helpers as leaves.
package archtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const module = "locator/"

// Layers, lowest first. A package may import packages of a lower layer
// and, among features, other features; never a higher layer. Packages
// not listed are features when under internal/, top level otherwise, so a
// new package needs no entry here to be checked.
const (
	leaf    = iota // imports nothing of ours
	ground         // schedule: leaves only, under storage and every feature
	storage        // db
	domain         // stores
	feature        // search, importer, reviews, claims, ... (the default under internal/)
	http           // httpapi
	top            // cmd/..., tools/...
)

var layers = map[string]int{
	"internal/apperr":        leaf,
	"internal/config":        leaf,
	"internal/places/fold":   leaf,
	"internal/slug":          leaf,
	"internal/textfield":     leaf,
	"internal/phone":         leaf,
	"internal/mail/smtptest": leaf,
	"internal/httpbody":      leaf,
	"internal/httpconn":      leaf,
	"internal/golden":        leaf,
	"internal/metrics":       leaf,
	"internal/tabfile":       leaf,
	"web":                    leaf,
	"internal/schedule":      ground,
	"internal/db":            storage,
	"internal/db/dbtest":     storage,
	"internal/stores/events": domain,
	"internal/stores":        domain,
	"internal/catalog":       domain,
	"internal/httpapi":       http,
}

func layerOf(pkg string) int {
	if l, ok := layers[pkg]; ok {
		return l
	}
	if strings.HasPrefix(pkg, "internal/") {
		return feature
	}
	return top
}

var layerNames = []string{"leaf", "ground", "storage", "domain", "feature", "http", "top"}

// rule says why pkg may not import dep, or "" when it may.
func rule(pkg, dep string) string {
	lp, ld := layerOf(pkg), layerOf(dep)
	switch {
	case dep == "internal/httpapi" && !strings.HasPrefix(pkg, "cmd/"):
		return "only cmd/... imports httpapi"
	case lp == leaf:
		return "a leaf package imports nothing of ours"
	case ld > lp:
		return fmt.Sprintf("a %s package imports no %s package", layerNames[lp], layerNames[ld])
	case ld == lp && lp != feature && lp != top && !strings.HasPrefix(dep, pkg+"/") && !strings.HasPrefix(pkg, dep+"/"):
		return fmt.Sprintf("%s packages do not import each other", layerNames[lp])
	}
	return ""
}

type listed struct {
	ImportPath string
	Imports    []string
}

// packages lists every package of the module with its non-test imports of
// the module's own packages (tests may reach further: the SLB-1 gate drives
// the real HTTP handler).
func packages(t *testing.T) map[string][]string {
	t.Helper()
	cmd := exec.Command("go", "list", "-e", "-json=ImportPath,Imports", module+"...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v: %s", err, stderr.String())
	}
	pkgs := map[string][]string{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listed
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list output: %v", err)
		}
		var deps []string
		for _, d := range p.Imports {
			if strings.HasPrefix(d, module) {
				deps = append(deps, strings.TrimPrefix(d, module))
			}
		}
		pkgs[strings.TrimPrefix(p.ImportPath, module)] = deps
	}
	return pkgs
}

func TestImportsPointOneWay(t *testing.T) {
	pkgs := packages(t)
	for _, must := range []string{"cmd/locator", "internal/httpapi", "internal/search", "internal/stores", "internal/schedule", "internal/db", "internal/apperr"} {
		if _, ok := pkgs[must]; !ok {
			t.Fatalf("go list did not list %s (got %d packages)", must, len(pkgs))
		}
	}
	var bad []string
	for pkg, deps := range pkgs {
		for _, dep := range deps {
			if why := rule(pkg, dep); why != "" {
				bad = append(bad, fmt.Sprintf("%s imports %s: %s", pkg, dep, why))
			}
		}
	}
	slices.Sort(bad)
	for _, b := range bad {
		t.Error(b)
	}
}

// The rules themselves: each forbidden direction of the package graph is
// refused, and the ones the project relies on are allowed.
func TestRule(t *testing.T) {
	for _, c := range []struct {
		pkg, dep string
		ok       bool
	}{
		{"cmd/locator", "internal/httpapi", true},
		{"internal/httpapi", "internal/search", true},
		{"internal/search", "internal/stores", true},
		{"internal/reviews", "internal/stores", true},
		{"internal/seed", "internal/reviews", true},
		{"internal/stores", "internal/db", true},
		{"internal/stores", "internal/apperr", true},
		{"internal/stores", "internal/schedule", true},
		{"internal/claims", "internal/schedule", true},
		{"internal/schedule", "internal/apperr", true},
		{"internal/schedule", "internal/textfield", true},
		{"internal/schedule", "internal/stores", false},
		{"internal/schedule", "internal/db", false},
		{"internal/db/dbtest", "internal/db", true},
		{"tools/slb", "internal/search", true},
		{"tools/slb", "internal/httpapi", false},
		{"internal/bench", "internal/httpapi", false},
		{"internal/stores", "internal/search", false},
		{"internal/stores", "internal/httpapi", false},
		{"internal/stores", "internal/reviews", false},
		{"internal/db", "internal/stores", false},
		{"internal/db", "internal/claims", false},
		{"internal/apperr", "internal/db", false},
		{"internal/httpapi", "cmd/locator", false},
		{"internal/newfeature", "internal/httpapi", false},
	} {
		if got := rule(c.pkg, c.dep) == ""; got != c.ok {
			t.Errorf("%s -> %s allowed %v, want %v (%s)", c.pkg, c.dep, got, c.ok, rule(c.pkg, c.dep))
		}
	}
}

// search follows the stores through the change feed and never writes one:
// no SQL that changes the stores' tables, no stores.Writer.
func TestSearchNeverWritesStores(t *testing.T) {
	files, err := filepath.Glob("../search/*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no search sources found (%v)", err)
	}
	write := regexp.MustCompile(`(?i)\b(INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+(stores|working_hours|countries|search_version)\b|stores\.Writer\b`)
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if m := write.Find(src); m != nil {
			t.Errorf("%s writes stores: %q", f, m)
		}
	}
}
