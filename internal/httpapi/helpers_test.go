package httpapi_test

import (
	"net/http"
	"net/http/httptest"
	"strconv"
)

func strconvI(n int64) string { return strconv.FormatInt(n, 10) }

func serve(h http.Handler, req *http.Request) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}
