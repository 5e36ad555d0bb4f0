package referee_test

import (
	"testing"
	"time"

	"titm/adjudicator"
	"titm/adjudicator/referee"
	"titm/rules"
	"titm/store"
)

// The machine's clock set back between two acts: the later act is logged
// at the earlier one's time, so that the log's times never go back and
// the game verifies; a game made after it begins no earlier either.
func TestClockSetBack(t *testing.T) {
	ref := referee.New(&referee.Options{Address: "referee@example.org", Deadline: 48 * time.Hour})
	st, id, _ := game(t, ref)
	for _, side := range []rules.Side{rules.German, rules.Allied} {
		act(t, st, func(tx *store.Tx) (*referee.Result, error) { return ref.Join(tx, id, side, "seed", start) })
	}
	act(t, st, func(tx *store.Tx) (*referee.Result, error) {
		return ref.Pause(tx, id, "a player is ill", start.Add(3*time.Hour))
	})
	// An hour back: the clock was three hours fast, and has been put right.
	res := act(t, st, func(tx *store.Tx) (*referee.Result, error) {
		return ref.Resume(tx, id, "he is well", start.Add(2*time.Hour))
	})
	if len(res.Records) != 1 || !res.Records[0].Time.Equal(start.Add(3*time.Hour)) {
		t.Fatalf("the resume was logged at %v, want the pause's time %v", res.Records, start.Add(3*time.Hour))
	}
	var x *adjudicator.Export
	if err := st.View(func(tx *store.Tx) error {
		g, err := tx.Game(id)
		if err != nil {
			return err
		}
		log, err := tx.Log(id)
		if err != nil {
			return err
		}
		x = adjudicator.MakeExport(g, log)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := adjudicator.Verify(x); err != nil {
		t.Errorf("the game does not verify: %v", err)
	}
	var c *referee.Created
	if err := st.Update(func(tx *store.Tx) error {
		var err error
		c, err = ref.New(tx, referee.NewGame{Scenario: "intro", German: "a@example.org", Allied: "b@example.org", Deadline: time.Hour}, start)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if !c.Game.Created.Equal(start.Add(3 * time.Hour)) {
		t.Errorf("a game made after was made at %v, want %v", c.Game.Created, start.Add(3*time.Hour))
	}
}
