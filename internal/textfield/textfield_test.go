package textfield

import "testing"

func TestTrim(t *testing.T) {
	for _, c := range []struct {
		in    string
		limit int
		want  string
		fits  bool
	}{
		{"  café \n", 4, "café", true}, // four characters, five bytes
		{"cafés", 4, "cafés", false},
		{" \t ", 0, "", true},
		{"", 0, "", true},
		{"a b", 3, "a b", true},
	} {
		if got, fits := Trim(c.in, c.limit); got != c.want || fits != c.fits {
			t.Errorf("Trim(%q, %d) = %q, %v; want %q, %v", c.in, c.limit, got, fits, c.want, c.fits)
		}
	}
}
