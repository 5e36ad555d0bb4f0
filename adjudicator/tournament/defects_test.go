package tournament

import (
	"fmt"
	"strings"
	"testing"

	"titm/adjudicator/lang"
)

// swissFile is a Swiss tournament file of n players p1 ... pn.
func swissFile(n, rounds int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "name = \"Three\"\ndirector = \"td@example.org\"\nscenario = \"intro\"\nformat = \"swiss\"\nrounds = %d\n", rounds)
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "\n[[player]]\nname = \"P%d\"\naddress = \"p%d@example.org\"\n", i, i)
	}
	return b.String()
}

// Three players of a Swiss play three rounds without a rematch, each
// with one bye, as a round robin of three does; a fourth round is
// refused, and four players still have three at most.
func TestSwissOfThree(t *testing.T) {
	if _, err := Parse("three.toml", []byte(swissFile(3, 3)), nil); err != nil {
		t.Fatalf("3 rounds of 3 players: %v", err)
	}
	for _, c := range []struct{ n, rounds int }{{3, 4}, {4, 4}} {
		_, err := Parse("three.toml", []byte(swissFile(c.n, c.rounds)), nil)
		want := fmt.Sprintf("%d players can play at most %d rounds without a rematch", c.n, c.rounds-1)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%d rounds of %d players: %v, want %q", c.rounds, c.n, err, want)
		}
	}
	if _, err := Parse("two.toml", []byte(swissFile(2, 2)), nil); err == nil || !strings.Contains(err.Error(), "at most 1 round without") {
		t.Errorf("2 rounds of 2 players: %v, want \"at most 1 round\"", err)
	}
	tr := newT(t, settings(Swiss, 3, 3, SidesAlternate, TieMargin))
	met, byes := map[string]bool{}, map[int]int{}
	for n := 1; n <= 3; n++ {
		if _, err := tr.Pair(t0); err != nil {
			t.Fatalf("round %d: %v", n, err)
		}
		r := tr.Current()
		res := map[string]string{}
		for _, p := range r.Pairings {
			if p.Bye() {
				byes[p.A]++
				continue
			}
			key := fmt.Sprint(min(p.A, p.B), max(p.A, p.B))
			if met[key] {
				t.Errorf("round %d: a rematch %s", n, pairs(tr, r))
			}
			met[key] = true
			res[tr.Entrants[p.A].Name+"-"+tr.Entrants[p.B].Name] = tr.Entrants[p.A].Name
		}
		play(t, tr, t0, res)
	}
	if len(met) != 3 || len(byes) != 3 {
		t.Errorf("%d pairs met, %d players had a bye: want 3 and 3", len(met), len(byes))
	}
}

// The standings after the rounds over leave out the round in play: its
// bye, done when it is paired, counts when the round is over.
func TestStandingsLeaveOutTheRoundInPlay(t *testing.T) {
	tr := newT(t, settings(Swiss, 3, 5, SidesAlternate, TieMargin))
	if _, err := tr.Pair(t0); err != nil {
		t.Fatal(err)
	}
	bye := -1
	for _, p := range tr.Current().Pairings {
		if p.Bye() {
			bye = p.A
		}
	}
	for _, s := range tr.Standings() {
		if s.Points != 0 || s.Byes != 0 {
			t.Errorf("round 1 in play: %s has %.1f points, %d byes", s.Name, s.Points, s.Byes)
		}
	}
	res := map[string]string{}
	for _, p := range tr.Current().Pairings {
		if !p.Bye() {
			res[tr.Entrants[p.A].Name+"-"+tr.Entrants[p.B].Name] = "draw"
		}
	}
	play(t, tr, t0, res)
	for _, s := range tr.Standings() {
		if s.Player == bye && (s.Points != 1 || s.Byes != 1) {
			t.Errorf("round 1 over: the bye's %s has %.1f points, %d byes", s.Name, s.Points, s.Byes)
		}
	}
}

// Head to head is a value only where it broke a tie; the mails' table
// has a Buchholz column only when the tie-breaks use it.
func TestStandingsColumns(t *testing.T) {
	tr := newT(t, settings(RoundRobin, 3, 4, SidesAlternate, TieMargin, TieHeadToHead))
	for _, res := range []map[string]string{
		{"A-D": "A", "B-C": "B"},
		{"A-C": "A", "D-B": "D"},
		{"A-B": "A", "C-D": "C"},
	} {
		if _, err := tr.Pair(t0); err != nil {
			t.Fatal(err)
		}
		play(t, tr, t0, res)
	}
	for _, s := range tr.Standings() {
		switch {
		case s.Name == "A" && s.HeadToHead != nil:
			t.Errorf("A, tied with nobody, has a head to head of %v", *s.HeadToHead)
		case s.Name != "A" && (s.HeadToHead == nil || *s.HeadToHead != 1):
			t.Errorf("%s, tied with two others, has a head to head of %v, want 1", s.Name, s.HeadToHead)
		}
	}
	for _, c := range []struct {
		tbs  []string
		want bool
	}{{[]string{TieMargin, TieHeadToHead}, false}, {[]string{TieBuchholz, TieMargin}, true}} {
		tr.TieBreaks = c.tbs
		for _, p := range []*lang.Printer{lang.EN(), lang.For(lang.Japanese)} {
			var b strings.Builder
			tr.WriteStandingsIn(p, &b)
			head, _, _ := strings.Cut(b.String(), "\n")
			if got := strings.Contains(head, p.Sprintf("buchholz")); got != c.want {
				t.Errorf("tie-breaks %v, %s: a Buchholz column %v, want %v:\n%s", c.tbs, p.Code(), got, c.want, b.String())
			}
		}
	}
}
