package main

import (
	"encoding/xml"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"titm/adjudicator/journal"
	"titm/store"
)

// The elements of an Atom document as RFC 4287 names them, read whatever
// the journal writes: every element and attribute the checks below need,
// each as a list, so that a count can be checked.
const (
	atomNS = "http://www.w3.org/2005/Atom"
	xmlNS  = "http://www.w3.org/XML/1998/namespace"
)

type xText struct {
	Type string `xml:"type,attr"`
	Src  string `xml:"src,attr"`
	Text string `xml:",innerxml"`
}

type xPerson struct {
	Names []string `xml:"http://www.w3.org/2005/Atom name"`
}

type xLink struct {
	Href     *string `xml:"href,attr"`
	Rel      string  `xml:"rel,attr"`
	Type     string  `xml:"type,attr"`
	HrefLang string  `xml:"hreflang,attr"`
}

// xCommon are the elements a feed and an entry share (4.1.1, 4.1.2).
type xCommon struct {
	Lang       string    `xml:"http://www.w3.org/XML/1998/namespace lang,attr"`
	IDs        []string  `xml:"http://www.w3.org/2005/Atom id"`
	Titles     []xText   `xml:"http://www.w3.org/2005/Atom title"`
	Updated    []string  `xml:"http://www.w3.org/2005/Atom updated"`
	Authors    []xPerson `xml:"http://www.w3.org/2005/Atom author"`
	Links      []xLink   `xml:"http://www.w3.org/2005/Atom link"`
	Rights     []xText   `xml:"http://www.w3.org/2005/Atom rights"`
	Contents   []xText   `xml:"http://www.w3.org/2005/Atom content"`
	Summaries  []xText   `xml:"http://www.w3.org/2005/Atom summary"`
	Published  []string  `xml:"http://www.w3.org/2005/Atom published"`
	Subtitles  []xText   `xml:"http://www.w3.org/2005/Atom subtitle"`
	Generators []string  `xml:"http://www.w3.org/2005/Atom generator"`
}

type xFeed struct {
	XMLName xml.Name
	xCommon
	Entries []xEntry `xml:"http://www.w3.org/2005/Atom entry"`
}

type xEntry struct {
	xCommon
	Sources []struct{} `xml:"http://www.w3.org/2005/Atom source"`
}

// rfc3339 is a date-time of RFC 3339 as Atom's Date constructs want it
// (3.3): upper-case T and Z.
var rfc3339 = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$`)

// checkAtom checks a feed against the rules of RFC 4287 a document of
// the journal's can break, and returns the feed read.
func checkAtom(t *testing.T, name, body string) *xFeed {
	t.Helper()
	var f xFeed
	if err := xml.Unmarshal([]byte(body), &f); err != nil {
		t.Fatalf("%s: not XML: %v", name, err)
	}
	errorf := func(format string, args ...any) { t.Helper(); t.Errorf("%s: "+format, append([]any{name}, args...)...) }
	if f.XMLName != (xml.Name{Space: atomNS, Local: "feed"}) {
		errorf("the root is %v, not Atom's feed", f.XMLName)
	}
	if f.Lang == "" {
		errorf("the feed has no xml:lang")
	}
	checkCommon(errorf, "feed", &f.xCommon)
	// 4.1.1: one atom:author at least, unless every entry has one.
	if len(f.Authors) == 0 {
		for i, e := range f.Entries {
			if len(e.Authors) == 0 {
				errorf("neither the feed nor entry %d has an atom:author", i+1)
			}
		}
	}
	for _, a := range f.Authors {
		if len(a.Names) != 1 {
			errorf("an atom:author has %d atom:name, want 1 (3.2.1)", len(a.Names))
		}
	}
	// 4.1.1: should have a link rel="self".
	self := 0
	for _, l := range f.Links {
		if l.Rel == "self" {
			self++
		}
	}
	if self != 1 {
		errorf("%d links rel=self, want 1", self)
	}
	for _, n := range []struct {
		what string
		n    int
	}{{"subtitle", len(f.Subtitles)}, {"generator", len(f.Generators)}, {"rights", len(f.Rights)}} {
		if n.n > 1 {
			errorf("%d atom:%s, at most 1", n.n, n.what)
		}
	}
	ids := map[string]bool{}
	for i, e := range f.Entries {
		where := fmt.Sprintf("entry %d", i+1)
		checkCommon(errorf, where, &e.xCommon)
		if len(e.IDs) == 1 {
			if ids[e.IDs[0]] {
				errorf("%s: the id %s again", where, e.IDs[0])
			}
			ids[e.IDs[0]] = true
		}
		for _, n := range []struct {
			what string
			n    int
		}{{"content", len(e.Contents)}, {"summary", len(e.Summaries)}, {"published", len(e.Published)}, {"source", len(e.Sources)}, {"rights", len(e.Rights)}} {
			if n.n > 1 {
				errorf("%s: %d atom:%s, at most 1 (4.1.2)", where, n.n, n.what)
			}
		}
		alternate := false
		for _, l := range e.Links {
			alternate = alternate || l.Rel == "" || l.Rel == "alternate"
		}
		// 4.1.2: an entry without content has a link rel=alternate; one
		// whose content is elsewhere or not text has a summary.
		if len(e.Contents) == 0 && !alternate {
			errorf("%s: neither atom:content nor a link rel=alternate", where)
		}
		for _, c := range e.Contents {
			if (c.Src != "" || !textType(c.Type)) && len(e.Summaries) == 0 {
				errorf("%s: content of type %q without atom:summary", where, c.Type)
			}
		}
	}
	return &f
}

// textType reports whether a content's type is text, html, xhtml or a
// text or XML media type (4.1.3.3).
func textType(s string) bool {
	switch {
	case s == "" || s == "text" || s == "html" || s == "xhtml", strings.HasPrefix(s, "text/"), strings.HasSuffix(s, "+xml"), strings.HasSuffix(s, "/xml"):
		return true
	}
	return false
}

// checkCommon checks what a feed and an entry share: exactly one id (an
// absolute IRI, 4.2.6), title and updated (an RFC 3339 date, 3.3); text
// constructs of a known type (3.1); links with an href, and not two
// alternates of the same type and language (4.1.1, 4.2.7).
func checkCommon(errorf func(string, ...any), where string, c *xCommon) {
	if len(c.IDs) != 1 {
		errorf("%s: %d atom:id, want 1", where, len(c.IDs))
	}
	for _, id := range c.IDs {
		u, err := url.Parse(strings.TrimSpace(id))
		if err != nil || !u.IsAbs() || (u.Scheme != "tag" && u.Scheme != "urn") {
			errorf("%s: the id %q is not an absolute tag: or urn: IRI", where, id)
		}
		if u != nil && u.Scheme == "tag" && !regexp.MustCompile(`^tag:[a-z0-9.@-]+,\d{4}(-\d\d){0,2}:\S+$`).MatchString(id) {
			errorf("%s: the id %q is no tag URI of RFC 4151", where, id)
		}
	}
	if len(c.Titles) != 1 {
		errorf("%s: %d atom:title, want 1", where, len(c.Titles))
	}
	for _, x := range append(append([]xText{}, c.Titles...), c.Subtitles...) {
		if x.Type != "" && x.Type != "text" && x.Type != "html" && x.Type != "xhtml" {
			errorf("%s: a text construct of type %q", where, x.Type)
		}
		if strings.TrimSpace(x.Text) == "" {
			errorf("%s: an empty title", where)
		}
	}
	if len(c.Updated) != 1 {
		errorf("%s: %d atom:updated, want 1", where, len(c.Updated))
	}
	for _, d := range append(append([]string{}, c.Updated...), c.Published...) {
		if !rfc3339.MatchString(d) {
			errorf("%s: the date %q is not RFC 3339", where, d)
		} else if _, err := time.Parse(time.RFC3339, d); err != nil {
			errorf("%s: the date %q: %v", where, d, err)
		}
	}
	alternates := map[string]bool{}
	for _, l := range c.Links {
		if l.Href == nil || *l.Href == "" {
			errorf("%s: a link without href", where)
			continue
		}
		if l.Rel == "" || l.Rel == "alternate" {
			k := l.Type + "\x00" + l.HrefLang
			if alternates[k] {
				errorf("%s: two links rel=alternate of type %q", where, l.Type)
			}
			alternates[k] = true
		}
	}
}

// The feeds of a game, of a tournament and of the whole journal are Atom
// as RFC 4287 has it, in the reader's language, with the same ids at every
// request and from every journal that reads the same store; the pages
// link them; they tell no secret.
func TestJournalFeeds(t *testing.T) {
	js := journalGames(t)
	h := js.journal(t, nil)
	feeds := map[string]string{}
	for _, page := range []string{"/", "/games/intro-1", "/games/three-days-1", "/games/intro-1/replay"} {
		body := readBody(t, get(h, "GET", page))
		m := regexp.MustCompile(`<link rel="alternate" type="application/atom\+xml" href="([^"]+)"`).FindStringSubmatch(body)
		if m == nil {
			t.Errorf("%s links no Atom feed", page)
			continue
		}
		feeds[m[1]] = ""
	}
	if len(feeds) != 3 {
		t.Fatalf("the pages link the feeds %v, want the journal's and two games'", feeds)
	}
	secrets := js.secretsOf(t)
	for path := range feeds {
		for _, lang := range []string{"en", "ja"} {
			resp := get(h, "GET", path, "Accept-Language", lang)
			body := readBody(t, resp)
			if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/atom+xml; charset=utf-8" {
				t.Fatalf("%s: %d %s", path, resp.StatusCode, resp.Header.Get("Content-Type"))
			}
			f := checkAtom(t, path+" "+lang, body)
			if f.Lang != lang || len(f.Entries) == 0 {
				t.Errorf("%s in %s: xml:lang %q, %d entries", path, lang, f.Lang, len(f.Entries))
			}
			for name, s := range secrets {
				if strings.Contains(body, s) {
					t.Errorf("%s in %s tells %s (%q)", path, lang, name, s)
				}
			}
			if lang == "en" {
				feeds[path] = body
			} else if !strings.Contains(body, "インパルス") {
				t.Errorf("%s in Japanese has no インパルス:\n%s", path, body)
			}
		}
	}
	// The finished game's feed has its result and every impulse; the
	// game in play its impulses that stand, not those rolled back.
	three := checkAtom(t, "three-days-1", feeds["/games/three-days-1/feed.atom"])
	if !strings.Contains(feeds["/games/three-days-1/feed.atom"], "The game is over") {
		t.Error("the finished game's feed has no result")
	}
	if g := js.game(t, "three-days-1"); len(three.Entries) < 2 || !strings.Contains(three.Entries[0].Titles[0].Text, "three-days-1") {
		t.Errorf("three-days-1 (%s): %d entries", g.Status, len(three.Entries))
	}
	// The same ids from another journal on the same store, and again.
	ids := func(h interface {
		ServeHTTP(w http.ResponseWriter, r *http.Request)
	}, path string) []string {
		f := checkAtom(t, path, readBody(t, get(h, "GET", path)))
		out := append([]string{}, f.IDs...)
		for _, e := range f.Entries {
			out = append(out, e.IDs...)
		}
		return out
	}
	other := js.journal(t, nil)
	for path := range feeds {
		a, b := ids(h, path), ids(other, path)
		if strings.Join(a, " ") != strings.Join(b, " ") || len(a) < 2 {
			t.Errorf("%s: the ids differ between two journals:\n%v\n%v", path, a, b)
		}
	}
	// ?lang= chooses the language over Accept-Language, and the feed's
	// links keep it.
	body := readBody(t, get(h, "GET", "/games/intro-1/feed.atom?lang=ja", "Accept-Language", "en"))
	if f := checkAtom(t, "intro-1 ?lang=ja", body); f.Lang != "ja" || !strings.Contains(body, "feed.atom?lang=ja") || !strings.Contains(body, "&amp;lang=ja") {
		t.Errorf("the feed with ?lang=ja: xml:lang %q\n%s", f.Lang, body)
	}
}

// cupJournal makes the tournament of cupFile with titm tournament new, at
// the fixed clock, in a store of its own, and returns its id and the
// journal of that store, read only.
func cupJournal(t *testing.T) (string, http.Handler) {
	t.Helper()
	fixClock(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "titm.db")
	file := filepath.Join(dir, "cup.toml")
	os.WriteFile(file, []byte(cupFile), 0o600)
	m := regexp.MustCompile(`tournament (\S+) made`).FindStringSubmatch(mustRun(t, "tournament", "new", "--db", db, file))
	if m == nil {
		t.Fatal("no tournament made")
	}
	st, err := store.Open(db, &store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return m[1], journal.New(storeJournal{st: st, log: slog.New(slog.DiscardHandler)}, nil)
}

// A tournament's feed: its rounds and results, Atom as RFC 4287 has it;
// a bid in, still sealed, is not in it.
func TestJournalTournamentFeed(t *testing.T) {
	id, h := cupJournal(t)
	page := readBody(t, get(h, "GET", "/tournaments/"+id))
	link := `<link rel="alternate" type="application/atom+xml" href="/tournaments/` + id + `/feed.atom"`
	if !strings.Contains(page, link) {
		t.Fatalf("the tournament's page does not link its feed")
	}
	for _, lang := range []string{"en", "ja"} {
		body := readBody(t, get(h, "GET", "/tournaments/"+id+"/feed.atom", "Accept-Language", lang))
		f := checkAtom(t, "tournament "+lang, body)
		if f.Lang != lang || len(f.Entries) == 0 || !strings.Contains(body, "Anna") {
			t.Errorf("the tournament's feed in %s: %d entries\n%s", lang, len(f.Entries), body)
		}
		if strings.Contains(body, "@example") || strings.Contains(body, "BID") {
			t.Errorf("the tournament's feed tells an address or a bid:\n%s", body)
		}
	}
	j := readBody(t, get(h, "GET", "/feed.atom"))
	if f := checkAtom(t, "journal", j); !strings.Contains(j, "round 1 paired") {
		t.Errorf("the journal's feed lacks the tournament's round: %d entries\n%s", len(f.Entries), j)
	}
}
