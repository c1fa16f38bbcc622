package search

// The compliance rule of the widget's "where to buy" (docs/embed.md, "The
// compliance rule"): a store is listed only when
//
//   - no No-Tobacco-Sale Order is in force against it, and its licence is
//     not expired or revoked (the licence flags of its record);
//   - where a licence registry covers its position, it holds an active
//     licence there;
//   - with a product, the product may be sold where it stands (the
//     verdict of internal/productlaw, product.go).
//
// A store where no registry covers passes on the first two without a
// licence: nothing can be checked there, and listing no store at all
// would only send the shopper elsewhere.

// compliantStore reports whether r passes the rule's store part.
func (q *Query) compliantStore(r *record) bool {
	if r.flags&flagDemoted != 0 {
		return false
	}
	if r.flags&flagLicensed != 0 {
		return true
	}
	return q.Covered == nil || !q.Covered(r.lat, r.lon)
}
