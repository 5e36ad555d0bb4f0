package journal

import (
	"net/http"
	"strings"

	"golang.org/x/text/language"

	"titm/adjudicator/lang"
)

// A loc is the language a request is answered in: the printer of its
// texts, and whether the reader chose it with ?lang=, which every link of
// the page then keeps (docs/journal.md). Without it the page follows the
// browser's Accept-Language, else the referee's default language.
type loc struct {
	p        *lang.Printer
	explicit bool
}

// matcher matches a browser's languages against the journal's.
var matcher = language.NewMatcher([]language.Tag{language.English, language.Japanese})

// locOf returns the language to answer r in. A ?lang= that names no
// language the journal has is refused by ServeHTTP before.
func (j *Journal) locOf(r *http.Request) loc {
	if q := r.URL.Query().Get("lang"); q != "" {
		if code, err := lang.Parse(q); err == nil {
			return loc{lang.For(code), true}
		}
	}
	if code, ok := accepted(r.Header.Get("Accept-Language")); ok {
		return loc{lang.For(code), false}
	}
	return loc{lang.For(j.opt.Language), false}
}

// accepted returns the journal's language that an Accept-Language header
// prefers, if it names one.
func accepted(h string) (string, bool) {
	if strings.TrimSpace(h) == "" {
		return "", false
	}
	tags, _, err := language.ParseAcceptLanguage(h)
	if err != nil || len(tags) == 0 {
		return "", false
	}
	_, i, conf := matcher.Match(tags...)
	if conf == language.No {
		return "", false
	}
	return []string{lang.English, lang.Japanese}[i], true
}

// code is the language's code: en, ja.
func (l loc) code() string { return l.p.Code() }

// key names the language and how it was chosen, for the pages kept and
// their ETags: a page whose links keep ?lang= is another page.
func (l loc) key() string {
	if l.explicit {
		return l.code() + "-q"
	}
	return l.code()
}

// url returns a journal URL as a page in this language links to it: with
// lang= when the reader chose the language with it.
func (l loc) url(u string) string {
	if !l.explicit || u == "" {
		return u
	}
	frag := ""
	if i := strings.IndexByte(u, '#'); i >= 0 {
		u, frag = u[:i], u[i:]
	}
	sep := "?"
	if strings.Contains(u, "?") {
		sep = "&"
	}
	return u + sep + "lang=" + l.code() + frag
}

// badLang reports a ?lang= that names no language of the journal's.
func badLang(r *http.Request) (string, bool) {
	q := r.URL.Query().Get("lang")
	if q == "" {
		return "", false
	}
	_, err := lang.Parse(q)
	return q, err != nil
}
