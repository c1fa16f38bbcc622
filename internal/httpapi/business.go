package httpapi

// The store dashboard API under /api/business/: business accounts have
// their own cookie and sessions; member and moderator sessions never open
// it, and a business session opens neither of theirs.

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"locator/internal/apperr"
	"locator/internal/business"
	"locator/internal/identity"
	"locator/internal/ownership"
)

// Per-IP limits of the dashboard, as members'.
var (
	businessSignInLimit = perIP{"business-signin", signInLimit.limit, signInLimit.per}
	businessResetLimit  = perIP{"business-reset", resetLimit.limit, resetLimit.per}
)

// forBusinessStore is forBusiness with the store id of the path, the start
// of every call about one of the account's stores.
func (s *Server) forBusinessStore(h func(w http.ResponseWriter, r *http.Request, a *business.Account, id int64) error) handler {
	return s.forBusiness(func(w http.ResponseWriter, r *http.Request, a *business.Account) error {
		id, err := pathID(r)
		if err != nil {
			return err
		}
		return h(w, r, a, id)
	})
}

type businessAccountDTO struct {
	Email         string `json:"email"`
	StoreName     string `json:"store_name"`
	EmailVerified bool   `json:"email_verified"`
}

type businessMeDTO struct {
	Account businessAccountDTO `json:"account"`
}

// businessMe answers the account (its /me, a sign-in, a followed link).
func (s *Server) businessMe(w http.ResponseWriter, _ *http.Request, a *business.Account) error {
	writeJSON(w, http.StatusOK, businessMeDTO{Account: businessAccountDTO{Email: a.Email, StoreName: a.StoreName, EmailVerified: a.Verified}})
	return nil
}

// businessResendProof mails a signed-in, unproven account a new link.
func (s *Server) businessResendProof(w http.ResponseWriter, r *http.Request, a *business.Account) error {
	return answerMessage(w, http.StatusAccepted, "We sent a new link to "+a.Email+". Open it to confirm your email.",
		s.Business.ResendProof(r.Context(), a))
}

type emailProofRequest struct {
	Token    string `json:"token"`
	Password string `json:"password"`
}

// businessConfirmEmail follows a mailed link and signs the account in.
func (s *Server) businessConfirmEmail(w http.ResponseWriter, r *http.Request, in emailProofRequest) error {
	return answerSession(s, business.Area, w, r, s.businessMe)(s.Business.ConfirmEmail(r.Context(), in.Token, in.Password, s.sessionOf(r, business.Area)))
}

type businessStoresDTO struct {
	Stores []business.StoreView `json:"stores"`
}

type businessStoreDTO struct {
	Store business.StoreView `json:"store"`
}

func (s *Server) businessListStores(w http.ResponseWriter, r *http.Request, a *business.Account) error {
	list, err := s.Business.ListStores(r.Context(), a)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, businessStoresDTO{Stores: list})
	return nil
}

// answerStore answers one of the account's stores, or the error.
func answerStore(w http.ResponseWriter) func(business.StoreView, error) error {
	return func(v business.StoreView, err error) error {
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, businessStoreDTO{Store: v})
		return nil
	}
}

func (s *Server) businessGetStore(w http.ResponseWriter, r *http.Request, a *business.Account, id int64) error {
	return answerStore(w)(s.Business.GetStore(r.Context(), a, id))
}

// storePatchRequest is the PATCH body: a business.Patch whose
// temporarily_closed is kept raw to tell a null (reopen) from a field left
// out (unchanged).
type storePatchRequest struct {
	business.Patch
	TemporarilyClosed json.RawMessage
}

// UnmarshalJSON reads the body twice, as a business.Patch and for its
// temporarily_closed, so that a field of the wrong type is named by its
// JSON path alone (an embedded Patch would prefix it with "Patch.").
func (in *storePatchRequest) UnmarshalJSON(b []byte) error {
	if err := json.Unmarshal(b, &in.Patch); err != nil {
		return err
	}
	var closure struct {
		TemporarilyClosed json.RawMessage `json:"temporarily_closed"`
	}
	if err := json.Unmarshal(b, &closure); err != nil {
		return err
	}
	in.TemporarilyClosed = closure.TemporarilyClosed
	return nil
}

type storePatchDTO struct {
	Message       string                      `json:"message"`
	Store         business.StoreView          `json:"store"`
	ChangeRequest *business.ChangeRequestView `json:"change_request"`
}

func (s *Server) businessPatchStore(w http.ResponseWriter, r *http.Request, a *business.Account, id int64) error {
	var in storePatchRequest
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	var closure *business.ClosureChange
	if len(in.TemporarilyClosed) > 0 {
		closure = &business.ClosureChange{}
		if string(in.TemporarilyClosed) != "null" {
			if err := json.Unmarshal(in.TemporarilyClosed, &closure.Closure); err != nil {
				return apperr.Invalidf("temporarily_closed must be null or an object with from, until and note")
			}
		}
	}
	p := in.Patch
	p.TemporarilyClosed = closure
	res, err := s.Business.Update(r.Context(), a, id, p)
	if err != nil {
		return err
	}
	var msg string
	switch {
	case res.ChangeRequest != nil && len(res.Published) > 0:
		msg = "Changes saved and published. The new name, address or position is sent to a moderator and will be published once approved."
	case res.ChangeRequest != nil:
		msg = "The new name, address or position is sent to a moderator and will be published once approved."
	case len(res.Published) > 0:
		msg = "Changes saved and published."
	default:
		msg = "Nothing changed: the store already has these details."
	}
	writeJSON(w, http.StatusOK, storePatchDTO{Message: msg, Store: res.Store, ChangeRequest: res.ChangeRequest})
	return nil
}

func (s *Server) businessVerifyStore(w http.ResponseWriter, r *http.Request, a *business.Account, id int64) error {
	return answerStore(w)(s.Business.Verify(r.Context(), a, id))
}

// The moderators' side: change requests and store links.

type changeRequestListDTO struct {
	ChangeRequests []business.ChangeRequestView `json:"change_requests"`
}

func (s *Server) adminListChanges(w http.ResponseWriter, r *http.Request, _ *identity.Moderator) error {
	list, err := s.Business.ChangeRequests(r.Context(), statusParam(r, "pending"), 500)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, changeRequestListDTO{ChangeRequests: list})
	return nil
}

func (s *Server) adminDecideChange(approve bool) handler {
	return s.forModerator(func(w http.ResponseWriter, r *http.Request, m *identity.Moderator) error {
		id, err := pathID(r)
		if err != nil {
			return apperr.Invalidf("change request id must be a positive whole number")
		}
		var c *business.ChangeRequestView
		if approve {
			var in struct{}
			if err := decodeJSON(r, &in); err != nil {
				return err
			}
			c, err = s.Business.ApproveChange(r.Context(), id, m.Actor())
		} else {
			var in rejectRequest
			if err := decodeJSON(r, &in); err != nil {
				return err
			}
			c, err = s.Business.RejectChange(r.Context(), id, m.Actor(), in.Reason)
		}
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, c)
		return nil
	})
}

type linkRequest struct {
	StoreID flexStoreID `json:"store_id"`
	Email   string      `json:"email"`
}

func (s *Server) adminLinkStore(w http.ResponseWriter, r *http.Request, m *identity.Moderator) error {
	var in linkRequest
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	return answerMessage(w, http.StatusOK, "Store linked to the business account", s.Claims.LinkStore(r.Context(), int64(in.StoreID), in.Email, m.Actor()))
}

type ownersDTO struct {
	Owners []ownership.Owner `json:"owners"`
}

// storeAndOwner reads the {id} and {ownerId} of an owners path.
func storeAndOwner(r *http.Request) (int64, int64, error) {
	id, err := pathID(r)
	if err != nil {
		return 0, 0, err
	}
	owner, err := strconv.ParseInt(r.PathValue("ownerId"), 10, 64)
	if err != nil || owner < 1 || strings.HasPrefix(r.PathValue("ownerId"), "+") {
		return 0, 0, apperr.Invalidf("owner id must be a positive whole number")
	}
	return id, owner, nil
}

func (s *Server) adminStoreOwners(w http.ResponseWriter, r *http.Request, _ *identity.Moderator) error {
	id, err := pathID(r)
	if err != nil {
		return err
	}
	owners, err := s.Claims.Owners(r.Context(), id)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, ownersDTO{Owners: owners})
	return nil
}

func (s *Server) adminRemoveOwner(w http.ResponseWriter, r *http.Request, m *identity.Moderator) error {
	id, owner, err := storeAndOwner(r)
	if err != nil {
		return err
	}
	o, err := s.Claims.UnlinkOwner(r.Context(), id, owner, m.Actor())
	if err != nil {
		return err
	}
	writeMessage(w, http.StatusOK, fmt.Sprintf("%s can no longer change store %d", o.Email, id))
	return nil
}

func (s *Server) businessRemoveOwner(w http.ResponseWriter, r *http.Request, a *business.Account) error {
	id, owner, err := storeAndOwner(r)
	if err != nil {
		return err
	}
	return answerStore(w)(s.Business.RemoveOwner(r.Context(), a, id, owner))
}
