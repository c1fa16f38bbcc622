package httpapi

// Positions a shopper can walk to (docs/claims.md, "Where the store
// stands"): the moderators' list of published stores that stand only at a
// postal or city centre, and the pin a moderator places for one.

import (
	"net/http"
	"strconv"
	"time"
	"unicode/utf8"

	"locator/internal/apperr"
	"locator/internal/claims"
	"locator/internal/identity"
)

type approximateStoresDTO struct {
	Stores []claims.ApproximateStore `json:"stores"`
	Total  int                       `json:"total"`
}

func (s *Server) adminApproximateStores(w http.ResponseWriter, r *http.Request, _ *identity.Moderator) error {
	limit := claims.MaxApproximate
	if v := r.URL.Query().Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > claims.MaxApproximate {
			return apperr.Invalidf("limit must be a whole number from 1 to %d", claims.MaxApproximate)
		}
		limit = n
	}
	list, total, err := s.Claims.ApproximateStores(r.Context(), limit)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, approximateStoresDTO{Stores: list, Total: total})
	return nil
}

type positionRequest struct {
	Latitude  *float64 `json:"latitude"`
	Longitude *float64 `json:"longitude"`
}

type placedStoreDTO struct {
	ID           int64   `json:"id"`
	Latitude     float64 `json:"latitude"`
	Longitude    float64 `json:"longitude"`
	GeoPrecision string  `json:"geo_precision"`
}

func (s *Server) adminPlaceStore(w http.ResponseWriter, r *http.Request, m *identity.Moderator) error {
	id, err := pathID(r)
	if err != nil {
		return apperr.Invalidf("store id must be a positive whole number")
	}
	var in positionRequest
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	if in.Latitude == nil || in.Longitude == nil {
		return apperr.Invalidf("latitude and longitude are required")
	}
	st, err := s.Claims.PlaceStore(r.Context(), id, *in.Latitude, *in.Longitude, m.Actor())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, placedStoreDTO{ID: st.ID, Latitude: st.Latitude, Longitude: st.Longitude, GeoPrecision: st.GeoPrecision})
	return nil
}

// claimLocateLimit bounds the wizard's look-ups of an address (each may
// cost a call to the upstream geocoder).
var claimLocateLimit = perIP{"claim-locate", 120, time.Hour}

type claimLocateRequest struct {
	Country    string `json:"country"`
	State      string `json:"state"`
	City       string `json:"city"`
	PostalCode string `json:"postal_code"`
	Address1   string `json:"address1"`
}

type claimLocateDTO struct {
	Found         bool    `json:"found"`
	Latitude      float64 `json:"latitude"`
	Longitude     float64 `json:"longitude"`
	Precision     string  `json:"precision"`
	PrecisionText string  `json:"precision_text"`
	Approximate   bool    `json:"approximate"`
}

// claimLocate tells the claim wizard where its address is found, and how
// precisely, so the pin step starts there and says whether the owner must
// place the pin for the store to be published.
func (s *Server) claimLocate(w http.ResponseWriter, _ *http.Request, in claimLocateRequest) error {
	for _, v := range []string{in.Country, in.State, in.City, in.PostalCode, in.Address1} {
		if utf8.RuneCountInString(v) > 255 {
			return apperr.Invalidf("Each part of the address must be at most 255 characters")
		}
	}
	loc := s.Claims.Locate(claims.Input{Country: in.Country, State: in.State, City: in.City, PostalCode: in.PostalCode, Address1: in.Address1})
	out := claimLocateDTO{Found: loc != nil}
	if loc != nil {
		out.Latitude, out.Longitude, out.Precision, out.PrecisionText, out.Approximate =
			loc.Latitude, loc.Longitude, loc.Precision, loc.PrecisionText, loc.Approximate
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}
