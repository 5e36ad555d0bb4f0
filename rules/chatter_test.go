package rules_test

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"titm/rules"
)

// chatterMail is a valid German mail of the campaign, to which the corpus
// entries are added.
const chatterMail = "GAME bulge-7\nTOKEN k7f3\nIMPULSE 16-1\nMOVE 116/60 50 49\nREPAIR 51-70 BY 600E\n"

// corpus reads the entries of a corpus file: the blocks between lines of
// %%, after the file's description.
func corpus(t *testing.T, name string) []string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	blocks := strings.Split(string(b), "\n%%\n")
	var out []string
	for _, e := range blocks[1:] {
		out = append(out, strings.TrimSuffix(e, "\n"))
	}
	if len(out) < 20 {
		t.Fatalf("%s: %d entries, want at least 20", name, len(out))
	}
	return out
}

// endsTheOrders reports whether a line is one of the separators below
// which nothing is read: a signature's, a reply's or a forward's.
func endsTheOrders(l string) bool {
	l = strings.TrimSpace(l)
	return l == "--" || strings.HasPrefix(l, "Sent from my ") || strings.Trim(l, "_") == "" && len(l) >= 4 ||
		strings.HasPrefix(l, "On ") && strings.HasSuffix(l, "wrote:")
}

func parseGerman(t *testing.T, body string) (*rules.Orders, error) {
	t.Helper()
	return rules.ParseOrders(body, scenario(t, "campaign"), mailOpts(rules.German))
}

// TestSignOffsIgnored: every sign-off of the corpus, below the orders,
// leaves the mail's orders as they are and is named as not read, or ends
// the orders when it is a separator.
func TestSignOffsIgnored(t *testing.T) {
	want, err := parseGerman(t, chatterMail)
	if err != nil {
		t.Fatal(err)
	}
	first := strings.Count(chatterMail, "\n") + 1 // the entry's first line
	for _, e := range corpus(t, "../testdata/orders/signoffs.txt") {
		t.Run(e, func(t *testing.T) {
			o, err := parseGerman(t, chatterMail+e+"\n")
			if err != nil {
				t.Fatalf("refused:\n%v", err)
			}
			if !reflect.DeepEqual(o.List, want.List) {
				t.Errorf("orders\n%s\nwant\n%s", o.Format(), want.Format())
			}
			// The lines of the entry up to a separator are named.
			var named []int
			for i, l := range strings.Split(e, "\n") {
				if endsTheOrders(l) {
					break
				}
				if strings.TrimSpace(l) != "" {
					named = append(named, first+i)
				}
			}
			for _, n := range named {
				if !inSpans(o.Ignored, n) {
					t.Errorf("line %d is not named as not read: %s", n, o.IgnoredText())
				}
			}
			if len(named) == 0 && len(o.Ignored) > 0 {
				t.Errorf("a separator, yet %s", o.IgnoredText())
			}
			for _, sp := range o.Ignored {
				if sp.First < first || sp.Last < sp.First {
					t.Errorf("span %v outside the entry (from line %d)", sp, first)
				}
			}
		})
	}
}

func inSpans(spans []rules.LineSpan, n int) bool {
	for _, sp := range spans {
		if sp.First <= n && n <= sp.Last {
			return true
		}
	}
	return false
}

// TestTyposRefused: every line of the corpus that might be an order written
// wrong is refused on its line, before the orders and after them, and the
// sign-off after it does not hide it.
func TestTyposRefused(t *testing.T) {
	n := strings.Count(chatterMail, "\n")
	for _, e := range corpus(t, "../testdata/orders/typos.txt") {
		t.Run(e, func(t *testing.T) {
			for _, c := range []struct {
				body string
				line int
			}{
				{e + "\n" + chatterMail, 1},
				{chatterMail + e + "\nThanks,\nTony\n", n + 1},
			} {
				_, err := parseGerman(t, c.body)
				var es rules.OrderErrors
				if !errors.As(err, &es) {
					t.Fatalf("%q: error %v, want OrderErrors", c.body, err)
				}
				if len(es) != 1 || es[0].Line != c.line {
					t.Errorf("%q: errors\n%v\nwant one on line %d", c.body, es, c.line)
				}
			}
		})
	}
}

func TestChatter(t *testing.T) {
	errOn := func(body string) rules.OrderErrors {
		t.Helper()
		_, err := parseGerman(t, body)
		var es rules.OrderErrors
		if err != nil && !errors.As(err, &es) {
			t.Fatalf("%q: %v", body, err)
		}
		return es
	}

	// A greeting before the orders, after the heading lines or before
	// them, is set aside as a sign-off is.
	for _, c := range []struct{ body, want string }{
		{"Hi Hans,\n\nhere are my orders for today:\n" + chatterMail, "not read as orders: lines 1-3"},
		{"GAME bulge-7\nTOKEN k7f3\nDear Tony,\nIMPULSE 16-1\nMOVE 116/60 50 49\nThanks!\nEND\n", "not read as orders: line 3, line 6"},
	} {
		o, err := parseGerman(t, c.body)
		if err != nil || o.IgnoredText() != c.want {
			t.Errorf("%q: %q %v, want %q", c.body, o.IgnoredText(), err, c.want)
		}
	}
	o, err := parseGerman(t, "Hi Hans,\n\nhere are my orders:\nMOVE 116/60 50 49\n\nCheers,\n\nTony\n")
	if err != nil || o.IgnoredText() != "not read as orders: lines 1-3, lines 6-8" {
		t.Errorf("spans: %q %v", o.IgnoredText(), err)
	}

	// Between two orders such a line is refused: it may be an order in
	// words, or one broken in two.
	if es := errOn("MOVE 116/60 50 49\nafter that\nthe rest\nREPAIR 51-70 BY 600E\nThanks"); len(es) != 2 || es[0].Line != 2 || es[1].Line != 3 ||
		!strings.Contains(es[0].Msg, "not between two orders") {
		t.Errorf("between orders: %v", es)
	}

	// A mail of chatter alone, or with only its heading lines, has no
	// orders: it is refused, not read as nothing to do.
	for _, body := range []string{"Thanks, Hans\n", "GAME bulge-7\nTOKEN k7f3\n\nSee you next week,\nTony\n", "IMPULSE 16-1\nhold everything\n"} {
		if es := errOn(body); len(es) != 1 || !strings.Contains(es[0].Msg, "no orders found (not read as orders: line") {
			t.Errorf("%q: %v", body, es)
		}
	}
	// Below END nothing is read, chatter or not.
	if o, err := parseGerman(t, "MOVE 116/60 50 49\nEND\nThanks, Hans\nMOEV 1\n"); err != nil || len(o.Ignored) != 0 || len(o.List) != 2 {
		t.Errorf("below END: %v %v", o.Ignored, err)
	}
	// IMPULSE and END alone play the impulse without orders.
	if es := errOn("IMPULSE 16-1\nnothing this time\nEND\n"); es != nil {
		t.Errorf("IMPULSE, chatter and END: %v", es)
	}

	// The keywords are listed once in a mail, not in each error.
	es := errOn("MOEV 116/60 50 49\nATACK 70\nFIER 70 2/304>28/110\n")
	if len(es) != 3 {
		t.Fatalf("errors: %v", es)
	}
	for i, e := range es {
		if listed := strings.Contains(e.Msg, "one of GAME, TOKEN"); listed != (i == 0) {
			t.Errorf("error %d lists the keywords: %v", i, listed)
		}
	}
	if !strings.Contains(es[1].Msg, "did you mean ATTACK? Send HELP") {
		t.Errorf("second error: %s", es[1].Msg)
	}
}

// A Japanese input method types full-width letters, digits and signs, the
// ideographic space and comma, and players quote or end a line the
// Japanese way: each reads as the same orders as plain ASCII.
func TestParse_JapaneseForms(t *testing.T) {
	const rest = "REPAIR 51-70 BY 600E\n"
	want, err := parseGerman(t, "GAME bulge-7\nTOKEN k7f3\nIMPULSE 16-1\nMOVE 116/60 50 49\n"+rest)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, line string }{
		{"all full-width", "ＭＯＶＥ\u3000１１６／６０\u3000５０\u3000４９"},
		{"digits full-width", "MOVE 116/60 ５０ ４９"},
		{"ideographic commas", "MOVE 116/60、50、49"},
		{"in quotation brackets", "「MOVE 116/60 50 49」"},
		{"ended by a full stop", "MOVE 116/60 50 49。"},
		{"half-width brackets and lower case", "｢move 116/60 50 49｣"},
	} {
		t.Run(c.name, func(t *testing.T) {
			o, err := parseGerman(t, "GAME bulge-7\nTOKEN k7f3\nIMPULSE 16-1\n"+c.line+"\n"+rest)
			if err != nil {
				t.Fatalf("%q refused:\n%v", c.line, err)
			}
			if !reflect.DeepEqual(o.List, want.List) {
				t.Errorf("%q reads as\n%s\nwant\n%s", c.line, o.Format(), want.Format())
			}
		})
	}
	// A unit or area that is no such thing is refused on its line, whatever
	// the width it is written in.
	_, err = parseGerman(t, "GAME bulge-7\nTOKEN k7f3\nIMPULSE 16-1\nＭＯＶＥ　１１６／６０　５０　９９９\n"+rest)
	var es rules.OrderErrors
	if !errors.As(err, &es) || len(es) != 1 || es[0].Line != 4 || !strings.Contains(es[0].Msg, "999") {
		t.Errorf("a full-width order with an unknown area: %v", err)
	}
}
