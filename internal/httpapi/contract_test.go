package httpapi_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"
	"github.com/klauspost/compress/zstd"
)

var (
	contractOnce   sync.Once
	contractRouter routers.Router
	contractErr    error
)

// contract loads api/openapi.yaml once; every response of the HTTP suite
// under /api is checked against it.
func contract(t testing.TB) routers.Router {
	t.Helper()
	contractOnce.Do(func() {
		// Relative to the package folder go test runs in (-trimpath leaves no source path to start from).
		path := filepath.Join("..", "..", "api", "openapi.yaml")
		loader := openapi3.NewLoader()
		doc, err := loader.LoadFromFile(path)
		if err != nil {
			contractErr = err
			return
		}
		if err := doc.Validate(context.Background()); err != nil {
			contractErr = err
			return
		}
		doc.Servers = openapi3.Servers{{URL: "http://locator.test/api"}}
		contractRouter, contractErr = legacy.NewRouter(doc)
	})
	if contractErr != nil {
		t.Fatalf("load api/openapi.yaml: %v", contractErr)
	}
	return contractRouter
}

// checkContract validates a request (when wantValid) and its response.
func checkContract(t testing.TB, req *http.Request, reqBody []byte, rec *httptest.ResponseRecorder, wantValid bool) {
	t.Helper()
	if !strings.HasPrefix(req.URL.Path, "/api/") {
		return
	}
	r2 := req.Clone(context.Background())
	r2.URL.Scheme, r2.URL.Host, r2.Host = "http", "locator.test", "locator.test"
	r2.Body = io.NopCloser(bytes.NewReader(reqBody))
	route, params, err := contract(t).FindRoute(r2)
	if err != nil {
		if rec.Code == http.StatusNotFound || rec.Code == http.StatusMethodNotAllowed {
			return // an undocumented path, answered as such
		}
		t.Fatalf("%s %s is not in the OpenAPI document: %v", req.Method, req.URL, err)
	}
	in := &openapi3filter.RequestValidationInput{Request: r2, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}}
	if wantValid {
		if err := openapi3filter.ValidateRequest(context.Background(), in); err != nil {
			t.Errorf("request %s does not match the contract: %v", req.URL, err)
		}
	}
	out := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in,
		Status:                 rec.Code,
		Header:                 rec.Header(),
		Options:                &openapi3filter.Options{IncludeResponseStatus: true},
	}
	out.SetBodyBytes(decoded(t, rec.Header().Get("Content-Encoding"), rec.Body.Bytes()))
	if err := openapi3filter.ValidateResponse(context.Background(), out); err != nil {
		t.Errorf("response %d to %s does not match the contract: %v\n%s", rec.Code, req.URL, err, truncate(rec.Body.String()))
	}
}

// decoded is an answer's body without its Content-Encoding (gzip or zstd).
func decoded(t testing.TB, coding string, body []byte) []byte {
	t.Helper()
	var err error
	switch coding {
	case "":
		return body
	case "gzip":
		var zr *gzip.Reader
		if zr, err = gzip.NewReader(bytes.NewReader(body)); err == nil {
			body, err = io.ReadAll(zr)
		}
	case "zstd":
		var zr *zstd.Decoder
		if zr, err = zstd.NewReader(nil); err == nil {
			body, err = zr.DecodeAll(body, nil)
			zr.Close()
		}
	default:
		t.Fatalf("unexpected Content-Encoding %q", coding)
	}
	if err != nil {
		t.Fatalf("%s answer: %v", coding, err)
	}
	return body
}

func truncate(s string) string {
	if len(s) > 600 {
		return s[:600] + "..."
	}
	return s
}

// do sends a request to h and checks it against the contract.
func do(t testing.TB, h http.Handler, method, target string, body io.Reader, wantValid bool) *httptest.ResponseRecorder {
	t.Helper()
	var reqBody []byte
	if body != nil {
		reqBody, _ = io.ReadAll(body)
	}
	req := httptest.NewRequest(method, target, bytes.NewReader(reqBody))
	if reqBody != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	checkContract(t, req, reqBody, rec, wantValid)
	return rec
}
