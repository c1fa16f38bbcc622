package config

import (
	"flag"
	"io"
	"strings"
	"testing"
	"time"
)

// parseSettings registers names, parses args with env as the environment
// and validates.
func parseSettings(t *testing.T, names []string, env map[string]string, args ...string) (Config, error) {
	t.Helper()
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	s := Register(fs, func(k string) string { return env[k] }, names...)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	return s.Config()
}

func mailSettings(t *testing.T, env map[string]string, args ...string) (Config, error) {
	t.Helper()
	return parseSettings(t, []string{"mail-retention", "log-reset-links"}, env, args...)
}

func TestMailSettings(t *testing.T) {
	c, err := mailSettings(t, nil)
	if err != nil || c.MailRetention != 7*24*time.Hour || c.LogResetLinks {
		t.Fatalf("defaults: %+v %v (reset links must not be logged by default)", c, err)
	}
	c, err = mailSettings(t, map[string]string{"LOCATOR_MAIL_RETENTION": "24h", "LOCATOR_LOG_RESET_LINKS": "true"})
	if err != nil || c.MailRetention != 24*time.Hour || !c.LogResetLinks {
		t.Fatalf("from the environment: %+v %v", c, err)
	}
	if c, err = mailSettings(t, nil, "--log-reset-links"); err != nil || !c.LogResetLinks {
		t.Fatalf("bare flag: %+v %v", c, err)
	}
	for _, bad := range []struct{ arg, setting string }{
		{"--mail-retention=7d", "LOCATOR_MAIL_RETENTION"},
		{"--mail-retention=30m", "LOCATOR_MAIL_RETENTION"},
		{"--log-reset-links=maybe", "LOCATOR_LOG_RESET_LINKS"},
	} {
		if _, err := mailSettings(t, nil, bad.arg); err == nil || !strings.Contains(err.Error(), bad.setting) {
			t.Errorf("%s: %v, want an error naming %s", bad.arg, err, bad.setting)
		}
	}
}
