package business

import (
	"context"
	"fmt"
	"html"
	"slices"
	"strings"

	"locator/internal/db"
	mailbox "locator/internal/mail"
	"locator/internal/ownership"
	"locator/internal/stores"
)

// Every owner of a store is told of every published change to it, whoever
// made it (another owner at once, or a moderator approving a change
// request), so that a co-owner added beside them (by a look-alike claim,
// say) cannot change the store unseen. The mail is written in the
// transaction of the change, through the outbox, to each owner but the one
// who made the change. It says fixed text, which details changed and the
// store's new published values of the short ones (name, phone, website,
// address, hours text): nothing else anyone typed.

// changeLabels names the fields of a store.update or a change request in
// the owners' mail, in the order they are listed.
var changeLabels = []struct{ field, label string }{
	{"name", "Name"},
	{"phone_number", "Phone"},
	{"website", "Website"},
	{"address", "Address"},
	{"city", "City"},
	{"state", "State"},
	{"postal_code", "Postal code"},
	{"position", "Position on the map"},
	{"hours", "Hours"},
	{"workingHours", "Weekly hours"},
	{"special_hours", "Special hours"},
	{"temporarily_closed", "Temporary closure"},
	{"is_delivery_available", "Delivery"},
	{"is_order_online_available", "Online ordering"},
	{"is_curbside_pickup_available", "Curbside pickup"},
	{"adult_only", "Adults only"},
	{"photo", "Photo"},
}

// publishedValue is the store's value of field as shoppers now see it, for
// the fields short enough to quote ("" for the others).
func publishedValue(st *stores.Store, field string) string {
	switch field {
	case "name":
		return st.Name
	case "phone_number":
		return st.PhoneNumber
	case "website":
		return st.Website
	case "address":
		return st.Address
	case "city":
		return st.City
	case "state":
		return st.State
	case "postal_code":
		return st.PostalCode
	case "hours":
		return st.Hours
	}
	return ""
}

// changeLines are the lines of the mail for fields, in changeLabels'
// order; a field without a label (a service's hours) is named by its key.
func changeLines(st *stores.Store, fields []string) []string {
	var lines []string
	seen := map[string]bool{}
	for _, l := range changeLabels {
		if !slices.Contains(fields, l.field) {
			continue
		}
		seen[l.field] = true
		if v := publishedValue(st, l.field); v != "" {
			lines = append(lines, l.label+": "+v)
		} else {
			lines = append(lines, l.label)
		}
	}
	for _, f := range fields {
		if !seen[f] {
			lines = append(lines, strings.ReplaceAll(f, "_", " "))
		}
	}
	return lines
}

// mailChange tells every owner of st but the account actorID that fields
// changed, made by that owner or (moderator) by a moderator at its request.
// The owner who acted is named by the day its link was made, as the
// dashboard's list of owners shows it, not by its address: an address is
// text its holder chose.
func (s *Service) mailChange(ctx context.Context, tx *db.Tx, st *stores.Store, actorID int64, moderator bool, fields []string) error {
	if len(fields) == 0 {
		return nil
	}
	owners, err := ownership.List(ctx, tx, st.ID)
	if err != nil {
		return err
	}
	who := "an owner of the store who is no longer linked to it"
	for _, o := range owners {
		if o.BusinessID == actorID {
			who = "the owner of the store linked on " + o.Since.Format("Jan 2, 2006 at 15:04 UTC")
		}
	}
	if moderator {
		who = "a moderator, at the request of " + who
	}
	lines := changeLines(st, fields)
	for _, o := range owners {
		if o.BusinessID == actorID {
			continue
		}
		if err := mailbox.Enqueue(ctx, tx, changeMail(o.Email, st, who, lines, s.PublicURL)); err != nil {
			return fmt.Errorf("mail owner of store %d: %w", st.ID, err)
		}
	}
	return nil
}

func changeMail(to string, st *stores.Store, who string, lines []string, publicURL string) mailbox.Message {
	dashboard := publicURL + "/business"
	intro := fmt.Sprintf("Your store #%d, %s, was changed by %s. Shoppers now see:", st.ID, st.Name, who)
	outro := "If you did not expect this change, sign in to the store dashboard: it shows every account that can change the store, and you can remove an account that was linked after yours."
	text := "Hello,\n\n" + intro + "\n\n- " + strings.Join(lines, "\n- ") + "\n\n" + outro + "\n" + dashboard + "\n"
	h := html.EscapeString
	var b strings.Builder
	b.WriteString("<p>Hello,</p><p>" + h(intro) + "</p><ul>")
	for _, l := range lines {
		b.WriteString("<li>" + h(l) + "</li>")
	}
	link := h(dashboard)
	if publicURL != "" {
		link = `<a href="` + h(dashboard) + `">` + h(dashboard) + `</a>`
	}
	b.WriteString("</ul><p>" + h(outro) + " " + link + "</p>")
	return mailbox.Message{To: to, Subject: "Your store was changed", Text: text, HTML: b.String()}
}

// PhotoChanged tells the other owners of store storeID, inside tx, that
// account a published a new photo of it.
func (s *Service) PhotoChanged(ctx context.Context, tx *db.Tx, a *Account, storeID int64) error {
	st, err := s.Stores.GetTx(ctx, tx, storeID)
	if err != nil {
		return err
	}
	return s.mailChange(ctx, tx, st, a.ID, false, []string{"photo"})
}
