// Package playout plays a game of a shipped scenario to its end through
// the adjudicator, every unit attacking where it can, for the tests that
// need a real finished game: its log, its export, its verification.
package playout

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"titm/adjudicator"
	"titm/adjudicator/tournament"
	"titm/internal/playtest"
	"titm/rules"
	"titm/rules/scenarios"
)

// Start is the time a game of Game is made at; each impulse is played an
// hour after the one before.
var Start = time.Date(2026, 11, 2, 8, 0, 0, 0, time.UTC)

// Game makes game id of the scenario, with a secret seed of 32 bytes of
// seed, both players joined, and plays it to its end with
// playtest.EveryAttack's orders. It returns the game and its whole log.
func Game(scenario, id string, seed byte) (*adjudicator.Game, []adjudicator.Record, error) {
	s, files, main, err := scenarios.LoadFiles(scenario)
	if err != nil {
		return nil, nil, err
	}
	now := Start
	g, log, err := adjudicator.New(adjudicator.Options{ID: id, Scenario: s, Files: files, Main: main,
		German: "g@example.test", Allied: "a@example.test", Deadline: 72 * time.Hour,
		Tokens: map[rules.Side]string{rules.German: "gggg-gggg-gggg", rules.Allied: "aaaa-aaaa-aaaa"},
		Secret: bytes.Repeat([]byte{seed}, adjudicator.SeedSize), Now: now})
	if err != nil {
		return nil, nil, err
	}
	for _, j := range []struct {
		side rules.Side
		seed string
	}{{rules.German, "g"}, {rules.Allied, "a"}} {
		recs, err := g.Join(j.side, j.seed, now)
		if err != nil {
			return nil, nil, fmt.Errorf("%s joins: %w", j.side, err)
		}
		log = append(log, recs...)
	}
	for g.Status == adjudicator.Playing {
		now = now.Add(time.Hour)
		text, err := playtest.EveryAttack(s, g.State)
		if err != nil {
			return nil, nil, fmt.Errorf("orders for %s: %w", g.Next, err)
		}
		recs, _, err := g.Submit(g.ToMove(), fmt.Sprintf("IMPULSE %d-%d\n%s", g.Next.Day, g.Next.N, text), now)
		if err != nil {
			return nil, nil, fmt.Errorf("playing %s: %w", g.Next, err)
		}
		log = append(log, recs...)
	}
	return g, log, nil
}

// BidTournament makes tournament t-1: a Swiss of four over two rounds of
// intro, with sealed bids, paired, the bids of its first pairing in and
// the round's sides decided, and no game made yet.
func BidTournament() (*tournament.Tournament, error) {
	t0 := time.Date(2026, 11, 2, 8, 0, 0, 0, time.UTC)
	s := &tournament.Settings{Name: "test", Director: "td@example.org", Scenarios: []string{"intro"}, Format: tournament.Swiss, Rounds: 2,
		Deadline: time.Hour, Sides: tournament.SidesBids, BidDeadline: time.Hour, TieBreaks: []string{tournament.TieBuchholz}}
	var tokens []string
	for i := range 4 {
		name := string(rune('A' + i))
		s.Players = append(s.Players, tournament.Entry{Name: name, Address: strings.ToLower(name) + "@example.org"})
		tokens = append(tokens, fmt.Sprintf("token-%d-xyz", i))
	}
	tr, err := tournament.New("t-1", s, bytes.Repeat([]byte{7}, 32), tokens, t0)
	if err != nil {
		return nil, err
	}
	if _, err := tr.Pair(t0); err != nil {
		return nil, err
	}
	p := tr.Current().Pairings[0]
	for _, i := range []int{p.A, p.B} {
		if _, err := tr.Bid(i, tournament.Bid{Side: rules.Allied, VP: 1}, t0.Add(time.Minute)); err != nil {
			return nil, err
		}
	}
	if _, err := tr.CloseBids(t0.Add(2 * time.Hour)); err != nil {
		return nil, err
	}
	return tr, nil
}
