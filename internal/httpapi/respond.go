package httpapi

import (
	"encoding/json"
	"errors"
	"log/slog"
	"math"
	"net/http"
	"strconv"
	"time"

	"locator/internal/apperr"
	"locator/internal/db"
)

// writeJSON answers v as JSON with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, `{"message":"internal error"}`, http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

type errorBody struct {
	Message string `json:"message"`
}

// writeMessage answers {"message": msg} with status.
func writeMessage(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, errorBody{Message: msg})
}

var statusOf = map[apperr.Code]int{
	apperr.Invalid:      http.StatusBadRequest,
	apperr.NotFound:     http.StatusNotFound,
	apperr.Conflict:     http.StatusConflict,
	apperr.Unauthorized: http.StatusUnauthorized,
	apperr.Forbidden:    http.StatusForbidden,
	apperr.TooMany:      http.StatusTooManyRequests,
	apperr.TooLarge:     http.StatusRequestEntityTooLarge,
	apperr.Unsupported:  http.StatusUnsupportedMediaType,
	apperr.Unavailable:  http.StatusServiceUnavailable,
}

// handler is an API handler: it writes its answer, or returns the error
// that writeError turns into one.
type handler func(w http.ResponseWriter, r *http.Request) error

// handle adapts h to net/http, answering its error in the one place.
func (s *Server) handle(h handler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := h(w, r); err != nil {
			s.writeError(w, r, err)
		}
	}
}

// given adapts a handler that needs something of the request first (the
// signed-in caller, the path's id): from reads it, or the error to answer,
// then h runs with it.
func given[A any](from func(w http.ResponseWriter, r *http.Request) (A, error), h func(w http.ResponseWriter, r *http.Request, a A) error) handler {
	return func(w http.ResponseWriter, r *http.Request) error {
		a, err := from(w, r)
		if err != nil {
			return err
		}
		return h(w, r, a)
	}
}

// answerJSON answers to(v) as JSON with status once the work is done (err
// nil), or returns err: the last step of a handler that calls the domain
// and shows what it returned, as in answerJSON(w, 200, dto)(s.X.Get(...)).
func answerJSON[T, D any](w http.ResponseWriter, status int, to func(T) D) func(T, error) error {
	return func(v T, err error) error {
		if err != nil {
			return err
		}
		writeJSON(w, status, to(v))
		return nil
	}
}

// answerMessage answers {"message": msg} with status once the work is
// done (err nil), or returns err.
func answerMessage(w http.ResponseWriter, status int, msg string, err error) error {
	if err != nil {
		return err
	}
	writeMessage(w, status, msg)
	return nil
}

// perIP is a per-IP limit of one action (see limitIP).
type perIP struct {
	action string
	limit  int
	per    time.Duration
}

// form adapts the handler of a public form: it decodes the JSON body into
// a T, then applies the per-IP limit (a malformed body costs no try), then
// runs h.
func form[T any](s *Server, l perIP, h func(w http.ResponseWriter, r *http.Request, in T) error) handler {
	return func(w http.ResponseWriter, r *http.Request) error {
		var in T
		if err := decodeJSON(r, &in); err != nil {
			return err
		}
		if err := s.limitIP(r, l.action, l.limit, l.per); err != nil {
			return err
		}
		return h(w, r, in)
	}
}

// UnavailableRetryAfter is the Retry-After of an answer given while the
// database cannot be reached or does not answer in time.
const UnavailableRetryAfter = 5 * time.Second

// DiskFullRetryAfter is the Retry-After of a write refused because the
// database's disk is full: space comes back when an operator frees it, not
// in a few seconds.
const DiskFullRetryAfter = 60 * time.Second

// MsgDiskFull answers a write refused for a full disk (503).
const MsgDiskFull = "The server is out of disk space, so changes cannot be saved right now. Searching and reading still work. Please try again later."

// writeError maps err to a status in one place: an *apperr.Error keeps its
// message; a database that cannot be reached or does not answer in time is
// a 503 with Retry-After, and so is a full disk (with its own message);
// anything else is logged and answered as a bare
// 500, so internal details never reach the client.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	if db.DiskFull(err) {
		s.log.ErrorContext(r.Context(), "database disk full: writes refused", "err", err, "path", r.URL.Path, slog.String("request_id", requestID(r.Context())))
		err = &apperr.Error{Code: apperr.Unavailable, RetryAfter: DiskFullRetryAfter, Message: MsgDiskFull}
	} else if db.Unavailable(err) {
		s.dbHealth.failures.Add(1)
		s.log.WarnContext(r.Context(), "database unavailable", "err", err, "path", r.URL.Path, slog.String("request_id", requestID(r.Context())))
		err = &apperr.Error{Code: apperr.Unavailable, RetryAfter: UnavailableRetryAfter,
			Message: "The service is briefly unavailable. Please try again in a few seconds."}
	}
	if e, ok := apperr.As(err); ok {
		status, known := statusOf[e.Code]
		if !known {
			status = http.StatusBadRequest
		}
		if e.RetryAfter > 0 {
			w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(e.RetryAfter.Seconds()))))
		}
		writeMessage(w, status, e.Message)
		return
	}
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		writeMessage(w, http.StatusRequestEntityTooLarge, "request body too large")
		return
	}
	s.log.ErrorContext(r.Context(), "request failed", "err", err, "path", r.URL.Path, slog.String("request_id", requestID(r.Context())))
	writeMessage(w, http.StatusInternalServerError, "Something went wrong on our side. Please try again.")
}
