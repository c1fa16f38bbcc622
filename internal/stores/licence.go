package stores

import (
	"context"
	"encoding/json"
	"fmt"
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

// Flags are the record's search flags on date today (YYYY-MM-DD).
func (l LicenceRecord) Flags(today string) uint8 {
	var f uint8
	if l.Licence != nil {
		switch l.Licence.Status {
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
	res, err := w.tx.Exec(ctx, "UPDATE stores SET licence_doc = $1, licence_flags = $2 WHERE id = $3 AND (licence_doc <> $1 OR licence_flags <> $2)",
		doc, flags, id)
	if err != nil {
		return false, fmt.Errorf("set licence of store %d: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return false, nil
	}
	return true, w.Touch(ctx, id)
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
