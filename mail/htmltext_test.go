package mail_test

import (
	"testing"

	"titm/mail"
	"titm/rules"
	"titm/rules/scenarios"
)

// TestHTMLToText reduces an HTML-only body, as some clients send, to the text
// the parser reads; the quoted reply is quoted and so ignored.
func TestHTMLToText(t *testing.T) {
	campaign, err := scenarios.Load("campaign")
	if err != nil {
		t.Fatal(err)
	}
	html := `<html><head><style>p{color:red}</style></head><body><div dir="ltr">MOVE&nbsp;116/60 50 49<br>ENTRENCH 116/156<div>BLOW&nbsp;ALL</div></div>` +
		`<div class="quote">On Mon, Dec 18, 1944 Troy wrote:<blockquote>MOVE 28/110 70 71<br>ATTACK 71</blockquote></div></body></html>`
	text := mail.HTMLToText(html)
	want := "MOVE\u00a0116/60 50 49\nENTRENCH 116/156\nBLOW\u00a0ALL\nOn Mon, Dec 18, 1944 Troy wrote:\n> MOVE 28/110 70 71\n> ATTACK 71\n"
	if text != want {
		t.Errorf("text:\n%q\nwant:\n%q", text, want)
	}
	o, err := rules.ParseOrders(text, campaign, nil)
	if err != nil || o.Format() != "MOVE 116/60 50 49\nENTRENCH 116/156\nBLOW ALL\n" {
		t.Errorf("orders %q, %v", o.Format(), err)
	}
}
