package slug

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// testdata/slugs.json is shared with the web app's copy of Make
// (web/src/lib/storePage.test.ts): both must give the same slugs.
func TestMake(t *testing.T) {
	raw, err := os.ReadFile("testdata/slugs.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct{ In, Want string }
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if got := Make(c.In); got != c.Want {
			t.Errorf("Make(%q) = %q, want %q", c.In, got, c.Want)
		}
	}
}

func TestMakeBoundsLength(t *testing.T) {
	long := strings.Repeat("word ", 100)
	got := Make(long)
	if len(got) > MaxLen || strings.HasSuffix(got, "-") || !strings.HasPrefix(got, "word-word") {
		t.Fatalf("Make(long) = %q (%d bytes)", got, len(got))
	}
	if got := Make(strings.Repeat("x", 300)); len(got) != MaxLen {
		t.Fatalf("one long word: %d bytes", len(got))
	}
	if got := Or("東京", "store"); got != "store" {
		t.Fatalf("Or: %q", got)
	}
}
