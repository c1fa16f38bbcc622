package reviews

import (
	"regexp"
	"strings"
)

// Screening before publication (docs/reviews.md, "What is screened"): a
// review whose text seems to hold personal data or an unapproved health or
// cessation claim is held for a moderator, and its author is told why
// (the reason below, shown with the review in "your review"). A screen
// only holds: a moderator publishes what it held by mistake.

// The held reasons an author reads.
const (
	HeldPhone  = "It seems to contain a phone number. Reviews may not publish anyone's personal information, so a moderator will read it first."
	HeldEmail  = "It seems to contain an email address. Reviews may not publish anyone's personal information, so a moderator will read it first."
	HeldHealth = "It seems to make a health or quit-smoking claim. Only claims the FDA has authorized may be published, so a moderator will read it first."
	HeldBurst  = "This store received many reviews from new accounts in the last 24 hours, so a moderator reads the next ones before they are published."
)

var (
	// An email address: something@domain.tld.
	emailRe = regexp.MustCompile(`[\p{L}\p{N}._%+\-]+@[\p{L}\p{N}.\-]+\.\p{L}{2,}`)
	// A phone number: 7 or more digits in a run that only spaces, dots,
	// dashes, slashes and brackets separate (555-0123, (212) 555 0123,
	// +1.212.555.0123), but not a single block of digits that reads as a year or a price.
	phoneRe = regexp.MustCompile(`\+?\(?\d[\d\s.\-/()]{5,}\d`)
	// Health and cessation claims nobody may make of a tobacco or vapour
	// product without the FDA's authorisation (a modified-risk order).
	healthRe = regexp.MustCompile(`(?i)\b(` + strings.Join([]string{
		`quit(ting)? smoking`, `stop(ped|ping)? smoking`, `help(s|ed)? (me |you |people )?(to )?(quit|stop)`,
		`smoking cessation`, `cessation`, `kick(ed)? the habit`,
		`cures?d?`, `curing`, `heals?`, `healing`, `treats? (my|your|the)? ?(anxiety|depression|asthma|copd|pain|cancer)`,
		`safer than (cigarettes|smoking|tobacco)`, `less harmful`, `harmless`, `healthier( than| alternative)?`,
		`no health risks?`, `good for (your|my) (health|lungs)`, `(fda|doctor)[- ]approved`,
	}, "|") + `)\b`)
)

// Screen returns why text must wait for a moderator, "" when it may be
// published.
func Screen(text string) string {
	if emailRe.MatchString(text) {
		return HeldEmail
	}
	for _, m := range phoneRe.FindAllString(text, -1) {
		if digits(m) >= 7 {
			return HeldPhone
		}
	}
	if healthRe.MatchString(text) {
		return HeldHealth
	}
	return ""
}

func digits(s string) int {
	n := 0
	for _, r := range s {
		if r >= '0' && r <= '9' {
			n++
		}
	}
	return n
}
