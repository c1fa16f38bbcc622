package httpapi

import (
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"locator/internal/apperr"
	"locator/internal/reviews"
)

type reviewCustomerDTO struct {
	FirstName  string `json:"first_name"`
	LastName   string `json:"last_name"`
	HasAccount bool   `json:"has_account"`
}

type reviewDTO struct {
	ID         int64             `json:"id"`
	CreatedAt  time.Time         `json:"created_at"`
	UpdatedAt  time.Time         `json:"updated_at"`
	ProductID  string            `json:"product_id"`
	CustomerID string            `json:"customer_id"`
	Status     string            `json:"status"`
	Rating     int               `json:"rating"`
	Content    string            `json:"content"`
	Product    json.RawMessage   `json:"product"`
	Customer   reviewCustomerDTO `json:"customer"`
	// Sample: one of the demo's sample reviews, not a member's.
	Sample   bool       `json:"sample"`
	EditedAt *time.Time `json:"edited_at"`
	Reply    *replyDTO  `json:"reply"`
}

type replyDTO struct {
	Text      string     `json:"text"`
	CreatedAt time.Time  `json:"created_at"`
	EditedAt  *time.Time `json:"edited_at"`
}

func timeOrNil(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}

func toReviewDTO(rv *reviews.Review) reviewDTO {
	d := reviewDTO{
		ID: rv.ID, CreatedAt: rv.CreatedAt, UpdatedAt: rv.UpdatedAt, ProductID: rv.ProductID, CustomerID: rv.CustomerID,
		Status: rv.Status, Rating: rv.Rating, Content: rv.Content, Product: rv.Product,
		Customer: reviewCustomerDTO{FirstName: rv.CustomerFirstName, LastName: rv.CustomerLastName, HasAccount: rv.CustomerHasAccount},
		Sample:   rv.Sample, EditedAt: timeOrNil(rv.EditedAt),
	}
	if len(d.Product) == 0 {
		d.Product = json.RawMessage("{}")
	}
	if rv.Reply.Text != "" {
		d.Reply = &replyDTO{Text: rv.Reply.Text, CreatedAt: rv.Reply.At, EditedAt: timeOrNil(rv.Reply.EditedAt)}
	}
	return d
}

type starCountDTO struct {
	Rating int `json:"rating"`
	Count  int `json:"count"`
}

type summaryDTO struct {
	Average     float64        `json:"average"`
	Count       int            `json:"count"`
	Counts      []starCountDTO `json:"counts"`
	Recommended int            `json:"recommended_percentage"`
}

type reviewsDTO struct {
	StoreID int64       `json:"store_id"`
	Summary summaryDTO  `json:"summary"`
	Reviews []reviewDTO `json:"reviews"`
	Page    int         `json:"page"`
	Limit   int         `json:"limit"`
	HasMore bool        `json:"has_more"`
}

// Review pages: 20 by default, 100 at most.
const (
	defaultReviewLimit = 20
	maxReviewLimit     = 100
	maxReviewPage      = 10000
)

func intParam(r *http.Request, name string, def, lo, hi int) (int, error) {
	vs := r.URL.Query()[name]
	if len(vs) == 0 || vs[0] == "" {
		return def, nil
	}
	n, err := strconv.Atoi(vs[0])
	if err != nil || n < lo || n > hi || vs[0][0] == '+' {
		return 0, apperr.Invalidf("%s must be a whole number from %d to %d", name, lo, hi)
	}
	return n, nil
}

// listReviews answers a store's published reviews (newest first or by rating, paged) and their
// summary. Reviewers' emails and phones are never published.
func (s *Server) listReviews(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r)
	if err != nil {
		return err
	}
	page, err := intParam(r, "page", 1, 1, maxReviewPage)
	if err != nil {
		return err
	}
	limit, err := intParam(r, "limit", defaultReviewLimit, 1, maxReviewLimit)
	if err != nil {
		return err
	}
	sort := r.URL.Query().Get("sort")
	if err := reviews.ValidSort(sort); err != nil {
		return err
	}
	if _, err := s.Stores.PublishedDoc(r.Context(), id); err != nil {
		return err
	}
	sum, err := s.Reviews.Summarize(r.Context(), id)
	if err != nil {
		return err
	}
	list, more, err := s.Reviews.ListSorted(r.Context(), id, sort, (page-1)*limit, limit)
	if err != nil {
		return err
	}
	out := reviewsDTO{StoreID: id, Summary: toSummaryDTO(sum), Reviews: make([]reviewDTO, 0, len(list)), Page: page, Limit: limit, HasMore: more}
	for i := range list {
		out.Reviews = append(out.Reviews, toReviewDTO(&list[i]))
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func toSummaryDTO(s reviews.Summary) summaryDTO {
	d := summaryDTO{Average: s.Average, Count: s.Count, Recommended: s.Recommended, Counts: make([]starCountDTO, 5)}
	for i, n := range s.Counts {
		d.Counts[i] = starCountDTO{Rating: 5 - i, Count: n}
	}
	return d
}
