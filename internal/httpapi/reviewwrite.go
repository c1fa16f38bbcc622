package httpapi

// Members write, edit and delete their review of a store; anyone flags a
// review; owners reply from the dashboard; moderators decide
// (docs/reviews.md). The rules live in internal/reviews; these handlers
// decode, check who calls and answer.

import (
	"context"
	"net/http"
	"strings"

	"locator/internal/apperr"
	"locator/internal/business"
	"locator/internal/identity"
	"locator/internal/members"
	"locator/internal/ratelimit"
	"locator/internal/reviews"
	"locator/internal/storepages"
)

// reviewBody is a member's review as sent: a rating and a text. A rating
// sent as "5" or 4.5 is refused by the decoder (the wrong type).
type reviewBody struct {
	Rating  *int    `json:"rating"`
	Content *string `json:"content"`
}

// decodeReview reads a review's body: the JSON, then its fields checked.
func decodeReview(r *http.Request) (reviews.Input, error) {
	var body reviewBody
	if err := decodeJSON(r, &body); err != nil {
		return reviews.Input{}, err
	}
	return body.input()
}

func (b reviewBody) input() (reviews.Input, error) {
	if b.Rating == nil {
		return reviews.Input{}, apperr.Invalidf("rating is required: a whole number from 1 to 5")
	}
	if b.Content == nil {
		return reviews.Input{}, apperr.Invalidf("content is required")
	}
	return reviews.Input{Rating: *b.Rating, Content: *b.Content}, nil
}

// myReviewDTO is the author's own review: with its status and, held or
// removed, why.
type myReviewDTO struct {
	reviewDTO
	StoreID    int64  `json:"store_id"`
	HeldReason string `json:"held_reason"`
}

func author(c *members.Customer) reviews.Author {
	return reviews.Author{ID: c.ID, Email: strings.ToLower(c.Email), FirstName: c.FirstName, LastName: c.LastName,
		Proven: c.EmailVerified, Since: c.CreatedAt}
}

func mine(rv *reviews.Review) myReviewDTO {
	return myReviewDTO{reviewDTO: toReviewDTO(rv), StoreID: rv.StoreID, HeldReason: rv.HeldReason}
}

// memberReview adapts a member's call on their review of store {id}.
func (s *Server) memberReview(h func(w http.ResponseWriter, r *http.Request, c *members.Customer, storeID int64) error) handler {
	return s.forMember(func(w http.ResponseWriter, r *http.Request, c *members.Customer) error {
		id, err := pathID(r)
		if err != nil {
			return err
		}
		return h(w, r, c, id)
	})
}

// writeReview answers POST /api/store/physical-store/{id}/reviews.
func (s *Server) writeReview(w http.ResponseWriter, r *http.Request, c *members.Customer, storeID int64) error {
	in, err := decodeReview(r)
	if err != nil {
		return err
	}
	return answerJSON(w, http.StatusCreated, mine)(s.Reviews.Write(r.Context(), author(c), storeID, in, ratelimit.Network(s.clientIP(r))))
}

// myReview answers GET /api/store/physical-store/{id}/reviews/mine.
func (s *Server) myReview(w http.ResponseWriter, r *http.Request, c *members.Customer, storeID int64) error {
	return answerJSON(w, http.StatusOK, mine)(s.Reviews.Mine(r.Context(), c.ID, storeID))
}

// editReview answers PATCH /api/store/physical-store/{id}/reviews/mine.
func (s *Server) editReview(w http.ResponseWriter, r *http.Request, c *members.Customer, storeID int64) error {
	in, err := decodeReview(r)
	if err != nil {
		return err
	}
	return answerJSON(w, http.StatusOK, mine)(s.Reviews.Edit(r.Context(), author(c), storeID, in))
}

// deleteReview answers DELETE /api/store/physical-store/{id}/reviews/mine.
func (s *Server) deleteReview(w http.ResponseWriter, r *http.Request, c *members.Customer, storeID int64) error {
	if err := s.Reviews.Delete(r.Context(), c.ID, storeID); err != nil {
		return err
	}
	writeMessage(w, http.StatusOK, "Review deleted")
	return nil
}

type flagBody struct {
	Reason string `json:"reason"`
}

// flagReview answers POST /api/reviews/{id}/flags: anyone, signed in or
// not, limited per network.
func (s *Server) flagReview(w http.ResponseWriter, r *http.Request) error {
	id, ok := parseID(r.PathValue("id"))
	if !ok {
		return apperr.Invalidf("review id must be a positive whole number")
	}
	var body flagBody
	if err := decodeJSON(r, &body); err != nil {
		return err
	}
	if err := s.Reviews.Flag(r.Context(), id, body.Reason, ratelimit.Network(s.clientIP(r))); err != nil {
		return err
	}
	writeMessage(w, http.StatusCreated, "Thank you: a moderator will read this review")
	return nil
}

type reviewPolicyDTO struct {
	FlagReasons    []reviews.Reason     `json:"flag_reasons"`
	RemovalReasons []reviews.Reason     `json:"removal_reasons"`
	KeepReasons    []reviews.Reason     `json:"keep_reasons"`
	Removals       []reviews.MonthCount `json:"removals"`
}

// removalMonths is how far back the public page counts removals.
const removalMonths = 12

// reviewPolicy answers GET /api/reviews/policy: the published reasons and
// the removals per month and reason.
func (s *Server) reviewPolicy(w http.ResponseWriter, r *http.Request) error {
	removals, err := s.Reviews.Removals(r.Context(), removalMonths)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, reviewPolicyDTO{FlagReasons: reviews.FlagReasons, RemovalReasons: reviews.RemovalReasons,
		KeepReasons: reviews.KeepReasons, Removals: removals})
	return nil
}

// ownerReview adapts an owner's call on review {reviewId} of store {id}:
// only a proven owner of that store (business.Service.Owns).
func (s *Server) ownerReview(h func(w http.ResponseWriter, r *http.Request, storeID, reviewID int64) error) handler {
	return s.forBusinessStore(func(w http.ResponseWriter, r *http.Request, a *business.Account, storeID int64) error {
		reviewID, ok := parseID(r.PathValue("reviewId"))
		if !ok {
			return apperr.Invalidf("review id must be a positive whole number")
		}
		if err := s.Business.Owns(r.Context(), a, storeID); err != nil {
			return err
		}
		return h(w, r, storeID, reviewID)
	})
}

type replyBody struct {
	Text string `json:"text"`
}

// replyToReview answers PUT /api/business/stores/{id}/reviews/{reviewId}/reply.
func (s *Server) replyToReview(w http.ResponseWriter, r *http.Request, storeID, reviewID int64) error {
	var body replyBody
	if err := decodeJSON(r, &body); err != nil {
		return err
	}
	rv, err := s.Reviews.SetReply(r.Context(), storeID, reviewID, body.Text)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, toReviewDTO(rv))
	return nil
}

// deleteReply answers DELETE /api/business/stores/{id}/reviews/{reviewId}/reply.
func (s *Server) deleteReply(w http.ResponseWriter, r *http.Request, storeID, reviewID int64) error {
	if err := s.Reviews.DeleteReply(r.Context(), storeID, reviewID); err != nil {
		return err
	}
	writeMessage(w, http.StatusOK, "Reply deleted")
	return nil
}

// businessReviewMail answers GET /api/business/review-mail.
func (s *Server) businessReviewMail(w http.ResponseWriter, r *http.Request, a *business.Account) error {
	on, err := s.Reviews.MailEnabled(r.Context(), a.ID)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, insightsMailBody{Enabled: &on})
	return nil
}

// businessSetReviewMail answers PUT /api/business/review-mail.
func (s *Server) businessSetReviewMail(w http.ResponseWriter, r *http.Request, a *business.Account) error {
	var in insightsMailBody
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	if in.Enabled == nil {
		return apperr.Invalidf("enabled must be true or false")
	}
	if err := s.Reviews.SetMailEnabled(r.Context(), a.ID, *in.Enabled); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, in)
	return nil
}

type queuedReviewDTO struct {
	myReviewDTO
	StoreName string         `json:"store_name"`
	Flags     map[string]int `json:"flags"`
	FlagCount int            `json:"flag_count"`
}

type reviewQueueDTO struct {
	Reviews        []queuedReviewDTO `json:"reviews"`
	RemovalReasons []reviews.Reason  `json:"removal_reasons"`
	KeepReasons    []reviews.Reason  `json:"keep_reasons"`
}

// reviewQueueSize is the most reviews the moderators' queue shows at once.
const reviewQueueSize = 200

// adminReviewQueue answers GET /api/admin/reviews: the held and flagged reviews.
func (s *Server) adminReviewQueue(w http.ResponseWriter, r *http.Request, _ *identity.Moderator) error {
	q, err := s.Reviews.Queue(r.Context(), reviewQueueSize)
	if err != nil {
		return err
	}
	out := reviewQueueDTO{Reviews: make([]queuedReviewDTO, 0, len(q)), RemovalReasons: reviews.RemovalReasons, KeepReasons: reviews.KeepReasons}
	for i := range q {
		out.Reviews = append(out.Reviews, queuedReviewDTO{myReviewDTO: mine(&q[i].Review), StoreName: q[i].StoreName,
			Flags: q[i].Flags, FlagCount: q[i].FlagCount})
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

type decisionBody struct {
	Reason string `json:"reason"`
}

// adminDecideReview answers POST /api/admin/reviews/{id}/remove and
// /keep (action), each with a reason from its published list.
func (s *Server) adminDecideReview(action string) handler {
	return s.forModerator(func(w http.ResponseWriter, r *http.Request, m *identity.Moderator) error {
		id, ok := parseID(r.PathValue("id"))
		if !ok {
			return apperr.Invalidf("review id must be a positive whole number")
		}
		var body decisionBody
		if err := decodeJSON(r, &body); err != nil {
			return err
		}
		rv, err := s.Reviews.Decide(r.Context(), id, action, body.Reason, m.Actor())
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, mine(rv))
		return nil
	})
}

// pageReviews is how many of the latest members' reviews a store page's
// JSON-LD carries.
const pageReviews = 3

// latestReviews gives the store pages the latest published reviews by
// members: the demo's sample reviews are never marked up for search
// engines as shoppers' reviews.
func (s *Server) latestReviews(ctx context.Context, id int64) ([]storepages.Review, error) {
	list, _, err := s.Reviews.ListMembers(ctx, id, pageReviews)
	if err != nil {
		return nil, err
	}
	out := make([]storepages.Review, 0, len(list))
	for _, rv := range list {
		out = append(out, storepages.Review{Author: strings.TrimSpace(rv.CustomerFirstName + " " + rv.CustomerLastName),
			Date: rv.CreatedAt, Rating: rv.Rating, Body: rv.Content})
	}
	return out, nil
}
