package config

import (
	"strings"
	"testing"
	"time"
)

func TestDrainAndDatabaseTimeoutSettings(t *testing.T) {
	names := []string{"drain-period", "db-timeout", "shutdown-timeout"}
	c, err := parseSettings(t, names, nil)
	if err != nil || c.DrainPeriod != 5*time.Second || c.DBTimeout != 1500*time.Millisecond || c.ShutdownTimeout != 20*time.Second {
		t.Fatalf("defaults: %+v, %v", c, err)
	}
	c, err = parseSettings(t, names, map[string]string{"LOCATOR_DRAIN_PERIOD": "0", "LOCATOR_DB_TIMEOUT": "300ms"})
	if err != nil || c.DrainPeriod != 0 || c.DBTimeout != 300*time.Millisecond {
		t.Fatalf("from the environment: %+v, %v", c, err)
	}
	c, err = parseSettings(t, names, map[string]string{"LOCATOR_DRAIN_PERIOD": "0"}, "--drain-period", "15s")
	if err != nil || c.DrainPeriod != 15*time.Second {
		t.Fatalf("flag over environment: %+v, %v", c, err)
	}
	for _, bad := range []struct{ env, value string }{
		{"LOCATOR_DRAIN_PERIOD", "-1s"}, {"LOCATOR_DRAIN_PERIOD", "soon"}, {"LOCATOR_DRAIN_PERIOD", "2h"},
		{"LOCATOR_DB_TIMEOUT", "0"}, {"LOCATOR_DB_TIMEOUT", "5m"},
	} {
		if _, err := parseSettings(t, names, map[string]string{bad.env: bad.value}); err == nil || !strings.Contains(err.Error(), bad.env) {
			t.Errorf("%s=%s: %v, want an error naming it", bad.env, bad.value, err)
		}
	}
}
