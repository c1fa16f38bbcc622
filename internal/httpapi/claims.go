package httpapi

import (
	"net/http"
	"time"

	"locator/internal/apperr"
	"locator/internal/claims"
)

// Claims per IP: a shop owner submits one, maybe a few.
const claimsPerIPPerHour = 10

type claimRequest struct {
	BusinessName string `json:"business_name"`
	Email        string `json:"email"`
	Phone        string `json:"phone"`
	Country      string `json:"country"`
	State        string `json:"state"`
	Address1     string `json:"address1"`
	City         string `json:"city"`
	PostalCode   string `json:"postal_code"`
	Website      string `json:"website"`
	WorkingHours string `json:"working_hours"`
	Category     string `json:"category"`
}

type claimRefDTO struct {
	ID     int64  `json:"id"`
	Status string `json:"status"`
}

type claimSubmittedDTO struct {
	Message string      `json:"message"`
	Claim   claimRefDTO `json:"claim"`
}

func (s *Server) submitClaim(w http.ResponseWriter, r *http.Request) {
	var in claimRequest
	if err := decodeJSON(r, &in); err != nil {
		s.writeError(w, r, err)
		return
	}
	if !s.limitIP(w, r, "claim", claimsPerIPPerHour, time.Hour) {
		return
	}
	c, created, err := s.Claims.Submit(r.Context(), claims.Input{BusinessName: in.BusinessName, Email: in.Email, Phone: in.Phone,
		Country: in.Country, State: in.State, Address1: in.Address1, City: in.City, PostalCode: in.PostalCode,
		Website: in.Website, WorkingHours: in.WorkingHours, Category: in.Category}, s.clientIP(r))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	status := http.StatusCreated
	if !created {
		status = http.StatusOK // a retry of the same claim
	}
	writeJSON(w, status, claimSubmittedDTO{Message: "Claim submitted. We will review it and get back to you soon.", Claim: claimRefDTO{ID: c.ID, Status: string(c.Status)}})
}

type createUserRequest struct {
	StoreName   string `json:"store_name"`
	Email       string `json:"email"`
	Password    string `json:"password"`
	PhoneNumber string `json:"phone_number"`
	ReferredBy  string `json:"referred_by"`
}

func (s *Server) createUser(w http.ResponseWriter, r *http.Request) {
	var in createUserRequest
	if err := decodeJSON(r, &in); err != nil {
		s.writeError(w, r, err)
		return
	}
	if !s.limitIP(w, r, "create-user", claimsPerIPPerHour, time.Hour) {
		return
	}
	if _, err := s.Claims.CreateBusinessAccount(r.Context(), claims.BusinessInput{StoreName: in.StoreName, Email: in.Email,
		Password: in.Password, PhoneNumber: in.PhoneNumber, ReferredBy: in.ReferredBy}); err != nil {
		s.writeError(w, r, err)
		return
	}
	writeMessage(w, http.StatusCreated, "Business account created")
}

// ---- moderation (admin API): its own cookie and sessions, never a member's.

const adminCookie = "locator_admin"

func (s *Server) adminCookieName() string {
	if s.SecureCookies {
		return "__Host-" + adminCookie
	}
	return adminCookie
}

func (s *Server) currentModerator(w http.ResponseWriter, r *http.Request) (*claims.Moderator, bool) {
	var token string
	if c, err := r.Cookie(s.adminCookieName()); err == nil {
		token = c.Value
	}
	m, err := s.Claims.AuthenticateModerator(r.Context(), token)
	if err != nil {
		s.writeError(w, r, err)
		return nil, false
	}
	return m, true
}

type moderatorDTO struct {
	Email string `json:"email"`
}

type adminSignInResponse struct {
	Moderator moderatorDTO `json:"moderator"`
}

func (s *Server) adminSignIn(w http.ResponseWriter, r *http.Request) {
	var in signInRequest
	if err := decodeJSON(r, &in); err != nil {
		s.writeError(w, r, err)
		return
	}
	if !s.limitIP(w, r, "admin-signin", 10, time.Minute) {
		return
	}
	m, token, err := s.Claims.SignInModerator(r.Context(), in.Email, in.Password)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	http.SetCookie(w, &http.Cookie{Name: s.adminCookieName(), Value: token, Path: "/", MaxAge: int(claims.ModeratorSessionTTL.Seconds()),
		HttpOnly: true, Secure: s.SecureCookies, SameSite: http.SameSiteStrictMode})
	writeJSON(w, http.StatusOK, adminSignInResponse{Moderator: moderatorDTO{Email: m.Email}})
}

func (s *Server) adminSignOut(w http.ResponseWriter, r *http.Request) {
	if c, err := r.Cookie(s.adminCookieName()); err == nil {
		if err := s.Claims.SignOutModerator(r.Context(), c.Value); err != nil {
			s.writeError(w, r, err)
			return
		}
	}
	http.SetCookie(w, &http.Cookie{Name: s.adminCookieName(), Value: "", Path: "/", MaxAge: -1, HttpOnly: true, Secure: s.SecureCookies, SameSite: http.SameSiteStrictMode})
	writeMessage(w, http.StatusOK, "Signed out")
}

func (s *Server) adminMe(w http.ResponseWriter, r *http.Request) {
	m, ok := s.currentModerator(w, r)
	if !ok {
		return
	}
	writeJSON(w, http.StatusOK, adminSignInResponse{Moderator: moderatorDTO{Email: m.Email}})
}

type suggestionDTO struct {
	Latitude  float64 `json:"latitude"`
	Longitude float64 `json:"longitude"`
	Precision string  `json:"precision"`
}

// ClaimDTO is a claim as the admin API (and the claims command's --json)
// shows it.
type ClaimDTO struct {
	ID                 int64          `json:"id"`
	BusinessName       string         `json:"business_name"`
	Email              string         `json:"email"`
	Phone              string         `json:"phone"`
	Country            string         `json:"country"`
	State              string         `json:"state"`
	Address1           string         `json:"address1"`
	City               string         `json:"city"`
	PostalCode         string         `json:"postal_code"`
	Website            string         `json:"website"`
	WorkingHours       string         `json:"working_hours"`
	Category           string         `json:"category"`
	Status             string         `json:"status"`
	RejectReason       string         `json:"reject_reason"`
	DuplicateOfStoreID *int64         `json:"duplicate_of_store_id"`
	StoreID            *int64         `json:"store_id"`
	CreatedAt          time.Time      `json:"created_at"`
	DecidedAt          *time.Time     `json:"decided_at"`
	DecidedBy          string         `json:"decided_by"`
	Suggested          *suggestionDTO `json:"suggested_location"`
	HoursParsed        bool           `json:"working_hours_parsed"`
}

func optionalID(v int64) *int64 {
	if v == 0 {
		return nil
	}
	return &v
}

// NewClaimDTO renders c; withSuggestion adds the geocoded location.
func NewClaimDTO(svc *claims.Service, c *claims.Claim, withSuggestion bool) ClaimDTO {
	d := ClaimDTO{ID: c.ID, BusinessName: c.BusinessName, Email: c.Email, Phone: c.Phone, Country: c.Country, State: c.State,
		Address1: c.Address1, City: c.City, PostalCode: c.PostalCode, Website: c.Website, WorkingHours: c.WorkingHours,
		Category: c.Category, Status: string(c.Status), RejectReason: c.RejectReason,
		DuplicateOfStoreID: optionalID(c.DuplicateOfStoreID), StoreID: optionalID(c.StoreID),
		CreatedAt: c.CreatedAt, DecidedAt: c.DecidedAt, DecidedBy: c.DecidedBy}
	_, d.HoursParsed = claims.ParseFreeHours(c.WorkingHours)
	if withSuggestion {
		if sg := svc.Suggest(c); sg.Found {
			d.Suggested = &suggestionDTO{Latitude: sg.Latitude, Longitude: sg.Longitude, Precision: sg.Precision}
		}
	}
	return d
}

type claimListDTO struct {
	Claims []ClaimDTO `json:"claims"`
}

func (s *Server) adminListClaims(w http.ResponseWriter, r *http.Request) {
	if _, ok := s.currentModerator(w, r); !ok {
		return
	}
	status := r.URL.Query().Get("status")
	if status == "" {
		status = string(claims.Pending)
	}
	if status == "all" {
		status = ""
	}
	list, err := s.Claims.List(r.Context(), claims.Status(status), 500)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	out := claimListDTO{Claims: make([]ClaimDTO, 0, len(list))}
	for i := range list {
		out.Claims = append(out.Claims, NewClaimDTO(s.Claims, &list[i], status == string(claims.Pending)))
	}
	writeJSON(w, http.StatusOK, out)
}

func claimID(r *http.Request) (int64, error) {
	id, err := pathID(r)
	if err != nil {
		return 0, apperr.Invalidf("claim id must be a positive whole number")
	}
	return id, nil
}

func (s *Server) adminGetClaim(w http.ResponseWriter, r *http.Request) {
	if _, ok := s.currentModerator(w, r); !ok {
		return
	}
	id, err := claimID(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	c, err := s.Claims.Get(r.Context(), id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, NewClaimDTO(s.Claims, c, true))
}

type approveRequest struct {
	Latitude  *float64 `json:"latitude"`
	Longitude *float64 `json:"longitude"`
}

type rejectRequest struct {
	Reason string `json:"reason"`
}

func (s *Server) adminDecide(approve bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		m, ok := s.currentModerator(w, r)
		if !ok {
			return
		}
		id, err := claimID(r)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		var c *claims.Claim
		if approve {
			var in approveRequest
			if err := decodeJSON(r, &in); err != nil {
				s.writeError(w, r, err)
				return
			}
			c, err = s.Claims.Approve(r.Context(), id, m.Email, claims.Placement{Latitude: in.Latitude, Longitude: in.Longitude})
		} else {
			var in rejectRequest
			if err := decodeJSON(r, &in); err != nil {
				s.writeError(w, r, err)
				return
			}
			c, err = s.Claims.Reject(r.Context(), id, m.Email, in.Reason)
		}
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		writeJSON(w, http.StatusOK, NewClaimDTO(s.Claims, c, false))
	}
}
