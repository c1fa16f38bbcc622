package httpapi

// The point-of-sale API (docs/products.md, "Point-of-sale API"): a till or
// a stock system sends its stores' stock with a key its business account
// made in /business. The key is the only credential: no cookie opens this
// call, and a key opens nothing else.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"slices"

	"locator/internal/apikeys"
	"locator/internal/apperr"
	"locator/internal/audit"
	"locator/internal/business"
	"locator/internal/inventory"
)

// posMaxRows bounds one batch: a larger one is refused whole (413), so a
// caller splits it rather than having part of it written.
const posMaxRows = 1000

// feedText is a feed field sent as a JSON string or number (a quantity
// of 12 or "12", a GTIN as digits); null is empty. The feed's own rules
// then judge the text, as they would a file's.
type feedText string

func (f *feedText) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case bytes.Equal(b, []byte("null")):
		*f = ""
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*f = feedText(s)
	case len(b) > 0 && (b[0] == '-' || (b[0] >= '0' && b[0] <= '9')):
		*f = feedText(b)
	default:
		return &json.UnmarshalTypeError{Value: string(b), Type: reflect.TypeFor[string]()}
	}
	return nil
}

type posRow struct {
	StoreCode    feedText `json:"store_code"`
	ID           feedText `json:"id"`
	GTIN         feedText `json:"gtin"`
	Availability feedText `json:"availability"`
	Quantity     feedText `json:"quantity"`
	Price        feedText `json:"price"`
	SalePrice    feedText `json:"sale_price"`
	PickupMethod feedText `json:"pickup_method"`
	PickupSLA    feedText `json:"pickup_sla"`
}

type posStockRequest struct {
	Rows []posRow `json:"rows"`
}

type posRowError struct {
	Row     int    `json:"row"`
	Message string `json:"message"`
}

type posStockReply struct {
	Written int           `json:"written"`
	Failed  int           `json:"failed"`
	Errors  []posRowError `json:"errors"`
}

// posStock writes a batch of stock rows for the key's stores: every row
// checked by the feed's rules, the good ones written together, the others
// answered with their row number.
func (s *Server) posStock(w http.ResponseWriter, r *http.Request) error {
	if s.APIKeys == nil || s.Inventory == nil {
		return apperr.New(apperr.NotFound, "the point-of-sale API is not served here")
	}
	key, err := s.APIKeys.Authenticate(r.Context(), r.Header.Get("Authorization"))
	if err != nil {
		if apperr.CodeOf(err) == apperr.Unauthorized {
			w.Header().Set("WWW-Authenticate", `Bearer realm="pos"`)
		}
		return err
	}
	var in posStockRequest
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	switch {
	case len(in.Rows) == 0:
		return apperr.Invalidf("rows is empty: send from 1 to %d stock rows", posMaxRows)
	case len(in.Rows) > posMaxRows:
		return apperr.New(apperr.TooLarge, "A batch has at most %d rows (this one has %d): send it in parts.", posMaxRows, len(in.Rows))
	}
	rows := make([]inventory.FeedRow, len(in.Rows))
	for i, p := range in.Rows {
		rows[i] = inventory.FeedRow{StoreCode: string(p.StoreCode), ID: string(p.ID), GTIN: string(p.GTIN),
			Availability: string(p.Availability), Quantity: string(p.Quantity), Price: string(p.Price),
			SalePrice: string(p.SalePrice), PickupMethod: string(p.PickupMethod), PickupSLA: string(p.PickupSLA)}
	}
	rep, err := s.Inventory.ImportRows(r.Context(), rows, fmt.Sprintf("point-of-sale key %d", key.ID), s.APIKeys.Owns(key))
	if err != nil {
		return err
	}
	out := posStockReply{Written: rep.Rows, Failed: rep.Failed, Errors: make([]posRowError, len(rep.Errors))}
	for i, e := range rep.Errors {
		out.Errors[i] = posRowError{Row: e.Line, Message: e.Message}
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (s *Server) apiKeys() (*apikeys.Service, error) {
	if s.APIKeys == nil {
		return nil, apperr.New(apperr.NotFound, "API keys are not kept here")
	}
	return s.APIKeys, nil
}

type apiKeysDTO struct {
	Keys      []apikeys.Key `json:"keys"`
	MaxActive int           `json:"max_active"`
	PerMinute int           `json:"per_minute"`
}

func (s *Server) businessListAPIKeys(w http.ResponseWriter, r *http.Request, a *business.Account) error {
	ks, err := s.apiKeys()
	if err != nil {
		return err
	}
	list, err := ks.List(r.Context(), a.ID)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, apiKeysDTO{Keys: list, MaxActive: apikeys.MaxActive, PerMinute: ks.PerMinute()})
	return nil
}

type createAPIKeyRequest struct {
	Name string `json:"name"`
}

type apiKeyDTO struct {
	Key apikeys.Key `json:"key"`
	// Secret is the key itself, answered once, at its creation.
	Secret string `json:"secret,omitempty"`
}

func (s *Server) businessCreateAPIKey(w http.ResponseWriter, r *http.Request, a *business.Account) error {
	ks, err := s.apiKeys()
	if err != nil {
		return err
	}
	var in createAPIKeyRequest
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	k, plain, err := ks.Create(r.Context(), a.ID, in.Name)
	if err != nil {
		return err
	}
	s.auditKey(r.Context(), a, "api_key.create", k)
	writeJSON(w, http.StatusCreated, apiKeyDTO{Key: k, Secret: plain})
	return nil
}

func (s *Server) businessRevokeAPIKey(w http.ResponseWriter, r *http.Request, a *business.Account) error {
	ks, err := s.apiKeys()
	if err != nil {
		return err
	}
	id, ok := parseID(r.PathValue("id"))
	if !ok {
		return apperr.New(apperr.NotFound, "No such key.")
	}
	was, err := ks.List(r.Context(), a.ID)
	if err != nil {
		return err
	}
	k, err := ks.Revoke(r.Context(), a.ID, id)
	if err != nil {
		return err
	}
	if i := slices.IndexFunc(was, func(w apikeys.Key) bool { return w.ID == id }); i >= 0 && was[i].RevokedAt == nil {
		s.auditKey(r.Context(), a, "api_key.revoke", k)
	}
	writeJSON(w, http.StatusOK, apiKeyDTO{Key: k})
	return nil
}

// auditKey writes the creation or revocation of a point-of-sale key to the
// audit log (never the key itself: its id, name and shown prefix). It
// follows the change's own commit (internal/apikeys owns that
// transaction), so a crash between the two loses the entry but the log
// never tells of a change that did not happen. A failed write is logged
// and the answer still given: a key made is answered (its secret is shown
// only then), a revoked one stays revoked.
func (s *Server) auditKey(ctx context.Context, a *business.Account, action string, k apikeys.Key) {
	s.auditAfter(ctx, audit.BusinessActor(a.ID, a.Email), action, map[string]any{"key_id": k.ID, "name": k.Name, "prefix": k.Prefix})
}

// auditAfter writes an entry for a change another package has committed
// in its own transaction (keys, webhooks): a failed write is logged, the
// change stands and is answered.
func (s *Server) auditAfter(ctx context.Context, actor, action string, details map[string]any) {
	if err := audit.Write(ctx, s.Stores.DB(), s.Clock.Now(), actor, action, 0, 0, details); err != nil {
		s.log.ErrorContext(ctx, "audit log", "action", action, "details", details, "err", err)
	}
}
