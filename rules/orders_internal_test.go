package rules

import (
	"os"
	"testing"
)

func TestKindTableFits(t *testing.T) {
	if len(kinds) > maxKinds {
		t.Fatalf("%d order kinds; raise maxKinds (%d)", len(kinds), maxKinds)
	}
	for i, k := range kinds {
		if k.index != i || kindByKeyword(k.keyword) != k {
			t.Errorf("kind %s indexed wrongly", k.keyword)
		}
	}
}

// 10.29: the demolition table.
func TestDemolitionNeed_10_29(t *testing.T) {
	tests := []struct {
		t     UnitType
		moved bool
		want  int
	}{
		{Engineer, false, 8}, {Engineer, true, 4},
		{Infantry, false, 4}, {Infantry, true, 2},
		{Mech, false, 4}, {Mot, true, 2},
	}
	for _, tt := range tests {
		if got := demolitionNeed(tt.t, tt.moved); got != tt.want {
			t.Errorf("%s moved %v: %d, want %d", tt.t, tt.moved, got, tt.want)
		}
	}
}

// 10.23, 10.24, 10.25: the bookkeeping of demolition tries inside one impulse.
func TestDemolish_10_23_10_24_10_25(t *testing.T) {
	read := func(n string) ([]byte, error) { return os.ReadFile(n) }
	s, err := LoadScenario(read, "../testdata/move/scenario.toml")
	if err != nil {
		t.Fatal(err)
	}
	st := NewState(s)
	imp, _ := ParseImpulse("G17-1")
	st.Next = imp
	u := st.Unit("U/IN")
	u.Place = AreaPlace(3)
	rolls := 0
	g := &game{s: s, st: st, imp: imp, exec: true, dice: diceFunc(func(string) (int, error) { rolls++; return 9, nil })}
	g.startImpulse()
	r := s.Map.Road(3, 4)
	if g.demolish(r, German) || rolls != 1 {
		t.Fatalf("first try: %d rolls", rolls)
	}
	// 10.25: one try per bridge per impulse.
	if g.demolish(r, German) || rolls != 1 {
		t.Errorf("a second try at the same bridge in one impulse (10.25)")
	}
	// 10.23: a unit tries at most two bridges an impulse.
	g = &game{s: s, st: st, imp: imp, exec: true, dice: diceFunc(func(string) (int, error) { rolls++; return 1, nil })}
	g.startImpulse()
	g.tries["U/IN"] = 2
	if g.demolish(r, German) || rolls != 1 {
		t.Errorf("a third try by one unit in an impulse (10.23)")
	}
	// 10.24: not from an area the enemy held at the start of the impulse.
	g = &game{s: s, st: st, imp: imp, exec: true, dice: diceFunc(func(string) (int, error) { rolls++; return 1, nil })}
	st.Unit("G/IN").Place = AreaPlace(3)
	g.startImpulse()
	if g.demolish(r, German) || rolls != 1 {
		t.Errorf("a try from an area the Germans held at the start of the impulse (10.24)")
	}
}

type diceFunc func(string) (int, error)

func (f diceFunc) Roll(p string) (int, error) { return f(p) }

// BenchmarkBattle4v4 fights one battle of four units against four, with
// artillery on both sides (9.3). Target: under 50 µs.
func BenchmarkBattle4v4(b *testing.B) {
	s, err := LoadScenario(func(n string) ([]byte, error) { return os.ReadFile(n) }, "../testdata/combat/scenario.toml")
	if err != nil {
		b.Fatal(err)
	}
	start := NewState(s)
	start.Next, _ = ParseImpulse("G17-1")
	for _, id := range []string{"G/AR", "G/MX", "G/I2", "G/I3", "U/AR", "U/MX", "U/IN", "U/EN"} {
		u := start.Unit(id)
		u.Place, u.Strength = AreaPlace(3), 3
	}
	dice := diceFunc(func(string) (int, error) { return 3, nil })
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer() // the position is made afresh for each battle, untimed
		st := start.Clone()
		g := &game{s: s, st: st, imp: start.Next, exec: true, dice: dice}
		g.startImpulse()
		b.StartTimer()
		var att, def []*UnitState
		for _, u := range st.Units {
			if s.OOB.Unit(u.ID).Side == German {
				att = append(att, u)
			} else {
				def = append(def, u)
			}
		}
		g.fight(&battle{area: 3, attackers: att, defenders: def})
		if g.err != nil {
			b.Fatal(g.err)
		}
	}
}
