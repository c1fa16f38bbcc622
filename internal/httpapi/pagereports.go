package httpapi

import (
	"context"
	"net/http"
	"strings"

	"locator/internal/apperr"
	"locator/internal/reports"
)

// pageReport records a report posted from a store page's form
// (storepages.Options.Report): the API's submitReport without JSON, the
// same service, limits and client address (the lifecycle middleware bounds
// its database calls as the API's).
func (s *Server) pageReport(ctx context.Context, r *http.Request, id int64, reason, note string) error {
	if strings.IndexByte(reason, 0) >= 0 || strings.IndexByte(note, 0) >= 0 {
		return errNUL
	}
	if s.Reports == nil {
		return apperr.New(apperr.NotFound, "Store not found")
	}
	customerID, err := s.memberID(ctx, r)
	if err != nil {
		return err
	}
	_, err = s.Reports.Submit(ctx, reports.Input{StoreID: id, Reason: reason, Note: note, CustomerID: customerID, ClientIP: s.clientIP(r)})
	return err
}
