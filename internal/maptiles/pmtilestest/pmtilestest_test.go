package pmtilestest

import "testing"

func TestID(t *testing.T) {
	for _, c := range []struct {
		z    uint8
		x, y uint32
		id   uint64
	}{{0, 0, 0, 0}, {1, 0, 0, 1}, {1, 0, 1, 2}, {1, 1, 1, 3}, {1, 1, 0, 4}, {2, 1, 3, 11}, {3, 3, 0, 26}, {20, 0, 0, 366503875925}} {
		if got := ID(c.z, c.x, c.y); got != c.id {
			t.Errorf("ID(%d, %d, %d) = %d, want %d", c.z, c.x, c.y, got, c.id)
		}
	}
}
