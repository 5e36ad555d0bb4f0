package referee_test

import (
	"strings"
	"testing"
	"time"

	"titm/adjudicator/referee"
	"titm/adjudicator/tournament"
	"titm/store"
)

// The welcome and the pairing's mail word the forfeit rule for one game,
// and one round is "1 round".
func TestTournamentWording(t *testing.T) {
	ref := referee.New(&referee.Options{Address: "referee@example.org", Deadline: 24 * time.Hour})
	_, res := newTournament(t, ref, tournamentFile("round-robin", "alternate", 2, "forfeit_after = 3"))
	if !strings.Contains(res.Reply, "round-robin, 1 round;") {
		t.Errorf("the director's reply: %q", res.Reply)
	}
	var welcome, paired string
	for _, m := range res.Mails {
		switch {
		case m.To[0] == "p1@example.org" && strings.Contains(m.Subject, "welcome to Test Cup"):
			welcome = m.Text
		case m.To[0] == "p1@example.org" && strings.Contains(m.Subject, "round 1: game"):
			paired = m.Text
		}
	}
	for _, c := range []struct{ text, want string }{
		{welcome, "Format: round-robin, 1 round; 2 players."},
		{welcome, "a player who misses 3 deadlines of a game loses it."},
		{paired, "A player who misses 3 deadlines of this game loses it."},
		{welcome, "Ratings: a game not played out on the board (a forfeit, a withdrawal, the director's decision) is left out."},
	} {
		if !strings.Contains(c.text, c.want) {
			t.Errorf("lacks %q:\n%s", c.want, c.text)
		}
		if strings.Contains(c.text, "of one player") || strings.Contains(c.text, "1 rounds") {
			t.Errorf("the old wording:\n%s", c.text)
		}
	}
	if s := referee.TournamentStandings(res.Tournament); !strings.Contains(s, "after 0 of 1 round\n") {
		t.Errorf("standings:\n%s", s)
	}
}

// The pause's subject keeps its whole reason; the standings mailed at a
// round's end while paused say the next round is held, and it is paired
// when the director resumes.
func TestTournamentPaused(t *testing.T) {
	ref := referee.New(&referee.Options{Address: "referee@example.org", Deadline: 24 * time.Hour})
	st, res := newTournament(t, ref, tournamentFile("round-robin", "alternate", 3, ""))
	id := res.Tournament.ID
	reason := "the club's server moves to a new host over the holidays, and the mail may be lost meanwhile"
	paused := act(t, st, func(tx *store.Tx) (*referee.Result, error) { return ref.TournamentPause(tx, id, reason, start) })
	if len(paused.Mails) == 0 {
		t.Fatal("nobody was told of the pause")
	}
	for _, m := range paused.Mails {
		if !strings.Contains(m.Subject, reason) {
			t.Errorf("the pause's subject to %s cuts its reason: %q", m.To[0], m.Subject)
		}
	}
	var game string
	for _, p := range current(t, st, id).Current().Pairings {
		if !p.Bye() {
			game = p.Game
		}
	}
	joinGame(t, st, ref, game, start.Add(time.Hour))
	done := finish(t, st, ref, game, "german", start.Add(time.Hour))
	held := "The tournament is paused by the director: round 2 is paired when the director resumes it."
	n := 0
	for _, m := range done.Mails {
		if strings.Contains(m.Subject, "standings after round 1") {
			n++
			if !strings.Contains(m.Text, held) {
				t.Errorf("the standings to %s do not say round 2 is held:\n%s", m.To[0], m.Text)
			}
		}
	}
	if n != 4 {
		t.Errorf("%d standings mailed, want the 3 players and the director", n)
	}
	if len(current(t, st, id).Rounds) != 1 {
		t.Error("round 2 was paired while paused")
	}
	act(t, st, func(tx *store.Tx) (*referee.Result, error) {
		return ref.TournamentResume(tx, id, "back", start.Add(2*time.Hour))
	})
	if len(current(t, st, id).Rounds) != 2 {
		t.Error("round 2 was not paired on resuming")
	}
}

// Bids that fall due while the tournament is paused close when due: the
// sides are decided and the game made, as the games in play go on.
func TestTournamentBidsCloseWhilePaused(t *testing.T) {
	ref := referee.New(&referee.Options{Address: "referee@example.org", Deadline: 24 * time.Hour})
	st, res := newTournament(t, ref, tournamentFile("round-robin", "bids", 2, "bid_deadline = \"12h\""))
	id := res.Tournament.ID
	act(t, st, func(tx *store.Tx) (*referee.Result, error) {
		return ref.TournamentPause(tx, id, "a dispute", start.Add(time.Hour))
	})
	tick := act(t, st, func(tx *store.Tx) (*referee.Result, error) { return ref.TournamentTick(tx, start.Add(11*time.Hour)) })
	if len(tick.TournamentRecords) != 0 {
		t.Errorf("the bids closed before they were due: %+v", tick.TournamentRecords)
	}
	tick = act(t, st, func(tx *store.Tx) (*referee.Result, error) { return ref.TournamentTick(tx, start.Add(12*time.Hour)) })
	tr := current(t, st, id)
	if p := tr.Current().Pairings[0]; !p.Sided() || p.Game == "" {
		t.Errorf("the bids due while paused: %+v", p)
	}
	kinds := map[string]bool{}
	for _, r := range tick.TournamentRecords {
		kinds[r.Kind] = true
	}
	if !kinds[tournament.KindSides] || !kinds[tournament.KindGame] || len(tick.Mails) == 0 {
		t.Errorf("the tick made %v and %d mails", kinds, len(tick.Mails))
	}
	exportAndVerify(t, st, id)
}
