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
	var b strings.Builder
	quote, pre, skip := 0, 0, 0
	atLineStart := true
	newline := func() {
		b.WriteByte('\n')
		atLineStart = true
	}
	write := func(s string) {
		for i, part := range strings.Split(s, "\n") {
			if i > 0 {
				newline()
			}
			if part == "" {
				continue
			}
			if atLineStart {
				b.WriteString(strings.Repeat("> ", quote))
				atLineStart = false
			}
			b.WriteString(part)
		}
	}
	for {
		switch z.Next() {
		case html.ErrorToken:
			return strings.TrimSpace(b.String()) + "\n"
		case html.TextToken:
			if skip > 0 {
				continue
			}
			t := string(z.Text())
			if pre == 0 {
				t = strings.Join(strings.FieldsFunc(t, func(r rune) bool { return r == '\n' || r == '\r' || r == '\t' }), " ")
				if atLineStart {
					t = strings.TrimLeft(t, " ")
				}
			}
			write(t)
		case html.StartTagToken, html.SelfClosingTagToken:
			name, _ := z.TagName()
			switch tag := string(name); tag {
			case "br":
				newline()
			case "script", "style", "head", "title":
				skip++
			case "blockquote":
				if !atLineStart {
					newline()
				}
				quote++
			case "pre":
				pre++
				if !atLineStart {
					newline()
				}
			default:
				if blockTag(tag) && !atLineStart {
					newline()
				}
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			switch tag := string(name); tag {
			case "script", "style", "head", "title":
				if skip > 0 {
					skip--
				}
			case "blockquote":
				if !atLineStart {
					newline()
				}
				if quote > 0 {
					quote--
				}
			case "pre":
				if pre > 0 {
					pre--
				}
				if !atLineStart {
					newline()
				}
			default:
				if blockTag(tag) && !atLineStart {
					newline()
				}
			}
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
