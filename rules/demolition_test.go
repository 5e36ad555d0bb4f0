package rules_test

import (
	"strings"
	"testing"
	"titm/rules"
)

func TestBridge_10_29_DemolitionBlowsAndStops_8_42(t *testing.T) {
	s, st := moveGame(t)
	st = toTurn17(t, s, st)
	place(st, "U/IN", rules.AreaPlace(3)) // unmoved infantry: 1-4 (10.29)
	next, ev, err := playDice(t, s, st, "MOVE G/MX 4 3", 4)
	if err != nil {
		t.Fatal(err)
	}
	if !next.Bridge(3, 4).Blown || next.Unit("G/MX").Place != rules.AreaPlace(4) || !next.Unit("G/MX").Moved {
		t.Errorf("bridge %+v, G/MX %+v", next.Bridge(3, 4), next.Unit("G/MX"))
	}
	want := rules.DemolitionTried{Bridge: "3-4", Unit: "U/IN", Roll: 4, Need: 4, Blown: true}
	if ev[0] != want {
		t.Errorf("first event %v, want %v", ev[0], want)
	}
	// B2: the stack stops on the near side, having paid 1 MP (8.36).
	oneMove(t, ev, 1, " spent at the near side")
}

func TestBridge_10_2_DemolitionFails(t *testing.T) {
	s, st := moveGame(t)
	st = toTurn17(t, s, st)
	place(st, "U/IN", rules.AreaPlace(3))
	// The bridge holds (5 against 1-4), G/MX enters 3, held by U/IN: a
	// battle (9.12).
	d := &recorder{roll: 10, first: []int{5}}
	o, _ := rules.ParseOrders("MOVE G/MX 4 3", s, nil)
	next, ev, err := rules.Play(s, st, o, d)
	if err != nil {
		t.Fatal(err)
	}
	if ev[0] != (rules.DemolitionTried{Bridge: "3-4", Unit: "U/IN", Roll: 5, Need: 4}) || next.Bridge(3, 4).Blown || battleAt(ev, 3) == nil {
		t.Errorf("events %v", ev)
	}
}

func TestBridge_10_26_NoAlliedDemolitionOn16December(t *testing.T) {
	s, st := moveGame(t)
	st, _ = mustPlay(t, s, st, "")
	st, _ = mustPlay(t, s, st, "")
	place(st, "U/IN", rules.AreaPlace(3))
	d := &recorder{roll: 10}
	o, _ := rules.ParseOrders("MOVE G/MX 4 3", s, nil)
	_, ev, err := rules.Play(s, st, o, d)
	if err != nil || d.rolled("demolition") || battleAt(ev, 3) == nil {
		t.Errorf("error %v, dice %v: no try on 16 December, so the battle comes", err, d.purposes)
	}
}

func TestBridge_B1_BlowNone(t *testing.T) {
	s, st := moveGame(t)
	st = toTurn17(t, s, st)
	place(st, "U/IN", rules.AreaPlace(3))
	o, _ := rules.ParseOrders("BLOW NONE", s, &rules.ParseOptions{Side: rules.Allied})
	st, err := rules.ApplyStanding(st, rules.Allied, o)
	if err != nil {
		t.Fatal(err)
	}
	d := &recorder{roll: 10}
	o, _ = rules.ParseOrders("MOVE G/MX 4 3", s, nil)
	if _, _, err := rules.Play(s, st, o, d); err != nil || d.rolled("demolition") {
		t.Errorf("error %v, dice %v: BLOW NONE tries nothing (B1)", err, d.purposes)
	}
}

func TestBridge_DiceRunOut(t *testing.T) {
	s, st := moveGame(t)
	st = toTurn17(t, s, st)
	place(st, "U/IN", rules.AreaPlace(3))
	_, _, err := playDice(t, s, st, "MOVE G/MX 4 3")
	if err == nil || !strings.Contains(err.Error(), "no scripted die left for G17-1 demolition 3-4 by U/IN") {
		t.Errorf("error %v", err)
	}
}

func TestBridge_10_1_Repair(t *testing.T) {
	s, st := moveGame(t)
	st = toTurn17(t, s, st)
	st.Bridge(3, 4).Blown = true
	place(st, "G/EN", rules.AreaPlace(4))
	// 10.12: a friendly unit must stand at the other end; it may arrive in
	// this impulse, on foot across the blown bridge.
	refused(t, s, st, "REPAIR 3-4 BY G/EN", "no friendly unit stands at the other end of bridge 3-4, in Bridgehead (3) (10.12)")
	next, ev, err := playDice(t, s, st, "FOOT G/MX 4 3\nREPAIR 3-4 BY G/EN", 5)
	if err != nil {
		t.Fatal(err)
	}
	last := ev[len(ev)-3]
	if want := (rules.RepairTried{Bridge: "3-4", Unit: "G/EN", Roll: 5, Need: 4}); last != want {
		t.Errorf("event %v, want %v", last, want)
	}
	// 10.16: the failure stays with the bridge and widens the next try.
	if b := next.Bridge(3, 4); !b.Blown || b.RepairFailures != 1 {
		t.Errorf("bridge %+v", b)
	}
	next, _ = mustPlay(t, s, next, "") // A17-1
	// 10.16: one try each impulse; the engineer has not moved.
	refused(t, s, next, "MOVE G/EN 4 5", "G/EN tried to repair a bridge this turn and may not move (10.14)")
	next, ev, err = playDice(t, s, next, "REPAIR 3-4 BY G/EN", 5)
	if err != nil {
		t.Fatal(err)
	}
	if b := next.Bridge(3, 4); b.Blown {
		t.Errorf("bridge not repaired on 5 after one failure (10.16): %+v %v", b, ev)
	}
	// 10.14: an engineer that moved this turn does not repair.
	st.Bridge(3, 4).Blown = true
	place(st, "G/IN", rules.AreaPlace(3))
	refused(t, s, st, "MOVE G/EN 4 5 4\nREPAIR 3-4 BY G/EN", "G/EN moved or attacked this turn: an engineer repairs from where it began the turn, without moving or attacking (10.12, 10.14)")
}

// The rulebook's bridging example on the shipped map: a German mech unit
// crosses from Dasburg to Marnach over the blown bridge on foot, 3 MP and 1
// for the units in Marnach (8.34, 8.37); armour cannot follow; the engineer
// in Dasburg tries to repair the bridge at the end of the impulse (10.1).
// In the rulebook Marnach holds Allied units and a battle follows; here a
// German unit stands there instead, to isolate the movement and repair.
func TestExample_Bridging(t *testing.T) {
	s, st := germansAlone(t)
	place(st, "116/60", rules.AreaPlace(70))
	next, ev, err := playDice(t, s, st, "FOOT 2/304 51 70\nREPAIR 51-70 BY 600E", 3)
	if err != nil {
		t.Fatal(err)
	}
	oneMove(t, ev, 4, " (3 for the blown bridge, 1 for the occupied area)")
	if next.Bridge(51, 70).Blown || !next.Unit("2/304").Dismounted {
		t.Errorf("bridge %+v, 2/304 %+v", next.Bridge(51, 70), next.Unit("2/304"))
	}
	refused(t, s, st, "MOVE 2/3 51 70", "bridge 51-70 is blown: armour cannot cross it (8.34)")
}
