package httpapi

// Insights (docs/insights.md): searches and impressions counted where the
// list answers, the app's beacon (POST /api/events), the store pages' views
// and link pings, the owners' report and the operators' demand.

import (
	"encoding/csv"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"locator/internal/apperr"
	"locator/internal/business"
	"locator/internal/identity"
	"locator/internal/insights"
	"locator/internal/places"
	"locator/internal/ratelimit"
	"locator/internal/reviews"
	"locator/internal/search"
)

// eventsLimit bounds the events one network may send: a shopper's few
// actions fit many times over; a script inflating a store's counts does not.
var eventsLimit = perIP{"events", 120, time.Minute}

// counter is the insights counter, nil (counting nothing) without one.
func (s *Server) counter() *insights.Counter {
	if s.Insights == nil {
		return nil
	}
	return s.Insights.Counter
}

// visitor is the caller as insights tells visitors apart: a salted hash of
// their network (the user agent is not part of it: a script changes it at
// will).
func (s *Server) visitor(r *http.Request) insights.Visitor {
	c := s.counter()
	if !c.Enabled() {
		return 0
	}
	return c.VisitorOf(s.clientIP(r))
}

// countSearch counts a list answer: its cell, filters, whether it found
// nothing, and the stores of its first page.
func (s *Server) countSearch(r *http.Request, q *search.Query, firstPage []int64) {
	c := s.counter()
	if !c.Enabled() {
		return
	}
	var f uint8
	for i, on := range [...]bool{q.Delivery, q.OrderOnline, q.Curbside, q.OpenNow, q.LicenceVerified, q.AvailableNow} {
		if on {
			f |= 1 << i
		}
	}
	c.CountSearch(s.visitor(r), insights.Search{Latitude: q.Latitude, Longitude: q.Longitude, Filters: f,
		Results: len(firstPage), FirstPage: firstPage})
}

// beaconKinds are the kinds the app may send: impressions and page views
// are counted by the server itself.
var beaconKinds = map[string]insights.Kind{}

func init() {
	for _, k := range insights.Kinds {
		if k != insights.Impression && k != insights.Page {
			beaconKinds[k.String()] = k
		}
	}
}

type eventRequest struct {
	Kind    string      `json:"kind"`
	StoreID flexStoreID `json:"store_id"`
	Partner string      `json:"partner"` // the widget's partner (docs/embed.md); empty: the app's own
}

// postEvent answers POST /api/events: one shopper action on a store.
func (s *Server) postEvent(w http.ResponseWriter, r *http.Request) error {
	var in eventRequest
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	k, ok := beaconKinds[in.Kind]
	if !ok {
		return apperr.Invalidf("kind must be one of panel, call, directions, website, online_store, share, favourite")
	}
	if in.StoreID < 1 {
		return apperr.Invalidf("store_id must be a positive whole number")
	}
	if in.Partner != "" && !embedSlug.MatchString(in.Partner) {
		return apperr.Invalidf("partner must be a partner's name in lowercase letters, digits and hyphens")
	}
	if err := s.countEvent(w, r, int64(in.StoreID), k); err != nil {
		return err
	}
	s.countPartnerEvent(r, in.Partner, int64(in.StoreID), k)
	return nil
}

// countEvent counts k of a published store, within the network's limit.
func (s *Server) countEvent(w http.ResponseWriter, r *http.Request, id int64, k insights.Kind) error {
	if s.Index == nil {
		return apperr.New(apperr.NotFound, "Store not found")
	}
	if _, ok := s.Index.Get(id); !ok {
		return apperr.New(apperr.NotFound, "Store not found")
	}
	if err := s.limitNetwork(r, eventsLimit); err != nil {
		return err
	}
	s.counter().Count(s.visitor(r), id, k)
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// limitNetwork is limitIP per network (an IPv4 /24, an IPv6 /64).
func (s *Server) limitNetwork(r *http.Request, l perIP) error {
	ok, wait := s.IPLimits.Allow(l.action+":"+ratelimit.Network(s.clientIP(r)), l.limit, l.per)
	if !ok {
		e := apperr.New(apperr.TooMany, "Too many requests. Please try again later.")
		e.RetryAfter = wait
		return e
	}
	return nil
}

// pingKinds are the store page's links that ping (their ping attribute).
var pingKinds = map[string]insights.Kind{"call": insights.Call, "directions": insights.Directions, "online_store": insights.OnlineStore}

// pagePing answers POST /insights/ping/{id}/{kind}: a store page's link
// followed (the browser's hyperlink ping, no script on the page).
func (s *Server) pagePing(w http.ResponseWriter, r *http.Request) error {
	id, ok := parseID(r.PathValue("id"))
	k, known := pingKinds[r.PathValue("kind")]
	if !ok || !known {
		return apperr.New(apperr.NotFound, "not found")
	}
	return s.countEvent(w, r, id, k)
}

// pageViewed counts a store page view, not a crawler's, within the
// network's events limit that beacons and pings share (past it the page is
// served and not counted).
func (s *Server) pageViewed(r *http.Request, id int64) {
	if r.Method != http.MethodGet || isCrawler(r.UserAgent()) || !s.counter().Enabled() {
		return
	}
	if s.limitNetwork(r, eventsLimit) != nil {
		return
	}
	s.counter().Count(s.visitor(r), id, insights.Page)
}

func isCrawler(ua string) bool {
	ua = strings.ToLower(ua)
	return ua == "" || strings.Contains(ua, "bot") || strings.Contains(ua, "crawl") || strings.Contains(ua, "spider") || strings.Contains(ua, "slurp")
}

func (s *Server) insightsService() (*insights.Service, error) {
	if s.Insights == nil {
		return nil, apperr.New(apperr.NotFound, "Insights are not kept here")
	}
	return s.Insights, nil
}

// queryDays reads ?days= (def when absent).
func queryDays(r *http.Request, def int) (int, error) {
	v := r.URL.Query().Get("days")
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || v[0] == '+' {
		return 0, apperr.Invalidf("days must be a whole number")
	}
	return n, nil
}

// businessStoreInsights answers GET /api/business/stores/{id}/insights.
func (s *Server) businessStoreInsights(w http.ResponseWriter, r *http.Request, a *business.Account, id int64) error {
	svc, err := s.insightsService()
	if err != nil {
		return err
	}
	days, err := queryDays(r, 30)
	if err != nil {
		return err
	}
	if err := s.Business.Owns(r.Context(), a, id); err != nil {
		return err
	}
	rep, err := insights.ReadStoreReport(r.Context(), svc.DB, id, days, s.Clock.Now())
	if err != nil {
		return err
	}
	out := storeInsightsDTO{StoreReport: rep}
	if s.Reviews != nil {
		// The report's days are UTC dates, from its first to today's.
		from, errFrom := time.Parse(time.DateOnly, rep.From)
		to, errTo := time.Parse(time.DateOnly, rep.To)
		if errFrom != nil || errTo != nil {
			return fmt.Errorf("insights period %s to %s: %w", rep.From, rep.To, errors.Join(errFrom, errTo))
		}
		if out.Reviews, err = s.Reviews.CountPeriod(r.Context(), id, from, to.AddDate(0, 0, 1)); err != nil {
			return err
		}
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// storeInsightsDTO is an owner's report with the store's new published
// reviews in the period and the one before.
type storeInsightsDTO struct {
	*insights.StoreReport
	Reviews reviews.Period `json:"reviews"`
}

type insightsMailBody struct {
	Enabled *bool `json:"enabled"`
}

// businessInsightsMail answers GET /api/business/insights-mail.
func (s *Server) businessInsightsMail(w http.ResponseWriter, r *http.Request, a *business.Account) error {
	svc, err := s.insightsService()
	if err != nil {
		return err
	}
	on, err := insights.MailEnabled(r.Context(), svc.DB, a.ID)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, insightsMailBody{Enabled: &on})
	return nil
}

// businessSetInsightsMail answers PUT /api/business/insights-mail.
func (s *Server) businessSetInsightsMail(w http.ResponseWriter, r *http.Request, a *business.Account) error {
	var in insightsMailBody
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	if in.Enabled == nil {
		return apperr.Invalidf("enabled must be true or false")
	}
	svc, err := s.insightsService()
	if err != nil {
		return err
	}
	if err := insights.SetMailEnabled(r.Context(), svc.DB, a.ID, *in.Enabled); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, in)
	return nil
}

func (s *Server) demand(r *http.Request) (*insights.Demand, error) {
	svc, err := s.insightsService()
	if err != nil {
		return nil, err
	}
	days, err := queryDays(r, 30)
	if err != nil {
		return nil, err
	}
	var gaz *places.Gazetteer
	if s.Places != nil {
		gaz = s.Places.Gazetteer
	}
	return insights.DemandReport(r.Context(), svc.DB, gaz, days, s.Clock.Now())
}

// adminDemand answers GET /api/admin/insights/demand.
func (s *Server) adminDemand(w http.ResponseWriter, r *http.Request, _ *identity.Moderator) error {
	d, err := s.demand(r)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, d)
	return nil
}

// adminDemandCSV answers GET /api/admin/insights/demand.csv: every cell of
// the period, then the named places and postal codes.
func (s *Server) adminDemandCSV(w http.ResponseWriter, r *http.Request, _ *identity.Moderator) error {
	d, err := s.demand(r)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="demand-%s-%s.csv"`, d.From, d.To))
	cw := csv.NewWriter(w)
	f := func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
	n := func(x int64) string { return strconv.FormatInt(x, 10) }
	_ = cw.Write([]string{"kind", "name", "region", "latitude", "longitude", "searches", "zero_results"})
	for _, c := range d.Cells {
		_ = cw.Write([]string{"cell", "", "", f(c.Latitude), f(c.Longitude), n(c.Searches), n(c.ZeroResults)})
	}
	for _, list := range []struct {
		kind  string
		areas []insights.Area
	}{{"place", d.Places}, {"postal_code", d.PostalCodes}} {
		for _, a := range list.areas {
			_ = cw.Write([]string{list.kind, csvSafe(a.Name), csvSafe(a.Region), f(a.Latitude), f(a.Longitude), n(a.Searches), n(a.ZeroResults)})
		}
	}
	for _, u := range d.Filters {
		_ = cw.Write([]string{"filter", u.Filter, "", "", "", n(u.Searches), ""})
	}
	cw.Flush()
	return nil
}

// csvSafe keeps a spreadsheet from reading a name as a formula.
func csvSafe(s string) string {
	if s != "" && strings.ContainsRune("=+-@", rune(s[0])) {
		return "'" + s
	}
	return s
}
