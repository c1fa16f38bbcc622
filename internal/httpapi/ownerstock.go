package httpapi

// The owners' stock in /business (docs/products.md, "Owners' stock"):
// find a catalogue product, mark it carried, remove it, list the store's
// stock with the law's verdict, and upload a feed file for the stores the
// account owns.

import (
	"errors"
	"net/http"
	"regexp"
	"strconv"
	"time"

	"locator/internal/apperr"
	"locator/internal/business"
	"locator/internal/catalog"
	"locator/internal/db"
	"locator/internal/ownerstock"
	"locator/internal/rules"
)

// MaxStockUploadBytes bounds a feed file uploaded in /business.
const MaxStockUploadBytes = 20 << 20

func isStockUpload(r *http.Request) bool {
	return r.Method == http.MethodPost && r.URL.Path == "/api/business/stock/import"
}

func (s *Server) ownerStock() (*ownerstock.Service, error) {
	if s.OwnerStock == nil {
		return nil, apperr.New(apperr.NotFound, "stock is not kept here")
	}
	return s.OwnerStock, nil
}

// businessFindProducts is the catalogue search of the owners' stock form.
func (s *Server) businessFindProducts(w http.ResponseWriter, r *http.Request, _ *business.Account) error {
	svc, err := s.ownerStock()
	if err != nil {
		return err
	}
	limit, err := intParam(r, "limit", 20, 1, catalog.MaxSearchLimit)
	if err != nil {
		return err
	}
	ps, total, err := svc.Find(r.Context(), r.URL.Query().Get("q"), limit)
	if err != nil {
		return err
	}
	out := adminProductListDTO{Products: make([]adminProductDTO, len(ps)), Total: total}
	for i, p := range ps {
		out.Products[i] = adminProduct(p)
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// ownerStockItemDTO is a row of the owner's stock, its product as the
// catalogue's editor shows it.
type ownerStockItemDTO struct {
	Product      adminProductDTO `json:"product"`
	Availability string          `json:"availability"`
	Quantity     *int64          `json:"quantity"`
	Price        *string         `json:"price"`
	SalePrice    *string         `json:"sale_price"`
	PickupMethod string          `json:"pickup_method"`
	PickupSLA    string          `json:"pickup_sla"`
	ReportedAt   time.Time       `json:"reported_at"`
	Lawful       bool            `json:"lawful"`
	Rule         *rules.Public   `json:"rule"`
}

func ownerStockItem(it ownerstock.Item) ownerStockItemDTO {
	return ownerStockItemDTO{Product: adminProduct(it.Product), Availability: string(it.Availability), Quantity: it.Quantity,
		Price: orNull(it.Price), SalePrice: orNull(it.SalePrice), PickupMethod: it.PickupMethod, PickupSLA: it.PickupSLA,
		ReportedAt: it.ReportedAt, Lawful: it.Lawful, Rule: it.Rule}
}

type stockItemsDTO struct {
	Items []ownerStockItemDTO `json:"items"`
}

type stockItemDTO struct {
	Item ownerStockItemDTO `json:"item"`
}

func (s *Server) businessStoreStock(w http.ResponseWriter, r *http.Request, a *business.Account, id int64) error {
	svc, err := s.ownerStock()
	if err != nil {
		return err
	}
	items, err := svc.List(r.Context(), a.ID, id)
	if err != nil {
		return err
	}
	out := stockItemsDTO{Items: make([]ownerStockItemDTO, len(items))}
	for i, it := range items {
		out.Items[i] = ownerStockItem(it)
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// productIDPath is a catalogue product id as a path holds it.
var productIDPath = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.:\-]{0,99}$`)

func pathProduct(r *http.Request) (string, error) {
	pid := r.PathValue("productId")
	if !productIDPath.MatchString(pid) {
		return "", apperr.New(apperr.NotFound, "no such product")
	}
	return pid, nil
}

func (s *Server) businessSetStock(w http.ResponseWriter, r *http.Request, a *business.Account, id int64) error {
	svc, pid, err := s.ownerStockProduct(r)
	if err != nil {
		return err
	}
	var in ownerstock.Input
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	return answerJSON(w, http.StatusOK, func(it ownerstock.Item) stockItemDTO {
		return stockItemDTO{Item: ownerStockItem(it)}
	})(svc.Set(r.Context(), a.ID, id, pid, in))
}

// ownerStockProduct is where a call on one product of a store starts: the
// stock service (404 where none is kept) and the path's product.
func (s *Server) ownerStockProduct(r *http.Request) (*ownerstock.Service, string, error) {
	svc, err := s.ownerStock()
	if err != nil {
		return nil, "", err
	}
	pid, err := pathProduct(r)
	return svc, pid, err
}

func (s *Server) businessRemoveStock(w http.ResponseWriter, r *http.Request, a *business.Account, id int64) error {
	svc, pid, err := s.ownerStockProduct(r)
	if err != nil {
		return err
	}
	return answerMessage(w, http.StatusOK, "The store no longer carries this product.", svc.Remove(r.Context(), a.ID, id, pid))
}

// businessUploadStock imports a feed file (the raw CSV or TSV body) for
// the account's stores; ?replace=true makes it a full feed of the stores it
// names.
func (s *Server) businessUploadStock(w http.ResponseWriter, r *http.Request, a *business.Account) error {
	svc, err := s.ownerStock()
	if err != nil {
		return err
	}
	q := r.URL.Query()
	replace := false
	switch q.Get("replace") {
	case "", "false":
	case "true":
		replace = true
	default:
		return apperr.Invalidf("replace must be true or false")
	}
	name, body, err := uploadBody(r, MaxStockUploadBytes, "send it in parts, or ask us to import it")
	if err != nil {
		return err
	}
	// A feed is bulk work: each database call is bounded, not their sum.
	rep, err := svc.Upload(db.WithCallTimeout(r.Context(), s.DBTimeout), a.ID, body, "business "+strconv.FormatInt(a.ID, 10)+": "+name, replace)
	var ae *apperr.Error
	if body.tooLarge || (errors.As(err, &ae) && ae.Code == apperr.TooLarge) {
		return apperr.New(apperr.TooLarge, "The file is larger than %d MB: send it in parts, or ask us to import it", MaxStockUploadBytes>>20)
	}
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, rep)
	return nil
}
