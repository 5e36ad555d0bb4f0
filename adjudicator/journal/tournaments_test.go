package journal

import (
	"strings"
	"testing"
	"time"

	"titm/adjudicator"
	"titm/adjudicator/lang"
	"titm/adjudicator/tournament"
	"titm/rules"
)

// The bids' VP are told as the side that gives them.
func TestBidsTextGive(t *testing.T) {
	name := func(i int) string { return []string{"Anna", "Bert"}[i] }
	for _, c := range []struct {
		give int
		want string
	}{
		{-1, "Anna bid 0 VP for the German side; Bert bid 1 VP for the Allied side; the Allied side gives 1 VP"},
		{3, "Anna bid 0 VP for the German side; Bert bid 1 VP for the Allied side; the German side gives 3 VP"},
	} {
		p := &tournament.Pairing{A: 0, B: 1, German: 0, Give: c.give,
			Bids: [2]*tournament.Bid{{Side: rules.German}, {Side: rules.Allied, VP: 1}}}
		if got := bidsText(lang.EN(), p, name); got != c.want {
			t.Errorf("give %d: %q, want %q", c.give, got, c.want)
		}
	}
}

// A pairing not done tells where its game stands, from the game itself:
// waiting for both players or for one, in play, paused, or over with its
// result not yet the pairing's; in Japanese as in English.
func TestPairingResult(t *testing.T) {
	joined := &adjudicator.Player{Joined: time.Date(2026, 11, 2, 8, 0, 0, 0, time.UTC)}
	game := func(s adjudicator.Status, paused bool, german, allied *adjudicator.Player) *adjudicator.Game {
		return &adjudicator.Game{Status: s, Paused: paused, Result: "German decisive victory",
			Players: map[rules.Side]*adjudicator.Player{rules.German: german, rules.Allied: allied}}
	}
	for _, c := range []struct {
		name   string
		pr     tournament.Pairing
		g      *adjudicator.Game
		en, ja string
	}{
		{"no game yet", tournament.Pairing{A: 0, B: 1}, nil, "waiting for the sides", "陣営の決定待ち"},
		{"both to join", tournament.Pairing{A: 0, B: 1, Game: "intro-2"}, game(adjudicator.Forming, false, &adjudicator.Player{}, &adjudicator.Player{}),
			"waiting for both players to join", "両プレイヤーの参加待ち"},
		{"the Allied player to join", tournament.Pairing{A: 0, B: 1, Game: "intro-2"}, game(adjudicator.Forming, false, joined, &adjudicator.Player{}),
			"waiting for the Allied player to join", "連合軍プレイヤーの参加待ち"},
		{"in play", tournament.Pairing{A: 0, B: 1, Game: "intro-2"}, game(adjudicator.Playing, false, joined, joined), "in play", "進行中"},
		{"paused", tournament.Pairing{A: 0, B: 1, Game: "intro-2"}, game(adjudicator.Playing, true, joined, joined), "paused", "中断"},
		{"over", tournament.Pairing{A: 0, B: 1, Game: "intro-2"}, game(adjudicator.Finished, false, joined, joined), "finished: German decisive victory", "終了: "},
		{"done", tournament.Pairing{A: 0, B: 1, Game: "intro-2", Done: true, How: "draw", Points: [2]float64{0.5, 0.5}}, nil, "draw: Anna 0.5, Bert 0.5", "引き分け: Anna 0.5点、Bert 0.5点"},
	} {
		for _, l := range []struct{ code, want string }{{"en", c.en}, {"ja", c.ja}} {
			pv := pairingView{A: "Anna", B: "Bert"}
			if c.g != nil {
				pv.GameStatus = gameStatus(c.g)
			}
			if got := pairingResult(lang.For(l.code), &c.pr, &pv, c.g); !strings.HasPrefix(got, l.want) {
				t.Errorf("%s, %s: %q, want %q", c.name, l.code, got, l.want)
			}
		}
	}
}
