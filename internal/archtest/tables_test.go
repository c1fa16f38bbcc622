package archtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// One owner per table (docs/architecture.md, "One owner per table"): SQL
// naming a table appears only in the package that owns it; every other
// package calls the owner. Tests are free to set up and check rows
// directly, and the migrations (internal/db/migrations, .sql files) are not
// Go.
var owned = []struct {
	table, owner string
	sql          *regexp.Regexp
}{
	{"stores", "internal/stores", regexp.MustCompile(`(?i)\b(FROM|JOIN|UPDATE|INTO|TABLE)\s+stores\b`)},
	{"business_stores", "internal/ownership", regexp.MustCompile(`(?i)\bbusiness_stores\b`)},
	{"products", "internal/catalog", regexp.MustCompile(`(?i)\b(FROM|JOIN|UPDATE|INTO|TABLE)\s+products\b`)},
	{"stock", "internal/inventory", regexp.MustCompile(`(?i)\b(FROM|JOIN|UPDATE|INTO|TABLE)\s+stock(_imports|_changes|_version)?\b`)},
	{"product_directory", "internal/productlaw", regexp.MustCompile(`(?i)\bproduct_directory(_imports)?\b`)},
	{"reviews", "internal/reviews", regexp.MustCompile(`(?i)\b(FROM|JOIN|UPDATE|INTO|TABLE)\s+reviews\b|\breview_(flags|decisions)\b`)},
	{"api_keys", "internal/apikeys", regexp.MustCompile(`(?i)\bapi_keys\b`)},
	{"webhook_events", "internal/stores/events", regexp.MustCompile(`(?i)\bwebhook_events\b`)},
	{"webhooks", "internal/webhooks", regexp.MustCompile(`(?i)\b(FROM|JOIN|UPDATE|INTO|TABLE)\s+webhooks\b|\bwebhook_deliveries\b`)},
	{"medusa_*", "internal/medusa", regexp.MustCompile(`(?i)\bmedusa_(sync|locations|variants)\b`)},
	{"partners", "internal/partners", regexp.MustCompile(`(?i)\b(FROM|JOIN|UPDATE|INTO|TABLE)\s+partners\b|\bpartner_(products|brands)\b`)},
}

// Files outside the owners that may still name an owned table, and why.
var tableExceptions = map[string]string{
	// The guard of migration 0006 (unique store ids) reads the stores
	// before the migration runs, below any package that could own them.
	"internal/db/migrate.go": "stores",
	// The benchmark's PostGIS baseline copies the published stores into a
	// table of its own; it is a harness, not part of the locator.
	"tools/slb/postgis.go": "stores",
}

// tableUses lists, for one Go file's source, each owned table its string
// literals name in SQL ("table: literal"); comments do not count.
func tableUses(name string, src []byte) ([]string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var uses []string
	ast.Inspect(f, func(n ast.Node) bool {
		lit, ok := n.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return true
		}
		s, err := strconv.Unquote(lit.Value)
		if err != nil {
			return true
		}
		for _, o := range owned {
			if m := o.sql.FindString(s); m != "" {
				uses = append(uses, o.table+": "+fset.Position(lit.Pos()).String()+": "+strconv.Quote(m))
			}
		}
		return true
	})
	return uses, nil
}

func TestOneOwnerPerTable(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	var bad []string
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(path, root+string(filepath.Separator)))
		if d.IsDir() {
			// The go tool's own rule for ./... ("." and "_" folders, testdata), and
			// no other module: make test's copy of the tree (bin/_e2e-tree) is not
			// this tree's code.
			name := d.Name()
			if path != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "node_modules" || name == "testdata") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); path != root && err == nil {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		uses, err := tableUses(rel, src)
		if err != nil {
			return err
		}
		checked++
		dir := filepath.ToSlash(filepath.Dir(rel))
		for _, u := range uses {
			table, _, _ := strings.Cut(u, ":")
			owner := ""
			for _, o := range owned {
				if o.table == table {
					owner = o.owner
				}
			}
			if dir == owner || strings.HasPrefix(dir, owner+"/") || tableExceptions[rel] == table {
				continue
			}
			bad = append(bad, u+" (the table belongs to "+owner+")")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("checked only %d Go files under %s", checked, root)
	}
	for _, b := range bad {
		t.Error(b)
	}
}

// The scan itself: SQL in any literal form is found, prose and comments
// are not.
func TestTableUses(t *testing.T) {
	src := []byte("package p\n" +
		"// SELECT id FROM stores in a comment does not count\n" +
		"const a = `SELECT id\n\tFROM stores WHERE id = $1`\n" +
		"var b = \"UPDATE stores SET image = $1\"\n" +
		"var c = \"DELETE FROM business_stores WHERE store_id = $1\"\n" +
		"var d = \"SELECT 1 FROM store_photos\"\n" +
		"var e = \"the stores of an owner\"\n" +
		"var f = \"x JOIN stores s ON s.id = m.store_id\"\n")
	uses, err := tableUses("p.go", src)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`stores: p.go:3:11: "FROM stores"`,
		`stores: p.go:5:9: "UPDATE stores"`,
		`business_stores: p.go:6:9: "business_stores"`,
		`stores: p.go:9:9: "JOIN stores"`,
	}
	if strings.Join(uses, "\n") != strings.Join(want, "\n") {
		t.Errorf("uses:\n%s\nwant:\n%s", strings.Join(uses, "\n"), strings.Join(want, "\n"))
	}
}
