package config

import (
	"strings"
	"testing"
)

func TestMetricsSettings(t *testing.T) {
	names := []string{"metrics-addr", "metrics-token"}
	c, err := parseSettings(t, names, nil)
	if err != nil || c.MetricsAddr != "" || c.MetricsToken != "" {
		t.Fatalf("defaults (no /metrics anywhere): %+v, %v", c, err)
	}
	token := "0123456789abcdef0123"
	c, err = parseSettings(t, names, map[string]string{"LOCATOR_METRICS_ADDR": "127.0.0.1:9464", "LOCATOR_METRICS_TOKEN": token})
	if err != nil || c.MetricsAddr != "127.0.0.1:9464" || c.MetricsToken != token {
		t.Fatalf("from the environment: %+v, %v", c, err)
	}
	for _, bad := range []struct{ env, value string }{
		{"LOCATOR_METRICS_ADDR", "9464"}, {"LOCATOR_METRICS_ADDR", "localhost"},
		{"LOCATOR_METRICS_TOKEN", "short"}, {"LOCATOR_METRICS_TOKEN", "has a space in it somewhere"},
		{"LOCATOR_METRICS_TOKEN", "tab\tinside-0123456789"},
	} {
		_, err := parseSettings(t, names, map[string]string{bad.env: bad.value})
		if err == nil || !strings.Contains(err.Error(), bad.env) {
			t.Errorf("%s=%q: %v, want an error naming it", bad.env, bad.value, err)
		} else if bad.env == "LOCATOR_METRICS_TOKEN" && strings.Contains(err.Error(), bad.value) {
			t.Errorf("the error shows the token: %v", err)
		}
	}
}
