package httpapi

// Consent before co-ownership (docs/claims.md, "Consent of the owners"):
// the owner's mailed link, the owner's choice in the dashboard and the
// moderator's in /admin, each answering a pending co-owner.

import (
	"net/http"
	"strconv"
	"strings"

	"locator/internal/apperr"
	"locator/internal/business"
	"locator/internal/consent"
	"locator/internal/identity"
)

// consentLimit bounds the link calls per IP as sign-ins are (the token is
// 256 bits: the limit is for load, not for guessing).
var consentLimit = perIP{"business-consent", signInLimit.limit, signInLimit.per}

type consentLinkRequest struct {
	Token string `json:"token"`
}

type consentDecisionRequest struct {
	Token    string `json:"token"`
	Decision string `json:"decision"`
}

type decisionRequest struct {
	Decision string `json:"decision"`
}

type consentRequestDTO struct {
	Request consent.Request `json:"request"`
}

type consentDecidedDTO struct {
	Message string          `json:"message"`
	Request consent.Request `json:"request"`
}

// accepts reads a decision: "accept" or "decline".
// decodeDecision reads a {"decision": "accept" | "decline"} body.
func decodeDecision(r *http.Request) (bool, error) {
	var in decisionRequest
	if err := decodeJSON(r, &in); err != nil {
		return false, err
	}
	return accepts(in.Decision)
}

func accepts(decision string) (bool, error) {
	switch decision {
	case "accept":
		return true, nil
	case "decline":
		return false, nil
	}
	return false, apperr.Invalidf("decision must be accept or decline")
}

// businessConsentRequest answers POST /api/business/consent/request: what
// the link asks, deciding nothing (a GET of the mailed link's page must
// never consent: mail scanners open links).
func (s *Server) businessConsentRequest(w http.ResponseWriter, r *http.Request, in consentLinkRequest) error {
	req, err := s.Claims.ConsentRequest(r.Context(), in.Token)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, consentRequestDTO{Request: req})
	return nil
}

// businessConsent answers POST /api/business/consent: the owner's decision
// with the mailed link, which it uses up.
func (s *Server) businessConsent(w http.ResponseWriter, r *http.Request, in consentDecisionRequest) error {
	accept, err := accepts(in.Decision)
	if err != nil {
		return err
	}
	req, err := s.Claims.ConsentByLink(r.Context(), in.Token, accept)
	if err != nil {
		return err
	}
	msg := req.Email + " will not be able to change the store."
	if accept {
		msg = req.Email + " can now change the store with you."
	}
	writeJSON(w, http.StatusOK, consentDecidedDTO{Message: msg, Request: req})
	return nil
}

// businessDecidePendingOwner answers POST
// /api/business/stores/{id}/pending-owners/{claimId}.
func (s *Server) businessDecidePendingOwner(w http.ResponseWriter, r *http.Request, a *business.Account, id int64) error {
	raw := r.PathValue("claimId")
	claimID, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || claimID < 1 || strings.HasPrefix(raw, "+") {
		return apperr.Invalidf("claim id must be a positive whole number")
	}
	accept, err := decodeDecision(r)
	if err != nil {
		return err
	}
	return answerStore(w)(s.Business.DecidePendingOwner(r.Context(), a, id, claimID, accept))
}

type businessWaitingDTO struct {
	Waiting []consent.Waiting `json:"waiting"`
}

// businessWaiting answers GET /api/business/waiting: the stores the
// account claimed and waits to change.
func (s *Server) businessWaiting(w http.ResponseWriter, r *http.Request, a *business.Account) error {
	list, err := s.Business.Waiting(r.Context(), a)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, businessWaitingDTO{Waiting: list})
	return nil
}

// adminConsent answers POST /api/admin/claims/{id}/consent: a moderator's
// decision in place of the store's owners.
func (s *Server) adminConsent(w http.ResponseWriter, r *http.Request, m *identity.Moderator) error {
	id, err := claimID(r)
	if err != nil {
		return err
	}
	accept, err := decodeDecision(r)
	if err != nil {
		return err
	}
	c, err := s.Claims.DecideConsent(r.Context(), id, accept, m.Actor())
	return s.answerClaim(w, r, c, false, err)
}
