package rules_test

import (
	"testing"

	"titm/rules"
)

func TestMove_7_1_NoOverStackOn16December(t *testing.T) {
	s, st := moveGame(t)
	st, _ = mustPlay(t, s, st, "")
	st, _ = mustPlay(t, s, st, "")
	// 4 holds G/AR 4 and G/MX 3; G/IN 3 and G/EN 2 would make 12 SP.
	refused(t, s, st, "MOVE G/IN G/EN 5 4", "the move would make a German stack over 4 units or 10 SP in Eastbank (4), which 7.1 forbids on 16 December")
}

func TestStacking_7_2_RemoveOrder(t *testing.T) {
	s, st := moveGame(t)
	for st.Next.String() != "G17-1" {
		st, _ = mustPlay(t, s, st, "")
	}
	// 7.2: over the limit at the end of the impulse, the REMOVE order says
	// which unit goes; without it ruling B6 removes the weakest.
	next, ev := mustPlay(t, s, st, "MOVE G/IN G/EN G/RT 5 4\nREMOVE 4 G/MX")
	if !next.Unit("G/MX").Eliminated || next.Unit("G/EN").Eliminated {
		t.Errorf("removed %v", ev)
	}
	next, _ = mustPlay(t, s, st, "MOVE G/IN G/EN G/RT 5 4")
	if !next.Unit("G/RT").Eliminated { // B6: 1 SP, the lowest
		t.Errorf("B6 removed the wrong unit: %+v", next.Units)
	}
}

// 7.1: the German set-up stacks may stay over the limit until the end of
// 16-3, when 7.2 applies to them; the Allied never.
func TestSetupOverLimit_7_1(t *testing.T) {
	for _, c := range []struct {
		side rules.Side
		imp  string
		want bool
	}{
		{rules.German, "G16-1", true}, {rules.German, "G16-2", true}, {rules.German, "G16-3", false}, {rules.German, "G17-1", false},
		{rules.Allied, "A16-1", false},
	} {
		imp, err := rules.ParseImpulse(c.imp)
		if err != nil {
			t.Fatal(err)
		}
		if got := rules.SetupOverLimit(c.side, imp); got != c.want {
			t.Errorf("%s %s: %v, want %v", c.side, c.imp, got, c.want)
		}
	}
}
