package adjudicator

import (
	"testing"
	"time"

	"titm/rules"
)

// No change of a game changes a position once made: standing orders, the
// impulses, a rollback and the end each make a new one. Snapshot and the
// replay's positions kept for rollbacks share the positions on the
// strength of it (a report written beside the replay reads its impulse's).
func TestPositionsNeverChange(t *testing.T) {
	g, log := newGame(t, "intro")
	at := func(h int) time.Time { return t0.Add(time.Duration(h) * time.Hour) }
	for i := range 4 {
		log = append(log, playImpulse(t, g, at(i+2))...)
	}
	recs, _, err := g.Submit(rules.Allied, "BLOW NONE\n", at(7))
	if err != nil {
		t.Fatal(err)
	}
	log = append(log, recs...)
	recs, err = g.Rollback(log, rules.Impulse{Side: rules.Allied, Day: 16, N: 1}, "a proven error", at(8))
	if err != nil {
		t.Fatal(err)
	}
	log = append(log, recs...)
	log = append(log, playImpulse(t, g, at(9))...)
	recs, err = g.Concede(g.State.Next.Side, at(10))
	if err != nil {
		t.Fatal(err)
	}
	log = append(log, recs...)

	type seen struct {
		st   *rules.State
		hash string
	}
	var positions []seen
	var snaps []*Game
	if _, err := VerifyWith(nil, MakeExport(g, log), func(rg *Game, recs []Record, _ []rules.Event) error {
		positions = append(positions, seen{rg.State, StateHash(rg.State)})
		snaps = append(snaps, rg.Snapshot())
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for i, p := range positions {
		if got := StateHash(p.st); got != p.hash {
			t.Errorf("change %d: its position was changed after it", i)
		}
	}
	// A snapshot's players are its own: the replay went on counting.
	last := snaps[len(snaps)-1]
	if first := snaps[1]; first.Players[rules.German] == last.Players[rules.German] || first.Players[rules.German].Impulses == last.Players[rules.German].Impulses {
		t.Errorf("the snapshots share their players: %+v, %+v", first.Players[rules.German], last.Players[rules.German])
	}
}
