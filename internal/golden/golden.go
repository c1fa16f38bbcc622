// Package golden compares what a test produced with what it wants: a
// committed file under the package's testdata (`go test ./internal/<pkg>
// -update` rewrites it, otherwise the first line that differs fails the
// test), an embedded data file with what its tool regenerates, or a
// function's answers with a table of inputs and wanted outputs (Cases).
// Tests only.
package golden

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// Compare fails t unless got equals the file at path (rewriting it under
// -update).
func Compare(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		// Test data read back by the same user; git keeps no mode but the x bit.
		if err := os.WriteFile(path, got, 0o600); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (-update writes it)", err)
	}
	if string(got) == string(want) {
		return
	}
	gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := 0; ; i++ {
		var g, w string
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w {
			t.Fatalf("%s differs at line %d (-update rewrites it):\n got  %s\n want %s", path, i+1, g, w)
		}
	}
}

// Regenerated runs `go run ./tools/<tool> -in tools/<tool>/node_modules
// -out <tmp>/<out>` from the repository root and returns what it wrote: an
// embedded data file's test compares it with the committed bytes, so a
// change to the tool or its pinned npm packages cannot go out without the
// file that matches it. Without the tool's node_modules the test skips,
// or fails under CI=true.
func Regenerated(t testing.TB, tool, out string) []byte {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(root, "tools", tool, "node_modules")
	if _, err := os.Stat(in); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is missing: run `npm ci --no-audit --no-fund` in tools/%s before the tests", in, tool)
		}
		t.Skipf("%s is missing; run `npm ci --no-audit --no-fund` in tools/%s to check the embedded data", in, tool)
	}
	path := filepath.Join(t.TempDir(), out)
	//nolint:gosec // G204: tool names one of our own generators (tools/geodata, tools/basemap), given by the calling test
	cmd := exec.Command("go", "run", "./tools/"+tool, "-in", in, "-out", path)
	cmd.Dir = root
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go run ./tools/%s: %v\n%s", tool, err, b)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// Cases fails t for every input of want on which f does not answer the
// wanted output, naming f by name.
func Cases[In, Out comparable](t testing.TB, name string, f func(In) Out, want map[In]Out) {
	t.Helper()
	for in, w := range want {
		if got := f(in); got != w {
			t.Errorf("%s(%#v) = %#v, want %#v", name, in, got, w)
		}
	}
}
