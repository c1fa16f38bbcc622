package stores

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"locator/internal/db"
	"locator/internal/stores/events"
)

// A store's licence and enforcement records as public registries hold them
// (matched by internal/licences, docs/licences.md). The store's row keeps
// them rendered (licence_doc) with their flags for the search index
// (licence_flags), so neither a search nor a page reads the registries.

// Licence is the licence a store's document shows ("licence", null: no
// registry covers the store).
type Licence struct {
	Status       string  `json:"status"` // active, expired, revoked or inactive
	Jurisdiction string  `json:"jurisdiction"`
	Kind         string  `json:"kind"`
	Number       string  `json:"number"`
	ExpiresOn    *string `json:"expires_on"` // YYYY-MM-DD
	CheckedAt    string  `json:"checked_at"` // YYYY-MM-DD: the date of the registry file
	RecordURL    *string `json:"record_url"`
}

// Enforcement is one enforcement action against the store.
type Enforcement struct {
	Kind      string  `json:"kind"`       // warning_letter, civil_money_penalty, no_tobacco_sale_order
	DecidedOn string  `json:"decided_on"` // YYYY-MM-DD
	Until     *string `json:"until"`      // YYYY-MM-DD, null: open-ended or not applicable
}

// Licence flags travel in the search index (search.Index): a filter and a
// ranking rule cost a bit test.
const (
	LicenceVerified uint8 = 1 << iota // an active licence
	LicenceDemoted                    // expired or revoked, or under a No-Tobacco-Sale Order: ranked after the others
)

// LicenceRecord is what licence_doc holds.
type LicenceRecord struct {
	Licence     *Licence      `json:"licence"`
	Enforcement []Enforcement `json:"enforcement"`
}

// StatusOn is the licence's status on date today (YYYY-MM-DD): the
// registry's, except that an active licence past its expiry date is
// expired (the registry's file may be older than the expiry).
func (l *Licence) StatusOn(today string) string {
	if l.Status == "active" && l.ExpiresOn != nil && *l.ExpiresOn < today {
		return "expired"
	}
	return l.Status
}

// Flags are the record's search flags on date today (YYYY-MM-DD).
func (l LicenceRecord) Flags(today string) uint8 {
	var f uint8
	if l.Licence != nil {
		switch l.Licence.StatusOn(today) {
		case "active":
			f |= LicenceVerified
		case "expired", "revoked":
			f |= LicenceDemoted
		}
	}
	for _, e := range l.Enforcement {
		if e.ActiveOn(today) && e.Kind == "no_tobacco_sale_order" {
			f |= LicenceDemoted
		}
	}
	return f
}

// RecheckOn is the first date after today (YYYY-MM-DD) on which the
// record's flags may change by the calendar alone (an active licence's
// expiry passes, a No-Tobacco-Sale Order starts or ends), "" for none.
func (l LicenceRecord) RecheckOn(today string) string {
	next := ""
	consider := func(date string) {
		if date > today && (next == "" || date < next) {
			next = date
		}
	}
	if l.Licence != nil && l.Licence.Status == "active" && l.Licence.ExpiresOn != nil {
		consider(dayAfter(*l.Licence.ExpiresOn))
	}
	for _, e := range l.Enforcement {
		if e.Kind != "no_tobacco_sale_order" {
			continue
		}
		consider(e.DecidedOn)
		if e.Until != nil {
			consider(dayAfter(*e.Until))
		}
	}
	return next
}

// dayAfter is the date after date (YYYY-MM-DD); a date that does not parse
// stays as it is (it is then never after today, so never rechecked).
func dayAfter(date string) string {
	t, err := time.Parse(time.DateOnly, date)
	if err != nil {
		return date
	}
	return t.AddDate(0, 0, 1).Format(time.DateOnly)
}

// ActiveOn reports whether the action runs on date today (YYYY-MM-DD).
func (e Enforcement) ActiveOn(today string) bool {
	return e.DecidedOn <= today && (e.Until == nil || *e.Until >= today)
}

// SetLicence writes store id's licence record, with its flags on date
// today, and re-renders its document; it reports false, writing nothing,
// when the store already shows that record.
func (w *Writer) SetLicence(ctx context.Context, id int64, rec LicenceRecord, today string) (bool, error) {
	doc := ""
	if rec.Licence != nil || len(rec.Enforcement) > 0 {
		b, err := json.Marshal(rec)
		if err != nil {
			return false, fmt.Errorf("licence of store %d: %w", id, err)
		}
		doc = string(b)
	}
	flags := int(rec.Flags(today))
	// The date the flags are next judged again (Repo.RecheckLicences).
	if _, err := w.tx.Exec(ctx, "UPDATE stores SET licence_recheck_on = $1 WHERE id = $2 AND licence_recheck_on <> $1",
		rec.RecheckOn(today), id); err != nil {
		return false, fmt.Errorf("set licence recheck of store %d: %w", id, err)
	}
	res, err := w.tx.Exec(ctx, "UPDATE stores SET licence_doc = $1, licence_flags = $2 WHERE id = $3 AND (licence_doc <> $1 OR licence_flags <> $2)",
		doc, flags, id)
	if err != nil {
		return false, fmt.Errorf("set licence of store %d: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return false, nil
	}
	// The partners' webhook event, in the change's transaction
	// (docs/webhooks.md): the record as the store's API shows it.
	if err := events.Write(ctx, w.tx, events.LicenceChanged, id, map[string]any{"store_id": id, "licence": rec.Licence, "enforcement": rec.Enforcement, "flags": flags}); err != nil {
		return false, err
	}
	return true, w.touch(ctx, id)
}

// recheckBatch is how many stores one transaction of RecheckLicences judges again.
const recheckBatch = 500

// RecheckLicences judges again, on date today (YYYY-MM-DD, UTC), the
// licence flags of the stores whose recheck date has come (an expiry or a
// No-Tobacco-Sale Order's start or end passed), and writes the ones that
// changed through the change feed, so every replica's index follows. Any
// replica may run it at any time: the batch is read after the search
// version's lock, so a second replica running at once finds the first's
// work done. It returns how many stores changed.
func (r *Repo) RecheckLicences(ctx context.Context, today string) (int, error) {
	const due = "licence_recheck_on <> '' AND licence_recheck_on <= $1"
	n := 0
	for {
		var one int
		err := r.db.QueryRow(ctx, "SELECT 1 FROM stores WHERE "+due+" LIMIT 1", today).Scan(&one)
		if errors.Is(err, sql.ErrNoRows) {
			return n, nil // nothing due: no version bump
		}
		if err != nil {
			return n, fmt.Errorf("find licences to recheck: %w", err)
		}
		err = r.db.InTx(ctx, func(tx *db.Tx) error {
			return r.Write(ctx, tx, func(w *Writer) error {
				type item struct {
					id  int64
					doc string
				}
				rows, err := tx.Query(ctx, "SELECT id, licence_doc FROM stores WHERE "+due+" ORDER BY id LIMIT $2", today, recheckBatch)
				list, err := db.Collect(rows, err, "licences to recheck", func(sc db.Scanner) (*item, error) {
					var it item
					return &it, sc.Scan(&it.id, &it.doc)
				})
				if err != nil {
					return err
				}
				for _, d := range list {
					rec, err := licenceRecord(d.doc)
					if err != nil {
						return err
					}
					ok, err := w.SetLicence(ctx, d.id, rec, today)
					if err != nil {
						return err
					}
					if ok {
						n++
					}
				}
				return nil
			})
		})
		if err != nil {
			return n, err
		}
	}
}

// licenceRecord decodes a licence_doc column ("" is no record).
func licenceRecord(doc string) (LicenceRecord, error) {
	var rec LicenceRecord
	if doc == "" {
		return rec, nil
	}
	if err := json.Unmarshal([]byte(doc), &rec); err != nil {
		return rec, fmt.Errorf("decode licence record: %w", err)
	}
	return rec, nil
}
