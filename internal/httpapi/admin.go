package httpapi

// The moderation API under /api/admin/: moderators have their own cookie
// and sessions, never a member's.

import (
	"net/http"
	"time"

	"locator/internal/apperr"
	"locator/internal/claims"
	"locator/internal/identity"
)

var adminSignInLimit = perIP{"admin-signin", 10, time.Minute}

type moderatorDTO struct {
	Email string `json:"email"`
}

type adminSignInResponse struct {
	Moderator moderatorDTO `json:"moderator"`
}

// adminMe answers the moderator (its /me and a sign-in).
func (s *Server) adminMe(w http.ResponseWriter, _ *http.Request, m *identity.Moderator) error {
	writeJSON(w, http.StatusOK, adminSignInResponse{Moderator: moderatorDTO{Email: m.Email}})
	return nil
}

type claimListDTO struct {
	Claims []claims.View `json:"claims"`
}

func (s *Server) adminListClaims(w http.ResponseWriter, r *http.Request, _ *identity.Moderator) error {
	status := statusParam(r, string(claims.Pending))
	list, err := s.Claims.List(r.Context(), claims.Status(status), 500)
	if err != nil {
		return err
	}
	out := claimListDTO{Claims: make([]claims.View, 0, len(list))}
	for i := range list {
		v, err := s.Claims.View(r.Context(), &list[i], status == string(claims.Pending))
		if err != nil {
			return err
		}
		out.Claims = append(out.Claims, v)
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func claimID(r *http.Request) (int64, error) {
	id, err := pathID(r)
	if err != nil {
		return 0, apperr.Invalidf("claim id must be a positive whole number")
	}
	return id, nil
}

// statusParam is the ?status= of a moderation list: def when absent,
// "" (any status) for "all".
func statusParam(r *http.Request, def string) string {
	switch status := r.URL.Query().Get("status"); status {
	case "":
		return def
	case "all":
		return ""
	default:
		return status
	}
}

func (s *Server) adminGetClaim(w http.ResponseWriter, r *http.Request, _ *identity.Moderator) error {
	id, err := claimID(r)
	if err != nil {
		return err
	}
	c, err := s.Claims.Get(r.Context(), id)
	return s.answerClaim(w, r, c, true, err)
}

// answerClaim answers the claim c as the moderation API shows it, or err.
func (s *Server) answerClaim(w http.ResponseWriter, r *http.Request, c *claims.Claim, withSuggestion bool, err error) error {
	if err != nil {
		return err
	}
	v, err := s.Claims.View(r.Context(), c, withSuggestion)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, v)
	return nil
}

type approveRequest struct {
	Latitude  *float64 `json:"latitude"`
	Longitude *float64 `json:"longitude"`
	// The claimed values to apply to a store that is already listed.
	Fields []string `json:"fields"`
}

type rejectRequest struct {
	Reason string `json:"reason"`
}

func (s *Server) adminDecide(approve bool) handler {
	return s.forModerator(func(w http.ResponseWriter, r *http.Request, m *identity.Moderator) error {
		id, err := claimID(r)
		if err != nil {
			return err
		}
		var c *claims.Claim
		if approve {
			var in approveRequest
			if err := decodeJSON(r, &in); err != nil {
				return err
			}
			c, err = s.Claims.Approve(r.Context(), id, m.Actor(), claims.Approval{Latitude: in.Latitude, Longitude: in.Longitude, Fields: in.Fields})
		} else {
			var in rejectRequest
			if err := decodeJSON(r, &in); err != nil {
				return err
			}
			c, err = s.Claims.Reject(r.Context(), id, m.Actor(), in.Reason)
		}
		return s.answerClaim(w, r, c, false, err)
	})
}
