// Package httpapi is the HTTP face of the locator: the JSON API under /api/
// and the embedded web app everywhere else. Handlers decode, validate, call
// a feature package and respond; they never touch SQL.
package httpapi

import (
	"context"
	"io/fs"
	"log/slog"
	"net/http"
	"net/netip"
	"net/url"
	"sync/atomic"
	"time"

	"locator/internal/answercache"
	"locator/internal/apikeys"
	"locator/internal/business"
	"locator/internal/catalog"
	"locator/internal/claims"
	"locator/internal/clock"
	"locator/internal/favorites"
	"locator/internal/insights"
	"locator/internal/inventory"
	"locator/internal/licences"
	"locator/internal/maptiles"
	"locator/internal/medusa"
	"locator/internal/members"
	"locator/internal/metrics"
	"locator/internal/ownerstock"
	"locator/internal/partners"
	"locator/internal/photos"
	"locator/internal/places"
	"locator/internal/ratelimit"
	"locator/internal/reports"
	"locator/internal/reviews"
	"locator/internal/rules"
	"locator/internal/search"
	"locator/internal/stores"
	"locator/internal/webhooks"
)

// Pinger checks the database (for /readyz).
type Pinger interface {
	Ping(ctx context.Context) error
}

// Deps is everything the HTTP layer needs, built by cmd/locator.
type Deps struct {
	Log        *slog.Logger
	Clock      clock.Clock // the app's clock; nil: the system's
	DB         Pinger
	Index      *search.Index
	Syncer     *search.Syncer
	Stores     *stores.Repo
	Reviews    *reviews.Repo
	Accounts   *members.Service
	Favorites  *favorites.Service
	Claims     *claims.Service
	Photos     *photos.Repo     // store photos; nil: none served
	PhotoGate  *photos.Gate     // the memory budget of photo decodes; nil: one of photos.DefaultMemoryBudget
	Reports    *reports.Service // shoppers' reports; nil: refused
	Business   *business.Service
	Licences   *licences.Registry
	Catalog    *catalog.Repo       // the product catalogue; nil: /api/admin/products answers 404
	Inventory  *inventory.Repo     // stock per store; nil: the point-of-sale API answers 404
	APIKeys    *apikeys.Service    // business accounts' point-of-sale keys; nil: none
	Partners   *partners.Service   // partners (docs/partners.md); nil: /api/admin/partners answers 404
	Webhooks   *webhooks.Service   // partners' webhooks (docs/webhooks.md); nil: their admin calls answer 404
	OwnerStock *ownerstock.Service // the owners' stock in /business; nil: its calls answer 404
	// MedusaLocations is the mapping of Medusa's stock locations to stores
	// (nil: its /admin calls answer 404); MedusaSync the sync of
	// LOCATOR_MEDUSA_URL, whose state /admin shows (nil: none set).
	MedusaLocations *medusa.Locations
	MedusaSync      *medusa.Syncer
	Insights        *insights.Service  // counts and reports (docs/insights.md); nil: nothing counted
	Answers         *answercache.Cache // compressed search answers kept for their minute (LOCATOR_ANSWER_CACHE); nil: none
	IPLimits        *ratelimit.Memory  // per-IP limits; nil: a fresh one
	SecureCookies   bool               // served over HTTPS: Secure, __Host- session cookie
	Places          *places.Service    // place search; nil: empty answers

	Site    // what the shell serves around the API
	Network // who calls, and how much each request may take
}

// Site is what the HTTP shell (shell.go) serves around the API: the web
// app, the map, the store pages' addresses, the version.
type Site struct {
	Web           fs.FS // the built web app; nil or without index.html: a placeholder page
	StorefrontURL string
	MapStyleURL   string
	Version       string
	// PublicURL is where users reach the site (LOCATOR_PUBLIC_URL): the
	// base of the store pages' canonical URLs and sitemaps. Empty: each
	// request's own host.
	PublicURL string

	Basemap *maptiles.Basemap // the offline basemap's tiles; nil: /map/ answers 404
	Streets *maptiles.PMTiles // LOCATOR_PMTILES's archive; nil: the offline basemap is the app's style
}

// Network is what the server knows of its callers and allows each request.
type Network struct {
	IPLocator      *places.IPLocator // caller location; nil: always unknown
	TrustedProxies []netip.Prefix    // peers whose X-Forwarded-For and location headers are believed

	// DBTimeout bounds the PostgreSQL calls of a request (statements, a
	// transaction's begin and commit) in all: see db.WithRequestBudget.
	// Past it the request answers 503. 0: DefaultDBTimeout.
	DBTimeout time.Duration

	// MetricsToken (LOCATOR_METRICS_TOKEN): /metrics answers callers that
	// send it as a bearer token; empty: no /metrics here (see Metrics).
	MetricsToken string

	// AccessLog (LOCATOR_ACCESS_LOG): which requests get a log line:
	// AccessLogAll (also when empty), AccessLogSample or AccessLogOff.
	AccessLog string
}

// DefaultDBTimeout keeps a request that meets a hanging database under 2 s.
const DefaultDBTimeout = 1500 * time.Millisecond

// Server routes requests.
type Server struct {
	Deps
	log     *slog.Logger
	api     *http.ServeMux
	handler http.Handler
	static  *static
	policy  contentPolicy
	metrics *metrics.Registry

	streetStyle func() ([]byte, error)
	ruleLocator rules.Locator // places positions by the embedded ZIP codes (loaded on first use)

	draining    atomic.Bool   // see Drain
	accessCount atomic.Uint64 // requests seen by the sampled access log
	dbHealth    dbHealth      // what /readyz says of the database
}

// routes is the API route table, grouped by who may call: anyone (the
// member's calls among them: forMember, or a check after reading the body),
// anyone through a form limited per IP (form), a signed-in moderator
// (forModerator; forLicences where licences are kept), a business account (forSignedInBusiness; with a proven
// mailbox, forBusiness and forBusinessStore).
// redirectToList: the spec's store list path ends in a slash; without it the
// path would read as "one store by id" in api/openapi.yaml, so it redirects
// to the one address (a fixed path on this host; only the query is the caller's).
func redirectToList(w http.ResponseWriter, r *http.Request) error {
	target := url.URL{Path: "/api/store/physical-store/list-physical-store/", RawQuery: r.URL.RawQuery}
	w.Header().Set("Location", target.String())
	w.WriteHeader(http.StatusMovedPermanently)
	return nil
}

func (s *Server) routes() {
	for pattern, h := range map[string]handler{
		"GET /api/store/physical-store/list-physical-store/{$}": s.listStores,
		"GET /api/store/physical-store/list-physical-store":     redirectToList,
		"GET /api/store/physical-store/{id}":                    withID(s.getStore),
		"GET /api/store/physical-store/{id}/reviews":            s.listReviews,
		"GET /api/store/physical-store/{id}/products":           withID(s.storeProducts),
		"GET /api/store/products/suggest":                       s.suggestProducts,
		"GET /api/store/brand-products":                         s.brandProducts,
		"GET /api/store/products/{id}":                          s.getProduct,
		"POST /api/store/physical-store/{id}/reviews":           s.memberReview(s.writeReview),
		"GET /api/store/physical-store/{id}/reviews/mine":       s.memberReview(s.myReview),
		"PATCH /api/store/physical-store/{id}/reviews/mine":     s.memberReview(s.editReview),
		"DELETE /api/store/physical-store/{id}/reviews/mine":    s.memberReview(s.deleteReview),
		"POST /api/reviews/{id}/flags":                          s.flagReview,
		"GET /api/reviews/policy":                               s.reviewPolicy,
		"GET /api/config":                                       s.config,
		"GET /api/store/physical-store/search-places":           s.searchPlaces,
		"GET /api/geo/ip-location":                              s.ipLocation,
		"GET /api/attribution":                                  s.attribution,
		"GET /api/rules":                                        s.placeRules,
		"POST /api/store/physical-store/{id}/reports":           s.submitReport,
		"DELETE /api/store/auth":                                signOutOf(s, s.memberArea()),
		"GET /api/store/customers/me":                           s.forMember(s.me),
		"POST /api/store/customers/me":                          s.updateMe,
		"POST /api/store/customers/me/email-proof":              s.forMember(s.requestEmailProof),
		"POST /api/customers/add-favorite-phstore":              s.changeFavorite(true),
		"POST /api/customers/remove-favorite-phstore":           s.changeFavorite(false),
		"DELETE /api/admin/auth":                                signOutOf(s, s.moderatorArea()),
		"DELETE /api/business/auth":                             signOutOf(s, s.ownerArea()),
		"GET /api/business/me":                                  s.forSignedInBusiness(s.businessMe),
		"POST /api/business/email-proof":                        s.forSignedInBusiness(s.businessResendProof),

		"POST /api/store/customers":                     form(s, signUpLimit, s.signUp),
		"POST /api/store/auth":                          form(s, signInLimit, signInTo(s, s.memberArea(), s.me)),
		"POST /api/store/customers/email-proof/confirm": form(s, signInLimit, s.confirmEmail),
		"POST /api/store/customers/password-token2": form(s, resetLimit, requestResetIn(func(ctx context.Context, in resetRequest) error {
			return s.Accounts.RequestReset(ctx, in.Email, in.App)
		})),
		"POST /api/store/customers/password-reset": form(s, resetLimit, resetPasswordIn(s, s.memberArea())),
		"POST /api/store/claim":                    form(s, claimLimit, s.submitClaim),
		"POST /api/store/claim/locate":             form(s, claimLocateLimit, s.claimLocate),
		"POST /api/store/create-user":              form(s, createUserLimit, s.createUser),
		"POST /api/admin/auth":                     form(s, adminSignInLimit, signInTo(s, s.moderatorArea(), s.adminMe)),
		"POST /api/business/auth":                  form(s, businessSignInLimit, signInTo(s, s.ownerArea(), s.businessMe)),
		"POST /api/business/email-proof/confirm":   form(s, businessSignInLimit, s.businessConfirmEmail),
		"POST /api/business/password-token":        form(s, businessResetLimit, requestResetIn(func(ctx context.Context, in resetRequest) error { return s.Business.RequestReset(ctx, in.Email) })),
		"POST /api/business/password-reset":        form(s, businessResetLimit, resetPasswordIn(s, s.ownerArea())),
		"POST /api/business/consent/request":       form(s, consentLimit, s.businessConsentRequest),
		"POST /api/business/consent":               form(s, consentLimit, s.businessConsent),

		"GET /api/admin/me":                              s.forModerator(s.adminMe),
		"GET /api/admin/claims":                          s.forModerator(s.adminListClaims),
		"GET /api/admin/claims/{id}":                     s.forModerator(s.adminGetClaim),
		"POST /api/admin/claims/{id}/approve":            s.adminDecide(true),
		"POST /api/admin/claims/{id}/reject":             s.adminDecide(false),
		"POST /api/admin/claims/{id}/consent":            s.forModerator(s.adminConsent),
		"GET /api/admin/reports":                         s.forModerator(s.adminListReports),
		"POST /api/admin/reports/{storeId}/resolve":      s.forModerator(s.adminResolveReports),
		"GET /api/admin/change-requests":                 s.forModerator(s.adminListChanges),
		"POST /api/admin/change-requests/{id}/approve":   s.adminDecideChange(true),
		"POST /api/admin/change-requests/{id}/reject":    s.adminDecideChange(false),
		"POST /api/admin/business-links":                 s.forModerator(s.adminLinkStore),
		"GET /api/admin/stores/{id}/owners":              s.forModerator(s.adminStoreOwners),
		"DELETE /api/admin/stores/{id}/owners/{ownerId}": s.forModerator(s.adminRemoveOwner),
		"GET /api/admin/stores/approximate":              s.forModerator(s.adminApproximateStores),
		"POST /api/admin/stores/{id}/position":           s.forModerator(s.adminPlaceStore),

		"GET /api/business/stores":                                  s.forBusiness(s.businessListStores),
		"GET /api/business/stores/{id}":                             s.forBusinessStore(s.businessGetStore),
		"PATCH /api/business/stores/{id}":                           s.forBusinessStore(s.businessPatchStore),
		"POST /api/business/stores/{id}/verify":                     s.forBusinessStore(s.businessVerifyStore),
		"DELETE /api/business/stores/{id}/owners/{ownerId}":         s.forBusiness(s.businessRemoveOwner),
		"POST /api/business/stores/{id}/photo":                      s.forBusinessStore(s.businessUploadPhoto),
		"POST /api/business/stores/{id}/pending-owners/{claimId}":   s.forBusinessStore(s.businessDecidePendingOwner),
		"GET /api/business/waiting":                                 s.forBusiness(s.businessWaiting),
		"PUT /api/business/stores/{id}/reviews/{reviewId}/reply":    s.ownerReview(s.replyToReview),
		"DELETE /api/business/stores/{id}/reviews/{reviewId}/reply": s.ownerReview(s.deleteReply),
		"GET /api/business/review-mail":                             s.forBusiness(s.businessReviewMail),
		"PUT /api/business/review-mail":                             s.forBusiness(s.businessSetReviewMail),
		"GET /api/admin/reviews":                                    s.forModerator(s.adminReviewQueue),
		"POST /api/admin/reviews/{id}/remove":                       s.adminDecideReview("remove"),
		"POST /api/admin/reviews/{id}/keep":                         s.adminDecideReview("keep"),

		// Point-of-sale keys and their one call (docs/products.md, "Point-of-sale API").
		"GET /api/business/api-keys":         s.forBusiness(s.businessListAPIKeys),
		"POST /api/business/api-keys":        s.forBusiness(s.businessCreateAPIKey),
		"DELETE /api/business/api-keys/{id}": s.forBusiness(s.businessRevokeAPIKey),
		"POST /api/pos/v1/stock":             s.posStock,

		// The owners' stock (docs/products.md, "Owners' stock").
		"GET /api/business/products":                         s.forBusiness(s.businessFindProducts),
		"GET /api/business/stores/{id}/stock":                s.forBusinessStore(s.businessStoreStock),
		"PUT /api/business/stores/{id}/stock/{productId}":    s.forBusinessStore(s.businessSetStock),
		"DELETE /api/business/stores/{id}/stock/{productId}": s.forBusinessStore(s.businessRemoveStock),
		"POST /api/business/stock/import":                    s.forBusiness(s.businessUploadStock),

		// Licences (docs/licences.md): a moderator's, where licences are kept.
		"GET /api/admin/products":                           s.forCatalog(s.adminListProducts),
		"GET /api/admin/products/{id}":                      s.forCatalog(s.adminGetProduct),
		"PATCH /api/admin/products/{id}":                    s.forCatalog(s.adminEditProduct),
		"GET /api/admin/medusa/locations":                   s.forMedusa(s.adminMedusaLocations),
		"GET /api/admin/medusa/locations/{id}/proposals":    s.forMedusa(s.adminMedusaProposals),
		"PUT /api/admin/medusa/locations/{id}/store":        s.forMedusa(s.adminMedusaMap),
		"GET /api/admin/licences":                           s.forLicences(s.adminLicenceStatus),
		"GET /api/admin/partners":                           s.forPartners(s.adminListPartners),
		"POST /api/admin/partners":                          s.forPartners(s.adminCreatePartner),
		"GET /api/admin/partners/{id}":                      s.forPartners(s.adminGetPartner),
		"PATCH /api/admin/partners/{id}":                    s.forPartners(s.adminEditPartner),
		"POST /api/admin/partners/{id}/disable":             s.forPartners(s.adminDisablePartner),
		"GET /api/admin/partners/{id}/report":               s.forPartners(s.partnerReport),
		"GET /api/admin/partners/{id}/keys":                 s.forPartnerKeys(s.adminListPartnerKeys),
		"POST /api/admin/partners/{id}/keys":                s.forPartnerKeys(s.adminCreatePartnerKey),
		"DELETE /api/admin/partners/{id}/keys/{keyId}":      s.forPartnerKeys(s.adminRevokePartnerKey),
		"GET /api/admin/partners/{id}/webhooks":             s.forPartnerHooks(s.adminListWebhooks),
		"POST /api/admin/partners/{id}/webhooks":            s.forPartnerHooks(s.adminRegisterWebhook),
		"DELETE /api/admin/partners/{id}/webhooks/{hookId}": s.forPartnerHooks(s.adminRemoveWebhook),
		"GET /api/partner/v1/stores":                        s.forPartnerKey(s.partnerListStores),
		"GET /api/partner/v1/stores/{id}":                   s.forPartnerKey(s.partnerGetStore),
		"POST /api/admin/licences/import":                   s.forLicences(s.adminLicenceImport),
		"GET /api/admin/licences/matches":                   s.forLicences(s.adminLicenceQueue),
		"POST /api/admin/licences/matches/{id}":             s.forLicenceRow(s.adminLicenceDecide),
		"GET /api/admin/licences/unmatched":                 s.forLicences(s.adminLicenceUnmatched),
		"POST /api/admin/licences/rows/{id}/store":          s.forLicenceRow(s.adminLicencePick),
		"POST /api/admin/licences/rows/{id}/new-store":      s.forLicenceRow(s.adminLicenceCreateStore),
		"POST /api/business/stores/{id}/licence":            s.forBusinessStore(s.businessLicenceNumber),

		// Insights (docs/insights.md).
		"POST /api/events":                       s.postEvent,
		"GET /api/business/stores/{id}/insights": s.forBusinessStore(s.businessStoreInsights),
		"GET /api/business/insights-mail":        s.forBusiness(s.businessInsightsMail),
		"PUT /api/business/insights-mail":        s.forBusiness(s.businessSetInsightsMail),
		"GET /api/admin/insights/demand":         s.forModerator(s.adminDemand),
		"GET /api/admin/insights/demand.csv":     s.forModerator(s.adminDemandCSV),
	} {
		s.api.HandleFunc(pattern, s.handle(h))
	}
}

type runtimeConfig struct {
	APIBase       string `json:"apiBase"`
	StorefrontURL string `json:"storefrontUrl"`
	MapStyleURL   string `json:"mapStyleUrl,omitempty"`
	// AddressSearch: an upstream geocoder is configured, so the place search
	// finds street addresses; without one it finds cities, ZIP codes and
	// neighbourhoods, and the search box says so.
	AddressSearch bool `json:"addressSearch,omitempty"`
	// IPLocation: an IP database or a CDN's location headers are set, so
	// /api/geo/ip-location may know the visitor's place; without either
	// the app does not ask (the answer would always be 404).
	IPLocation bool `json:"ipLocation,omitempty"`
}

// config tells the web app its runtime settings (also injected into index.html).
func (s *Server) config(w http.ResponseWriter, r *http.Request) error {
	writeJSON(w, http.StatusOK, s.static.cfg)
	return nil
}
