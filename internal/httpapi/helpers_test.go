package httpapi_test

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
)

func strconvI(n int64) string { return strconv.FormatInt(n, 10) }

func serve(h http.Handler, req *http.Request) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// jsonRequest is a request with a JSON body, as the web app sends it.
func jsonRequest(method, target, body string) *http.Request {
	req := httptest.NewRequest(method, target, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	return req
}
