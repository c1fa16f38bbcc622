package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"

	"locator/internal/apikeys"
	"locator/internal/catalog"
	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/httpapi"
	"locator/internal/inventory"
	"locator/internal/medusa"
	"locator/internal/ownerstock"
	"locator/internal/photos"
	"locator/internal/stores"
)

// TestBadInputSweep sends malformed, oversized, out-of-range and
// NUL-bearing inputs to every operation of api/openapi.yaml (the list is
// read from the document, so a new endpoint is swept without a change
// here), with the member's, the business owner's and the moderator's
// session cookies, so operations that need a session get past it. No
// answer may be a 5xx, every 4xx carries a JSON message, a NUL in a path
// or query is a 400 and a NUL in a JSON body is never accepted.
func TestBadInputSweep(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: every operation with every bad input; make test runs it")
	}
	doc := sweepDoc(t)
	eachBizSetup(t, func(t *testing.T, d *db.DB, s *bizSetup) {
		s.srv.Photos = photos.New(d, stores.NewRepo(d), nil)
		s.srv.Catalog = catalog.NewRepo(d)
		s.srv.Inventory, s.srv.APIKeys = inventory.NewRepo(stores.NewRepo(d), s.srv.Catalog), apikeys.New(d, nil, 0)
		s.srv.OwnerStock = ownerstock.New(stores.NewRepo(d), s.srv.Catalog, s.srv.Inventory, nil)
		s.srv.MedusaLocations = medusa.NewLocations(d)
		dbtest.Must(t, s.cs.Moderators.Add(context.Background(), "mod@example.com", "moderator-pass"), "moderator")
		mod := &client{t: t, h: s.srv}
		modSignIn(t, s.srv, mod)
		member := &client{t: t, h: s.srv}
		member.run([]step{
			{method: "POST", target: "/api/store/customers", body: map[string]string{"first_name": "M", "last_name": "M", "phone": "1", "email": "member@example.com", "password": "tulip-lamp-7"}, status: 201},
			{method: "POST", target: "/api/store/auth", body: map[string]string{"email": "member@example.com", "password": "tulip-lamp-7"}, status: 200},
		})
		cookies := []*http.Cookie{member.cookie, mod.cookie, s.owner.cookies["locator_business"]}
		sw := &sweeper{t: t, h: s.srv, cookies: cookies, validID: itoa(s.ownStore), router: sweepRouter(t, doc)}
		for _, op := range sweepOperations(doc) {
			sw.operation(op)
		}
		t.Logf("bad-input sweep: %d requests to %d operations, %d answered 4xx, %d answered 5xx", sw.sent, len(sweepOperations(doc)), sw.refused, sw.failed)
		if sw.sent < 1000 {
			t.Errorf("only %d requests sent", sw.sent)
		}
		if sw.contractValid < 100 {
			t.Errorf("only %d requests the document calls valid: the contract check saw too little", sw.contractValid)
		}
	})
}

func sweepDoc(t *testing.T) *openapi3.T {
	t.Helper()
	doc, err := openapi3.NewLoader().LoadFromFile(filepath.Join("..", "..", "api", "openapi.yaml"))
	if err != nil {
		t.Fatalf("load api/openapi.yaml: %v", err)
	}
	return doc
}

// sweepOp is one operation of the document.
type sweepOp struct {
	method, path string
	op           *openapi3.Operation
	params       openapi3.Parameters
}

// sweepOperations lists every operation, those that end a session last
// (a signed-out sweep would stop at the 401s).
func sweepOperations(doc *openapi3.T) []sweepOp {
	var ops []sweepOp
	for _, path := range doc.Paths.InMatchingOrder() {
		item := doc.Paths.Value(path)
		for method, op := range item.Operations() {
			ops = append(ops, sweepOp{method: method, path: path, op: op, params: append(slices.Clone(item.Parameters), op.Parameters...)})
		}
	}
	slices.SortStableFunc(ops, func(a, b sweepOp) int {
		ka, kb := a.method == http.MethodDelete, b.method == http.MethodDelete
		switch {
		case ka == kb:
			return strings.Compare(a.method+a.path, b.method+b.path)
		case ka:
			return 1
		}
		return -1
	})
	return ops
}

type sweeper struct {
	t       *testing.T
	h       http.Handler
	cookies []*http.Cookie
	validID string
	router  routers.Router
	sent    int
	refused int // 4xx
	failed  int // 5xx
	// contractValid counts the requests api/openapi.yaml calls valid.
	contractValid int
}

// breaksGlobalRules applies the rules api/openapi.yaml states once for
// every call (info.description), which no per-operation schema can carry:
// no NUL anywhere, a query string of at most MaxQueryBytes, a JSON body of
// exactly one value in valid UTF-8, ids in plain decimal digits.
func breaksGlobalRules(req *http.Request, body []byte) bool {
	if strings.Contains(req.URL.RawQuery, "%00") || strings.Contains(req.URL.EscapedPath(), "%00") || len(req.URL.RawQuery) > httpapi.MaxQueryBytes {
		return true
	}
	for _, seg := range strings.Split(req.URL.Path, "/") {
		if seg != "" && strings.Trim(seg, "0123456789") == "" && seg[0] == '0' {
			return true
		}
		if strings.HasPrefix(seg, "+") {
			return true
		}
	}
	if req.Header.Get("Content-Type") != "application/json" || len(body) == 0 {
		return false
	}
	// One JSON value first: it stops at the first byte of the oversized
	// body, which utf8.Valid would read whole (9 MiB, instrumented under -race).
	dec := json.NewDecoder(bytes.NewReader(body))
	var v any
	if dec.Decode(&v) != nil || dec.More() {
		return true
	}
	return !utf8.Valid(body) || bytes.Contains(body, []byte(`\u0000`))
}

// stateRefusal tells the 400s that answer a well-formed request from state
// the document cannot see (info.description lists them): a link that is
// unknown, used or expired, a password that is not the account's, an
// image that does not decode.
func stateRefusal(msg string) bool {
	for _, prefix := range []string{
		"This password reset link has already been used or has expired",
		"This confirmation link is invalid or has expired",
		"This is not the password chosen for this account",
		"The photo could not be read",
	} {
		if strings.HasPrefix(msg, prefix) {
			return true
		}
	}
	return false
}

// sweepRouter finds a request's operation in the document; the server
// entry "/api" becomes an absolute URL so the router can match it.
func sweepRouter(t *testing.T, doc *openapi3.T) routers.Router {
	t.Helper()
	doc.Servers = openapi3.Servers{{URL: "http://example.com/api"}}
	r, err := legacy.NewRouter(doc)
	if err != nil {
		t.Fatalf("router over api/openapi.yaml: %v", err)
	}
	return r
}

// contract checks one exchange against the document: a request the
// document calls valid must not be refused as malformed (400), or a
// client that validates against the document still gets 400s.
func (s *sweeper) contract(req *http.Request, body []byte, rec *httptest.ResponseRecorder) {
	req = req.Clone(req.Context())
	req.Body = io.NopCloser(bytes.NewReader(body))
	req.URL.Scheme, req.URL.Host = "http", "example.com"
	if breaksGlobalRules(req, body) {
		return
	}
	route, params, err := s.router.FindRoute(req)
	if err != nil {
		return // a path the document does not route (the sweep's bad ids); the 4xx check above covers it
	}
	// Only whether the document calls the request valid counts here: the
	// validator's messages (each with the schema and the value indented as
	// JSON) were half of this test's time under -race, and are dropped.
	opts := &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc,
		SchemaValidationOptions: []openapi3.SchemaValidationOption{openapi3.DisableSchemaErrorDetails()}}
	opts.WithCustomSchemaErrorFunc(func(*openapi3.SchemaError) string { return "invalid" })
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route, Options: opts}
	if err := openapi3filter.ValidateRequest(req.Context(), in); err != nil {
		return
	}
	q := req.URL.Query()
	if q.Has("lat") != q.Has("lon") {
		return // search-places: lat and lon only together, said in their descriptions (no schema can)
	}
	s.contractValid++
	var e apiError
	_ = json.Unmarshal(rec.Body.Bytes(), &e)
	if rec.Code == http.StatusBadRequest && !stateRefusal(e.Message) {
		s.t.Errorf("%s %s (%.80q): the document calls it valid, the server answered 400 %s", req.Method, req.URL, body, truncate(rec.Body.String()))
	}
}

// Bad values of a path parameter, a query parameter, a JSON field.
var (
	badPathValues  = []string{"+1", "0", "-1", "abc", "1.5", "1e3", "99999999999999999999", "%00", "1%00", "%20", strings.Repeat("9", 300), "0x10", "%2e%2e"}
	badQueryValues = []string{"", "%00", "a%00b", "abc", "-1", "0", "+1", "1e309", "NaN", "-Inf", "99999999999999999999", strings.Repeat("z", 3000), "%zz", "1.5", "true"}
	badJSONValues  = []any{"a\x00b", "\x00", strings.Repeat("x", 100_000), "", " ", -1, 0, 1e308, -1e308, 99999999999999999, 1.5, true, nil,
		[]any{}, []any{"a\x00"}, map[string]any{}, map[string]any{"k": "\x00"}, "<script>alert(1)</script>", "é\u202e\ufeff", "9999-99-99", "25:61"}
	// oversizedBody is over every body bound (MaxBodyBytes, the photo's 8 MB), made once: under
	// -race each copy of it cost more than the rest of its operation's requests.
	oversizedBody = bytes.Repeat([]byte("x"), 9<<20)
	rawBodies     = []string{"", "null", "[]", "{", `"text"`, "{}", `{"a":1}{"b":2}`, "1", `{"\u0000":"x"}`,
		strings.Repeat("[", 20000) + strings.Repeat("]", 20000), `{"x":` + strings.Repeat(`{"x":`, 5000) + "1" + strings.Repeat("}", 5001),
		"{\"a\":\"\xff\xfe\"}", "\x00", `{"a":"\\u0000"}`}
)

// operation sweeps one operation: its path parameters, its query
// parameters, then its body.
func (s *sweeper) operation(o sweepOp) {
	base := map[string]string{}
	var pathParams, queryParams []string
	for _, p := range o.params {
		switch p.Value.In {
		case "path":
			pathParams = append(pathParams, p.Value.Name)
			base[p.Value.Name] = s.validID
			if strings.HasPrefix(o.path, "/admin/claims/") || strings.HasPrefix(o.path, "/admin/change-requests/") {
				base[p.Value.Name] = "1" // the claim newBizSetup approved
			}
		case "query":
			queryParams = append(queryParams, p.Value.Name)
		}
	}
	target := func(vals map[string]string, query string) string {
		path := o.path
		for k, v := range vals {
			path = strings.ReplaceAll(path, "{"+k+"}", v)
		}
		if query != "" {
			path += "?" + query
		}
		return "/api" + path
	}
	body := s.validBody(o)
	ctype := "application/json"
	if o.op.RequestBody != nil && o.op.RequestBody.Value.Content.Get("application/json") == nil {
		ctype = "image/png"
	}
	// Path parameters, one at a time.
	for _, name := range pathParams {
		for _, v := range badPathValues {
			vals := map[string]string{}
			for k, bv := range base {
				vals[k] = bv
			}
			vals[name] = v
			rec := s.send(o.method, target(vals, ""), ctype, body)
			if strings.Contains(v, "%00") && rec.Code != http.StatusBadRequest {
				s.t.Errorf("%s %s: a NUL in the path answered %d", o.method, target(vals, ""), rec.Code)
			}
		}
	}
	// Query parameters: the declared ones and an undeclared one, once
	// each, repeated and together.
	for _, name := range append(queryParams, "unexpected") {
		for _, v := range badQueryValues {
			q := name + "=" + v
			for _, query := range []string{q, q + "&" + q} {
				rec := s.send(o.method, target(base, query), ctype, body)
				if strings.Contains(v, "%00") && rec.Code != http.StatusBadRequest {
					s.t.Errorf("%s %s: a NUL in the query answered %d", o.method, target(base, query), rec.Code)
				}
			}
		}
	}
	if len(queryParams) > 0 {
		var all []string
		for _, name := range queryParams {
			all = append(all, name+"=%00")
		}
		s.send(o.method, target(base, strings.Join(all, "&")), ctype, body)
	}
	s.send(o.method, target(base, strings.Repeat("q", 5000)+"=1"), ctype, body) // over MaxQueryBytes
	if o.op.RequestBody == nil {
		return
	}
	t := target(base, "")
	// Raw bodies that are not one JSON object, an oversized one, a wrong type.
	for _, raw := range rawBodies {
		s.send(o.method, t, ctype, []byte(raw))
	}
	s.send(o.method, t, ctype, oversizedBody)
	s.send(o.method, t, "text/plain", body)
	if ctype != "application/json" {
		return
	}
	// Each field of a valid body, replaced by each bad value; then every
	// string field carrying a NUL at once.
	var fields map[string]any
	_ = json.Unmarshal(body, &fields)
	for name := range fields {
		for _, v := range badJSONValues {
			m := maps(fields)
			m[name] = v
			b, _ := json.Marshal(m)
			rec := s.send(o.method, t, ctype, b)
			if str, ok := v.(string); ok && strings.ContainsRune(str, 0) && rec.Code < 300 {
				s.t.Errorf("%s %s: %s=%q accepted: %d", o.method, t, name, str, rec.Code)
			}
		}
	}
	nul := maps(fields)
	for k, v := range nul {
		if str, ok := v.(string); ok {
			nul[k] = str + "\x00"
		}
	}
	b, _ := json.Marshal(nul)
	if rec := s.send(o.method, t, ctype, b); rec.Code < 300 && !bytes.Equal(b, body) {
		s.t.Errorf("%s %s: every text with a NUL accepted: %d", o.method, t, rec.Code)
	}
}

func maps(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// validBody is a plausible body for the operation, built from its schema:
// the sweep then spoils one field at a time.
func (s *sweeper) validBody(o sweepOp) []byte {
	if o.op.RequestBody == nil {
		return nil
	}
	mt := o.op.RequestBody.Value.Content.Get("application/json")
	if mt == nil {
		return []byte("\x89PNG\r\n\x1a\nnot really a picture")
	}
	b, _ := json.Marshal(s.sample(mt.Schema, "", 0))
	return b
}

// plausible values of fields by name, so that a spoiled field is the only
// thing wrong with a body and the request gets as far as it can.
var plausible = map[string]any{
	"email": "sweep@example.com", "password": "tulip-lamp-7", "old_password": "tulip-lamp-7",
	"phone": "2125550100", "phone_number": "2125550100", "first_name": "Sweep", "last_name": "Sweep",
	"business_name": "Sweep Vapes", "store_name": "Sweep Vapes", "name": "Sweep Vapes", "website": "https://sweep.example",
	"country": "US", "state": "TX", "city": "Austin", "postal_code": "78701", "address1": "1 Congress Ave", "address": "1 Congress Ave",
	"latitude": 30.27, "longitude": -97.74, "working_hours": "Mon-Fri 9-5", "hours": "Mon-Fri 9-5", "token": "sweep-token",
	"note": "sweep note",
}

func (s *sweeper) sample(ref *openapi3.SchemaRef, name string, depth int) any {
	if ref == nil || ref.Value == nil || depth > 4 {
		return nil
	}
	sc := ref.Value
	if v, ok := plausible[name]; ok && !sc.Type.Is("array") && !sc.Type.Is("object") && len(sc.Enum) == 0 {
		return v
	}
	if name == "store_id" || name == "phstore_id" {
		return json.Number(s.validID)
	}
	if len(sc.Enum) > 0 {
		return sc.Enum[0]
	}
	if sc.Example != nil {
		return sc.Example
	}
	for _, alt := range append(append(sc.OneOf, sc.AnyOf...), sc.AllOf...) {
		if v := s.sample(alt, name, depth+1); v != nil {
			return v
		}
	}
	switch {
	case sc.Type.Is("object") || len(sc.Properties) > 0:
		out := map[string]any{}
		for pname, p := range sc.Properties {
			out[pname] = s.sample(p, pname, depth+1)
		}
		return out
	case sc.Type.Is("array"):
		if v := s.sample(sc.Items, name, depth+1); v != nil {
			return []any{v}
		}
		return []any{}
	case sc.Type.Is("integer"), sc.Type.Is("number"):
		return 1
	case sc.Type.Is("boolean"):
		return true
	case sc.Type.Is("string"):
		if sc.Format == "email" {
			return "sweep@example.com"
		}
		return "sweep-value-1"
	}
	return "sweep"
}

// send makes one request with every session cookie and checks the answer.
func (s *sweeper) send(method, target, ctype string, body []byte) *httptest.ResponseRecorder {
	s.t.Helper()
	s.sent++
	req := httptest.NewRequest(method, target, bytes.NewReader(body))
	// Each request from its own network: the per-client limits would
	// otherwise answer 429 before most inputs are read.
	req.RemoteAddr = fmt.Sprintf("10.%d.%d.7:4000", s.sent>>8&255, s.sent&255)
	if body != nil {
		req.Header.Set("Content-Type", ctype)
	}
	for _, c := range s.cookies {
		if c != nil {
			req.AddCookie(c)
		}
	}
	rec := httptest.NewRecorder()
	s.h.ServeHTTP(rec, req)
	s.contract(req, body, rec)
	if rec.Code >= 500 {
		s.failed++
		s.t.Errorf("%s %s (%d-byte body %.60q): %d %s", method, target, len(body), body, rec.Code, truncate(rec.Body.String()))
	}
	if rec.Code >= 400 {
		s.refused++
		var e apiError
		if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || e.Message == "" {
			s.t.Errorf("%s %s: %d without a JSON message: %q", method, target, rec.Code, truncate(rec.Body.String()))
		}
	}
	return rec
}
