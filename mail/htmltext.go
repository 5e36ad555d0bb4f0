package mail

import (
	"strings"

	"golang.org/x/net/html"
)

// HTMLToText reduces an HTML mail body to the plain text a reader sees, for a
// mail that arrives with no text part: block elements and <br> end lines,
// <blockquote> becomes lines quoted with "> " (which the order parser
// ignores), scripts and styles are dropped and entities decoded. It is used by
// the mail layer and by titm orders check alike.
func HTMLToText(body string) string {
	z := html.NewTokenizer(strings.NewReader(body))
	w := &htmlText{atLineStart: true}
	for {
		switch z.Next() {
		case html.ErrorToken:
			return strings.TrimSpace(w.b.String()) + "\n"
		case html.TextToken:
			w.text(string(z.Text()))
		case html.StartTagToken, html.SelfClosingTagToken:
			name, _ := z.TagName()
			w.start(string(name))
		case html.EndTagToken:
			name, _ := z.TagName()
			w.end(string(name))
		}
	}
}

// htmlText is the text of an HTML body as it is read, with where the
// reading is: inside how many quotes, preformatted blocks and skipped
// elements.
type htmlText struct {
	b                strings.Builder
	quote, pre, skip int
	atLineStart      bool
}

func (w *htmlText) newline() {
	w.b.WriteByte('\n')
	w.atLineStart = true
}

// endLine ends the line, unless none is begun.
func (w *htmlText) endLine() {
	if !w.atLineStart {
		w.newline()
	}
}

// write writes s, each line quoted as deep as the reading is.
func (w *htmlText) write(s string) {
	for i, part := range strings.Split(s, "\n") {
		if i > 0 {
			w.newline()
		}
		if part == "" {
			continue
		}
		if w.atLineStart {
			w.b.WriteString(strings.Repeat("> ", w.quote))
			w.atLineStart = false
		}
		w.b.WriteString(part)
	}
}

// text writes a text token: outside <pre>, its line ends and tabs are
// spaces, as a browser shows them.
func (w *htmlText) text(t string) {
	if w.skip > 0 {
		return
	}
	if w.pre == 0 {
		t = strings.Join(strings.FieldsFunc(t, func(r rune) bool { return r == '\n' || r == '\r' || r == '\t' }), " ")
		if w.atLineStart {
			t = strings.TrimLeft(t, " ")
		}
	}
	w.write(t)
}

func (w *htmlText) start(tag string) {
	switch tag {
	case "br":
		w.newline()
	case "script", "style", "head", "title":
		w.skip++
	case "blockquote":
		w.endLine()
		w.quote++
	case "pre":
		w.pre++
		w.endLine()
	default:
		if blockTag(tag) {
			w.endLine()
		}
	}
}

func (w *htmlText) end(tag string) {
	switch tag {
	case "script", "style", "head", "title":
		if w.skip > 0 {
			w.skip--
		}
	case "blockquote":
		w.endLine()
		if w.quote > 0 {
			w.quote--
		}
	case "pre":
		if w.pre > 0 {
			w.pre--
		}
		w.endLine()
	default:
		if blockTag(tag) {
			w.endLine()
		}
	}
}

func blockTag(t string) bool {
	switch t {
	case "p", "div", "li", "tr", "table", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "section", "article", "header", "footer":
		return true
	}
	return false
}
