package journal

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"titm/rules"
)

// The content types the journal answers with.
const (
	typeHTML = "text/html; charset=utf-8"
	typeJSON = "application/json"
	typePNG  = "image/png"
)

// A page is an answer made once and served as often as asked: its body,
// gzipped once when the type gains from it, its ETag and the time of the
// change it shows.
type page struct {
	body  []byte
	ctype string
	etag  string // without quotes; made from the log's head and the page's kind
	mod   time.Time

	gzOnce sync.Once
	gz     []byte
}

// newPage makes a page; kind and heads make its ETag.
func newPage(body []byte, ctype string, mod time.Time, kind string, heads ...string) *page {
	return &page{body: body, ctype: ctype, mod: mod, etag: etag(kind, heads...)}
}

// etagVersion changes when the pages change for the same records: a new
// journal, or another setting of what it shows.
const etagVersion = "j2"

// etag makes an ETag from a page's kind and the log heads it shows, with
// the journal's version.
func etag(kind string, heads ...string) string {
	var b strings.Builder
	b.WriteString(etagVersion)
	b.WriteString("-")
	b.WriteString(kind)
	for _, h := range heads {
		b.WriteString("-")
		b.WriteString(h[:min(len(h), 24)])
	}
	return b.String()
}

// compressible reports whether a type gains from gzip: text, not PNG,
// which is compressed already.
func compressible(ctype string) bool { return ctype != typePNG }

// gzipped returns the body gzipped, made at the first call.
func (p *page) gzipped() []byte {
	p.gzOnce.Do(func() {
		var b bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&b, gzip.BestSpeed)
		zw.Write(p.body)
		zw.Close()
		p.gz = b.Bytes()
	})
	return p.gz
}

// send answers with a page, or 304 Not Modified when the client's copy,
// named by If-None-Match or dated by If-Modified-Since, is the page's.
// http.ServeContent does the conditional requests, HEAD and ranges.
func (j *Journal) send(w http.ResponseWriter, r *http.Request, p *page, suffix string) {
	h := w.Header()
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Content-Type-Options", "nosniff")
	body, plain := p.body, p.etag+suffix
	tag, gzipped := plain, false
	if compressible(p.ctype) && len(p.body) > 512 {
		h.Add("Vary", "Accept-Encoding")
		if acceptsGzip(r) {
			body, tag, gzipped = p.gzipped(), plain+"-gz", true
		}
	}
	h.Set("ETag", strconv.Quote(tag))
	if inm := r.Header.Get("If-None-Match"); inm != "" && matchesOther(inm, plain, tag) {
		// The client holds the other encoding of the same page: it is
		// as good, and what changes is only how it travels.
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Type", p.ctype)
	if gzipped {
		h.Set("Content-Encoding", "gzip")
	}
	http.ServeContent(oneWrite{w}, r, "", p.mod, bytes.NewReader(body))
}

// oneWrite is a ResponseWriter to which http.ServeContent writes a whole
// page in one Write, rather than in the 32 KB pieces of io.CopyN: a game's
// page runs to hundreds of kilobytes, which a writer that keeps what it is
// given (a buffer, a test's recorder) would otherwise grow and copy over and
// over.
type oneWrite struct{ http.ResponseWriter }

// ReadFrom writes the body in one Write when it is the whole page, as
// ServeContent copies it for a request without a range; else as io.Copy
// does.
func (w oneWrite) ReadFrom(src io.Reader) (int64, error) {
	if lr, ok := src.(*io.LimitedReader); ok {
		if br, ok := lr.R.(*bytes.Reader); ok && int64(br.Len()) == lr.N {
			n, err := br.WriteTo(w.ResponseWriter)
			lr.N -= n
			return n, err
		}
	}
	return io.Copy(w.ResponseWriter, src)
}

// Unwrap gives http.ResponseController the writer underneath.
func (w oneWrite) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// matchesOther reports whether If-None-Match names the page in the
// encoding not sent (plain for a gzipped answer, or the reverse).
func matchesOther(inm, plain, sent string) bool {
	other := plain + "-gz"
	if sent != plain {
		other = plain
	}
	for _, t := range strings.Split(inm, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == strconv.Quote(other) {
			return true
		}
	}
	return false
}

// acceptsGzip reports whether the request's Accept-Encoding allows gzip:
// named, or as *, with a quality above 0.
func acceptsGzip(r *http.Request) bool {
	for _, v := range r.Header.Values("Accept-Encoding") {
		for _, part := range strings.Split(v, ",") {
			name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
			name = strings.ToLower(strings.TrimSpace(name))
			if name != "gzip" && name != "x-gzip" && name != "*" {
				continue
			}
			q := 1.0
			for _, p := range strings.Split(params, ";") {
				k, val, ok := strings.Cut(strings.TrimSpace(p), "=")
				if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
					if f, err := strconv.ParseFloat(strings.TrimSpace(val), 64); err == nil {
						q = f
					}
				}
			}
			if name != "*" || q > 0 {
				return q > 0
			}
		}
	}
	return false
}

// jsonPage makes a page of v as indented JSON.
func jsonPage(v any, mod time.Time, kind string, heads ...string) (*page, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("journal: writing %s as JSON: %w", kind, err)
	}
	return newPage(b.Bytes(), typeJSON, mod, kind, heads...), nil
}

// fail answers with an error page: HTML for a person, whatever was asked,
// so that a bad link shows something readable, in the reader's language;
// the status says the rest.
func (j *Journal) fail(w http.ResponseWriter, r *http.Request, status int, title, text rules.Message) {
	l := j.locOf(r)
	var b bytes.Buffer
	if err := pageSets[l.key()].ExecuteTemplate(&b, "error.html", struct {
		Title, Text, Feed, Here string
		Status                  int
	}{Title: l.p.Text(title), Text: l.p.Text(text), Status: status, Here: r.URL.Path}); err != nil {
		j.log.Error("journal: writing an error page", "err", err)
	}
	h := w.Header()
	h.Set("Content-Type", typeHTML)
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Length", strconv.Itoa(b.Len()))
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		w.Write(b.Bytes())
	}
}
