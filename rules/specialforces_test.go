package rules_test

import (
	"strings"
	"testing"
	"titm/rules"
)

func sfGame(t *testing.T) (*rules.Scenario, *rules.State) {
	t.Helper()
	s, st := loadGame(t, "../testdata/move/sf.toml")
	return s, toTurn17(t, s, st)
}

func TestSF_14_11_OneADay(t *testing.T) {
	s, st := sfGame(t)
	st, ev := mustPlay(t, s, st, "SF 3 DELAY")
	if ev[0] != (rules.SFPlaced{Area: 3, Effect: "DELAY"}) {
		t.Errorf("events %v", ev)
	}
	st, _ = mustPlay(t, s, st, "")
	refused(t, s, st, "SF 2 DEMOLITION", "the special forces of 17 December are already used (14.11)")
	s2, st2 := moveGame(t)
	st2 = toTurn17(t, s2, st2)
	o := &rules.Orders{List: []rules.Order{rules.SpecialForces{Area: 3, Effect: "DELAY"}}, Lines: []int{1}}
	if _, _, err := rules.Play(s2, st2, o, &scripted{}); err == nil || !strings.Contains(err.Error(), "has no special forces (14.0)") {
		t.Errorf("error %v", err)
	}
}

func TestSF_14_21_EachEffectOnce(t *testing.T) {
	s, st := sfGame(t)
	st, _ = mustPlay(t, s, st, "SF 3 DELAY")
	for st.Next.String() != "G18-1" {
		st, _ = mustPlay(t, s, st, "")
	}
	refused(t, s, st, "SF 2 DELAY", "DELAY was used earlier in the game: each effect once (14.21)")
	mustPlay(t, s, st, "SF 2 CONFUSION 2")
}

func TestSF_14_22_Delay_14_3_Removal(t *testing.T) {
	s, st := sfGame(t)
	st, _ = mustPlay(t, s, st, "SF 2 DELAY")
	// A17-1: South (6) to Middle (2) costs 2 (secondary road) + 1 to enter
	// the special forces' area (14.22).
	next, ev := mustPlay(t, s, st, "MOVE U/MX 6 2")
	oneMove(t, ev, 3, "")
	// 14.3: the counter goes at the end of the Allied impulse after it.
	if next.SF != nil {
		t.Errorf("special forces still on the map after A17-1: %+v", next.SF)
	}
	// Going on to West (1): 1 (primary) + 1 (8.37: U/IN is there) + 1 to
	// leave the special forces' area (14.22).
	_, ev = mustPlay(t, s, st, "MOVE U/MX 6 2 1")
	oneMove(t, ev, 6, "")
}

func TestSF_14_23_Demolition(t *testing.T) {
	s, st := sfGame(t)
	place(st, "U/IN", rules.AreaPlace(3))
	// Placed first, then the crossing: U/IN now blows the bridge on a 1 only.
	_, ev, err := playDice(t, s, st, "SF 3 DEMOLITION\nMOVE G/MX 4 3", 1)
	if err != nil {
		t.Fatal(err)
	}
	want := rules.DemolitionTried{Bridge: "3-4", Unit: "U/IN", Roll: 1, Need: 1, Blown: true}
	if ev[1] != want {
		t.Errorf("event %v, want %v", ev[1], want)
	}
}

func TestSF_14_22_NotInThirdImpulse(t *testing.T) {
	s, st := sfGame(t)
	for st.Next.String() != "G17-3" {
		st, _ = mustPlay(t, s, st, "")
	}
	o := &rules.Orders{List: []rules.Order{rules.SpecialForces{Area: 3, Effect: "DELAY"}}, Lines: []int{1}}
	if _, _, err := rules.Play(s, st, o, &scripted{}); err == nil || !strings.Contains(err.Error(), "DELAY cannot be chosen in a third impulse (14.22)") {
		t.Errorf("error %v", err)
	}
}

// 14.24: CONFUSION acts on the one battle it names ("指定された戦闘"), fought
// in the impulse of its placement; the counter stays until the end of the
// Allied impulse after it (14.3), but a second battle in the same area in
// that Allied impulse gets no +1.
func TestSF_14_24_ConfusionOneBattle(t *testing.T) {
	s, st := sfGame(t)
	d := &recorder{roll: 10} // every die misses: both sides stay in South (6)
	play := func(body string) []rules.Event {
		t.Helper()
		o, err := rules.ParseOrders(body, s, &rules.ParseOptions{Side: st.Next.Side})
		if err != nil {
			t.Fatal(err)
		}
		var ev []rules.Event
		if st, ev, err = rules.Play(s, st, o, d); err != nil {
			t.Fatal(err)
		}
		return ev
	}
	cases := []struct {
		orders    string
		confusion bool
	}{
		{"SF 6 CONFUSION 6\nMOVE G/IN 5 6", true}, // G17-1: the named battle
		{"ATTACK 6", false},                       // A17-1: the counter is still there
	}
	for _, c := range cases {
		imp := st.Next
		ev := play(c.orders)
		if battleAt(ev, 6) == nil {
			t.Fatalf("%s: no battle at 6: %v", imp, ev)
		}
		n := 0
		for _, f := range fires(ev) {
			if f.Side != rules.Allied {
				continue
			}
			n++
			if got := containsMod(f.Mods, "+1 confusion (14.24)"); got != c.confusion {
				t.Errorf("%s: Allied fire %v, confusion %v, want %v", imp, f, got, c.confusion)
			}
		}
		if n == 0 {
			t.Errorf("%s: no Allied fire", imp)
		}
	}
	if st.SF != nil {
		t.Errorf("special forces still on the map after A17-1 (14.3): %+v", st.SF)
	}
}
