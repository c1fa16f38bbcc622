package slug

import (
	"strings"
	"testing"
)

func TestMake(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Manhattan Vape Shop", "manhattan-vape-shop"},
		{"New York", "new-york"},
		{"NY", "ny"},
		{"Café Zoë's", "cafe-zoes"},
		{"São Paulo", "sao-paulo"},
		{"Straße & Søn", "strasse-son"},
		{"  --Hello,   World!!  ", "hello-world"},
		{"St. John’s", "st-johns"},
		{"東京", ""},
		{"Shop #7 (24/7)", "shop-7-24-7"},
		{"", ""},
	} {
		if got := Make(c.in); got != c.want {
			t.Errorf("Make(%q) = %q, want %q", c.in, got, c.want)
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
