package storepages

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"time"

	"locator/internal/apperr"
)

// "Report a problem" on a store page. The page runs no script (its content
// policy allows none), so this is a plain HTML form posting to
// {store page}/report; the answer follows POST/redirect/GET: 303 to
// {store page}/report?sent=1, the confirmation, after a report is in, or
// the form again with the message of what was wrong. The report itself is
// the API's (Options.Report calls reports.Service.Submit: the same reasons,
// note length and limits); cross-site posts are refused by the site's
// cross-origin protection around the pages (internal/httpapi).

// ReportFunc records a shopper's report of store id (reports.Service.Submit
// behind httpapi): apperr values say what was wrong.
type ReportFunc func(ctx context.Context, r *http.Request, id int64, reason, note string) error

// reportReasons are the form's choices, in the web app's words
// (web/src/features/locator/report/reasons.ts).
var reportReasons = []reportReason{
	{"wrong_hours", "Wrong hours"},
	{"permanently_closed", "Permanently closed"},
	{"wrong_location", "Wrong location"},
	{"wrong_phone", "Wrong phone"},
	{"other", "Other"},
}

type reportReason struct{ Value, Label string }

// reportForm is what the report template shows.
type reportForm struct {
	Action    string // the form's target: the store page's path + /report
	StorePath string
	StoreName string
	Reasons   []reportReason
	Reason    string // the choice to keep checked after an error
	Note      string
	Error     string
	Sent      string // the confirmation, once the report is in
}

// maxReportBody bounds a form post: 500 characters of note, each up to 4
// bytes and percent-encoded (12), plus the reason.
const maxReportBody = 8 << 10

// reportSent is the confirmation (the API's reports.ReportedMessage).
const reportSent = "Thanks! We'll check this store."

// report answers GET and POST {store page}/report.
func (p *Pages) report(w http.ResponseWriter, r *http.Request, seg string) {
	id, ok := storeID(seg)
	if !ok || p.opt.Report == nil {
		p.notFound(w, r)
		return
	}
	v, _, _, ok := p.lookup(w, r, id, "report page")
	if !ok {
		return
	}
	canonical := v.path()
	action := canonical + "/report"
	if r.URL.Path != action {
		if r.Method != http.MethodPost {
			redirect(w, action)
			return
		}
		// A form posted to an outdated path is still this store's.
	}
	f := &reportForm{Action: action, StorePath: canonical, StoreName: v.Name, Reasons: reportReasons}
	status := http.StatusOK
	if r.Method == http.MethodPost {
		r.Body = http.MaxBytesReader(w, r.Body, maxReportBody)
		if err := r.ParseForm(); err != nil {
			f.Error = "The note should be at most 500 characters"
			status = http.StatusRequestEntityTooLarge
			var mb *http.MaxBytesError
			if !errors.As(err, &mb) {
				f.Error, status = "Choose what is wrong", http.StatusBadRequest
			}
		} else {
			f.Reason, f.Note = r.PostForm.Get("reason"), r.PostForm.Get("note")
			err := p.opt.Report(r.Context(), r, id, f.Reason, f.Note)
			if err == nil {
				w.Header().Set("Location", action+"?sent=1")
				w.Header().Set("Cache-Control", "no-store")
				w.WriteHeader(http.StatusSeeOther)
				return
			}
			status, f.Error = reportError(w, err)
			if status == http.StatusNotFound {
				p.notFound(w, r)
				return
			}
			if status == http.StatusInternalServerError {
				p.opt.Log.Error("report from a store page", "id", id, "err", err)
			}
		}
	} else {
		if r.URL.Query().Get("sent") == "1" {
			f.Sent = reportSent
		}
	}
	title := "Report a problem · " + v.Name + " · Store Locator"
	crumbs := []crumb{home, {Name: "Stores", Path: "/stores"}, {Name: v.Name, Path: canonical}, {Name: "Report a problem", Path: action}}
	pg := &page{Title: title, Description: "Tell us what is wrong with " + v.Name + "'s details.", Crumbs: crumbs, Report: f}
	p.render(w, r, "report", status, pg, time.Time{})
}

// reportError maps the report's refusal to a status and the message the
// form shows (apperr's, which are the API's).
func reportError(w http.ResponseWriter, err error) (int, string) {
	e, ok := apperr.As(err)
	if !ok {
		return http.StatusInternalServerError, "Something went wrong. Please try again."
	}
	switch e.Code {
	case apperr.Invalid:
		return http.StatusBadRequest, e.Message
	case apperr.TooMany:
		if e.RetryAfter > 0 {
			w.Header().Set("Retry-After", strconv.Itoa(int(e.RetryAfter.Seconds()+0.999)))
		}
		return http.StatusTooManyRequests, e.Message
	case apperr.NotFound:
		return http.StatusNotFound, e.Message
	case apperr.Unavailable:
		return http.StatusServiceUnavailable, e.Message
	default:
		return http.StatusBadRequest, e.Message
	}
}
