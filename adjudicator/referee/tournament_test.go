package referee_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"titm/adjudicator/referee"
	"titm/adjudicator/tournament"
	"titm/rules"
	"titm/store"
)

// tournamentFile writes a tournament file of n players p1 ... pn.
func tournamentFile(format, sides string, n int, extra string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "name = \"Test Cup\"\ndirector = \"td@example.org\"\nscenario = \"intro\"\nformat = %q\nsides = %q\ndeadline = \"24h\"\n%s\n", format, sides, extra)
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "\n[[player]]\nname = \"P%d\"\naddress = \"p%d@example.org\"\n", i, i)
	}
	return b.String()
}

// newTournament makes a tournament on a new store.
func newTournament(t *testing.T, ref *referee.Referee, file string) (*store.Store, *referee.Result) {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "titm.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	res := act(t, st, func(tx *store.Tx) (*referee.Result, error) {
		return ref.NewTournament(tx, "cup.toml", []byte(file), start)
	})
	return st, res
}

func current(t *testing.T, st *store.Store, id string) *tournament.Tournament {
	t.Helper()
	var tr *tournament.Tournament
	st.View(func(tx *store.Tx) error {
		var err error
		tr, err = tx.Tournament(id)
		if err != nil {
			t.Fatal(err)
		}
		return nil
	})
	return tr
}

// finish ends a game of the round in play through the players' own acts:
// "german" or "allied" wins by the other's concession; "draw" is offered
// by the German player and accepted.
func finish(t *testing.T, st *store.Store, ref *referee.Referee, game, how string, now time.Time) *referee.Result {
	t.Helper()
	switch how {
	case "draw":
		act(t, st, func(tx *store.Tx) (*referee.Result, error) { return ref.Orders(tx, game, rules.German, "DRAW", now) })
		return act(t, st, func(tx *store.Tx) (*referee.Result, error) {
			return ref.Orders(tx, game, rules.Allied, "DRAW ACCEPT", now)
		})
	case "german":
		return act(t, st, func(tx *store.Tx) (*referee.Result, error) { return ref.Orders(tx, game, rules.Allied, "CONCEDE", now) })
	}
	return act(t, st, func(tx *store.Tx) (*referee.Result, error) { return ref.Orders(tx, game, rules.German, "CONCEDE", now) })
}

// joinGame has both players of a game join it.
func joinGame(t *testing.T, st *store.Store, ref *referee.Referee, game string, now time.Time) {
	t.Helper()
	for _, side := range []rules.Side{rules.German, rules.Allied} {
		act(t, st, func(tx *store.Tx) (*referee.Result, error) { return ref.Join(tx, game, side, "", now) })
	}
}

// exportAndVerify checks the whole tournament as titm verify does.
func exportAndVerify(t *testing.T, st *store.Store, id string) *tournament.Verified {
	t.Helper()
	var x *tournament.Export
	st.View(func(tx *store.Tx) error {
		var err error
		x, err = referee.TournamentExport(tx, id)
		return err
	})
	data, _ := json.Marshal(x)
	x2, err := tournament.ReadExport(strings.NewReader(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	v, err := tournament.Verify(x2)
	if err != nil {
		t.Fatalf("the export does not verify: %v", err)
	}
	return v
}

func TestRoundRobinOfFour(t *testing.T) {
	ref := referee.New(&referee.Options{Address: "referee@example.org", Deadline: 24 * time.Hour})
	st, res := newTournament(t, ref, tournamentFile("round-robin", "alternate", 4, ""))
	id := res.Tournament.ID
	// Each player is welcomed with his token; round 1's two games are made
	// at once, each with its welcome mails, and each player is told his
	// opponent, side and game.
	var welcomes, games, told int
	for _, m := range res.Mails {
		switch {
		case m.Kind == referee.KindWelcome && strings.Contains(m.Subject, "welcome to Test Cup"):
			welcomes++
			if !regexp.MustCompile(`token:\n\n    \S{4}-\S{4}-`).MatchString(m.Text) || !m.Secret {
				t.Errorf("a welcome without a token, or not secret:\n%s", m.Text)
			}
		case m.Kind == referee.KindWelcome:
			games++
		case m.Kind == referee.KindTournament && strings.Contains(m.Subject, "round 1: game"):
			told++
		}
	}
	if welcomes != 4 || games != 4 || told != 4 {
		t.Errorf("%d tournament welcomes, %d game welcomes, %d pairing mails: want 4 each", welcomes, games, told)
	}
	// P1 wins everything; P2 beats P3 and P4; P3 and P4 draw.
	winner := func(tr *tournament.Tournament, p *tournament.Pairing) string {
		a, b := tr.Entrants[p.A].Name, tr.Entrants[p.B].Name
		switch {
		case a == "P1" || b == "P1":
			return string(p.SideOf(map[bool]int{true: p.A, false: p.B}[a == "P1"]))
		case a == "P2" || b == "P2":
			return string(p.SideOf(map[bool]int{true: p.A, false: p.B}[a == "P2"]))
		}
		return "draw"
	}
	now := start
	for n := 1; n <= 3; n++ {
		tr := current(t, st, id)
		if len(tr.Rounds) != n {
			t.Fatalf("round %d: %d rounds paired", n, len(tr.Rounds))
		}
		var last *referee.Result
		for _, p := range tr.Current().Pairings {
			now = now.Add(time.Hour)
			joinGame(t, st, ref, p.Game, now)
			last = finish(t, st, ref, p.Game, winner(tr, p), now)
		}
		standings := 0
		for _, m := range last.Mails {
			if strings.Contains(m.Subject, fmt.Sprintf("standings after round %d", n)) {
				standings++
			}
		}
		if standings != 5 {
			t.Errorf("round %d: the standings went to %d addresses, want the 4 players and the director", n, standings)
		}
	}
	tr := current(t, st, id)
	if tr.Status != tournament.Over {
		t.Fatalf("after 3 rounds the tournament is %s", tr.Status)
	}
	var got []string
	for _, s := range tr.Standings() {
		got = append(got, fmt.Sprintf("%d %s %.1f", s.Rank, s.Name, s.Points))
	}
	if g := strings.Join(got, ", "); g != "1 P1 3.0, 2 P2 2.0, 3 P3 0.5, 3 P4 0.5" {
		t.Errorf("standings %s", g)
	}
	// Every pair met once, and each player had both sides.
	met := map[string]bool{}
	for _, r := range tr.Rounds {
		for _, p := range r.Pairings {
			met[fmt.Sprint(min(p.A, p.B), max(p.A, p.B))] = true
		}
	}
	if len(met) != 6 {
		t.Errorf("%d pairs met, want 6", len(met))
	}
	if v := exportAndVerify(t, st, id); v.Games != 6 || v.Sides != 6 || !v.DiceChecked {
		t.Errorf("verified %+v", v)
	}
}

func TestKnockoutOfFour(t *testing.T) {
	ref := referee.New(&referee.Options{Address: "referee@example.org", Deadline: 24 * time.Hour})
	st, res := newTournament(t, ref, tournamentFile("elimination", "random", 4, ""))
	id := res.Tournament.ID
	tr := current(t, st, id)
	r1 := tr.Current()
	// Seeds 1 v 4 and 2 v 3; the sides by the tournament's dice.
	if r1.Pairings[0].A != 0 || r1.Pairings[0].B != 3 || r1.Pairings[1].A != 1 || r1.Pairings[1].B != 2 {
		t.Fatalf("round 1: %+v %+v", r1.Pairings[0], r1.Pairings[1])
	}
	// P4 beats P1; P2 beats P3.
	now := start
	for _, p := range r1.Pairings {
		now = now.Add(time.Hour)
		joinGame(t, st, ref, p.Game, now)
		w := p.SideOf(p.B) // P4
		if p.A == 1 {
			w = p.SideOf(p.A) // P2
		}
		finish(t, st, ref, p.Game, string(w), now)
	}
	tr = current(t, st, id)
	if len(tr.Rounds) != 2 {
		t.Fatalf("%d rounds after the semi-finals", len(tr.Rounds))
	}
	final := tr.Current().Pairings[0]
	if final.A != 3 || final.B != 1 {
		t.Fatalf("the final is %s v %s, want P4 v P2", tr.Entrants[final.A].Name, tr.Entrants[final.B].Name)
	}
	if !tr.Entrants[0].Out || !tr.Entrants[2].Out {
		t.Error("the semi-finals' losers are not out")
	}
	// The final is drawn: the margins are equal (no VP), so the dice
	// decide who goes through, and the log keeps the die.
	joinGame(t, st, ref, final.Game, now)
	finish(t, st, ref, final.Game, "draw", now)
	tr = current(t, st, id)
	if tr.Status != tournament.Over {
		t.Fatalf("after the final the tournament is %s", tr.Status)
	}
	last := tr.Log[len(tr.Log)-2]
	if last.Kind != tournament.KindResult || len(last.Dice) != 1 || last.Advance == 0 {
		t.Errorf("the drawn final's result: %+v", last)
	}
	champion := tr.Entrants[tr.Current().Pairings[0].Winner()].Name
	if st := tr.Standings(); st[0].Name != champion || st[0].Rank != 1 || st[1].Rank != 2 || st[2].Rank != 3 || st[3].Rank != 3 {
		t.Errorf("the standings %+v: want the champion %s first, the finalist second, the semi-finals' losers third", st, champion)
	}
	if v := exportAndVerify(t, st, id); v.Games != 3 || v.Dice < 3 {
		t.Errorf("verified %+v: want 3 games and the dice of 3 sides and the final", v)
	}
}

func TestBidsRefused(t *testing.T) {
	ref := referee.New(&referee.Options{Address: "referee@example.org", Deadline: 24 * time.Hour})
	st, res := newTournament(t, ref, tournamentFile("swiss", "bids", 5, "rounds = 2\nbid_deadline = \"12h\""))
	id := res.Tournament.ID
	tokens := map[string]string{}
	for _, m := range res.Mails {
		if k := regexp.MustCompile(`tournament token:\n\n    (\S+)`).FindStringSubmatch(m.Text); k != nil {
			tokens[m.To[0]] = k[1]
		}
	}
	tr := current(t, st, id)
	// Five players: P5 has the bye; P1-P3 and P2-P4 bid.
	bid := func(addr, text string, at time.Duration) *referee.Result {
		return act(t, st, func(tx *store.Tx) (*referee.Result, error) {
			return ref.Tournament(tx, id, addr, tokens[addr], referee.TournamentRequest{Bid: strings.Fields(text)}, start.Add(at))
		})
	}
	if _, err := tournament.ParseBid(strings.Fields("german 2 allied 1")); err == nil {
		t.Error("a bid for both sides was taken")
	}
	for _, c := range []struct {
		who, bid string
		at       time.Duration
		want     string
	}{
		{"p5@example.org", "german 1", time.Hour, "you have no game in round 1 to bid for"},
		{"p1@example.org", "german -2", time.Hour, "a bid cannot be negative"},
		{"p1@example.org", "german two", time.Hour, `"two" is not a whole number`},
		{"p1@example.org", "german 2 allied 1", time.Hour, "one side only"},
		{"p1@example.org", "axis 2", time.Hour, `"axis" is no side`},
		{"p2@example.org", "allied 1", 13 * time.Hour, "the bids of round 1 closed at 2026-12-16 18:00 UTC"},
	} {
		before := tr.Head
		r := bid(c.who, c.bid, c.at)
		if !r.Refused || !strings.Contains(r.Reply, c.want) || !strings.Contains(r.Reply, "Nothing was changed") {
			t.Errorf("BID %s from %s: %q, want refused with %q", c.bid, c.who, r.Reply, c.want)
		}
		if after := current(t, st, id); after.Head != before || len(after.Log) != len(tr.Log) {
			t.Errorf("BID %s from %s changed the tournament", c.bid, c.who)
		}
	}
	// A wrong token is refused as well.
	r := act(t, st, func(tx *store.Tx) (*referee.Result, error) {
		return ref.Tournament(tx, id, "p1@example.org", "wrong-token", referee.TournamentRequest{Bid: []string{"german", "1"}}, start)
	})
	if !r.Refused || current(t, st, id).Head != tr.Head {
		t.Errorf("a bid with a wrong token: %q", r.Reply)
	}
	// P1 and P3 both bid for the German side: P3's higher bid takes it,
	// and both see both bids.
	if r := bid("p1@example.org", "german 1", time.Hour); r.Refused || len(r.Mails) != 0 {
		t.Fatalf("P1's bid: %q, %d mails (a sealed bid tells nobody)", r.Reply, len(r.Mails))
	}
	if r := bid("p1@example.org", "german 3", time.Hour); !r.Refused || !strings.Contains(r.Reply, "sealed") {
		t.Errorf("a second bid: %q", r.Reply)
	}
	r = bid("p3@example.org", "GERMAN 2", 2*time.Hour)
	revealed := 0
	for _, m := range r.Mails {
		if m.Kind == referee.KindTournament && strings.Contains(m.Text, "The bids, revealed: P1 bid german 1, P3 bid german 2.") &&
			strings.Contains(m.Text, "The German side gives 2 VP") {
			revealed++
		}
	}
	if revealed != 2 {
		t.Errorf("%d mails reveal both bids, want 2", revealed)
	}
	tr = current(t, st, id)
	if p := tr.Current().Pairings[0]; p.German != 2 || p.Give != 2 || p.Game == "" {
		t.Errorf("P1-P3 after the bids: %+v", p)
	}
	// P2 and P4 send none: when the bids close, the dice decide.
	res = act(t, st, func(tx *store.Tx) (*referee.Result, error) { return ref.TournamentTick(tx, start.Add(12*time.Hour)) })
	if len(res.Mails) == 0 {
		t.Error("the bids closed, and nobody was told")
	}
	tr = current(t, st, id)
	if p := tr.Current().Pairings[1]; !p.Sided() || p.Game == "" {
		t.Errorf("P2-P4 after the bids closed: %+v", p)
	}
	if rec := tr.Log[len(tr.Log)-2]; rec.Kind != tournament.KindSides || len(rec.Dice) != 1 {
		t.Errorf("the sides by the dice: %+v", rec)
	}
}

// The tournament's max_extensions is the limit in its games, not the
// referee's.
func TestTournamentExtensions(t *testing.T) {
	ref := referee.New(&referee.Options{Address: "referee@example.org", Deadline: 24 * time.Hour, MaxExtensions: 5, MaxExtension: 48 * time.Hour})
	st, res := newTournament(t, ref, tournamentFile("round-robin", "alternate", 2, "max_extensions = 1"))
	p := current(t, st, res.Tournament.ID).Current().Pairings[0]
	joinGame(t, st, ref, p.Game, start)
	for n, want := range []bool{false, true} {
		r := act(t, st, func(tx *store.Tx) (*referee.Result, error) {
			return ref.Orders(tx, p.Game, rules.German, "EXTEND 24h", start.Add(time.Hour))
		})
		if r.Refused != want {
			t.Errorf("extension %d: refused %v (%q), want %v", n+1, r.Refused, r.Reply, want)
		}
	}
}

// exportOf is a tournament's export, as titm tournament export writes it.
func exportOf(t *testing.T, st *store.Store, id string) *tournament.Export {
	t.Helper()
	var x *tournament.Export
	if err := st.View(func(tx *store.Tx) error {
		var err error
		x, err = referee.TournamentExport(tx, id)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return x
}

// A tournament exported while a bid is in and its opponent's is not: the
// export and what is shown keep the bid sealed, and the export verifies.
func TestTournamentExportWhileBidding(t *testing.T) {
	ref := referee.New(&referee.Options{Address: "referee@example.org", Deadline: 24 * time.Hour})
	st, res := newTournament(t, ref, tournamentFile("swiss", "bids", 4, "rounds = 1"))
	id := res.Tournament.ID
	var token string
	for _, m := range res.Mails {
		if k := regexp.MustCompile(`tournament token:\n\n    (\S+)`).FindStringSubmatch(m.Text); k != nil && m.To[0] == "p1@example.org" {
			token = k[1]
		}
	}
	r := act(t, st, func(tx *store.Tx) (*referee.Result, error) {
		return ref.Tournament(tx, id, "p1@example.org", token, referee.TournamentRequest{Bid: []string{"german", "7"}}, start.Add(time.Hour))
	})
	if r.Refused {
		t.Fatalf("P1's bid: %s", r.Reply)
	}
	shown, _ := json.Marshal(current(t, st, id).Public())
	x := exportOf(t, st, id)
	exported, _ := json.Marshal(x)
	for what, data := range map[string][]byte{"shown": shown, "exported": exported} {
		if strings.Contains(string(data), `"vp":7`) {
			t.Errorf("the sealed bid is %s:\n%s", what, data)
		}
	}
	v, err := tournament.Verify(x)
	if err != nil {
		t.Fatalf("the export taken while the bids are open: %v", err)
	}
	if v.Sides != 0 || v.DiceChecked {
		t.Errorf("verified %+v: want no side decided, the dice taken as logged", v)
	}
}

// A result changed in the log, with the chain hashed again, tells the
// log's own replay nothing; verify refuses it against the game.
func TestVerifyResultAgainstGame(t *testing.T) {
	ref := referee.New(&referee.Options{Address: "referee@example.org", Deadline: 24 * time.Hour})
	st, res := newTournament(t, ref, tournamentFile("round-robin", "alternate", 2, ""))
	id := res.Tournament.ID
	p := current(t, st, id).Current().Pairings[0]
	joinGame(t, st, ref, p.Game, start)
	finish(t, st, ref, p.Game, "german", start.Add(time.Hour))
	x := exportOf(t, st, id)
	if _, err := tournament.Verify(x); err != nil {
		t.Fatalf("the export as made: %v", err)
	}
	// The German side won by the Allied concession; the log gives the
	// point to the Allied player instead, and is hashed again from there.
	prev := ""
	for i := range x.Records {
		r := &x.Records[i]
		if r.Kind == tournament.KindResult {
			r.Points[0], r.Points[1] = r.Points[1], r.Points[0]
			r.Margin[0], r.Margin[1] = r.Margin[1], r.Margin[0]
		}
		r.Prev = prev
		r.Hash = tournament.RecordHash(*r)
		prev = r.Hash
	}
	x.Head = prev
	if _, err := tournament.VerifyLog(x); err != nil {
		t.Fatalf("the log alone: %v (it cannot tell: the test changes nothing it checks)", err)
	}
	_, err := tournament.Verify(x)
	if err == nil || !strings.Contains(err.Error(), "the log counts game "+p.Game+" as ") || !strings.Contains(err.Error(), "conceded") {
		t.Errorf("a result with its points swapped: %v", err)
	}
}

// The director cannot give a player's place to his own address, nor to
// something that is no address.
func TestTournamentReplaceRefused(t *testing.T) {
	ref := referee.New(&referee.Options{Address: "referee@example.org", Deadline: 24 * time.Hour})
	st, res := newTournament(t, ref, tournamentFile("round-robin", "alternate", 2, ""))
	id := res.Tournament.ID
	for _, addr := range []string{"TD@example.org", "no address", "<p9@example.org"} {
		err := st.Update(func(tx *store.Tx) error {
			_, err := ref.TournamentReplace(tx, id, "P1", "", addr, "ill", start)
			return err
		})
		if err == nil {
			t.Errorf("P1 replaced by %q", addr)
		}
	}
	if tr := current(t, st, id); tr.Entrants[0].Address != "p1@example.org" || len(tr.Log) != len(res.Tournament.Log) {
		t.Errorf("a refused replacement changed the tournament: %+v", tr.Entrants[0])
	}
}
