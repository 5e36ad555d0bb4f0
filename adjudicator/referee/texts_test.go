package referee

import (
	"strings"
	"testing"

	"titm/adjudicator/lang"
)

// clipEcho cuts what a message echoes of the mail and keeps the referee's
// words whole; a message still too long is cut after a sentence, or else
// after a word, and says so.
func TestClipEcho(t *testing.T) {
	x := strings.Repeat("x", 100)
	many := strings.TrimSpace(strings.Repeat("ab ", 1000))
	for _, c := range []struct{ in, want string }{
		{"unknown unit " + x + ": did you mean 116/60?", "unknown unit " + x[:40] + "...: did you mean 116/60?"},
		{`unknown order "` + x + `": did you mean MOVE?`, `unknown order "` + x[:39] + `...": did you mean MOVE?`},
		{`"` + strings.Repeat("ab ", 30) + `" is more than DRAW takes`, `"` + strings.Repeat("ab ", 19) + `ab..." is more than DRAW takes`},
		{`a quote " left open ` + x, `a quote " left open ` + x[:40] + "..."},
		{"One sentence. " + many, "One sentence. (the rest of this message is left out)"},
		{many, many[:1997] + " (the rest of this message is left out)"},
	} {
		if got := clipEcho(lang.EN(), c.in); got != c.want {
			t.Errorf("clipEcho(%.60q...)\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}
