package config

import (
	"strings"
	"testing"
)

func TestPhotoMemorySetting(t *testing.T) {
	names := []string{"photo-memory"}
	c, err := parseSettings(t, names, nil)
	if err != nil || c.PhotoMemory != 256<<20 {
		t.Fatalf("default: %d, %v", c.PhotoMemory, err)
	}
	c, err = parseSettings(t, names, map[string]string{"LOCATOR_PHOTO_MEMORY": "512"})
	if err != nil || c.PhotoMemory != 512<<20 {
		t.Fatalf("from the environment: %d, %v", c.PhotoMemory, err)
	}
	for _, bad := range []string{"0", "8", "-256", "+256", "256MB", "1e3", "99999999"} {
		if _, err := parseSettings(t, names, map[string]string{"LOCATOR_PHOTO_MEMORY": bad}); err == nil || !strings.Contains(err.Error(), "LOCATOR_PHOTO_MEMORY") {
			t.Errorf("LOCATOR_PHOTO_MEMORY=%s: %v, want an error naming it", bad, err)
		}
	}
}
