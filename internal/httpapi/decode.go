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

// flexID accepts an id sent as a number or as a string of digits.
type flexID int64

func (f *flexID) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(b), `"`)
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 1 {
		return apperr.Invalidf("phstore_id must be a store id")
	}
	*f = flexID(n)
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
	n, err := strconv.ParseInt(strings.Trim(string(b), `"`), 10, 64)
	if err != nil || n < 1 {
		return apperr.Invalidf("store_id must be a positive whole number")
	}
	*f = flexStoreID(n)
	return nil
}
