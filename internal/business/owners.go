package business

import (
	"context"
	"time"

	"locator/internal/apperr"
	"locator/internal/consent"
	"locator/internal/db"
	"locator/internal/ownership"
)

// CoOwner is an owner of a store as another owner sees it in the
// dashboard: who, since when, and whether this account may remove it.
type CoOwner struct {
	ID        int64     `json:"id"`
	Email     string    `json:"email"`
	Since     time.Time `json:"since"`
	You       bool      `json:"you"`
	Removable bool      `json:"removable"`
}

// An owner may remove an owner linked after it, never one linked before
// (nor at the same moment): the earlier owner of a store wins, so an
// account added by a look-alike claim cannot push out the owner it was
// added beside. Moderators remove any link (claims.UnlinkStore).
func coOwners(ctx context.Context, q db.Querier, a *Account, storeID int64) ([]CoOwner, error) {
	owners, err := ownership.List(ctx, q, storeID)
	if err != nil {
		return nil, err
	}
	var mine time.Time
	for _, o := range owners {
		if o.BusinessID == a.ID {
			mine = o.Since
		}
	}
	out := make([]CoOwner, 0, len(owners))
	for _, o := range owners {
		you := o.BusinessID == a.ID
		out = append(out, CoOwner{ID: o.BusinessID, Email: o.Email, Since: o.Since, You: you, Removable: !you && o.Since.After(mine)})
	}
	return out, nil
}

// RemoveOwner removes account ownerID from the owners of a store the
// account owns, when it was linked after the account (see coOwners); the
// removal is in the audit log under this account's name.
func (s *Service) RemoveOwner(ctx context.Context, a *Account, storeID, ownerID int64) (StoreView, error) {
	var out StoreView
	err := s.DB.InTx(ctx, func(tx *db.Tx) error {
		if err := owns(ctx, tx, a, storeID); err != nil {
			return err
		}
		list, err := coOwners(ctx, tx, a, storeID)
		if err != nil {
			return err
		}
		found := false
		for _, o := range list {
			if o.ID != ownerID {
				continue
			}
			found = true
			switch {
			case o.You:
				return apperr.Invalidf("You cannot remove yourself: ask a moderator")
			case !o.Removable:
				return apperr.New(apperr.Forbidden, "%s was an owner of this store before you: only a moderator can remove them", o.Email)
			}
		}
		if !found {
			return apperr.New(apperr.NotFound, "That account is not an owner of this store")
		}
		if _, err := ownership.Remove(ctx, tx, s.now(), storeID, ownerID, actor(a)); err != nil {
			return err
		}
		out, err = s.view(ctx, tx, a, storeID)
		return err
	})
	return out, err
}

// DecidePendingOwner accepts or declines claim claimID's claimant as a
// co-owner of store storeID, which the account owns (internal/consent).
// Another account's store, or a claim on another store, is a 404.
func (s *Service) DecidePendingOwner(ctx context.Context, a *Account, storeID, claimID int64, accept bool) (StoreView, error) {
	var out StoreView
	err := s.DB.InTx(ctx, func(tx *db.Tx) error {
		if err := owns(ctx, tx, a, storeID); err != nil {
			return err
		}
		if err := consent.ClaimOfStore(ctx, tx, storeID, claimID); err != nil {
			return err
		}
		if err := consent.Decide(ctx, tx, s.now(), claimID, accept, actor(a), "store dashboard", s.PublicURL); err != nil {
			return err
		}
		var err error
		out, err = s.view(ctx, tx, a, storeID)
		return err
	})
	return out, err
}

// Waiting lists the stores the account has claimed and waits to change
// until their owners consent.
func (s *Service) Waiting(ctx context.Context, a *Account) ([]consent.Waiting, error) {
	if !a.Verified {
		return nil, ErrUnverified
	}
	return consent.WaitingFor(ctx, s.DB, a.Email)
}
