package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"

	"locator/internal/apperr"
)

// decodeJSON reads one JSON object from the body into v. Unknown fields
// are ignored (clients may send more than we read); anything that is not
// one JSON object is a 400.
func decodeJSON(r *http.Request, v any) error {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return apperr.New(apperr.TooLarge, "Request body too large")
		}
		return apperr.Invalidf("Could not read the request body")
	}
	body = bytes.TrimSpace(body)
	if len(body) == 0 || body[0] != '{' {
		return apperr.Invalidf("The request body must be a JSON object")
	}
	if jsonHasNUL(body) {
		return errNUL
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return apperr.Invalidf("%s has the wrong type", te.Field)
		}
		return apperr.Invalidf("The request body must be a JSON object")
	}
	if dec.More() {
		return apperr.Invalidf("The request body must be one JSON object")
	}
	return nil
}

// errNUL refuses text carrying U+0000: PostgreSQL cannot store it in a
// text column, so letting it through would fail later (a 500, or a change
// request that can never be applied). Every way text enters is checked
// with it: JSON bodies here, query strings and paths in refuseNUL, form
// fields in pageReport, imported rows in stores.Store.Validate.
var errNUL = apperr.Invalidf("Text must not contain the character U+0000 (NUL)")

// jsonHasNUL reports whether a JSON text has a string holding U+0000: the
// escape \u0000 (a raw NUL byte is not valid JSON, and the decoder refuses
// it). Backslashes only occur inside strings, so a scan of escapes is
// exact: "\\u0000" is a backslash followed by the letters u0000.
func jsonHasNUL(b []byte) bool {
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' || i+1 >= len(b) {
			if b[i] == 0 {
				return true
			}
			continue
		}
		if b[i+1] == 'u' && i+6 <= len(b) && string(b[i+2:i+6]) == "0000" {
			return true
		}
		i++ // skip the escaped character
	}
	return false
}

// parseID reads a positive id written as plain digits: strconv accepts a
// leading "+" that no link or client ever writes, so "+1" is refused.
func parseID(s string) (int64, bool) {
	if s == "" || len(s) > 18 || strings.Trim(s, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil && n > 0
}

// flexID accepts an id sent as a number or as a string of digits.
type flexID int64

func (f *flexID) UnmarshalJSON(b []byte) error {
	return unmarshalID((*int64)(f), b, "phstore_id must be a store id")
}

// unmarshalID reads an id sent as a number or as a string of digits into
// dst; anything else is a 400 with msg.
func unmarshalID(dst *int64, b []byte, msg string) error {
	n, ok := parseID(strings.Trim(string(b), `"`))
	if !ok {
		return apperr.Invalidf("%s", msg)
	}
	*dst = n
	return nil
}

// clientIP is the address rate limits count: the caller as seen through
// the trusted proxies (LOCATOR_TRUSTED_PROXIES), else the connection's peer.
func (s *Server) clientIP(r *http.Request) string {
	if a := callerAddr(r, s.TrustedProxies); a.IsValid() {
		return a.String()
	}
	return r.RemoteAddr
}

// flexStoreID is a store id sent as a number or as a string of digits.
type flexStoreID int64

func (f *flexStoreID) UnmarshalJSON(b []byte) error {
	return unmarshalID((*int64)(f), b, "store_id must be a positive whole number")
}
