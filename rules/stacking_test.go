package rules_test

import (
	"slices"
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

// TestStacking_7_2_AtTheLimit: at the end of a movement impulse a side may
// have 4 units and 10 SP in an area (7.1); one SP or one unit over, its
// units are removed whole until within the limit (7.2): those its REMOVE
// order names for the area first, in its order, then by ruling B6 the
// lowest SP, ties the lowest quality (9.51), then the unit id. On 16
// December the German set-up stacks are over the limit until the end of
// G16-3 (7.1). The move scenario sets up G/AR (armour, 4 SP) and G/MX (mech,
// 3) in 4, G/IN (infantry, 3), G/EN (engineer, 2) and G/RT (armour, 1) in 5.
func TestStacking_7_2_AtTheLimit(t *testing.T) {
	s, _ := moveGame(t)
	const at4 = "[[unit]]\nid = \"G/IN\"\nat = 4\n[[unit]]\nid = \"G/RT\"\nat = 4\n" // 4+3+3+1 = 11 SP
	for _, c := range []struct {
		name     string
		position string // after next
		orders   string
		removed  []string
		why      string
	}{
		// 16 December: the set-up stacks (7.1).
		{"G16-2 set-up stack at 11 SP kept", "next = \"G16-2\"\n" + at4, "", nil, ""},
		{"G16-3 set-up stack at 11 SP, B6 lowest SP", "next = \"G16-3\"\n" + at4, "", []string{"G/RT"}, rules.RemovedByPolicy},
		{"G16-3 set-up stack at exactly 10 SP kept", "next = \"G16-3\"\n" + at4 + "[[unit]]\nid = \"G/MX\"\nstrength = 2\n", "", nil, ""},
		{"G16-3 set-up stack at 11 SP, REMOVE", "next = \"G16-3\"\n" + at4, "REMOVE 4 G/AR", []string{"G/AR"}, rules.RemovedByOrder},
		// A later day: the same limit for every stack.
		{"exactly 10 SP and 4 units", "next = \"G17-1\"\n[[unit]]\nid = \"G/IN\"\nstrength = 2\n", "MOVE G/IN G/RT 5 4", nil, ""},
		{"11 SP, B6 lowest SP", "next = \"G17-1\"\n", "MOVE G/IN G/RT 5 4", []string{"G/RT"}, rules.RemovedByPolicy},
		{"11 SP, B6 SP tied, lowest quality", "next = \"G17-1\"\n[[unit]]\nid = \"G/IN\"\nstrength = 2\n", "MOVE G/IN G/EN 5 4", []string{"G/IN"}, rules.RemovedByPolicy},
		{"5 units at 10 SP, B6 SP and quality tied, unit id", "next = \"G17-1\"\n[[unit]]\nid = \"G/AR\"\nstrength = 1\n", "MOVE G/IN G/EN G/RT 5 4", []string{"G/AR"}, rules.RemovedByPolicy},
		{"13 SP and 5 units, B6 twice", "next = \"G17-1\"\n", "MOVE G/IN G/EN G/RT 5 4", []string{"G/RT", "G/EN"}, rules.RemovedByPolicy},
		{"11 SP, REMOVE", "next = \"G17-1\"\n", "MOVE G/IN G/RT 5 4\nREMOVE 4 G/MX", []string{"G/MX"}, rules.RemovedByOrder},
		{"11 SP, REMOVE names more than needed", "next = \"G17-1\"\n", "MOVE G/IN G/RT 5 4\nREMOVE 4 G/IN G/MX", []string{"G/IN"}, rules.RemovedByOrder},
		{"11 SP, REMOVE names a unit elsewhere, then B6", "next = \"G17-1\"\n", "MOVE G/IN G/RT 5 4\nREMOVE 4 G/EN", []string{"G/RT"}, rules.RemovedByPolicy},
	} {
		t.Run(c.name, func(t *testing.T) {
			st, err := rules.ReadState(s, "pos.toml", []byte(c.position))
			if err != nil {
				t.Fatal(err)
			}
			next, ev := mustPlay(t, s, st, c.orders)
			var removed []string
			for _, e := range ev {
				if r, ok := e.(rules.StackRemoved); ok {
					removed = append(removed, r.Unit)
					if r.Area != 4 || r.Why != c.why {
						t.Errorf("%s removed from %d by %q, want from 4 by %q", r.Unit, r.Area, r.Why, c.why)
					}
					if !next.Unit(r.Unit).Eliminated {
						t.Errorf("%s removed but not eliminated", r.Unit)
					}
				}
			}
			if !slices.Equal(removed, c.removed) {
				t.Errorf("removed %v, want %v (events %v)", removed, c.removed, ev)
			}
			sp, n := 0, 0
			for _, u := range next.Units {
				if u.OnMap() && u.Place == rules.AreaPlace(4) {
					sp, n = sp+u.Strength, n+1
				}
			}
			if c.position[:15] != "next = \"G16-2\"\n" && (sp > rules.StackSP || n > rules.StackUnits) {
				t.Errorf("4 holds %d units and %d SP after 7.2", n, sp)
			}
		})
	}
}
