package insights

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"html"
	"slices"
	"strings"
	"time"

	"locator/internal/apperr"
	"locator/internal/db"
	"locator/internal/mail"
	"locator/internal/ownership"
	"locator/internal/stores"
)

// MonthlyMail writes, once for all replicas, the summary of the month
// before now's to every owner with a proven mailbox who has not switched it
// off and whose stores were counted that month. The month's row in
// insight_mail_months, written in the same transaction as the mail, makes
// exactly one replica do it.
func (s *Service) MonthlyMail(ctx context.Context, now time.Time) error {
	now = now.UTC()
	start := time.Date(now.Year(), now.Month()-1, 1, 0, 0, 0, 0, time.UTC)
	end := start.AddDate(0, 1, 0)
	before := start.AddDate(0, -1, 0)
	month := start.Format("2006-01")
	return s.DB.InTx(ctx, func(tx *db.Tx) error {
		res, err := tx.Exec(ctx, `INSERT INTO insight_mail_months (month, written_at) VALUES ($1, $2) ON CONFLICT (month) DO NOTHING`, month, now)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil // another replica wrote it
		}
		type line struct {
			name      string
			cur, prev Counts
		}
		type owner struct {
			email  string
			stores []*line
		}
		owners := map[int64]*owner{}
		var order []int64
		lines := map[[2]int64]*line{}
		// The owners who want the mail, the stores they own
		// (internal/ownership), the stores' counts, and each owner's stores
		// by name (the order stores.Summaries gives), then id.
		rows, err := tx.Query(ctx, `SELECT id, email FROM business_accounts WHERE insights_mail AND email_verified_at IS NOT NULL
			ORDER BY id`)
		type account struct {
			id    int64
			email string
		}
		accounts, err := db.Collect(rows, err, "monthly insights", func(sc db.Scanner) (*account, error) {
			var a account
			return &a, sc.Scan(&a.id, &a.email)
		})
		if err != nil {
			return err
		}
		accIDs := make([]int64, len(accounts))
		emails := make(map[int64]string, len(accounts))
		for i, a := range accounts {
			accIDs[i], emails[a.id] = a.id, a.email
		}
		pairs, err := ownership.Pairs(ctx, tx, accIDs)
		if err != nil {
			return err
		}
		owned := make([]int64, len(pairs))
		for i, p := range pairs {
			owned[i] = p.StoreID
		}
		rows, err = tx.Query(ctx, `SELECT store_id, day, kind, SUM(events) FROM insight_store_days
			WHERE store_id IN (`+db.IDList(tx, 1)+`) AND day >= $2 AND day < $3
			GROUP BY store_id, day, kind`, db.IDs(owned), before.Format(time.DateOnly), end.Format(time.DateOnly))
		type count struct {
			store   int64
			d, kind string
			n       int64
		}
		counts, err := db.Collect(rows, err, "monthly insights", func(sc db.Scanner) (*count, error) {
			var c count
			return &c, sc.Scan(&c.store, &c.d, &c.kind, &c.n)
		})
		if err != nil {
			return err
		}
		byStore := map[int64][]count{}
		for _, c := range counts {
			byStore[c.store] = append(byStore[c.store], c)
		}
		type sum struct {
			acc, store     int64
			email, d, kind string
			n              int64
		}
		var sums []sum
		for _, p := range pairs {
			for _, c := range byStore[p.StoreID] {
				sums = append(sums, sum{acc: p.BusinessID, store: p.StoreID, email: emails[p.BusinessID], d: c.d, kind: c.kind, n: c.n})
			}
		}
		ids := make([]int64, 0, len(sums))
		for _, r := range sums {
			ids = append(ids, r.store)
		}
		named, err := stores.Summaries(ctx, tx, ids)
		if err != nil {
			return err
		}
		rank := make(map[int64]int, len(named))
		names := make(map[int64]string, len(named))
		for i, st := range named {
			rank[st.ID], names[st.ID] = i, st.Name
		}
		slices.SortStableFunc(sums, func(a, b sum) int {
			return cmp.Or(cmp.Compare(a.acc, b.acc), cmp.Compare(rank[a.store], rank[b.store]))
		})
		startDay := start.Format(time.DateOnly)
		for _, r := range sums {
			name, ok := names[r.store]
			if !ok {
				continue // no such store
			}
			k, ok := ParseKind(r.kind)
			if !ok {
				continue
			}
			o := owners[r.acc]
			if o == nil {
				o = &owner{email: r.email}
				owners[r.acc] = o
				order = append(order, r.acc)
			}
			l := lines[[2]int64{r.acc, r.store}]
			if l == nil {
				l = &line{name: name}
				lines[[2]int64{r.acc, r.store}] = l
				o.stores = append(o.stores, l)
			}
			if r.d >= startDay {
				l.cur.add(k, r.n)
			} else {
				l.prev.add(k, r.n)
			}
		}
		label := start.Format("January 2006")
		for _, id := range order {
			o := owners[id]
			var text, htm strings.Builder
			active := false
			fmt.Fprintf(&text, "What your listings got from the locator in %s (the month before in brackets):\n", label)
			fmt.Fprintf(&htm, "<p>What your listings got from the locator in %s (the month before in brackets):</p>", html.EscapeString(label))
			for _, l := range o.stores {
				if l.cur == (Counts{}) {
					continue
				}
				active = true
				items := summaryItems(l.cur, l.prev)
				fmt.Fprintf(&text, "\n%s\n", l.name)
				fmt.Fprintf(&htm, "<h3>%s</h3><ul>", html.EscapeString(l.name))
				for _, it := range items {
					fmt.Fprintf(&text, "  %s\n", it)
					fmt.Fprintf(&htm, "<li>%s</li>", html.EscapeString(it))
				}
				htm.WriteString("</ul>")
			}
			if !active {
				continue
			}
			link := s.PublicURL + "/business"
			fmt.Fprintf(&text, "\nDetails by day: %s\nTo stop these monthly mails, switch them off on that page.\n", link)
			fmt.Fprintf(&htm, `<p>Details by day: <a href="%[1]s">%[1]s</a>. To stop these monthly mails, switch them off on that page.</p>`, html.EscapeString(link))
			if err := mail.Enqueue(ctx, tx, mail.Message{To: o.email, Subject: "Your listings in " + label, Text: text.String(), HTML: htm.String()}); err != nil {
				if apperr.CodeOf(err) == apperr.Invalid {
					continue // an address mail refuses: skip that owner
				}
				return err
			}
		}
		return nil
	})
}

func summaryItems(cur, prev Counts) []string {
	f := func(label string, c, p int64) string { return fmt.Sprintf("%s: %d (%d)", label, c, p) }
	return []string{
		f("Appearances in searches", cur.Impression, prev.Impression),
		f("Views (panel and page)", cur.Panel+cur.Page, prev.Panel+prev.Page),
		f("Calls", cur.Call, prev.Call),
		f("Directions", cur.Directions, prev.Directions),
		f("Website visits", cur.Website, prev.Website),
		f("Online store visits", cur.OnlineStore, prev.OnlineStore),
	}
}

// MailEnabled reads whether a business account gets the monthly summary.
func MailEnabled(ctx context.Context, q db.Querier, account int64) (bool, error) {
	var on bool
	err := q.QueryRow(ctx, `SELECT insights_mail FROM business_accounts WHERE id = $1`, account).Scan(&on)
	if err == sql.ErrNoRows {
		return false, apperr.New(apperr.NotFound, "Account not found")
	}
	return on, err
}

// SetMailEnabled switches the monthly summary on or off for an account.
func SetMailEnabled(ctx context.Context, q db.Querier, account int64, on bool) error {
	_, err := q.Exec(ctx, `UPDATE business_accounts SET insights_mail = $1 WHERE id = $2`, on, account)
	return err
}
