package rules_test

import (
	"reflect"
	"testing"

	"titm/rules"
)

func combatGame(t *testing.T) (*rules.Scenario, *rules.State) {
	t.Helper()
	s, err := rules.LoadScenario(readOS, "../testdata/combat/scenario.toml")
	if err != nil {
		t.Fatal(err)
	}
	st := rules.NewState(s)
	st.Next, _ = rules.ParseImpulse("G16-2") // 10.26: no Allied demolition on 16 December
	return s, st
}

func fires(ev []rules.Event) []rules.FireRoll {
	var out []rules.FireRoll
	for _, e := range ev {
		if f, ok := e.(rules.FireRoll); ok {
			out = append(out, f)
		}
	}
	return out
}

// The rulebook's combat example: US armour and an entrenched mech defend
// against German armour, a 1-SP mech and two infantry that all crossed a
// bridge, with no German artillery. US fire has -2 (9.6, 9.71); the US
// armour fires at the German armour, rolls 2 and 8: one hit; the mech fires
// at the 2-SP infantry (9.53: not at the 1-SP mech), rolls 3, 5, 6: three
// hits, the third lost (9.22). Then the German armour hits on 1-4, the mech
// on 1-2 (the target is entrenched), the infantry on 1-3.
func TestCombat_RulebookExample(t *testing.T) {
	s, st := combatGame(t)
	dice := []int{
		9,    // US artillery call (1 for 5 SP, 9.42): fails (9.43)
		9, 7, // German calls (2 for 8 SP): fail (9.45)
		2, 8, // US armour
		3, 5, 6, // US mech
		4,       // German armour (1 SP left)
		2,       // German mech
		3, 3, 3, // German infantry
	}
	next, ev, err := playDice(t, s, st, "MOVE G/AR G/MX G/I2 G/I3 4 3", dice...)
	if err != nil {
		t.Fatal(err)
	}
	fs := fires(ev)
	if len(fs) != 5 {
		t.Fatalf("fire %v", fs)
	}
	want := []struct {
		unit, target string
		need         int
		modified     []int
		hits         int
	}{
		{"U/AR", "G/AR", 5, []int{0, 6}, 1},
		{"U/MX", "G/I2", 4, []int{1, 3, 4}, 3},
		{"G/AR", "U/AR", 4, []int{4}, 1},
		{"G/MX", "U/MX", 3, []int{3}, 1}, // 2 + 1 for the entrenched target: hits on 1-2
		{"G/I3", "", 3, []int{3, 3, 3}, 3},
	}
	for i, w := range want {
		f := fs[i]
		if f.Unit != w.unit || (w.target != "" && f.Target != w.target) || f.Need != w.need || !reflect.DeepEqual(f.Modified, w.modified) || f.Hits != w.hits {
			t.Errorf("fire %d: %+v, want %+v", i, f, w)
		}
	}
	if g := next.Unit("G/AR"); g.Strength != 1 {
		t.Errorf("German armour %d SP, want 1", g.Strength)
	}
	if g := next.Unit("G/I2"); !g.Eliminated {
		t.Errorf("the 2-SP infantry survived three hits")
	}
}
