package httpapi

// The moderation API under /api/admin/: moderators have their own cookie
// and sessions, never a member's.

import (
	"net/http"
	"time"

	"locator/internal/apperr"
	"locator/internal/claims"
)

const adminCookie = "locator_admin"

func (s *Server) adminCookieName() string {
	if s.SecureCookies {
		return "__Host-" + adminCookie
	}
	return adminCookie
}

func (s *Server) currentModerator(r *http.Request) (*claims.Moderator, error) {
	return s.Claims.AuthenticateModerator(r.Context(), sessionCookie(r, s.adminCookieName()))
}

// forModerator adapts a handler of the moderators' API: it runs h for the
// moderator the cookie signs in, and answers 401 without one.
func (s *Server) forModerator(h func(w http.ResponseWriter, r *http.Request, m *claims.Moderator) error) handler {
	return given(func(_ http.ResponseWriter, r *http.Request) (*claims.Moderator, error) { return s.currentModerator(r) }, h)
}

var adminSignInLimit = perIP{"admin-signin", 10, time.Minute}

type moderatorDTO struct {
	Email string `json:"email"`
}

type adminSignInResponse struct {
	Moderator moderatorDTO `json:"moderator"`
}

func (s *Server) adminSignIn(w http.ResponseWriter, r *http.Request, in signInRequest) error {
	m, token, err := s.Claims.SignInModerator(r.Context(), in.Email, in.Password, sessionCookie(r, s.adminCookieName()))
	if err != nil {
		return err
	}
	s.setSessionCookie(w, s.adminCookieName(), token, int(claims.ModeratorSessionTTL.Seconds()), http.SameSiteStrictMode)
	writeJSON(w, http.StatusOK, adminSignInResponse{Moderator: moderatorDTO{Email: m.Email}})
	return nil
}

func (s *Server) adminSignOut(w http.ResponseWriter, r *http.Request) error {
	if token := sessionCookie(r, s.adminCookieName()); token != "" {
		if err := s.Claims.SignOutModerator(r.Context(), token); err != nil {
			return err
		}
	}
	s.setSessionCookie(w, s.adminCookieName(), "", -1, http.SameSiteStrictMode)
	writeMessage(w, http.StatusOK, "Signed out")
	return nil
}

func (s *Server) adminMe(w http.ResponseWriter, r *http.Request) error {
	m, err := s.currentModerator(r)
	if apperr.CodeOf(err) == apperr.Unauthorized {
		s.setSessionCookie(w, s.adminCookieName(), "", -1, http.SameSiteStrictMode) // and its hint
	}
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, adminSignInResponse{Moderator: moderatorDTO{Email: m.Email}})
	return nil
}

type claimListDTO struct {
	Claims []claims.View `json:"claims"`
}

func (s *Server) adminListClaims(w http.ResponseWriter, r *http.Request, _ *claims.Moderator) error {
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

func (s *Server) adminGetClaim(w http.ResponseWriter, r *http.Request, _ *claims.Moderator) error {
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
	return s.forModerator(func(w http.ResponseWriter, r *http.Request, m *claims.Moderator) error {
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
