package httpapi

// Licences from public registries (internal/licences, docs/licences.md):
// the moderators' side under /api/admin/licences (status, upload of a
// registry file, the doubtful-match queue, registry rows without a store)
// and the owners' licence number in /business.

import (
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"locator/internal/apperr"
	"locator/internal/business"
	"locator/internal/db"
	"locator/internal/identity"
	"locator/internal/licences"
)

// MaxRegistryUploadBytes bounds a registry file uploaded in /admin (the
// command line takes larger ones).
const MaxRegistryUploadBytes = licences.UploadBytes

// registryUploadLimits: the body is bounded before the reader sees it
// (MaxBytesReader), the rows kept by the reader.
var registryUploadLimits = licences.Limits{Bytes: MaxRegistryUploadBytes + 1, Rows: licences.UploadLimits.Rows}

func isRegistryUpload(r *http.Request) bool {
	return r.Method == http.MethodPost && r.URL.Path == "/api/admin/licences/import"
}

func (s *Server) licences() (*licences.Registry, error) {
	if s.Licences == nil {
		return nil, apperr.New(apperr.NotFound, "licences are not kept here")
	}
	return s.Licences, nil
}

// forLicences adapts a licence handler of the moderators' API: forModerator
// (401 without a moderator), then 404 where licences are not kept; h gets
// the registry and the moderator's email, which its decisions record.
func (s *Server) forLicences(h func(w http.ResponseWriter, r *http.Request, g *licences.Registry, by string) error) handler {
	return s.forModerator(func(w http.ResponseWriter, r *http.Request, m *identity.Moderator) error {
		g, err := s.licences()
		if err != nil {
			return err
		}
		return h(w, r, g, m.Email)
	})
}

// forLicenceRow is forLicences with the path's {id}.
func (s *Server) forLicenceRow(h func(w http.ResponseWriter, r *http.Request, g *licences.Registry, by string, id int64) error) handler {
	return s.forLicences(func(w http.ResponseWriter, r *http.Request, g *licences.Registry, by string) error {
		id, err := pathID(r)
		if err != nil {
			return err
		}
		return h(w, r, g, by, id)
	})
}

type licenceStatusDTO struct {
	Sources []licences.SourceStatus `json:"sources"`
}

func (s *Server) adminLicenceStatus(w http.ResponseWriter, r *http.Request, g *licences.Registry, _ string) error {
	st, err := g.Status(r.Context())
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, licenceStatusDTO{Sources: st})
	return nil
}

// adminLicenceImport answers POST /api/admin/licences/import?source=&date=:
// the raw registry file (CSV or JSON) as the body.
func (s *Server) adminLicenceImport(w http.ResponseWriter, r *http.Request, g *licences.Registry, _ string) error {
	q := r.URL.Query()
	date := q.Get("date")
	if date == "" {
		date = s.Clock.Now().UTC().Format(time.DateOnly)
	}
	// A body sent in chunks stops at the bound (MaxBytesReader) and costs
	// only the rows kept so far (the reader streams).
	name, body, err := uploadBody(r, MaxRegistryUploadBytes, "import it with `locator licences import`")
	if err != nil {
		return err
	}
	// A registry file is bulk work (a call or more per row): each call is
	// bounded, not their sum, which the request's budget would be.
	rep, err := g.ImportLimited(db.WithCallTimeout(r.Context(), s.DBTimeout), q.Get("source"), body, name, date, registryUploadLimits)
	var ae *apperr.Error
	if errors.As(err, &ae) && ae.Code == apperr.TooLarge && !body.tooLarge {
		return apperr.New(apperr.TooLarge, "%s: import it with `locator licences import`", ae.Message)
	}
	if body.tooLarge {
		return apperr.New(apperr.TooLarge, "The file is larger than %d MB: import it with `locator licences import`", MaxRegistryUploadBytes>>20)
	}
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, rep)
	return nil
}

// uploadBody is a file sent raw as the request's body, and its name
// (?file_name=, else "upload"). A body announced larger than limit is
// refused before a byte of it is read, the message telling what to do
// instead (how).
func uploadBody(r *http.Request, limit int64, how string) (string, *bodyReader, error) {
	name := r.URL.Query().Get("file_name")
	if name == "" {
		name = "upload"
	}
	if r.ContentLength > limit {
		return "", nil, apperr.New(apperr.TooLarge, "The file is larger than %d MB: %s", limit>>20, how)
	}
	return name, &bodyReader{r: r.Body}, nil
}

// bodyReader notes when the body passed its limit (the import reports a
// failed read as a bad file).
type bodyReader struct {
	r        io.Reader
	tooLarge bool
}

func (b *bodyReader) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		b.tooLarge = true
	}
	return n, err
}

type licenceQueueDTO struct {
	Matches []licences.QueueItem `json:"matches"`
}

func (s *Server) adminLicenceQueue(w http.ResponseWriter, r *http.Request, g *licences.Registry, _ string) error {
	q, err := g.Queue(r.Context())
	if err != nil {
		return err
	}
	if q == nil {
		q = []licences.QueueItem{}
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, licenceQueueDTO{Matches: q})
	return nil
}

type licenceDecisionRequest struct {
	Decision string `json:"decision"` // accept or reject
}

func (s *Server) adminLicenceDecide(w http.ResponseWriter, r *http.Request, g *licences.Registry, by string, id int64) error {
	var in licenceDecisionRequest
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	if in.Decision != "accept" && in.Decision != "reject" {
		return apperr.Invalidf("decision must be accept or reject")
	}
	if err := g.Decide(r.Context(), id, in.Decision == "accept", by); err != nil {
		return err
	}
	writeMessage(w, http.StatusOK, "Decision recorded")
	return nil
}

type licencePickRequest struct {
	StoreID int64 `json:"store_id"`
}

func (s *Server) adminLicencePick(w http.ResponseWriter, r *http.Request, g *licences.Registry, by string, id int64) error {
	var in licencePickRequest
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	if in.StoreID < 1 {
		return apperr.Invalidf("store_id must be a positive integer")
	}
	if err := g.Pick(r.Context(), id, in.StoreID, by); err != nil {
		return err
	}
	writeMessage(w, http.StatusOK, "Match recorded")
	return nil
}

type licenceRowsDTO struct {
	Rows []licences.RowView `json:"rows"`
}

func (s *Server) adminLicenceUnmatched(w http.ResponseWriter, r *http.Request, g *licences.Registry, _ string) error {
	q := r.URL.Query()
	num := func(name string) float64 {
		f, err := strconv.ParseFloat(strings.TrimSpace(q.Get(name)), 64)
		if err != nil {
			return -1000
		}
		return f
	}
	radius := 10.0
	if q.Has("radius") {
		radius = num("radius")
	}
	rows, err := g.Unmatched(r.Context(), num("latitude"), num("longitude"), radius)
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, licenceRowsDTO{Rows: rows})
	return nil
}

type createdStoreDTO struct {
	StoreID int64 `json:"store_id"`
}

func (s *Server) adminLicenceCreateStore(w http.ResponseWriter, r *http.Request, g *licences.Registry, by string, id int64) error {
	storeID, err := g.CreateStore(r.Context(), id, by)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, createdStoreDTO{StoreID: storeID})
	return nil
}

type licenceNumberRequest struct {
	Number string `json:"number"`
}

type licenceNumberDTO struct {
	Verified bool   `json:"verified"`
	Message  string `json:"message"`
}

// businessLicenceNumber answers POST /api/business/stores/{id}/licence: an
// owner's licence number, verified only when an active registry row with
// that number has the store's address.
func (s *Server) businessLicenceNumber(w http.ResponseWriter, r *http.Request, a *business.Account, id int64) error {
	var in licenceNumberRequest
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	if err := s.Business.Owns(r.Context(), a, id); err != nil {
		return err
	}
	g, err := s.licences()
	if err != nil {
		return err
	}
	ok, err := g.VerifyNumber(r.Context(), id, in.Number)
	if err != nil {
		return err
	}
	out := licenceNumberDTO{Verified: ok, Message: "Licence verified: the registry lists this number at the store's address"}
	if !ok {
		out.Message = "No active licence with this number is listed at the store's address in the registries we read"
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}
