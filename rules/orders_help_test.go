package rules_test

import (
	"errors"
	"strings"
	"testing"

	"titm/adjudicator"
	"titm/adjudicator/lang"
	"titm/adjudicator/referee"
	"titm/internal/golden"
	"titm/internal/playtest"
	"titm/rules"
	"titm/rules/scenarios"
)

// helpExamples returns HELP's examples, each a group of lines to be read as
// one mail ("e.g." and the lines below it at its indent), and the example
// mail at its end without its placeholder heading.
func helpExamples(text string) (groups [][]string, mail []string) {
	const first, more = "      e.g. ", "           "
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		switch {
		case strings.HasPrefix(l, first):
			groups = append(groups, []string{strings.TrimPrefix(l, first)})
		case strings.HasPrefix(l, more) && len(groups) > 0 && l[len(more)] != ' ':
			g := &groups[len(groups)-1]
			*g = append(*g, strings.TrimPrefix(l, more))
		case strings.HasPrefix(l, "A mail for your impulse looks like:"):
			for _, m := range lines[i+1:] {
				if m = strings.TrimSpace(m); m != "" && !strings.Contains(m, "<") {
					mail = append(mail, m)
				}
			}
			return groups, mail
		}
	}
	return groups, mail
}

// checkAt checks orders for the side at the position as the side will play
// them: in the impulse in play if it is the side's, else in its next, the
// enemy having passed the one in play.
func checkAt(t *testing.T, s *rules.Scenario, st *rules.State, side rules.Side, lines []string) error {
	t.Helper()
	o, err := rules.ParseOrders(strings.Join(lines, "\n"), s, mailOpts(side))
	if err != nil {
		return err
	}
	if st.Next.Side != side {
		if st, _, err = rules.Play(s, st, nil, sixes{}); err != nil {
			t.Fatal(err)
		}
	}
	return rules.CheckOrders(s, st, o)
}

// sixes is a Dice that always rolls 6.
type sixes struct{}

func (sixes) Roll(string) (int, error) { return 6, nil }

// TestHelpExamplesLegal: for every scenario and side, at the start and
// after some impulses of play, every example HELP gives passes the rules'
// order check at the position, and the example mail too; an order with no
// example says why.
func TestHelpExamplesLegal(t *testing.T) {
	for _, name := range scenarios.Names {
		s := scenario(t, name)
		st := rules.NewState(s)
		for n := 0; n <= 6 && !st.Over; n++ {
			if n%3 == 0 {
				for _, side := range []rules.Side{rules.German, rules.Allied} {
					text := referee.HelpIn(lang.EN(), s, st, side)
					groups, mail := helpExamples(text)
					if n == 0 && side == rules.German && len(groups) < 8 {
						t.Errorf("%s %s at %s: %d examples", name, side, st.Next, len(groups))
					}
					for _, kw := range []string{"MOVE", "FOOT", "ENTRENCH", "ATTACK", "FIRE", "ARTY", "BATTLES", "REPAIR", "REMOVE"} {
						block := helpBlock(text, kw)
						if !strings.Contains(block, "e.g. ") && !strings.Contains(block, "      (") {
							t.Errorf("%s %s at %s: %s has neither an example nor a reason:\n%s", name, side, st.Next, kw, block)
						}
					}
					for _, g := range append(groups, mail) {
						if err := checkAt(t, s, st, side, g); err != nil {
							t.Errorf("%s %s at %s: example %q: %v", name, side, st.Next, g, err)
						}
					}
					if !strings.Contains(text, "e.g. IMPULSE "+strings.TrimPrefix(strings.TrimPrefix(nextOf(st, side).String(), "G"), "A")) {
						t.Errorf("%s %s at %s: IMPULSE example is not the side's next impulse %s", name, side, st.Next, nextOf(st, side))
					}
				}
			}
			var err error
			if st, _, err = playtest.PlayEveryAttack(s, st, sixes{}); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// helpBlock returns the lines HELP gives under an order's heading.
func helpBlock(text, kw string) string {
	var b strings.Builder
	in := false
	for _, l := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(l, "  "+kw+" "):
			in = true
		case in && strings.HasPrefix(l, "      "):
			b.WriteString(l + "\n")
		default:
			in = false
		}
	}
	return b.String()
}

func nextOf(st *rules.State, side rules.Side) rules.Impulse {
	if st.Next.Side == side {
		return st.Next
	}
	return rules.NextImpulse(st.Next)
}

// TestHelpCampaignStart: the examples of the campaign's German HELP at the
// start are legal there (the move through Rocherath, which holds enemy
// units, was not), an ELSE example is given, and a path through an area with
// enemy units is explained.
func TestHelpCampaignStart(t *testing.T) {
	s := scenario(t, "campaign")
	st := rules.NewState(s)
	text := referee.HelpIn(lang.EN(), s, st, rules.German)
	if err := checkAt(t, s, st, rules.German, []string{"MOVE 326/751 326/752 40 38 35"}); err == nil {
		t.Fatal("the old example is legal: the test no longer shows what it should")
	}
	groups, _ := helpExamples(text)
	var elses int
	for _, g := range groups {
		if strings.HasPrefix(g[0], "MOVE ") && strings.Contains(g[0], " ELSE ") {
			elses++
		}
	}
	if elses != 1 {
		t.Errorf("%d ELSE examples", elses)
	}
	flat := strings.Join(strings.Fields(text), " ")
	for _, w := range []string{"An area with enemy units ends the path: the units stop on entering it", "(8.22, 9.12)"} {
		if !strings.Contains(flat, w) {
			t.Errorf("HELP lacks %q", w)
		}
	}
	// An order with no example at the position says why.
	if !strings.Contains(text, "(no blown bridge beside one of your engineers at this position)") {
		t.Errorf("REPAIR without an example gives no reason")
	}
	// An over game has no examples and says so.
	over := st.Clone()
	over.Over = true
	if g, _ := helpExamples(referee.HelpIn(lang.EN(), s, over, rules.German)); len(g) != 0 {
		t.Errorf("a game over has examples: %v", g)
	}
	var es rules.OrderErrors
	if err := checkAt(t, s, st, rules.German, []string{"MOVE 326/751 326/752 40 38 35"}); !errors.As(err, &es) || !strings.Contains(es[0].Msg, "8.22") {
		t.Errorf("the old example is refused for another reason: %v", err)
	}
}

// TestHelpJapanese: HELP in Japanese for the introductory scenario's German
// player, read against its golden file: the rulebook's words, the order
// keywords and the examples' orders as they are (the same examples as in
// English), in 80 columns counted by display width. HELP in English is
// the same through rules.English and through lang.EN, which lays it out by
// display width.
func TestHelpJapanese(t *testing.T) {
	s := scenario(t, "intro")
	ja := rules.HelpTextIn(lang.For(lang.Japanese), s, nil, rules.German, referee.Keywords)
	golden.Check(t, "../testdata/golden/help-intro-german-ja.txt", ja)
	for _, line := range strings.Split(ja, "\n") {
		if w := lang.Width(line); w > 80 {
			t.Errorf("a line %d columns wide: %q", w, line)
		}
	}
	en := rules.HelpTextIn(rules.English, s, nil, rules.German, referee.Keywords)
	examples := func(text, eg string) []string {
		var out []string
		for _, l := range strings.Split(text, "\n") {
			if ex, ok := strings.CutPrefix(strings.TrimSpace(l), eg); ok {
				out = append(out, strings.SplitN(ex, "#", 2)[0])
			}
		}
		return out
	}
	if got, want := examples(ja, "例: "), examples(en, "e.g. "); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the Japanese examples:\n%s\nthe English:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// English with no Japanese in it (the heading lines alone, without the
	// requests, one of which names 日本語) is laid out alike.
	for _, name := range []string{"intro", "campaign"} {
		s := scenario(t, name)
		for _, side := range []rules.Side{rules.German, rules.Allied} {
			if got, want := rules.HelpTextIn(lang.EN(), s, nil, side, adjudicator.Headings), rules.HelpTextIn(rules.English, s, nil, side, adjudicator.Headings); got != want {
				t.Errorf("%s %s: HELP through lang.EN differs from HelpText:\n%s", name, side, got)
			}
		}
	}
}

// BenchmarkHelpText makes the campaign's German HELP at the start, every
// example checked at the position. Target: under 50 ms, as a mail's answer.
func BenchmarkHelpText(b *testing.B) {
	s := scenario(b, "campaign")
	st := rules.NewState(s)
	b.ReportAllocs()
	for b.Loop() {
		referee.HelpIn(lang.EN(), s, st, rules.German)
	}
}
