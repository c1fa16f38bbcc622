package httpapi

// Sessions over HTTP, one way for the three areas of internal/identity
// (members, business accounts, moderators): each area has its own cookie
// (identity.Area.Cookie), and a session of one area never opens another's
// calls. The handlers of every area's sign-in, sign-out and password reset
// are written here once, parametrised by the area.

import (
	"context"
	"net/http"
	"strings"

	"locator/internal/apperr"
	"locator/internal/business"
	"locator/internal/identity"
	"locator/internal/members"
)

// cookieName is the area's session cookie: "__Host-" prefixed over HTTPS
// (Secure, Path=/, no Domain: bound to this host).
func (s *Server) cookieName(area identity.Area) string {
	if s.SecureCookies {
		return "__Host-" + area.Cookie
	}
	return area.Cookie
}

// sessionOf returns the token of the area's session cookie ("" for none).
func (s *Server) sessionOf(r *http.Request, area identity.Area) string {
	return sessionCookie(r, s.cookieName(area))
}

// setSession sets the area's session cookie for its lifetime, or with
// token "" clears it.
func (s *Server) setSession(w http.ResponseWriter, area identity.Area, token string) {
	sameSite := http.SameSiteLaxMode
	if area.StrictCookie {
		sameSite = http.SameSiteStrictMode
	}
	s.setSessionCookie(w, s.cookieName(area), token, int(area.SessionTTL.Seconds()), sameSite)
}

// setSessionCookie sets (or, with token "", clears) a session cookie
// together with its hint: a cookie the web app can read, "1" while the
// session may exist, so that it asks who is signed in only then, and a
// first visit makes no request that answers 401. The hint proves nothing:
// the session cookie alone authenticates, and a forged or stale hint costs
// one /me answering 401, which clears it.
func (s *Server) setSessionCookie(w http.ResponseWriter, name, token string, maxAge int, sameSite http.SameSite) {
	if token == "" {
		maxAge = -1
	}
	http.SetCookie(w, &http.Cookie{Name: name, Value: token, Path: "/", MaxAge: maxAge,
		HttpOnly: true, Secure: s.SecureCookies, SameSite: sameSite})
	hint := "1"
	if maxAge < 0 {
		hint = ""
	}
	http.SetCookie(w, &http.Cookie{Name: hintName(name), Value: hint, Path: "/", MaxAge: maxAge,
		Secure: s.SecureCookies, SameSite: http.SameSiteLaxMode})
}

// hintName is the hint cookie of a session cookie: "locator_session_hint"
// for "__Host-locator_session" and "locator_session" alike (the names
// web/src/lib/session/hint.ts reads).
func hintName(session string) string {
	return strings.TrimPrefix(session, "__Host-") + "_hint"
}

// areaOf is one kind of account as the API serves it: its identity.Area
// and its service, read at request time (a server built without it, in
// tests, still starts).
type areaOf[A any] struct {
	identity.Area
	service func() sessions[A]
}

// sessions is what every area's service answers about sign-ins.
type sessions[A any] interface {
	SignIn(ctx context.Context, email, password, oldToken string) (A, string, error)
	Authenticate(ctx context.Context, token string) (A, error)
	SignOut(ctx context.Context, token string) error
	ResetPassword(ctx context.Context, email, password, token string) error
}

func (s *Server) memberArea() areaOf[*members.Customer] {
	return areaOf[*members.Customer]{members.Area, func() sessions[*members.Customer] { return s.Accounts }}
}

func (s *Server) ownerArea() areaOf[*business.Account] {
	return areaOf[*business.Account]{business.Area, func() sessions[*business.Account] { return s.Business }}
}

func (s *Server) moderatorArea() areaOf[*identity.Moderator] {
	return areaOf[*identity.Moderator]{identity.ModeratorArea, func() sessions[*identity.Moderator] { return s.Claims.Moderators }}
}

// signedIn is the one signed-in guard: it returns the account of the
// area's session (401 without one), and clears the cookie and its hint
// when the session is missing or ended.
func signedIn[A any](s *Server, area areaOf[A]) func(http.ResponseWriter, *http.Request) (A, error) {
	return func(w http.ResponseWriter, r *http.Request) (A, error) {
		a, err := area.service().Authenticate(r.Context(), s.sessionOf(r, area.Area))
		if err != nil && apperr.CodeOf(err) == apperr.Unauthorized {
			s.setSession(w, area.Area, "")
		}
		return a, err
	}
}

// signInTo answers a sign-in of the area: the session's cookie, rotated
// (the request's session ends), and the account as answer shows it.
func signInTo[A any](s *Server, area areaOf[A], answer func(w http.ResponseWriter, r *http.Request, a A) error) func(http.ResponseWriter, *http.Request, signInRequest) error {
	return func(w http.ResponseWriter, r *http.Request, in signInRequest) error {
		return answerSession(s, area.Area, w, r, answer)(area.service().SignIn(r.Context(), in.Email, in.Password, s.sessionOf(r, area.Area)))
	}
}

// answerSession answers the outcome of a call that starts a session of
// the area (a sign-in, a followed mailbox link): the cookie and the
// account, or the error.
func answerSession[A any](s *Server, area identity.Area, w http.ResponseWriter, r *http.Request,
	answer func(w http.ResponseWriter, r *http.Request, a A) error) func(A, string, error) error {
	return func(a A, token string, err error) error {
		if err != nil {
			return err
		}
		s.setSession(w, area, token)
		return answer(w, r, a)
	}
}

// signOutOf ends the area's session of the request and clears its cookie.
func signOutOf[A any](s *Server, area areaOf[A]) handler {
	return func(w http.ResponseWriter, r *http.Request) error {
		if err := area.service().SignOut(r.Context(), s.sessionOf(r, area.Area)); err != nil {
			return err
		}
		s.setSession(w, area.Area, "")
		writeMessage(w, http.StatusOK, "Signed out")
		return nil
	}
}

type signInRequest struct {
	Email    string `json:"email"`
	Password string `json:"password"`
}

type resetRequest struct {
	Email string `json:"email"`
	App   string `json:"app"`
}

// ResetRequestedMessage is the answer to every well-formed reset request,
// whether or not the email has an account.
const ResetRequestedMessage = "If an account exists for this email, a link to reset the password is on its way."

// requestResetIn answers a reset request of an area the same whether or
// not the email has an account (identity.Service.RequestReset).
func requestResetIn(request func(ctx context.Context, in resetRequest) error) func(http.ResponseWriter, *http.Request, resetRequest) error {
	return func(w http.ResponseWriter, r *http.Request, in resetRequest) error {
		return answerMessage(w, http.StatusOK, ResetRequestedMessage, request(r.Context(), in))
	}
}

type passwordResetRequest struct {
	Email    string `json:"email"`
	Password string `json:"password"`
	Token    string `json:"token"`
}

// resetPasswordIn sets a password with a mailed link of the area: every
// session of the account ends, this browser's cookie too.
func resetPasswordIn[A any](s *Server, area areaOf[A]) func(http.ResponseWriter, *http.Request, passwordResetRequest) error {
	return func(w http.ResponseWriter, r *http.Request, in passwordResetRequest) error {
		if err := area.service().ResetPassword(r.Context(), in.Email, in.Password, in.Token); err != nil {
			return err
		}
		s.setSession(w, area.Area, "")
		writeMessage(w, http.StatusOK, "Password has been reset.")
		return nil
	}
}

// The guards of the three areas.

// currentCustomer returns the signed-in member.
func (s *Server) currentCustomer(w http.ResponseWriter, r *http.Request) (*members.Customer, error) {
	return signedIn(s, s.memberArea())(w, r)
}

// forMember adapts a handler of a member's own data: it runs h for the
// signed-in member.
func (s *Server) forMember(h func(w http.ResponseWriter, r *http.Request, c *members.Customer) error) handler {
	return given(s.currentCustomer, h)
}

// memberID is the id of the member signed in on r, 0 for none: a call
// anyone may make that remembers a member (a report). A stale cookie
// makes it anonymous rather than failing it.
func (s *Server) memberID(ctx context.Context, r *http.Request) (int64, error) {
	token := s.sessionOf(r, members.Area)
	if token == "" {
		return 0, nil
	}
	c, err := s.Accounts.Authenticate(ctx, token)
	if apperr.CodeOf(err) == apperr.Unauthorized {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	return c.ID, nil
}

// signedInBusiness returns the signed-in business account, proven or not.
func (s *Server) signedInBusiness(w http.ResponseWriter, r *http.Request) (*business.Account, error) {
	return signedIn(s, s.ownerArea())(w, r)
}

// currentBusiness returns the signed-in business account whose mailbox is
// proven: an unproven one may only read /me, ask for a new link and sign
// out (403 otherwise).
func (s *Server) currentBusiness(w http.ResponseWriter, r *http.Request) (*business.Account, error) {
	a, err := s.signedInBusiness(w, r)
	if err != nil {
		return nil, err
	}
	if !a.Verified {
		return nil, business.ErrUnverified
	}
	return a, nil
}

// forSignedInBusiness adapts a handler that an account whose mailbox is
// not proven yet may call too.
func (s *Server) forSignedInBusiness(h func(w http.ResponseWriter, r *http.Request, a *business.Account) error) handler {
	return given(s.signedInBusiness, h)
}

// forBusiness adapts a handler of the dashboard: it runs h for the
// signed-in business account whose mailbox is proven.
func (s *Server) forBusiness(h func(w http.ResponseWriter, r *http.Request, a *business.Account) error) handler {
	return given(s.currentBusiness, h)
}

// currentModerator returns the signed-in moderator.
func (s *Server) currentModerator(w http.ResponseWriter, r *http.Request) (*identity.Moderator, error) {
	return signedIn(s, s.moderatorArea())(w, r)
}

// forModerator adapts a handler of the moderators' API: it runs h for the
// signed-in moderator.
func (s *Server) forModerator(h func(w http.ResponseWriter, r *http.Request, m *identity.Moderator) error) handler {
	return given(s.currentModerator, h)
}
