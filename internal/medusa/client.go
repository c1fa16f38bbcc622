// Package medusa reads the marketplace's catalogue and stock from its
// Medusa v2 commerce server (the admin API) into the locator's catalogue
// (internal/catalog) and stock (internal/inventory): `locator products
// sync` and a background job of `serve` (docs/products.md, "From the
// marketplace (Medusa)").
package medusa

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Settings say where the Medusa server is and how to sign in: a secret
// API key (sk_..., sent as HTTP Basic as Medusa wants it) or an admin
// JWT as Token, else an admin user's Email and Password (a token is asked
// of /auth/user/emailpass, and asked again when it expires).
type Settings struct {
	URL      string
	Token    string
	Email    string
	Password string
	// Timeout bounds each request, the body read included (0: 20 s).
	Timeout time.Duration
}

// DefaultTimeout bounds one request to Medusa.
const DefaultTimeout = 20 * time.Second

// maxBody bounds one answer: a page of 100 products with their variants
// is a few hundred kilobytes.
const maxBody = 32 << 20

// pageSize is how many records each list call asks for.
const pageSize = 100

// Client calls Medusa's admin API.
type Client struct {
	base *url.URL
	hc   *http.Client
	set  Settings

	mu  sync.Mutex
	jwt string // from email and password
}

// NewClient checks s and returns its client.
func NewClient(s Settings) (*Client, error) {
	u, err := url.Parse(strings.TrimRight(s.URL, "/"))
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, fmt.Errorf("medusa: URL %q is not an absolute http(s) URL", s.URL)
	}
	if s.Token == "" && (s.Email == "" || s.Password == "") {
		return nil, errors.New("medusa: no credential (a token, or an email and a password)")
	}
	if s.Timeout <= 0 {
		s.Timeout = DefaultTimeout
	}
	return &Client{base: u, set: s, hc: &http.Client{Timeout: s.Timeout}}, nil
}

// Source names the server in the sync state: its URL.
func (c *Client) Source() string { return c.base.String() }

// Error is an answer of Medusa that is not a success.
type Error struct {
	Status  int
	Message string
}

func (e *Error) Error() string {
	if e.Message == "" {
		return fmt.Sprintf("medusa answered %d", e.Status)
	}
	return fmt.Sprintf("medusa answered %d: %s", e.Status, e.Message)
}

// get decodes GET path?q into out, signing in first when it must.
func (c *Client) get(ctx context.Context, path string, q url.Values, out any) error {
	err := c.do(ctx, http.MethodGet, path, q, nil, out)
	var me *Error
	if errors.As(err, &me) && me.Status == http.StatusUnauthorized && c.set.Token == "" {
		c.mu.Lock()
		c.jwt = "" // expired: sign in again, once
		c.mu.Unlock()
		err = c.do(ctx, http.MethodGet, path, q, nil, out)
	}
	return err
}

func (c *Client) auth(ctx context.Context) (string, error) {
	if t := c.set.Token; t != "" {
		if strings.HasPrefix(t, "sk_") {
			return "Basic " + base64.StdEncoding.EncodeToString([]byte(t+":")), nil
		}
		return "Bearer " + t, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.jwt == "" {
		var out struct {
			Token string `json:"token"`
		}
		body, _ := json.Marshal(map[string]string{"email": c.set.Email, "password": c.set.Password})
		if err := c.send(ctx, http.MethodPost, "/auth/user/emailpass", nil, body, "", &out); err != nil {
			return "", fmt.Errorf("sign in to medusa as %s: %w", c.set.Email, err)
		}
		if out.Token == "" {
			return "", errors.New("sign in to medusa: the answer holds no token")
		}
		c.jwt = out.Token
	}
	return "Bearer " + c.jwt, nil
}

func (c *Client) do(ctx context.Context, method, path string, q url.Values, body []byte, out any) error {
	a, err := c.auth(ctx)
	if err != nil {
		return err
	}
	return c.send(ctx, method, path, q, body, a, out)
}

func (c *Client) send(ctx context.Context, method, path string, q url.Values, body []byte, authz string, out any) error {
	u := *c.base
	u.Path = strings.TrimRight(u.Path, "/") + path
	u.RawQuery = q.Encode()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), rd)
	if err != nil {
		return fmt.Errorf("medusa %s %s: %w", method, path, err)
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if authz != "" {
		req.Header.Set("Authorization", authz)
	}
	res, err := c.hc.Do(req)
	if err != nil {
		return fmt.Errorf("medusa %s %s: %w", method, path, err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(io.LimitReader(res.Body, maxBody+1))
	if err != nil {
		return fmt.Errorf("medusa %s %s: read the answer: %w", method, path, err)
	}
	if len(data) > maxBody {
		return fmt.Errorf("medusa %s %s: the answer is over %d MB", method, path, maxBody>>20)
	}
	if res.StatusCode >= 300 {
		var e struct {
			Message string `json:"message"`
		}
		_ = json.Unmarshal(data, &e)
		return fmt.Errorf("medusa %s %s: %w", method, path, &Error{Status: res.StatusCode, Message: clip(e.Message)})
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("medusa %s %s: the answer is not the JSON expected: %w", method, path, err)
	}
	return nil
}

// page is the paging part of every list answer.
type page struct {
	Count  int `json:"count"`
	Offset int `json:"offset"`
	Limit  int `json:"limit"`
}

// maxPages bounds one list: 100,000 pages of 100 records is ten million,
// far past any marketplace; a server that always answers "more" must not
// keep a run going for ever.
const maxPages = 100_000

// list reads every page of a list call: items(page) decodes one page's
// answer and returns the records it held and the total count.
func list[T any](ctx context.Context, c *Client, path string, q url.Values, key string) ([]T, error) {
	var all []T
	for n := 0; n < maxPages; n++ {
		pq := url.Values{}
		for k, v := range q {
			pq[k] = v
		}
		pq.Set("limit", strconv.Itoa(pageSize))
		pq.Set("offset", strconv.Itoa(n*pageSize))
		var raw map[string]json.RawMessage
		if err := c.get(ctx, path, pq, &raw); err != nil {
			return nil, err
		}
		var p page
		var items []T
		if err := decodeParts(raw, key, &items, &p); err != nil {
			return nil, fmt.Errorf("medusa GET %s: %w", path, err)
		}
		all = append(all, items...)
		if len(items) == 0 || n*pageSize+len(items) >= p.Count {
			return all, nil
		}
	}
	return nil, fmt.Errorf("medusa GET %s: more than %d pages", path, maxPages)
}

func decodeParts(raw map[string]json.RawMessage, key string, items any, p *page) error {
	r, ok := raw[key]
	if !ok {
		return fmt.Errorf("the answer has no %q", key)
	}
	if err := json.Unmarshal(r, items); err != nil {
		return fmt.Errorf("%s: %w", key, err)
	}
	c, ok := raw["count"]
	if !ok {
		return errors.New(`the answer has no "count"`)
	}
	return json.Unmarshal(c, &p.Count)
}

func clip(s string) string {
	if r := []rune(s); len(r) > 200 {
		return string(r[:200]) + "…"
	}
	return s
}
