package config

import (
	"flag"
	"io"
	"strings"
	"testing"
)

func TestSearchSnapshotsSetting(t *testing.T) {
	parse := func(env map[string]string, args ...string) (Config, error) {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		s := Register(fs, func(k string) string { return env[k] }, "search-snapshots")
		if err := fs.Parse(args); err != nil {
			t.Fatal(err)
		}
		return s.Config()
	}
	if c, err := parse(nil); err != nil || c.SearchSnapshots != "auto" {
		t.Errorf("default: %q, %v", c.SearchSnapshots, err)
	}
	if c, err := parse(map[string]string{"LOCATOR_SEARCH_SNAPSHOTS": "off"}); err != nil || c.SearchSnapshots != "off" {
		t.Errorf("env: %q, %v", c.SearchSnapshots, err)
	}
	if c, err := parse(map[string]string{"LOCATOR_SEARCH_SNAPSHOTS": "off"}, "--search-snapshots=always"); err != nil || c.SearchSnapshots != "always" {
		t.Errorf("flag over env: %q, %v", c.SearchSnapshots, err)
	}
	if _, err := parse(nil, "--search-snapshots=sometimes"); err == nil || !strings.Contains(err.Error(), "LOCATOR_SEARCH_SNAPSHOTS") {
		t.Errorf("bad value: %v", err)
	}
}
