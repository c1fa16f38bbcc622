package places

import (
	"encoding/json"
	"os"
	"testing"
)

// TestShortName runs the cases the web app's shortPlaceName runs too.
func TestShortName(t *testing.T) {
	raw, err := os.ReadFile("testdata/short-names.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct{ Display, Short string }
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if got := ShortName(c.Display); got != c.Short {
			t.Errorf("ShortName(%q) = %q, want %q", c.Display, got, c.Short)
		}
	}
}
