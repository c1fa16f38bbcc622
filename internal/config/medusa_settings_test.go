package config

import (
	"strings"
	"testing"
	"time"
)

func TestMedusaSettings(t *testing.T) {
	c, err := parseSettings(t, MedusaNames, nil)
	if err != nil || c.MedusaURL != "" || c.MedusaInterval != 5*time.Minute {
		t.Fatalf("defaults (no sync): %+v, %v", c, err)
	}
	c, err = parseSettings(t, MedusaNames, map[string]string{"LOCATOR_MEDUSA_URL": "http://127.0.0.1:9000/",
		"LOCATOR_MEDUSA_EMAIL": "admin@example.com", "LOCATOR_MEDUSA_PASSWORD": "pw with spaces", "LOCATOR_MEDUSA_SYNC_INTERVAL": "10m"})
	if err != nil || c.MedusaURL != "http://127.0.0.1:9000" || c.MedusaEmail != "admin@example.com" || c.MedusaPassword != "pw with spaces" || c.MedusaInterval != 10*time.Minute {
		t.Fatalf("email and password: %+v, %v", c, err)
	}
	c, err = parseSettings(t, MedusaNames, map[string]string{"LOCATOR_MEDUSA_URL": "https://shop.example.com", "LOCATOR_MEDUSA_TOKEN": "sk_0123456789"})
	if err != nil || c.MedusaToken != "sk_0123456789" {
		t.Fatalf("token: %+v, %v", c, err)
	}
	for _, bad := range []map[string]string{
		{"LOCATOR_MEDUSA_URL": "ftp://x"},
		{"LOCATOR_MEDUSA_URL": "http://127.0.0.1:9000"}, // no credential
		{"LOCATOR_MEDUSA_URL": "http://127.0.0.1:9000", "LOCATOR_MEDUSA_EMAIL": "admin@example.com"},
		{"LOCATOR_MEDUSA_EMAIL": "not an email"},
		{"LOCATOR_MEDUSA_TOKEN": "sk_\x01secret"},
		{"LOCATOR_MEDUSA_SYNC_INTERVAL": "10s"},
		{"LOCATOR_MEDUSA_SYNC_INTERVAL": "48h"},
	} {
		_, err := parseSettings(t, MedusaNames, bad)
		if err == nil || !strings.Contains(err.Error(), "LOCATOR_MEDUSA_") {
			t.Errorf("%q: %v, want an error naming the setting", bad, err)
		} else if strings.Contains(err.Error(), "secret") {
			t.Errorf("the error shows the secret: %v", err)
		}
	}
}
