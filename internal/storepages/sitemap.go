package storepages

import (
	"bufio"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/klauspost/compress/gzip"

	"locator/internal/search"
)

// Sitemaps (sitemaps.org): /sitemap.xml is an index of child sitemaps of
// at most SitemapSize URLs each: /sitemaps/directory-N.xml (the directory
// pages) and /sitemaps/stores-N.xml (store pages, lastmod = the store's
// last change), both in the directory's order; and /sitemaps/products-N.xml
// (every product page of the catalogue, lastmod = the product's last edit). Children stream from the
// directory alone (search.Directory.Stores: each store's name slug and last
// change kept from its build): a million stores never sit in memory as XML.

// SitemapSize is the most URLs one child sitemap holds (the protocol's limit).
var SitemapSize = 50_000

// Robots answers /robots.txt.
func (p *Pages) Robots(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	_, _ = io.WriteString(w, "User-agent: *\nAllow: /\nDisallow: /api/\nDisallow: /admin\nDisallow: /business\nDisallow: /profile\nDisallow: /reset-password\n\nSitemap: "+
		p.base(r)+"/sitemap.xml\n")
}

// directoryPaths lists the directory pages in order.
func directoryPaths(d *search.Directory) []string {
	out := []string{"/stores"}
	for _, st := range d.States {
		out = append(out, "/stores/"+st.Slug)
		for _, c := range st.Cities {
			path := "/stores/" + st.Slug + "/" + c.Slug
			for i := 1; i <= pageCount(len(c.IDs)); i++ {
				out = append(out, pagePath(path, i))
			}
		}
	}
	return out
}

func chunks(n int) int { return max(1, (n+SitemapSize-1)/SitemapSize) }

// SitemapIndex answers /sitemap.xml.
func (p *Pages) SitemapIndex(w http.ResponseWriter, r *http.Request) {
	d := p.ix.Directory()
	base := p.base(r)
	out, done := xmlWriter(w, r)
	defer done()
	_, _ = io.WriteString(out, `<?xml version="1.0" encoding="UTF-8"?>`+"\n"+`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`+"\n")
	children := func(kind string, n int) {
		for i := range chunks(n) {
			_, _ = io.WriteString(out, "<sitemap><loc>"+base+"/sitemaps/"+kind+"-"+strconv.Itoa(i+1)+".xml</loc></sitemap>\n")
		}
	}
	children("directory", len(directoryPaths(d)))
	if d.Total > 0 {
		children("stores", d.Total)
	}
	if n := p.ix.Products().Catalog().Len(); n > 0 {
		children("products", n)
	}
	_, _ = io.WriteString(out, "</sitemapindex>\n")
}

// Sitemap answers /sitemaps/{name}.xml.
func (p *Pages) Sitemap(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/sitemaps/"), ".xml")
	kind, num, _ := strings.Cut(name, "-")
	n, err := strconv.Atoi(num)
	d := p.ix.Directory()
	if err != nil || n < 1 || strconv.Itoa(n) != num || !strings.HasSuffix(r.URL.Path, ".xml") {
		p.notFound(w, r)
		return
	}
	base := p.base(r)
	from, to := (n-1)*SitemapSize, n*SitemapSize
	switch kind {
	case "directory":
		paths := directoryPaths(d)
		p.urlset(w, r, from, len(paths), func(out io.Writer) error {
			for _, path := range paths[from:min(to, len(paths))] {
				_, _ = io.WriteString(out, "<url><loc>"+xmlEscape(base+path)+"</loc></url>\n")
			}
			return nil
		})
	case "stores":
		p.urlset(w, r, from, d.Total, func(out io.Writer) error {
			var line []byte
			base := xmlEscape(base)
			return d.Stores(from, to, func(state, city string, id int64, name []byte, updated time.Time) error {
				// Path(state, city, name, id), built in place: slugs need no
				// escaping, and a million URLs cost no string each.
				line = append(line[:0], "<url><loc>"...)
				line = append(line, base...)
				line = append(append(append(append(append(line, "/stores/"...), state...), '/'), city...), '/')
				if len(name) == 0 {
					line = append(line, storeSlug...)
				} else {
					line = append(line, name...)
				}
				line = strconv.AppendInt(append(line, '-'), id, 10)
				line = append(line, "</loc>"...)
				if !updated.IsZero() {
					line = append(line, "<lastmod>"...)
					line = updated.UTC().AppendFormat(line, time.RFC3339)
					line = append(line, "</lastmod>"...)
				}
				line = append(line, "</url>\n"...)
				_, err := out.Write(line)
				return err
			})
		})
	case "products":
		all := p.ix.Products().Catalog().All()
		p.urlset(w, r, from, len(all), func(out io.Writer) error {
			for _, prod := range all[from:min(to, len(all))] {
				_, _ = io.WriteString(out, "<url><loc>"+xmlEscape(base+ProductPath(prod))+"</loc>")
				if !prod.UpdatedAt.IsZero() {
					_, _ = io.WriteString(out, "<lastmod>"+prod.UpdatedAt.UTC().Format(time.RFC3339)+"</lastmod>")
				}
				_, _ = io.WriteString(out, "</url>\n")
			}
			return nil
		})
	default:
		p.notFound(w, r)
	}
}

// urlset answers a child sitemap holding entries from `from` on of total
// (404 when from is past them): the urlset around what urls writes, left
// unclosed when urls fails (the client went away).
func (p *Pages) urlset(w http.ResponseWriter, r *http.Request, from, total int, urls func(out io.Writer) error) {
	if from >= total {
		p.notFound(w, r)
		return
	}
	out, done := xmlWriter(w, r)
	defer done()
	_, _ = io.WriteString(out, urlsetOpen)
	if urls(out) != nil {
		return
	}
	_, _ = io.WriteString(out, "</urlset>\n")
}

const urlsetOpen = `<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n"

// xmlWriter starts an XML answer, gzipped when the client takes it
// (a child of 50,000 URLs is ~6 MB plain, ~0.5 MB gzipped).
func xmlWriter(w http.ResponseWriter, r *http.Request) (io.Writer, func()) {
	h := w.Header()
	h.Set("Content-Type", "application/xml; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	h.Set("Vary", "Accept-Encoding")
	if r.Method == http.MethodHead {
		return io.Discard, func() {}
	}
	if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
		h.Set("Content-Encoding", "gzip")
		gz, _ := gzip.NewWriterLevel(w, gzip.BestSpeed)
		bw := bufio.NewWriterSize(gz, 32<<10)
		return bw, func() { _ = bw.Flush(); _ = gz.Close() }
	}
	bw := bufio.NewWriterSize(w, 32<<10)
	return bw, func() { _ = bw.Flush() }
}

var xmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&apos;")

func xmlEscape(s string) string { return xmlEscaper.Replace(s) }
