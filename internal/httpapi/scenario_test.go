package httpapi_test

import (
	"encoding/json"
	"fmt"
	"testing"
)

// A scenario is a table of calls one client makes in order (its session
// cookie kept between them, like a browser), each with the answer it must
// get. client.call checks every request and answer against api/openapi.yaml
// (contract_test.go), so a table is both the behaviour and the contract.

// step is one call of a scenario.
type step struct {
	name   string // what the step shows; the method and target when empty
	method string
	target string
	// body is encoded as JSON, except a string, which is sent as it is (for
	// malformed bodies on purpose).
	body   any
	status int
	// message is the exact "message" of an error answer; when empty, any
	// non-empty message will do.
	message string
	// reply checks the answer's body, decoded into a typed reply (see reply).
	reply replyCheck
}

// replyCheck checks the raw body of an answer.
type replyCheck func(t *testing.T, body []byte)

// reply decodes the answer into T before handing it to check: the tables
// read fields by name instead of digging through map[string]any.
func reply[T any](check func(t *testing.T, r T)) replyCheck {
	return func(t *testing.T, body []byte) {
		t.Helper()
		var r T
		if err := json.Unmarshal(body, &r); err != nil {
			t.Fatalf("answer is not a %T: %v\n%s", r, err, truncate(string(body)))
		}
		check(t, r)
	}
}

// into decodes the answer into *dst, for a later step that needs a value
// (an id, a token) from this one.
func into[T any](dst *T) replyCheck {
	return reply(func(t *testing.T, r T) { *dst = r })
}

// apiError is every error answer of the API.
type apiError struct {
	Message string `json:"message"`
}

func (s step) label() string {
	if s.name != "" {
		return s.name
	}
	return s.method + " " + s.target
}

// run makes the calls of steps in order; a step that fails stops the
// scenario, since later steps build on it.
func (c *client) run(steps []step) {
	c.t.Helper()
	for _, s := range steps {
		if err := c.step(s); err != nil {
			c.t.Fatalf("%s: %v", s.label(), err)
		}
	}
}

// runEach makes each call on its own (for tables of independent cases, such
// as bad inputs), reporting every failure rather than the first.
func (c *client) runEach(steps []step) {
	c.t.Helper()
	for _, s := range steps {
		if err := c.step(s); err != nil {
			c.t.Errorf("%s: %v", s.label(), err)
		}
	}
}

func (c *client) step(s step) error {
	c.t.Helper()
	rec, _ := c.call(s.method, s.target, s.body)
	body := rec.Body.Bytes()
	if rec.Code != s.status {
		return fmt.Errorf("status %d, want %d: %s", rec.Code, s.status, truncate(string(body)))
	}
	if rec.Code >= 400 {
		var e apiError
		if err := json.Unmarshal(body, &e); err != nil || e.Message == "" {
			return fmt.Errorf("error answer without a message: %s", truncate(string(body)))
		}
		if s.message != "" && e.Message != s.message {
			return fmt.Errorf("message %q, want %q", e.Message, s.message)
		}
	}
	if s.reply != nil {
		s.reply(c.t, body)
	}
	return nil
}
