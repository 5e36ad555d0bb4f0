package adjudicator

import (
	"slices"
	"testing"

	"titm/adjudicator/lang"
	"titm/rules"
)

// ReplaySteps calls its step once for each change, in the log's order,
// with the change's records and, for an impulse, its events and the game
// as the impulse left it; VerifyWith verifies as Verify does while it
// steps.
func TestReplaySteps(t *testing.T) {
	g, log := newGame(t, "intro")
	log = playOut(t, g, log)
	if g.Status != Finished {
		t.Fatalf("the game is %s", g.Status)
	}
	x := MakeExport(g, log)
	var seen []Record
	var impulses, changes int
	step := func(rg *Game, recs []Record, events []rules.Event) error {
		changes++
		seen = append(seen, recs...)
		if rg.Head != recs[len(recs)-1].Hash {
			t.Errorf("change %d: the game's head is not its last record's", changes)
		}
		if recs[0].Kind == KindImpulse {
			impulses++
			if len(events) == 0 {
				t.Errorf("impulse %s without events", recs[0].Impulse)
			}
			if _, err := ReportIn(lang.EN(), rg, recs, events); err != nil {
				t.Errorf("the report of %s: %v", recs[0].Impulse, err)
			}
		}
		return nil
	}
	v, err := VerifyWith(nil, x, step)
	if err != nil {
		t.Fatal(err)
	}
	want, err := Verify(x)
	if err != nil || v.Impulses != want.Impulses || v.Dice != want.Dice || !v.DiceChecked {
		t.Errorf("VerifyWith %+v, Verify %+v, %v", v, want, err)
	}
	if impulses != v.Impulses || !slices.EqualFunc(seen, log, func(a, b Record) bool { return a.Hash == b.Hash }) {
		t.Errorf("%d impulses stepped of %d; %d records of %d", impulses, v.Impulses, len(seen), len(log))
	}
	// The step's error stops the replay.
	stop := &Discrepancy{What: "stop"}
	n := 0
	if _, err := ReplaySteps(nil, g.Header(), log, nil, func(*Game, []Record, []rules.Event) error {
		if n++; n == 3 {
			return stop
		}
		return nil
	}); err != stop || n != 3 {
		t.Errorf("after %d steps: %v", n, err)
	}
}
