package httpapi

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"locator/internal/apperr"
	"locator/internal/members"
	"locator/internal/search"
)

// Per-IP limits, in process (see ratelimit): generous for people, tight
// enough to slow a script down.
var (
	signInLimit = perIP{"signin", 30, time.Minute}
	signUpLimit = perIP{"signup", 20, time.Hour}
	resetLimit  = perIP{"reset", 20, time.Hour}
)

type customerDTO struct {
	ID        int64             `json:"id"`
	FirstName string            `json:"first_name"`
	LastName  string            `json:"last_name"`
	Email     string            `json:"email"`
	Phone     string            `json:"phone"`
	Favorites []json.RawMessage `json:"favorites_phstores"`
	// EmailVerified: the member proved the address (internal/identity).
	EmailVerified bool `json:"email_verified"`
}

type customerBody struct {
	Customer customerDTO `json:"customer"`
}

// limitIP applies a per-IP limit: a 429 error once it is reached.
func (s *Server) limitIP(r *http.Request, action string, limit int, per time.Duration) error {
	ok, wait := s.IPLimits.Allow(action+":"+s.clientIP(r), limit, per)
	if !ok {
		e := apperr.New(apperr.TooMany, "Too many requests. Please try again later.")
		e.RetryAfter = wait
		return e
	}
	return nil
}

func (s *Server) customerJSON(ctx context.Context, c *members.Customer) (customerBody, error) {
	favs, err := s.Favorites.Docs(ctx, c.ID)
	if err != nil {
		return customerBody{}, err
	}
	now := s.Clock.Now()
	for i := range favs {
		favs[i] = search.WithRules(favs[i], now)
	}
	return customerBody{Customer: customerDTO{ID: c.ID, FirstName: c.FirstName, LastName: c.LastName, Email: c.Email, Phone: c.Phone, Favorites: favs, EmailVerified: c.EmailVerified}}, nil
}

func (s *Server) respondCustomer(w http.ResponseWriter, r *http.Request, status int, c *members.Customer) error {
	body, err := s.customerJSON(r.Context(), c)
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, status, body)
	return nil
}

// answerCustomer answers a call's customer with status, or its error.
func (s *Server) answerCustomer(w http.ResponseWriter, r *http.Request, status int) func(*members.Customer, error) error {
	return func(c *members.Customer, err error) error {
		if err != nil {
			return err
		}
		return s.respondCustomer(w, r, status, c)
	}
}

type signUpRequest struct {
	FirstName string `json:"first_name"`
	LastName  string `json:"last_name"`
	Phone     string `json:"phone"`
	Email     string `json:"email"`
	Password  string `json:"password"`
}

func (s *Server) signUp(w http.ResponseWriter, r *http.Request, in signUpRequest) error {
	return s.answerCustomer(w, r, http.StatusCreated)(s.Accounts.SignUp(r.Context(),
		members.SignUpInput{FirstName: in.FirstName, LastName: in.LastName, Phone: in.Phone, Email: in.Email, Password: in.Password}))
}

func (s *Server) me(w http.ResponseWriter, r *http.Request, c *members.Customer) error {
	return s.respondCustomer(w, r, http.StatusOK, c)
}

// requestEmailProof mails the signed-in member a link that proves the address.
func (s *Server) requestEmailProof(w http.ResponseWriter, r *http.Request, c *members.Customer) error {
	return answerMessage(w, http.StatusAccepted, "We sent a link to "+c.Email+". Open it to confirm your email.",
		s.Accounts.RequestEmailProof(r.Context(), c))
}

// confirmEmail follows a mailed link with the member's password.
func (s *Server) confirmEmail(w http.ResponseWriter, r *http.Request, in emailProofRequest) error {
	return answerMessage(w, http.StatusOK, "Your email is confirmed.", s.Accounts.ConfirmEmail(r.Context(), in.Token, in.Password))
}

type updateRequest struct {
	FirstName   *string `json:"first_name"`
	LastName    *string `json:"last_name"`
	Phone       *string `json:"phone"`
	Password    *string `json:"password"`
	OldPassword *string `json:"old_password"`
}

func (s *Server) updateMe(w http.ResponseWriter, r *http.Request) error {
	var in updateRequest
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	c, err := s.currentCustomer(w, r)
	if err != nil {
		return err
	}
	return s.answerCustomer(w, r, http.StatusOK)(s.Accounts.UpdateProfile(r.Context(), c,
		members.Update{FirstName: in.FirstName, LastName: in.LastName, Phone: in.Phone, Password: in.Password, OldPassword: in.OldPassword}, s.sessionOf(r, members.Area)))
}

type favoriteRequest struct {
	PhstoreID flexID `json:"phstore_id"`
}

func (s *Server) changeFavorite(add bool) handler {
	return func(w http.ResponseWriter, r *http.Request) error {
		var in favoriteRequest
		if err := decodeJSON(r, &in); err != nil {
			return err
		}
		if in.PhstoreID == 0 {
			return apperr.Invalidf("phstore_id is required")
		}
		c, err := s.currentCustomer(w, r)
		if err != nil {
			return err
		}
		if add {
			err = s.Favorites.Add(r.Context(), c.ID, int64(in.PhstoreID))
		} else {
			err = s.Favorites.Remove(r.Context(), c.ID, int64(in.PhstoreID))
		}
		if err != nil {
			return err
		}
		return s.respondCustomer(w, r, http.StatusOK, c)
	}
}
