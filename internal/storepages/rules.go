package storepages

import (
	"strings"
	"time"

	"locator/internal/rules"
	"locator/internal/search"
)

// The rulebook's lines on a store page (docs/rules.md): what the law of the
// store's place says about what it may sell, each with its source. The page
// shows facts only: the commerce button ("Go to online store") is not in
// its HTML, since it belongs behind the age check, which needs a script;
// the app's panel ("Open in the locator") has it.

// ruleLine is one rule as the page shows it.
type ruleLine struct {
	Summary, Citation, URL, Checked string
}

// ruleLines are store sd's rules in force today in its zone.
func ruleLines(sd search.StoreDoc, now time.Time) []ruleLine {
	if sd.Rules == nil {
		return nil
	}
	var out []ruleLine
	for _, r := range sd.Rules.Rules(rules.DayOf(now.In(sd.Zone))) {
		checked := r.CheckedOn
		if t, err := time.Parse(time.DateOnly, r.CheckedOn); err == nil {
			checked = t.Format("Jan 2006")
		}
		out = append(out, ruleLine{Summary: r.Summary, Citation: r.Citation, URL: r.URL, Checked: checked})
	}
	return out
}

// rulesKey names the lines for the page cache: a rule that takes effect
// tomorrow changes the page then.
func rulesKey(ls []ruleLine) string {
	var b strings.Builder
	for _, l := range ls {
		b.WriteString(l.Citation)
		b.WriteByte(0)
		b.WriteString(l.Summary)
	}
	return b.String()
}
