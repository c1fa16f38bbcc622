package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"

	"locator/internal/audit"
	"locator/internal/business"
	"locator/internal/claims"
	"locator/internal/config"
	"locator/internal/identity"
	"locator/internal/licences"
	"locator/internal/places"
	"locator/internal/stores"
)

// lazyZones builds the time-zone finder on first use: it costs ~2 s and a
// few hundred MB while loading, and a server may never approve a claim.
type lazyZones struct {
	once sync.Once
	tz   *places.TimeZones
	log  *slog.Logger
}

func (z *lazyZones) ZoneAt(lat, lon float64) string {
	z.once.Do(func() {
		var err error
		if z.tz, err = places.NewTimeZones(); err != nil {
			z.log.Error("time zones unavailable", "err", err)
		}
	})
	if z.tz == nil {
		return "UTC"
	}
	return z.tz.ZoneAt(lat, lon)
}

const claimsUsage = `claims list [--status pending|approved|rejected|all] [--json]
       locator claims show ID [--json]
       locator claims approve ID [--lat LAT --lon LON] [--fields name,phone_number,...] [--json]
       locator claims reject ID --reason TEXT [--json]
       locator claims link STORE_ID EMAIL
       locator claims unlink STORE_ID EMAIL
       locator claims history STORE_ID [--json]
       locator claims changes list [--status pending|approved|rejected|all] [--json]
       locator claims changes approve ID [--json]
       locator claims changes reject ID --reason TEXT [--json]

Moderates store claims. Approval publishes the store at the given
coordinates or at its geocoded address (running servers show it within a
second); both decisions email the claimant and the owners of a store the
claim matches, and are written to the audit log with the operator's name
($USER) as the actor. A claim that matches a store already listed changes
only the fields named by --fields ("show" compares them; none: nothing
public changes) and keeps the store's position unless --lat and --lon are
given. "link" lets the business account with EMAIL change store STORE_ID
in the store dashboard, "unlink" takes that away; "changes"
moderates the name, address and position changes owners ask for there;
"history" prints a store's audit log, newest first.`

func cmdClaims(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	fs := newFlags("claims", claimsUsage, stderr)
	// public-url: the store dashboard's link in the approval mail.
	s := config.Register(fs, getenv, "database-url", "log-format", "log-level", "geocoder-url", "geocoder-kind", "public-url")
	asJSON := fs.Bool("json", false, "print JSON (for scripts)")
	status := fs.String("status", "pending", "list: pending, approved, rejected or all")
	reason := fs.String("reason", "", "reject: the reason, sent to the owner")
	lat := fs.String("lat", "", "approve: latitude (with --lon) instead of the geocoded one")
	lon := fs.String("lon", "", "approve: longitude")
	fields := fs.String("fields", "", "approve: comma-separated fields of the claim to apply to the store it matches ("+strings.Join(claims.CompareFields, ",")+")")
	if len(args) == 0 {
		fs.Usage()
		return &exitError{code: 2, msg: "claims needs list, show, approve or reject"}
	}
	action, rest := args[0], args[1:]
	// Flags may come before or after the id.
	ids, err := parseAmong(fs, rest)
	if err != nil {
		return err
	}
	cfg, err := s.Config()
	if err != nil {
		return &exitError{code: 2, msg: err.Error()}
	}
	if action == "link" || action == "unlink" || action == "changes" || action == "history" {
		return claimsBusiness(ctx, cfg, action, ids, *status, *reason, *asJSON, stdout, stderr, getenv)
	}
	var id int64
	if action != "list" {
		if id, err = onlyID(ids, "claims "+action+" needs one claim ID", "claim ID"); err != nil {
			return err
		}
	}
	d, log, err := openLogged(ctx, cfg, stderr)
	if err != nil {
		return err
	}
	defer d.Close()
	var geo claims.Geocoder
	if action == "approve" || action == "show" {
		svc, err := newPlaces(cfg, log)
		if err != nil {
			return err
		}
		geo = svc
	}
	sr := stores.NewRepo(d)
	lic, err := licences.New(sr, nil, nil)
	if err != nil {
		return err
	}
	// The dashboard link in the approval mail; a licence number checked on approval.
	svc := claims.New(d, sr, claims.Options{Geocoder: geo, ZoneAt: (&lazyZones{log: log}).ZoneAt, PublicURL: cfg.PublicURL, Licences: lic}, log)
	actor := "cli:" + firstNonEmpty(getenv("USER"), "operator")
	show := func(c *claims.Claim) error {
		v, err := svc.View(ctx, c, geo != nil && c.Status == claims.Pending)
		if err != nil {
			return err
		}
		if *asJSON {
			return json.NewEncoder(stdout).Encode(v)
		}
		fmt.Fprintf(stdout, "claim %d: %s\n", c.ID, c.Status)
		w := tabwriter.NewWriter(stdout, 0, 2, 2, ' ', 0)
		for _, kv := range [][2]string{{"business", c.BusinessName}, {"email", c.Email}, {"phone", c.Phone},
			{"address", strings.Join(nonEmpty(c.Address1, c.City, c.State, c.PostalCode, c.Country), ", ")},
			{"website", c.Website}, {"hours", c.WorkingHours}, {"category", c.Category},
			{"licence", strings.TrimSpace(c.LicenceNumber + " " + string(c.LicenceCheck))}, {"delivery hours", c.DeliveryHours},
			{"curbside pickup hours", c.CurbsidePickupHours}, {"online ordering hours", c.OnlineOrderHours}, {"submitted", c.CreatedAt.Format("2006-01-02 15:04 MST")}} {
			if kv[1] != "" {
				fmt.Fprintf(w, "  %s\t%s\n", kv[0], kv[1])
			}
		}
		if c.DuplicateOfStoreID != 0 {
			fmt.Fprintf(w, "  look-alike\tpublished store %d has the same name and postal code\n", c.DuplicateOfStoreID)
		}
		if e := v.ExistingStore; e != nil {
			if e.OwnersSummary != "" {
				fmt.Fprintf(w, "  owners\t%s\n", e.OwnersSummary)
			} else {
				fmt.Fprintf(w, "  owners\tnone\n")
			}
			fmt.Fprintf(w, "  position\t%.5f, %.5f (%s), kept unless --lat and --lon are given\n", e.Latitude, e.Longitude, e.GeoPrecision)
			for _, f := range e.Fields {
				mark := "differs"
				if f.Same {
					mark = "same"
				}
				fmt.Fprintf(w, "  %s\t%s: now %q, claimed %q\n", f.Field, mark, f.Current, f.Claimed)
			}
		}
		if c.StoreID != 0 {
			fmt.Fprintf(w, "  store\t%d\n", c.StoreID)
		}
		if c.WaitingForEmail {
			fmt.Fprintf(w, "  owner\twaiting for the owner to confirm their email\n")
		}
		if words, ok := consentWords[c.Consent]; ok {
			fmt.Fprintf(w, "  consent\t%s\n", words)
		}
		if c.RejectReason != "" {
			fmt.Fprintf(w, "  reason\t%s\n", c.RejectReason)
		}
		if geo != nil && c.Status == claims.Pending {
			if c.PinLatitude != nil {
				fmt.Fprintf(w, "  owner's pin\t%.5f, %.5f (%s): an approval without --lat/--lon publishes the store there\n",
					*c.PinLatitude, *c.PinLongitude, c.PinSource)
			}
			if sg := svc.Suggest(c); sg.Found {
				fmt.Fprintf(w, "  geocoded\t%.5f, %.5f (%s: %s)\n", sg.Latitude, sg.Longitude, sg.Precision, stores.PrecisionWords(sg.Precision, ""))
				if stores.Approximate(sg.Precision) && c.PinLatitude == nil {
					fmt.Fprintf(w, "  \tonly a centre, not the store: approve with --lat and --lon\n")
				}
			} else {
				fmt.Fprintf(w, "  geocoded\tnot found: approve with --lat and --lon\n")
			}
		}
		return w.Flush()
	}
	switch action {
	case "list":
		st := claims.Status(*status)
		if *status == "all" {
			st = ""
		}
		list, err := svc.List(ctx, st, 1000)
		if err != nil {
			return err
		}
		if *asJSON {
			out := make([]claims.View, 0, len(list))
			for i := range list {
				v, err := svc.View(ctx, &list[i], false)
				if err != nil {
					return err
				}
				out = append(out, v)
			}
			return json.NewEncoder(stdout).Encode(out)
		}
		w := tabwriter.NewWriter(stdout, 0, 2, 2, ' ', 0)
		fmt.Fprintln(w, "ID\tSTATUS\tBUSINESS\tEMAIL\tCITY\tSUBMITTED")
		for _, c := range list {
			fmt.Fprintf(w, "%d\t%s\t%s\t%s\t%s\t%s\n", c.ID, c.Status, c.BusinessName, c.Email, c.City, c.CreatedAt.Format("2006-01-02 15:04"))
		}
		return w.Flush()
	case "show":
		c, err := svc.Get(ctx, id)
		if err != nil {
			return err
		}
		return show(c)
	case "approve":
		var p claims.Approval
		if *fields != "" {
			p.Fields = strings.Split(*fields, ",")
		}
		if *lat != "" || *lon != "" {
			la, err1 := strconv.ParseFloat(*lat, 64)
			lo, err2 := strconv.ParseFloat(*lon, 64)
			if err1 != nil || err2 != nil {
				return &exitError{code: 2, msg: "--lat and --lon must both be numbers"}
			}
			p.Latitude, p.Longitude = &la, &lo
		}
		c, err := svc.Approve(ctx, id, actor, p)
		if err != nil {
			return err
		}
		return show(c)
	case "reject":
		c, err := svc.Reject(ctx, id, actor, *reason)
		if err != nil {
			return err
		}
		return show(c)
	default:
		fs.Usage()
		return &exitError{code: 2, msg: fmt.Sprintf("unknown claims action %q", action)}
	}
}

func nonEmpty(vs ...string) []string {
	var out []string
	for _, v := range vs {
		if strings.TrimSpace(v) != "" {
			out = append(out, v)
		}
	}
	return out
}

func firstNonEmpty(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}

const moderatorsUsage = `moderators add EMAIL [--password-file FILE]

Creates a moderator, or sets the password of an existing one and signs out
all of their sessions. The password is read from --password-file, else from
LOCATOR_MODERATOR_PASSWORD, else from the first line of standard input:
8 to 255 characters, not one of the most common passwords.`

func cmdModerators(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) error {
	fs := newFlags("moderators", moderatorsUsage, stderr)
	s := config.Register(fs, getenv, "database-url", "log-format", "log-level")
	pwFile := fs.String("password-file", "", "file whose first line is the password")
	if len(args) == 0 || args[0] != "add" {
		fs.Usage()
		return &exitError{code: 2, msg: "moderators needs: add EMAIL"}
	}
	emails, err := parseAmong(fs, args[1:])
	if err != nil {
		return err
	}
	if len(emails) != 1 {
		return &exitError{code: 2, msg: "moderators add needs one EMAIL"}
	}
	cfg, err := s.Config()
	if err != nil {
		return &exitError{code: 2, msg: err.Error()}
	}
	var password string
	switch {
	case *pwFile != "":
		b, err := os.ReadFile(*pwFile)
		if err != nil {
			return err
		}
		password, _, _ = strings.Cut(string(b), "\n")
	case getenv("LOCATOR_MODERATOR_PASSWORD") != "":
		password = getenv("LOCATOR_MODERATOR_PASSWORD")
	default:
		fmt.Fprint(stderr, "password: ")
		line, err := bufio.NewReader(stdin).ReadString('\n')
		if err != nil && line == "" {
			return &exitError{code: 2, msg: "no password given (stdin, --password-file or LOCATOR_MODERATOR_PASSWORD)"}
		}
		password = strings.TrimRight(line, "\r\n")
	}
	d, log, err := openLogged(ctx, cfg, stderr)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := claims.New(d, stores.NewRepo(d), claims.Options{}, log).Moderators.Add(ctx, emails[0], strings.TrimRight(password, "\r")); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "moderator %s can sign in at /admin\n", identity.NormalizeEmail(emails[0]))
	return nil
}

// claimsBusiness runs "claims link", "claims unlink", "claims history" and "claims changes".
func claimsBusiness(ctx context.Context, cfg config.Config, action string, args []string, status, reason string, asJSON bool,
	stdout, stderr io.Writer, getenv func(string) string) error {
	var id int64
	sub := ""
	switch {
	case action == "link" || action == "unlink":
		if len(args) != 2 {
			return &exitError{code: 2, msg: "claims " + action + " needs a store ID and an email"}
		}
	case action == "history":
		var err error
		if id, err = onlyID(args, "claims history needs one store ID", "store ID"); err != nil {
			return err
		}
	case len(args) == 0:
		return &exitError{code: 2, msg: "claims changes needs list, approve or reject"}
	default:
		sub = args[0]
		if sub != "list" {
			var err error
			if id, err = onlyID(args[1:], "claims changes "+sub+" needs one change request ID", "change request ID"); err != nil {
				return err
			}
		}
	}
	d, log, err := openLogged(ctx, cfg, stderr)
	if err != nil {
		return err
	}
	defer d.Close()
	sr := stores.NewRepo(d)
	actor := "cli:" + firstNonEmpty(getenv("USER"), "operator")
	if action == "link" || action == "unlink" {
		storeID, err := idArg(args[0], "store ID")
		if err != nil {
			return err
		}
		email := identity.NormalizeEmail(args[1])
		svc := claims.New(d, sr, claims.Options{}, log)
		if action == "unlink" {
			if err := svc.UnlinkStore(ctx, storeID, email, actor); err != nil {
				return err
			}
			fmt.Fprintf(stdout, "store %d unlinked from the business account %s\n", storeID, email)
			return nil
		}
		if err := svc.LinkStore(ctx, storeID, email, actor); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "store %d linked to the business account %s\n", storeID, email)
		return nil
	}
	if action == "history" {
		entries, err := audit.ForStore(ctx, d, id, 500)
		if err != nil {
			return err
		}
		if asJSON {
			return json.NewEncoder(stdout).Encode(entries) // none is [] (db.Collect), not null
		}
		w := tabwriter.NewWriter(stdout, 0, 2, 2, ' ', 0)
		fmt.Fprintln(w, "AT\tACTOR\tACTION\tDETAILS")
		for _, e := range entries {
			fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", e.At.UTC().Format("2006-01-02 15:04:05"), e.Actor, e.Action, e.Details)
		}
		return w.Flush()
	}
	svc := business.New(d, sr, "", (&lazyZones{log: log}).ZoneAt, log, identity.Options{})
	show := func(list ...business.ChangeRequestView) error {
		if asJSON {
			if sub == "list" {
				return json.NewEncoder(stdout).Encode(list)
			}
			return json.NewEncoder(stdout).Encode(list[0])
		}
		w := tabwriter.NewWriter(stdout, 0, 2, 2, ' ', 0)
		fmt.Fprintln(w, "ID\tSTATUS\tSTORE\tOWNER\tCHANGE")
		for _, c := range list {
			fmt.Fprintf(w, "%d\t%s\t%d %s\t%s\t%s\n", c.ID, c.Status, c.StoreID, c.StoreName, c.BusinessEmail, describeChange(c))
		}
		return w.Flush()
	}
	var c *business.ChangeRequestView
	switch sub {
	case "list":
		st := status
		if st == "all" {
			st = ""
		}
		list, err := svc.ChangeRequests(ctx, st, 1000)
		if err != nil {
			return err
		}
		return show(list...)
	case "approve":
		c, err = svc.ApproveChange(ctx, id, actor)
	case "reject":
		c, err = svc.RejectChange(ctx, id, actor, reason)
	default:
		return &exitError{code: 2, msg: fmt.Sprintf("unknown claims changes action %q", sub)}
	}
	if err != nil {
		return err
	}
	return show(*c)
}

// describeChange is one line saying what a change request changes.
func describeChange(c business.ChangeRequestView) string {
	var parts []string
	p, o := c.Proposed, c.Previous
	str := func(name string, nv, ov *string) {
		if nv != nil {
			old := ""
			if ov != nil {
				old = *ov
			}
			parts = append(parts, fmt.Sprintf("%s %q -> %q", name, old, *nv))
		}
	}
	str("name", p.Name, o.Name)
	str("address", p.Address, o.Address)
	str("city", p.City, o.City)
	str("state", p.State, o.State)
	str("postal code", p.PostalCode, o.PostalCode)
	if p.Latitude != nil && p.Longitude != nil {
		parts = append(parts, fmt.Sprintf("position %.5f, %.5f", *p.Latitude, *p.Longitude))
	}
	return strings.Join(parts, "; ")
}

// parseAmong parses flags that may stand before, between or after the
// arguments, and returns the arguments.
func parseAmong(fs *flag.FlagSet, rest []string) ([]string, error) {
	var args []string
	for len(rest) > 0 {
		if err := fs.Parse(rest); err != nil {
			return nil, err
		}
		rest = fs.Args()
		if len(rest) > 0 {
			args, rest = append(args, rest[0]), rest[1:]
		}
	}
	return args, nil
}

// onlyID reads the one id argument of args, named what; need is the usage
// error when there is not exactly one.
func onlyID(args []string, need, what string) (int64, error) {
	if len(args) != 1 {
		return 0, &exitError{code: 2, msg: need}
	}
	return idArg(args[0], what)
}

// idArg reads the id argument named what: a usage error (exit 2) unless
// it is a positive whole number.
func idArg(arg, what string) (int64, error) {
	id, err := strconv.ParseInt(arg, 10, 64)
	if err != nil || id < 1 {
		return 0, &exitError{code: 2, msg: what + " must be a positive whole number"}
	}
	return id, nil
}

// consentWords say where a pending co-owner stands (docs/claims.md,
// "Consent of the owners"); a claim that needed no consent prints nothing.
var consentWords = map[string]string{
	"pending":  "waiting for an owner (or a moderator) to accept the claimant as a co-owner",
	"accepted": "accepted: the claimant is a co-owner",
	"declined": "declined: the claimant cannot change the store",
}
