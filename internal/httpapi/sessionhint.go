package httpapi

import (
	"net/http"
	"strings"
)

// setSessionCookie sets (or, with token "", clears) one of the three
// session cookies (member, business, moderator) together with its hint: a
// cookie the web app can read, "1" while the session may exist, so that it
// asks who is signed in only then, and a first visit makes no request that
// answers 401. The hint proves nothing: the session cookie alone
// authenticates, and a forged or stale hint costs one /me answering 401,
// which clears it.
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
