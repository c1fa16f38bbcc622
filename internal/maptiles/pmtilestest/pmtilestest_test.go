package pmtilestest

import "testing"

func TestID(t *testing.T) {
	for _, c := range SpecExamples {
		if got := ID(c.Z, c.X, c.Y); got != c.ID {
			t.Errorf("ID(%d, %d, %d) = %d, want %d", c.Z, c.X, c.Y, got, c.ID)
		}
	}
}
