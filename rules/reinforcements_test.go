package rules_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"titm/rules"
)

func TestReinforcements_11_11_Arrival(t *testing.T) {
	s, st := moveGame(t)
	refused(t, s, st, "MOVE G/RF A 5", "G/RF has not arrived yet: it arrives G16-2 in zone A (11.11)")
	st, _ = mustPlay(t, s, st, "")
	st, _ = mustPlay(t, s, st, "")
	next, ev := mustPlay(t, s, st, "MOVE G/RF A 5")
	if ev[0] != (rules.Arrived{Unit: "G/RF", Zone: "A"}) {
		t.Errorf("first event %v, want the arrival", ev[0])
	}
	if next.Unit("G/RF").Place != rules.AreaPlace(5) {
		t.Errorf("G/RF at %v", next.Unit("G/RF").Place)
	}
	// 11.15: it may also wait in its zone.
	next, _ = mustPlay(t, s, st, "")
	if next.Unit("G/RF").Place != rules.ZonePlace("A") {
		t.Errorf("G/RF waits at %v, want zone A", next.Unit("G/RF").Place)
	}
}

func TestReinforcements_11_14_ShiftedZone(t *testing.T) {
	s, st := moveGame(t)
	st, _ = mustPlay(t, s, st, "")
	st, _ = mustPlay(t, s, st, "")
	// In its arrival impulse it cannot yet shift to the next zone.
	refused(t, s, st, "MOVE G/RF B 5", "G/RF cannot enter by zone B: a reinforcement may enter by a zone next to its own one impulse later, for 2 MP a zone (11.14)")
	st, _ = mustPlay(t, s, st, "")
	st, _ = mustPlay(t, s, st, "")
	// One impulse later, by B, for 2 MP more: B -> 5 costs 1 (primary
	// into a zone's area, 11.13) + 1 (5 holds German units, 8.37).
	_, ev := mustPlay(t, s, st, "MOVE G/RF B 5")
	oneMove(t, ev, 4, " (2 for the shift, 11.14)")
}

func TestZones_11_22_11_23_Closed(t *testing.T) {
	s, st := moveGame(t)
	st, _ = mustPlay(t, s, st, "")
	place(st, "U/AR", rules.AreaPlace(3))
	place(st, "G/AR", rules.AreaPlace(6))
	place(st, "G/MX", rules.AreaPlace(6))
	// The parser refuses a zone closed to the units' side already; the
	// engine checks again for orders built in code.
	o := &rules.Orders{List: []rules.Order{rules.Move{Units: []string{"U/AR"}, Path: []rules.Place{rules.AreaPlace(3), rules.AreaPlace(4), rules.ZonePlace("A")}}}, Lines: []int{1}}
	_, _, err := rules.Play(s, st, o, &scripted{})
	if err == nil || !strings.Contains(err.Error(), "zone A is closed to Allied units (11.22, 11.23)") {
		t.Errorf("error %v", err)
	}
}

func TestReinforcements_11_21_NotFromGermanHeldZone(t *testing.T) {
	s, st := moveGame(t)
	st, _ = mustPlay(t, s, st, "")
	place(st, "G/IN", rules.ZonePlace("D"))
	refused(t, s, st, "MOVE U/AR D 1", "zone D holds German units: Allied reinforcements cannot enter from it (11.21)")
}

// B7: a US unit with several entry zones may leave by any of them in its
// arrival impulse; unmoved, it waits in the first.
func TestReinforcements_B7_SeveralZones(t *testing.T) {
	s := scenario(t, "campaign")
	var u *rules.Unit
	for _, x := range s.Units {
		if x.Side == rules.Allied && len(x.Zones) > 1 && x.Arrival.Day > 0 {
			u = x
			break
		}
	}
	if u == nil {
		t.Fatal("no Allied reinforcement with several zones")
	}
	st := rules.NewState(s)
	for st.Next != u.Arrival {
		var err error
		if st, _, err = rules.Play(s, st, nil, &scripted{}); err != nil {
			t.Fatal(err)
		}
	}
	if p := st.Unit(u.ID).Place; p != rules.ZonePlace(u.Zones[0]) {
		t.Fatalf("%s waits in %v, want its first zone %s", u.ID, p, u.Zones[0])
	}
	second := s.Map.Zone(u.Zones[1])
	body := fmt.Sprintf("MOVE %s %s %d", u.ID, second.ID, second.Areas[0])
	next, ev := mustPlay(t, s, st, body)
	if p := next.Unit(u.ID).Place; p != rules.AreaPlace(second.Areas[0]) {
		t.Errorf("%s at %v after %q; events %v", u.ID, p, body, ev)
	}
}

// TestReserve_11_33_AnyReleaseArea: a group is released when the Germans
// have more SP than the Allies in any one of its release areas at the end of
// an Allied impulse (11.3, 11.33); its units arrive in their first entry
// zone, in supply, and may move from the next German impulse (11.11, 11.12).
// A group is released once; a group whose units take no part in the scenario
// is never released.
func TestReserve_11_33_AnyReleaseArea(t *testing.T) {
	s := vicScenario(t)
	st := vicEmpty(s)
	// 6 (north's second area, and absent's): 7 German SP against 4.
	// 5 (north's first, south's only): 3 against 5.
	vicPut(t, st, map[string]rules.Place{
		"G/AR": vA(6), "G/IN": vA(6), "U/AR": vA(6),
		"G/MX": vA(5), "U/EN": vA(5), "U/IN": vA(5),
	})
	ev := st.ReleaseReserves(s)
	want := []rules.Event{
		rules.Released{Group: "north", Area: 6, GermanSP: 7, AlliedSP: 4},
		rules.Arrived{Unit: "R/PZ", Zone: "A"},
		rules.Arrived{Unit: "R/GR", Zone: "B"}, // B7: the first of its zones
	}
	if !reflect.DeepEqual(ev, want) {
		t.Errorf("events %v, want %v", ev, want)
	}
	if !reflect.DeepEqual(st.Released, []string{"north"}) {
		t.Errorf("released %v, want [north]", st.Released)
	}
	for id, z := range map[string]string{"R/PZ": "A", "R/GR": "B"} {
		u := st.Unit(id)
		if !u.Arrived || u.Place != vZ(z) || u.TurnStart != vZ(z) || !u.InSupply || u.Moved || !u.OnMap() {
			t.Errorf("%s after release: %+v, want arrived in zone %s, in supply, not moved", id, u, z)
		}
	}
	if u := st.Unit("S/PZ"); u.Arrived {
		t.Errorf("south released without superiority in 5: %+v", u)
	}
	if again := st.ReleaseReserves(s); len(again) != 0 {
		t.Errorf("a released group is released again: %v", again)
	}

	// Now the Germans are stronger in 5: south follows; north is not
	// released twice.
	vicPut(t, st, map[string]rules.Place{"U/IN": vA(7)})
	ev = st.ReleaseReserves(s)
	want = []rules.Event{
		rules.Released{Group: "south", Area: 5, GermanSP: 3, AlliedSP: 2},
		rules.Arrived{Unit: "S/PZ", Zone: "B"},
	}
	if !reflect.DeepEqual(ev, want) || !reflect.DeepEqual(st.Released, []string{"north", "south"}) {
		t.Errorf("events %v, released %v; want south released by 5", ev, st.Released)
	}
	for _, e := range ev {
		if r, ok := e.(rules.Released); ok && r.Group == "absent" {
			t.Errorf("the group outside the scenario was released")
		}
	}
}

// TestReserve_11_3_NotWithoutSuperiority: superiority is more SP (present
// strength, summed) than the Allies in a release area; equal or fewer SP,
// more SP elsewhere, or Germans in a zone release nothing (11.3).
func TestReserve_11_3_NotWithoutSuperiority(t *testing.T) {
	cases := []struct {
		name     string
		at       map[string]rules.Place
		strength map[string]int
		released []string
	}{
		{"no units anywhere", nil, nil, nil},
		{"equal SP in 5", map[string]rules.Place{"G/IN": vA(5), "U/IN": vA(5)}, nil, nil},
		{"fewer SP in 6", map[string]rules.Place{"G/EN": vA(6), "U/IN": vA(6)}, nil, nil},
		{"a reduced unit: 2 SP left against 3", map[string]rules.Place{"G/AR": vA(6), "U/IN": vA(6)}, map[string]int{"G/AR": 2}, nil},
		{"more units, fewer SP", map[string]rules.Place{"G/EN": vA(5), "G/MX": vA(5), "U/AR": vA(5)}, map[string]int{"G/MX": 1}, nil},
		{"superiority outside the release areas", map[string]rules.Place{"G/AR": vA(3), "G/IN": vA(7)}, nil, nil},
		{"Germans in zones only", map[string]rules.Place{"G/AR": vZ("A"), "G/IN": vZ("D")}, nil, nil},
		{"Allied alone in 5 and 6", map[string]rules.Place{"U/IN": vA(5), "U/AR": vA(6)}, nil, nil},
		{"one SP more in 6", map[string]rules.Place{"G/AR": vA(6), "U/IN": vA(6)}, nil, []string{"north"}},
		{"Germans alone in 5", map[string]rules.Place{"G/EN": vA(5)}, nil, []string{"north", "south"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := vicScenario(t)
			st := vicEmpty(s)
			vicPut(t, st, c.at)
			for id, n := range c.strength {
				st.Unit(id).Strength = n
			}
			ev := st.ReleaseReserves(s)
			if !reflect.DeepEqual(st.Released, c.released) {
				t.Errorf("released %v, want %v (events %v)", st.Released, c.released, ev)
			}
			if len(c.released) == 0 && len(ev) != 0 {
				t.Errorf("events without a release: %v", ev)
			}
			for _, id := range []string{"R/PZ", "R/GR", "S/PZ"} {
				g := s.OOB.Unit(id).Group
				if got := st.Unit(id).Arrived; got != contains(c.released, g) {
					t.Errorf("%s arrived = %v with groups %v released", id, got, c.released)
				}
			}
		})
	}
}

// TestReserve_11_31_ShippedGroups: the shipped groups of The 5th Panzer Army
// (11.31): the II SS Panzer Corps is released by St. Vith (47), inside the
// scenario's map; Malmedy (44), its other release area, lies outside it and
// counts for nothing there. Groups whose units take no part are ignored.
func TestReserve_11_31_ShippedGroups(t *testing.T) {
	s := vicShipped(t, "fifth-panzer")
	st := vicEmpty(s)
	vicPut(t, st, map[string]rules.Place{"116/60": vA(44)})
	if ev := st.ReleaseReserves(s); len(ev) != 0 || len(st.Released) != 0 {
		t.Errorf("superiority outside the scenario's map released %v: %v", st.Released, ev)
	}
	vicPut(t, st, map[string]rules.Place{"116/60": vA(47), "1107E": vA(47)})
	ev := st.ReleaseReserves(s)
	// St. Vith is also a release area of the OKW reserve (47, 85, 88).
	if !reflect.DeepEqual(st.Released, []string{"iiss", "okw"}) {
		t.Fatalf("released %v, want [iiss okw]: %v", st.Released, ev)
	}
	if r := vicEvents[rules.Released](ev); len(r) != 2 || r[0] != (rules.Released{Group: "iiss", Area: 47, GermanSP: 3, AlliedSP: 2}) {
		t.Errorf("released events %v", r)
	}
	for _, u := range s.Units {
		if u.Group != "iiss" && u.Group != "okw" {
			continue
		}
		if us := st.Unit(u.ID); !us.Arrived || us.Place != vZ(u.Zones[0]) {
			t.Errorf("%s of %s: %+v, want in zone %s", u.ID, u.Group, us, u.Zones[0])
		}
	}
}

// TestReserve_11_14_ReleasedUnits: a released panzer-reserve unit is a
// reinforcement (11.3) from the impulse it is placed in: in the first German
// impulse after its release it may leave by any of its zones (11.11, B7),
// and one impulse later by a zone next to them, for 2 MP (11.14). The
// campaign without Allied units: a German unit in Diekirch (57) releases
// the OKW reserve for the 7th Army (Fuh Gren, zones C then B) at the end of
// A17-1.
func TestReserve_11_14_ReleasedUnits(t *testing.T) {
	s, st := germansAlone(t)
	place(st, "212/316", a(57))
	st, _ = mustPlay(t, s, st, "")
	st, ev := mustPlay(t, s, st, "")
	if r := eventsOf[rules.Released](ev); len(r) != 1 || r[0].Group != "okw-south" {
		t.Fatalf("released %v, want okw-south by Diekirch", r)
	}
	for _, id := range []string{"FGB/Pz", "FGB/Gr"} {
		if p := st.Unit(id).Place; p != rules.ZonePlace("C") {
			t.Fatalf("%s placed in %v, want its first zone C", id, p)
		}
	}
	// The impulse of the release goes with the position when it is saved.
	st, err := rules.LoadState(s, []byte(mustJSON(t, st)))
	if err != nil {
		t.Fatal(err)
	}
	// G17-2, its first impulse: by B, its second zone; not yet by A.
	refused(t, s, st, "MOVE FGB/Gr A 39", "FGB/Gr cannot enter by zone A: a reinforcement may enter by a zone next to its own one impulse later, for 2 MP a zone (11.14)")
	st, ev = mustPlay(t, s, st, "MOVE FGB/Pz B 29")
	oneMove(t, ev, 1, " (B7: its own zone B, no shift)")
	if p := st.Unit("FGB/Pz").Place; p != a(29) {
		t.Errorf("FGB/Pz at %v, want 29", p)
	}
	// G17-3, one impulse later: by A, next to B, for 2 MP more: A -> 39
	// costs 1 (11.13) + 1 (39 holds German units, 8.37).
	st, _ = mustPlay(t, s, st, "")
	_, ev = mustPlay(t, s, st, "MOVE FGB/Gr A 39")
	oneMove(t, ev, 4, " (2 for the shift, 11.14)")
}

// TestReinforcements_11_14_EveryUnitOfTheStack: a stack shifts zone only if
// each of its units may (11.14): 7AD/87, in zone D since 17-1, may enter by
// F (one zone from its E) on 17-2, but 7AD/CCB, arrived in D on 17-2, may
// not yet.
func TestReinforcements_11_14_EveryUnitOfTheStack(t *testing.T) {
	s := scenario(t, "campaign")
	st := passTo(t, s, rules.NewState(s), "A17-2")
	refused(t, s, st, "MOVE 7AD/87 7AD/CCB F 80", "7AD/CCB cannot enter by zone F: a reinforcement may enter by a zone next to its own one impulse later, for 2 MP a zone (11.14)")
	_, ev := mustPlay(t, s, st, "MOVE 7AD/87 F 80")
	oneMove(t, ev, 3, " (2 for the shift, 11.14, and 1 for the road from F)")
}

// TestReserve_11_3_NotReleasedYet: a unit of a group not yet released is
// refused with the rule that releases it, not an arrival impulse it has
// none of.
func TestReserve_11_3_NotReleasedYet(t *testing.T) {
	s, st := germansAlone(t)
	refused(t, s, st, "MOVE FGB/Gr C 24", "FGB/Gr belongs to the")
	refused(t, s, st, "MOVE FGB/Gr C 24", "which has not been released: it is released when the Germans are stronger than the Allies in one of its release areas at the end of an Allied impulse (11.3, 11.33)")
}
