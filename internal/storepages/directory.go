package storepages

import (
	"cmp"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"locator/internal/search"
)

// cityPageSize is how many stores a city page lists. A city with more
// has numbered pages, linked from its state's page too, so every store
// stays within three links of /stores.
const cityPageSize = 100

type dirLink struct {
	Name, Path, Where string
	Count             int
	Pages             []crumb
}

// directory returns the index's directory and when it last changed, for
// Last-Modified: the directory is rebuilt when the index changes, so a
// build time at or after the change is a safe, if early, answer.
func (p *Pages) directory() (*search.Directory, time.Time) {
	d := p.ix.Directory()
	return d, p.builtAt(d)
}

// builtAt is when this process first served directory d: one directory
// lives at a time, so remembering the last one is enough.
func (p *Pages) builtAt(d *search.Directory) time.Time {
	p.dirMu.Lock()
	defer p.dirMu.Unlock()
	if p.dirSeen != d {
		p.dirSeen, p.dirAt = d, time.Now().Truncate(time.Second)
	}
	return p.dirAt
}

func (p *Pages) states(w http.ResponseWriter, r *http.Request) {
	d, modified := p.directory()
	base := p.base(r)
	crumbs := []crumb{home, {Name: "Stores", Path: "/stores"}}
	pg := &page{
		Title:       "All stores by state · Store Locator",
		Description: "Browse all " + strconv.Itoa(d.Total) + " stores by state and city: addresses, phone numbers, opening hours and directions.",
		Canonical:   base + "/stores", OGType: "website", Crumbs: crumbs,
		LD:      []jsonLDBlock{breadcrumbLD(base, crumbs)},
		Heading: "Stores by state", Intro: strconv.Itoa(d.Total) + " stores in " + strconv.Itoa(len(d.States)) + plural(len(d.States), " state", " states") + ".",
	}
	for _, st := range d.States {
		pg.Links = append(pg.Links, dirLink{Name: stateName(st.Name), Path: "/stores/" + st.Slug, Count: st.Count})
	}
	// A reader looks states up by name, not by code: Idaho before Iowa (the
	// directory keeps them by slug, the code, for its lookups).
	slices.SortStableFunc(pg.Links, func(a, b dirLink) int { return cmp.Compare(a.Name, b.Name) })
	pg.preview(base, "/stores", statesCard(d.Total, len(d.States)), "", "")
	p.render(w, r, "states", http.StatusOK, pg, modified)
}

func (p *Pages) state(w http.ResponseWriter, r *http.Request, stateSlug string) {
	d, modified := p.directory()
	st, ok := d.State(stateSlug)
	if !ok {
		p.notFound(w, r)
		return
	}
	base := p.base(r)
	name := stateName(st.Name)
	crumbs := []crumb{home, {Name: "Stores", Path: "/stores"}, {Name: name, Path: "/stores/" + st.Slug}}
	pg := &page{
		Title:       "Stores in " + name + " · Store Locator",
		Description: "Browse " + strconv.Itoa(st.Count) + plural(st.Count, " store", " stores") + " in " + name + " by city: addresses, phone numbers, opening hours and directions.",
		Canonical:   base + "/stores/" + st.Slug, OGType: "website", Crumbs: crumbs,
		LD:      []jsonLDBlock{breadcrumbLD(base, crumbs)},
		Heading: "Stores in " + name, Intro: strconv.Itoa(st.Count) + plural(st.Count, " store", " stores") + " in " + strconv.Itoa(len(st.Cities)) + plural(len(st.Cities), " city", " cities") + ".",
	}
	for _, c := range st.Cities {
		path := "/stores/" + st.Slug + "/" + c.Slug
		l := dirLink{Name: cityName(c.Name), Path: path, Count: len(c.IDs)}
		if n := pageCount(len(c.IDs)); n > 1 {
			for i := 1; i <= n; i++ {
				l.Pages = append(l.Pages, crumb{Name: strconv.Itoa(i), Path: pagePath(path, i)})
			}
		}
		pg.Links = append(pg.Links, l)
	}
	pg.preview(base, "/stores/"+st.Slug, stateCard(name, st.Count, len(st.Cities)), "", "")
	p.render(w, r, "states", http.StatusOK, pg, modified)
}

func pageCount(n int) int { return (n + cityPageSize - 1) / cityPageSize }

func pagePath(path string, n int) string {
	if n == 1 {
		return path
	}
	return path + "?page=" + strconv.Itoa(n)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func (p *Pages) city(w http.ResponseWriter, r *http.Request, stateSlug, citySlug string) {
	d, modified := p.directory()
	st, ok := d.State(stateSlug)
	if !ok {
		p.notFound(w, r)
		return
	}
	c, ok := st.City(citySlug)
	if !ok {
		p.notFound(w, r)
		return
	}
	path := "/stores/" + st.Slug + "/" + c.Slug
	pages := pageCount(len(c.IDs))
	n := 1
	if v, ok := r.URL.Query()["page"]; ok {
		var err error
		n, err = strconv.Atoi(strings.TrimSpace(v[0]))
		if err != nil || n < 1 || n > pages || len(v) > 1 {
			p.notFound(w, r)
			return
		}
		if n == 1 {
			redirect(w, path)
			return
		}
	}
	base := p.base(r)
	sName, cName := stateName(st.Name), cityName(c.Name)
	crumbs := []crumb{home, {Name: "Stores", Path: "/stores"}, {Name: sName, Path: "/stores/" + st.Slug}, {Name: cName, Path: path}}
	title := "Stores in " + cName + ", " + sName
	if n > 1 {
		title += " (page " + strconv.Itoa(n) + ")"
	}
	pg := &page{
		Title:       title + " · Store Locator",
		Description: strconv.Itoa(len(c.IDs)) + plural(len(c.IDs), " store", " stores") + " in " + cName + ", " + sName + ": addresses, phone numbers, opening hours and directions.",
		Canonical:   base + pagePath(path, n), OGType: "website", Crumbs: crumbs,
		LD:      []jsonLDBlock{breadcrumbLD(base, crumbs)},
		Heading: title, Intro: strconv.Itoa(len(c.IDs)) + plural(len(c.IDs), " store", " stores") + ".",
	}
	ids := c.IDs[(n-1)*cityPageSize : min(n*cityPageSize, len(c.IDs))]
	// A store removed since the directory was built is skipped: the next
	// directory drops it.
	p.ix.Docs(ids, func(sd search.StoreDoc) {
		v := liteOf(sd)
		pg.Links = append(pg.Links, dirLink{Name: v.Name, Path: v.path(), Where: v.addressLine()})
	})
	if pages > 1 {
		for i := 1; i <= pages; i++ {
			cr := crumb{Name: strconv.Itoa(i)}
			if i != n {
				cr.Path = pagePath(path, i)
			}
			pg.Pager = append(pg.Pager, cr)
		}
	}
	pg.preview(base, path, cityCard(cName, sName, len(c.IDs)), "", "")
	p.render(w, r, "city", http.StatusOK, pg, modified)
}
