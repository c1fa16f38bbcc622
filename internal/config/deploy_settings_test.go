package config

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

// The deployment's settings file (deploy/locator.env, read by the systemd
// unit) names only real settings, every value is valid, and it sets what
// production needs.
func TestDeploySettingsFileIsValid(t *testing.T) {
	f, err := os.Open("../../deploy/locator.env")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	env := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			t.Fatalf("not KEY=VALUE: %q", line)
		}
		env[k] = v
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	var names []string
	for n, st := range all {
		known[st.env] = true
		names = append(names, n)
	}
	for k := range env {
		if !known[k] {
			t.Errorf("deploy/locator.env sets %s, which is no setting", k)
		}
	}
	c, err := parseSettings(t, names, env)
	if err != nil {
		t.Fatalf("deploy/locator.env: %v", err)
	}
	if !strings.HasPrefix(c.PublicURL, "https://") || len(c.TrustedProxies) == 0 || c.SMTPURL == "" || !c.NoSeed || c.MetricsAddr == "" {
		t.Errorf("deploy/locator.env misses a production setting: %+v", c)
	}
}

// The settings that take one word of a few keep a good word and name the
// words in their error.
func TestWordSettings(t *testing.T) {
	names := []string{"log-format", "log-level", "access-log", "geocoder-kind"}
	c, err := parseSettings(t, names, nil, "--log-format=json", "--log-level=warn", "--access-log=off", "--geocoder-kind=nominatim")
	if err != nil || c.LogFormat != "json" || c.LogLevel != "warn" || c.AccessLog != "off" || c.GeocoderKind != "nominatim" {
		t.Fatalf("config = %+v, %v", c, err)
	}
	for arg, want := range map[string]string{
		"--log-format=xml":     "want text or json",
		"--log-level=trace":    "want debug, info, warn or error",
		"--access-log=some":    "want all, sample or off",
		"--geocoder-kind=bing": "want auto, nominatim or photon",
	} {
		if _, err := parseSettings(t, names, nil, arg); err == nil || !strings.HasSuffix(err.Error(), want) {
			t.Errorf("%s: error %v, want it to end %q", arg, err, want)
		}
	}
}
