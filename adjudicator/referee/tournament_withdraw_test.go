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

// A player who withdraws after his round is paired but before its sealed
// bids decide its sides gets no game: the pairing ends at his withdrawal
// as his forfeit, his opponent's win, and the bids close for it.
func TestTournamentWithdrawWhileBidding(t *testing.T) {
	ref := referee.New(&referee.Options{Address: "referee@example.org", Deadline: 24 * time.Hour})
	st, res := newTournament(t, ref, tournamentFile("swiss", "bids", 4, "rounds = 2\nbid_deadline = \"12h\""))
	id := res.Tournament.ID
	tokens := tokensOf(res)
	if len(tokens) != 4 {
		t.Fatalf("%d tokens in the welcomes, want 4", len(tokens))
	}
	bid := func(addr, text string, at time.Duration) *referee.Result {
		return act(t, st, func(tx *store.Tx) (*referee.Result, error) {
			return ref.Tournament(tx, id, addr, tokens[addr], referee.TournamentRequest{Bid: strings.Fields(text)}, start.Add(at))
		})
	}
	// Round 1 pairs P1-P3 and P2-P4. P3 bids; P1 withdraws before his.
	if r := bid("p3@example.org", "german 2", time.Hour); r.Refused {
		t.Fatalf("P3's bid: %q", r.Reply)
	}
	w := act(t, st, func(tx *store.Tx) (*referee.Result, error) {
		return ref.TournamentWithdraw(tx, id, "p1@example.org", "moved abroad", start.Add(2*time.Hour))
	})
	tr := current(t, st, id)
	p := tr.Rounds[0].Pairings[0]
	if p.A != 0 || p.B != 2 {
		t.Fatalf("round 1's first pairing is %d-%d, want P1-P3", p.A+1, p.B+1)
	}
	if !p.Done || p.Game != "" || p.Sided() || p.Points != [2]float64{0, 1} || p.Margin != [2]int{} || p.How != "forfeit" {
		t.Errorf("P1-P3 after P1 withdrew: done %v, game %q, german %d, points %v, margin %v, how %q",
			p.Done, p.Game, p.German, p.Points, p.Margin, p.How)
	}
	var kinds []string
	for _, r := range w.TournamentRecords {
		kinds = append(kinds, r.Kind)
	}
	if got := strings.Join(kinds, " "); got != "withdrawn result" {
		t.Errorf("the withdrawal logged %q, want \"withdrawn result\"", got)
	}
	if r := w.TournamentRecords[len(w.TournamentRecords)-1]; r.Kind != tournament.KindResult || r.Round != 1 || r.Pairing != 1 || r.Game != "" ||
		r.Points != [2]float64{0, 1} || r.Text != "forfeit: P1 withdrew before his game was made" {
		t.Errorf("the result of P1-P3: %+v", r)
	} else if b := r.Bids[1]; r.Bids[0] != nil || b == nil || b.Side != "german" || b.VP != 2 || b.Salt == "" {
		t.Errorf("the result of P1-P3 closes its bids revealing %v, want P3's german 2, salted", r.Bids)
	}
	// Every player and the director are told that the pairing is P3's
	// win.
	told := 0
	for _, m := range w.Mails {
		// The mails are wrapped: the words are compared.
		if text := strings.Join(strings.Fields(m.Text), " "); strings.Contains(text, "P1 has withdrawn from Test Cup: moved abroad.") &&
			strings.Contains(text, "P1's round 1 pairing with P3 has no game: it counts as P1's forfeit, a win for P3.") {
			told++
		}
	}
	if told != 5 {
		t.Errorf("%d mails tell of P3's win, want 5 (the players and the director):\n%s", told, recipients(w))
	}
	// Nobody bids for that pairing any more: neither P1 nor P3.
	for _, c := range []struct{ who, want string }{
		{"p1@example.org", "you have withdrawn from tournament"},
		{"p3@example.org", "your round 1 pairing has no game: P1 withdrew"},
	} {
		before := current(t, st, id).Head
		if r := bid(c.who, "allied 0", 3*time.Hour); !r.Refused || !strings.Contains(r.Reply, c.want) {
			t.Errorf("a bid from %s after P1 withdrew: %q, want refused with %q", c.who, r.Reply, c.want)
		}
		if current(t, st, id).Head != before {
			t.Errorf("a refused bid from %s changed the tournament", c.who)
		}
	}
	// The other pairing goes on: its bids close when due, and only its
	// game is made.
	tick := act(t, st, func(tx *store.Tx) (*referee.Result, error) { return ref.TournamentTick(tx, start.Add(12*time.Hour)) })
	games := 0
	for _, r := range tick.TournamentRecords {
		switch {
		case r.Kind == tournament.KindGame:
			games++
			if r.Pairing != 2 {
				t.Errorf("a game made for pairing %d when the bids closed", r.Pairing)
			}
		case r.Kind == tournament.KindSides && r.Pairing != 2:
			t.Errorf("the sides of pairing %d decided when the bids closed: %+v", r.Pairing, r)
		}
	}
	if games != 1 {
		t.Errorf("%d games made when the bids closed, want 1 (P2-P4)", games)
	}
	tr = current(t, st, id)
	if p := tr.Rounds[0].Pairings[0]; p.Game != "" {
		t.Errorf("P1, withdrawn, has game %s", p.Game)
	}
	exportAndVerify(t, st, id)
	// Round 2, when P2-P4 is over, pairs the three left: P1 is no longer
	// paired.
	finish(t, st, ref, tr.Rounds[0].Pairings[1].Game, "german", start.Add(13*time.Hour))
	tr = current(t, st, id)
	if len(tr.Rounds) != 2 {
		t.Fatalf("%d rounds after round 1, want 2", len(tr.Rounds))
	}
	for _, p := range tr.Rounds[1].Pairings {
		if p.Of(0) >= 0 {
			t.Errorf("P1, withdrawn, is paired in round 2: %d-%d", p.A+1, p.B+1)
		}
	}
	st1 := tr.Standings()
	for _, s := range st1 {
		if s.Player == 2 && (s.Points != 1 || s.Won != 1) || s.Player == 0 && (s.Points != 0 || s.Lost != 1 || !s.Withdrawn) {
			t.Errorf("the standings after round 1: %+v", s)
		}
	}
	exportAndVerify(t, st, id)
}

// A withdrawal that ends the last pairing of a round while its bids are
// open ends the round: the standings go out, and the tournament, here of
// one round, is over with its seed revealed.
func TestTournamentWithdrawEndsTheRound(t *testing.T) {
	ref := referee.New(&referee.Options{Address: "referee@example.org", Deadline: 24 * time.Hour})
	st, res := newTournament(t, ref, tournamentFile("round-robin", "bids", 2, "bid_deadline = \"12h\""))
	id := res.Tournament.ID
	w := act(t, st, func(tx *store.Tx) (*referee.Result, error) {
		return ref.TournamentWithdraw(tx, id, "P2", "ill", start.Add(time.Hour))
	})
	tr := current(t, st, id)
	if p := tr.Rounds[0].Pairings[0]; !p.Done || p.Game != "" || p.Points != [2]float64{1, 0} {
		t.Errorf("P1-P2 after P2 withdrew: %+v", p)
	}
	if tr.Status != tournament.Over || tr.Seed == "" {
		t.Errorf("the tournament after its last pairing ended: %s, seed %q", tr.Status, tr.Seed)
	}
	standings := 0
	for _, m := range w.Mails {
		if strings.Contains(m.Subject, "standings after round 1") {
			standings++
		}
	}
	if standings != 3 {
		t.Errorf("%d standings mails, want 3 (the players and the director):\n%s", standings, recipients(w))
	}
	tick := act(t, st, func(tx *store.Tx) (*referee.Result, error) { return ref.TournamentTick(tx, start.Add(12*time.Hour)) })
	if len(tick.TournamentRecords) != 0 {
		t.Errorf("the tick after the tournament ended logged %+v", tick.TournamentRecords)
	}
	v := exportAndVerify(t, st, id)
	if !v.DiceChecked {
		t.Error("the finished tournament's dice were not checked")
	}
}

// The withdrawal's notice and the refused bid read in the player's
// language: a Japanese opponent reads both in Japanese.
func TestTournamentWithdrawWhileBiddingJapanese(t *testing.T) {
	ref := referee.New(&referee.Options{Address: "referee@example.org", Deadline: 24 * time.Hour})
	file := tournamentFile("swiss", "bids", 4, "rounds = 2\nbid_deadline = \"12h\"")
	file = strings.Replace(file, "name = \"P3\"\naddress = \"p3@example.org\"\n", "name = \""+jaName+"\"\naddress = \"p3@example.org\"\nlanguage = \"ja\"\n", 1)
	st, res := newTournament(t, ref, file)
	id := res.Tournament.ID
	// The Japanese welcome gives the token in Japanese words.
	token := ""
	for _, m := range res.Mails {
		if k := regexp.MustCompile(`(?m)^    ([a-z0-9]{4}(?:-[a-z0-9]{4}){4})$`).FindStringSubmatch(m.Text); k != nil && m.Kind == referee.KindWelcome && m.To[0] == "p3@example.org" {
			token = k[1]
		}
	}
	if token == "" {
		t.Fatal("no token in the Japanese player's welcome")
	}
	w := act(t, st, func(tx *store.Tx) (*referee.Result, error) {
		return ref.TournamentWithdraw(tx, id, "P1", "転居", start.Add(time.Hour))
	})
	// The mails are wrapped by display width: compared without spaces.
	flat := func(s string) string { return strings.Join(strings.Fields(s), "") }
	want := flat("P1 の第1ラウンドの " + jaName + " との組み合わせはゲームを行いません: P1 の不戦敗、" + jaName + " の勝ちとして数えます。")
	told := false
	for _, m := range w.Mails {
		if m.To[0] == "p3@example.org" {
			told = strings.Contains(flat(m.Text), want)
			if !told {
				t.Errorf("the Japanese player's notice:\n%s\nwant %s", m.Text, want)
			}
		}
	}
	if !told {
		t.Errorf("no notice to the Japanese player:\n%s", recipients(w))
	}
	r := act(t, st, func(tx *store.Tx) (*referee.Result, error) {
		return ref.Tournament(tx, id, "p3@example.org", token, referee.TournamentRequest{Bid: []string{"german", "1"}}, start.Add(2*time.Hour))
	})
	if want := flat("第1ラウンドのあなたの組み合わせにはゲームがありません: P1 が棄権しました"); !r.Refused || !strings.Contains(flat(r.Reply), want) {
		t.Errorf("the Japanese player's bid after P1 withdrew: %q, want refused with %q", r.Reply, want)
	}
}
