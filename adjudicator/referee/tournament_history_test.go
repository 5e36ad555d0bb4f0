package referee_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"titm/adjudicator/referee"
	"titm/adjudicator/tournament"
	"titm/store"
)

// A replaced player keeps the rounds he played: the record names him
// there, the new player from the round or impulse he took over, the log
// keeps the replacement as an event of its own, the export verifies, and
// the ratings credit the players the record names.
func TestTournamentReplaceKeepsHistory(t *testing.T) {
	ref := referee.New(&referee.Options{Address: "referee@example.org", Deadline: 24 * time.Hour})
	st, res := newTournament(t, ref, tournamentFile("round-robin", "alternate", 4, ""))
	id := res.Tournament.ID
	replace := func(who, name, addr string, at time.Time) {
		t.Helper()
		act(t, st, func(tx *store.Tx) (*referee.Result, error) {
			return ref.TournamentReplace(tx, id, who, name, addr, "ill", at)
		})
	}
	now := start
	// Round 1 is played out: the German player wins each game.
	for _, p := range current(t, st, id).Current().Pairings {
		now = now.Add(time.Hour)
		joinGame(t, st, ref, p.Game, now)
		finish(t, st, ref, p.Game, "german", now)
	}
	tr := current(t, st, id)
	if len(tr.Rounds) != 2 {
		t.Fatalf("%d rounds paired after round 1", len(tr.Rounds))
	}
	// P2 leaves before his round 2 game begins: Hanna plays it all.
	replace("P2", "Hanna Ries", "hanna@example.org", now)
	// P3's round 2 game begins and an impulse passes; then Ivo takes it
	// over where it stands.
	var p3game string
	for _, p := range current(t, st, id).Current().Pairings {
		if p.Of(2) >= 0 {
			p3game = p.Game
		}
	}
	joinGame(t, st, ref, p3game, now)
	now = now.Add(25 * time.Hour)
	act(t, st, func(tx *store.Tx) (*referee.Result, error) { return ref.Deadline(tx, p3game, now) })
	var next string
	st.View(func(tx *store.Tx) error {
		g, err := tx.Game(p3game)
		if err != nil {
			t.Fatal(err)
		}
		next = g.Next.String()
		return nil
	})
	replace("P3", "Ivo Sand", "ivo@example.org", now)
	for n := 2; n <= 3; n++ {
		for _, p := range current(t, st, id).Current().Pairings {
			now = now.Add(time.Hour)
			if p.Game != p3game {
				joinGame(t, st, ref, p.Game, now)
			}
			finish(t, st, ref, p.Game, "allied", now)
		}
	}
	tr = current(t, st, id)
	if tr.Status != tournament.Over {
		t.Fatalf("the tournament is %s", tr.Status)
	}
	for _, c := range []struct {
		place, round int
		want         string
	}{
		{1, 1, "P2"}, {1, 2, "Hanna Ries"}, {1, 3, "Hanna Ries"},
		{2, 1, "P3"}, {2, 2, "P3, then Ivo Sand from " + next}, {2, 3, "Ivo Sand"},
		{0, 2, "P1"},
	} {
		if got := tr.NameIn(c.place, c.round); got != c.want {
			t.Errorf("place %d in round %d: %q, want %q", c.place+1, c.round, got, c.want)
		}
	}
	// The log's records of the replacements say who left, from when,
	// and why.
	var recs []tournament.Record
	for _, r := range tr.Log {
		if r.Kind == tournament.KindReplaced {
			recs = append(recs, r)
		}
	}
	if len(recs) != 2 {
		t.Fatalf("%d replaced records", len(recs))
	}
	if r := recs[0]; r.Old != "P2" || r.Name != "Hanna Ries" || r.Round != 2 || r.Game == "" || r.Impulse != "" || r.Text != "ill" {
		t.Errorf("P2's replacement: %+v", r)
	}
	if r := recs[1]; r.Old != "P3" || r.Name != "Ivo Sand" || r.Round != 2 || r.Game != p3game || r.Impulse != next || next == "" {
		t.Errorf("P3's replacement: %+v (the impulse in play was %s)", r, next)
	}
	exportAndVerify(t, st, id)
	// The standings' footnotes tell both.
	// The footnotes are wrapped: read as one line.
	text := strings.Join(strings.Fields(referee.TournamentStandings(tr)), " ")
	for _, want := range []string{
		"Hanna Ries took the place of P2 from round 2: ill.",
		"Ivo Sand took the place of P3 in game " + p3game + " from impulse " + next + " (round 2): ill.",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the standings lack %q:\n%s", want, text)
		}
	}
	// The ratings credit each game to the players the record names as
	// having played it to its end.
	want := map[string]int{}
	for _, r := range tr.Rounds {
		for _, p := range r.Pairings {
			if p.Bye() {
				continue
			}
			for _, i := range []int{p.A, p.B} {
				hs := tr.PlayedBy(i, r.N)
				want[hs[len(hs)-1].Address]++
			}
		}
	}
	var rs []tournament.Rating
	st.View(func(tx *store.Tx) error {
		var err error
		rs, err = referee.Ratings(tx)
		return err
	})
	got := map[string]int{}
	for _, r := range rs {
		got[r.Player] = r.Games
	}
	if len(got) != len(want) || len(got) != 6 {
		t.Errorf("rated %v, the record names %v", got, want)
	}
	for a, n := range want {
		if got[a] != n {
			t.Errorf("%s: rated for %d games, the record names him in %d", a, got[a], n)
		}
	}
}

// A game not won on the board pays its loser no margin, and by default
// it is not rated; rate_unplayed rates it.
func TestTournamentForfeitMarginAndRatings(t *testing.T) {
	for _, rate := range []bool{false, true} {
		extra := "bid_deadline = \"12h\""
		if rate {
			extra += "\nrate_unplayed = true"
		}
		ref := referee.New(&referee.Options{Address: "referee@example.org", Deadline: 24 * time.Hour})
		st, res := newTournament(t, ref, tournamentFile("round-robin", "bids", 2, extra))
		id := res.Tournament.ID
		tokens := tokensOf(res)
		bid := func(addr, text string) {
			act(t, st, func(tx *store.Tx) (*referee.Result, error) {
				return ref.Tournament(tx, id, addr, tokens[addr], referee.TournamentRequest{Bid: strings.Fields(text)}, start)
			})
		}
		// P1 bids 2 VP for the German side and has it: the German side
		// gives 2 VP, so the board's 0 German VP count as -2.
		bid("p1@example.org", "german 2")
		bid("p2@example.org", "german 0")
		p := current(t, st, id).Current().Pairings[0]
		if p.German != 0 || p.Give != 2 || p.Game == "" {
			t.Fatalf("after the bids: %+v", p)
		}
		joinGame(t, st, ref, p.Game, start)
		// The Allied player forfeits by the director's decision: he must
		// not gain the 2 VP the German side gave.
		act(t, st, func(tx *store.Tx) (*referee.Result, error) {
			return ref.TournamentAdjudicate(tx, id, p.Game, "allied", "stalled", start.Add(time.Hour))
		})
		tr := current(t, st, id)
		q := tr.Rounds[0].Pairings[0]
		if !q.Done || q.Points != [2]float64{1, 0} || q.Margin[1] > 0 {
			t.Errorf("the Allied forfeit: points %v, margins %v; the forfeiting side gains no margin", q.Points, q.Margin)
		}
		if q.Margin != [2]int{0, 0} {
			t.Errorf("margins %v, want 0 each: the winner's -2 is no margin, and the loser's is its opposite", q.Margin)
		}
		exportAndVerify(t, st, id)
		var rs []tournament.Rating
		st.View(func(tx *store.Tx) error {
			var err error
			rs, err = referee.Ratings(tx)
			return err
		})
		if rate && len(rs) != 2 || !rate && len(rs) != 0 {
			t.Errorf("rate_unplayed = %v: %d players rated (%+v)", rate, len(rs), rs)
		}
	}
}

// tokensOf finds each player's tournament token in his welcome.
func tokensOf(res *referee.Result) map[string]string {
	tokens := map[string]string{}
	for _, m := range res.Mails {
		if k := tokenRE.FindStringSubmatch(m.Text); k != nil {
			tokens[m.To[0]] = k[1]
		}
	}
	return tokens
}

var tokenRE = regexp.MustCompile(`tournament token:\n\n    (\S+)`)
