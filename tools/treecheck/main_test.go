package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitRepo makes a repository in a temporary folder with the given files
// committed and returns its path.
func gitRepo(t *testing.T, files map[string][]byte) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, body, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}

func TestACommittedBuildFails(t *testing.T) {
	// The test binary itself is a real build of this platform's format.
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	build, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	dir := gitRepo(t, map[string][]byte{
		"locator":           build,
		"main.go":           []byte("package main\n"),
		".ci/run":           []byte("#!/usr/bin/env bash\nmake test\n"),
		"data/small.bin.gz": {0x1f, 0x8b, 8, 0},
	})
	failsNamingOnly(t, dir, "locator")
}

// failsNamingOnly runs the check on dir: it must fail and name only path.
func failsNamingOnly(t *testing.T, dir, path string) {
	t.Helper()
	var out bytes.Buffer
	if err := run(dir, &out); err == nil {
		t.Fatalf("%s passed", path)
	}
	if got := out.String(); !strings.HasPrefix(got, path+": ") || strings.Count(got, "\n") != 1 {
		t.Fatalf("want only %s named, got %q", path, got)
	}
}

func TestLargeFilesNeedAPlaceOnTheList(t *testing.T) {
	big := bytes.Repeat([]byte("x"), MaxSize+1)
	dir := gitRepo(t, map[string][]byte{
		"internal/places/geodata.bin.gz": big, // on the list
		"web/public/huge.json":           big,
		"docs/exactly-the-limit.txt":     big[:MaxSize],
	})
	failsNamingOnly(t, dir, "web/public/huge.json")
}

func TestThisRepositoryIsClean(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := run(root, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
}

func TestDocsReferencesMustExist(t *testing.T) {
	dir := gitRepo(t, map[string][]byte{
		"docs/real.md":        []byte("# Real\nSee docs/real.md and docs/pictures.\n"),
		"docs/pictures/a.png": {0x89, 'P', 'N', 'G'},
		// A sentence's full stop, another repository's docs and a web folder are not ours.
		"main.go":         []byte("package main\n\n// The rule is in docs/real.md. See ../shared/docs/gone.md and web/docs/gone.md.\n"),
		"web/src/a.ts":    []byte("// docs/real.md, \"A section\"\n"),
		"data/table.csv":  []byte("docs/not-checked.md\n"), // data, not a reference
		"internal/x/x.go": []byte("package x\n\n// As docs/api.md says.\n"),
	})
	failsNamingOnly(t, dir, "internal/x/x.go")
	var out bytes.Buffer
	_ = run(dir, &out)
	if !strings.Contains(out.String(), "names docs/api.md, which does not exist") {
		t.Fatalf("the missing page is not named: %q", out.String())
	}
}
