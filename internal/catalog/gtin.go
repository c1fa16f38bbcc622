package catalog

import (
	"fmt"
	"strings"
)

// NormaliseGTIN checks a GTIN (GTIN-8, UPC-A 12, EAN-13 or GTIN-14 digits;
// spaces and hyphens between digits are dropped) and returns it as GTIN-14,
// zero-padded on the left. One form for all lengths makes a UPC-A on a
// feed and the EAN-13 of the same item ("0" + the UPC-A) one product
// (docs/products.md, "GTIN"); the shorter forms are the same digits with
// their leading zeros dropped.
func NormaliseGTIN(s string) (string, error) {
	d := strings.Map(func(r rune) rune {
		if r == ' ' || r == '-' {
			return -1
		}
		return r
	}, strings.TrimSpace(s))
	for _, r := range d {
		if r < '0' || r > '9' {
			return "", fmt.Errorf("GTIN %q holds a character that is not a digit", clip(s))
		}
	}
	// 9 to 11 digits are a UPC-A or EAN-13 whose leading zeros a
	// spreadsheet or a JSON number dropped: the check digit still decides.
	if len(d) < 8 || len(d) > 14 {
		return "", fmt.Errorf("GTIN %q has %d digits; a GTIN has 8, 12 (UPC-A), 13 (EAN-13) or 14", clip(s), len(d))
	}
	d = strings.Repeat("0", 14-len(d)) + d
	if want := checkDigit(d[:13]); d[13] != want {
		return "", fmt.Errorf("GTIN %q has the check digit %c; its digits give %c", clip(s), d[13], want)
	}
	if strings.Trim(d, "0") == "" {
		return "", fmt.Errorf("GTIN %q is all zeros", clip(s))
	}
	return d, nil
}

// checkDigit is the GS1 check digit of the 13 digits before it: weights 3
// and 1 alternate from the rightmost digit.
func checkDigit(d string) byte {
	sum := 0
	for i := 0; i < len(d); i++ {
		v := int(d[len(d)-1-i] - '0')
		if i%2 == 0 {
			v *= 3
		}
		sum += v
	}
	return byte('0' + (10-sum%10)%10)
}

// clip shortens what an error message quotes from a file.
func clip(s string) string {
	if len(s) > 40 {
		r := []rune(s)
		if len(r) > 40 {
			return string(r[:40]) + "…"
		}
	}
	return s
}
