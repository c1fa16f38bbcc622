package httpapi

import (
	"net/http"
	"time"

	"locator/internal/business"
	"locator/internal/claims"
)

// Claims per IP: a shop owner submits one, maybe a few (claims.Submit
// also limits them per network, across replicas).
var (
	claimLimit      = perIP{"claim", 10, time.Hour}
	createUserLimit = perIP{"create-user", claimLimit.limit, claimLimit.per}
)

type claimRefDTO struct {
	ID     int64  `json:"id"`
	Status string `json:"status"`
}

type claimSubmittedDTO struct {
	Message string      `json:"message"`
	Claim   claimRefDTO `json:"claim"`
}

func (s *Server) submitClaim(w http.ResponseWriter, r *http.Request, in claims.Input) error {
	c, created, err := s.Claims.Submit(r.Context(), in, s.clientIP(r))
	if err != nil {
		return err
	}
	status := http.StatusCreated
	if !created {
		status = http.StatusOK // a retry of the same claim
	}
	writeJSON(w, status, claimSubmittedDTO{Message: "Claim submitted. We will review it and get back to you soon.", Claim: claimRefDTO{ID: c.ID, Status: string(c.Status)}})
	return nil
}

type createUserRequest struct {
	StoreName   string `json:"store_name"`
	Email       string `json:"email"`
	Password    string `json:"password"`
	PhoneNumber string `json:"phone_number"`
	ReferredBy  string `json:"referred_by"`
}

func (s *Server) createUser(w http.ResponseWriter, r *http.Request, in createUserRequest) error {
	// Fresh, or again with the email of an account whose mailbox is not
	// proven: the same answer, and a link mailed (internal/business/signup.go).
	return answerMessage(w, http.StatusCreated, "Business account created", s.Business.SignUp(r.Context(),
		business.SignUpInput{StoreName: in.StoreName, Email: in.Email, Password: in.Password, PhoneNumber: in.PhoneNumber, ReferredBy: in.ReferredBy}))
}
