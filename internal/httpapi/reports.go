package httpapi

// Shoppers' reports of wrong store data, and their moderation under
// /api/admin/reports (see internal/reports).

import (
	"net/http"
	"time"

	"locator/internal/apperr"
	"locator/internal/business"
	"locator/internal/identity"
	"locator/internal/reports"
	"locator/internal/stores"
)

type reportRequest struct {
	Reason string `json:"reason"`
	Note   string `json:"note"`
}

type reportResponse struct {
	Message string         `json:"message"`
	Report  reportReceived `json:"report"`
}

type reportReceived struct {
	ID     int64  `json:"id"`
	Status string `json:"status"`
}

// submitReport answers POST /api/store/physical-store/{id}/reports, from a
// signed-in member or anyone.
func (s *Server) submitReport(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r)
	if err != nil {
		return err
	}
	var in reportRequest
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	if s.Reports == nil {
		return apperr.New(apperr.NotFound, "Store not found")
	}
	customerID, err := s.memberID(r.Context(), r)
	if err != nil {
		return err
	}
	rep, err := s.Reports.Submit(r.Context(), reports.Input{StoreID: id, Reason: in.Reason, Note: in.Note,
		CustomerID: customerID, ClientIP: s.clientIP(r)})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, reportResponse{Message: reports.ReportedMessage, Report: reportReceived{ID: rep.ID, Status: rep.Status}})
	return nil
}

type reportedStoreDTO struct {
	ID           int64           `json:"id"`
	Name         string          `json:"name"`
	Status       string          `json:"status"`
	PhoneNumber  string          `json:"phone_number"`
	Hours        string          `json:"hours"`
	Address      string          `json:"address"`
	City         string          `json:"city"`
	State        string          `json:"state"`
	PostalCode   string          `json:"postal_code"`
	Latitude     float64         `json:"latitude"`
	Longitude    float64         `json:"longitude"`
	TimeZone     string          `json:"time_zone"`
	WorkingHours []business.Hour `json:"workingHours"`
	UpdatedAt    time.Time       `json:"updated_at"`
}

type reportGroupDTO struct {
	Store   reportedStoreDTO `json:"store"`
	Reports []reports.Report `json:"reports"`
}

type reportQueueResponse struct {
	Stores  []reportGroupDTO `json:"stores"`
	Page    int              `json:"page"`
	Total   int              `json:"total"` // stores with open reports, on every page
	HasMore bool             `json:"has_more"`
}

func reportedStore(st *stores.Store) reportedStoreDTO {
	d := reportedStoreDTO{ID: st.ID, Name: st.Name, Status: string(st.Status), PhoneNumber: st.PhoneNumber, Hours: st.Hours,
		Address: st.Address, City: st.City, State: st.State, PostalCode: st.PostalCode, Latitude: st.Latitude,
		Longitude: st.Longitude, TimeZone: st.TimeZone, WorkingHours: business.HoursView(st.WorkingHours), UpdatedAt: st.UpdatedAt}
	return d
}

// adminListReports answers one page of the moderators' queue: stores with
// open reports, the most reported first.
func (s *Server) adminListReports(w http.ResponseWriter, r *http.Request, _ *identity.Moderator) error {
	if s.Reports == nil {
		return apperr.New(apperr.NotFound, "reports are not kept here")
	}
	page, err := intParam(r, "page", 1, 1, maxReviewPage)
	if err != nil {
		return err
	}
	limit, err := intParam(r, "limit", reports.QueuePage, 1, reports.QueuePage)
	if err != nil {
		return err
	}
	q, total, err := s.Reports.Open(r.Context(), page, limit)
	if err != nil {
		return err
	}
	out := reportQueueResponse{Stores: make([]reportGroupDTO, 0, len(q)), Page: page, Total: total, HasMore: page*limit < total}
	for _, g := range q {
		out.Stores = append(out.Stores, reportGroupDTO{Store: reportedStore(g.Store), Reports: g.Reports})
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, out)
	return nil
}

type resolveRequest struct {
	Action  string             `json:"action"`
	Note    string             `json:"note"`
	Changes *resolveChangesDTO `json:"changes"`
}

type resolveChangesDTO struct {
	reports.Fix
	WorkingHours *[]business.Hour `json:"workingHours,omitempty"`
}

// adminResolveReports answers POST /api/admin/reports/{storeId}/resolve:
// one decision for every open report of the store.
func (s *Server) adminResolveReports(w http.ResponseWriter, r *http.Request, m *identity.Moderator) error {
	id, ok := parseID(r.PathValue("storeId"))
	if !ok {
		return apperr.Invalidf("store id must be a positive integer")
	}
	var in resolveRequest
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	if s.Reports == nil {
		return apperr.New(apperr.NotFound, "reports are not kept here")
	}
	var fix *reports.Fix
	if in.Changes != nil {
		f := in.Changes.Fix
		if in.Changes.WorkingHours != nil {
			hs, err := business.ParseHours(*in.Changes.WorkingHours)
			if err != nil {
				return err
			}
			f.WorkingHours = &hs
		}
		fix = &f
	}
	d, err := s.Reports.Resolve(r.Context(), m.Actor(), id, reports.Action(in.Action), fix, in.Note)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, d)
	return nil
}
