package rules_test

import (
	"reflect"
	"strings"
	"testing"
	"titm/rules"
)

func TestMove_8_33_RoadCosts(t *testing.T) {
	s, st := moveGame(t)
	// Primary roads cost 1 each (8.33): 4 -> 3 -> 2.
	_, ev := mustPlay(t, s, st, "MOVE G/MX 4 3 2")
	oneMove(t, ev, 2, "")
	// A secondary road costs 2, and entering an area with other units 1
	// more (8.37): 5 -> 4 holds German units.
	_, ev = mustPlay(t, s, st, "MOVE G/EN 5 4")
	oneMove(t, ev, 3, "")
}

func TestMove_8_38_NotEnoughMP(t *testing.T) {
	s, st := moveGame(t)
	// Infantry has 5 MP (8.32): 5->4 costs 3 (secondary, occupied), 4->3
	// and 3->2 one each, so 2->1 (occupied by the enemy) is out of reach.
	refused(t, s, st, "MOVE G/IN 5 4 3 2 1", "entering West (1) needs 2 MP, but G/IN has only 0 left (8.38)")
}

func TestMove_8_22_StopInEnemyArea(t *testing.T) {
	s, st := moveGame(t)
	refused(t, s, st, "MOVE G/AR 4 3 2 1 D", "West (1) holds enemy units: a unit entering it stops there (8.22)")
}

func TestMove_8_21_StackBeganTogether(t *testing.T) {
	s, st := moveGame(t)
	_, ev := mustPlay(t, s, st, "MOVE G/AR G/MX 4 3")
	if m := moved(ev); len(m) != 1 || len(m[0].Units) != 2 {
		t.Errorf("moves %v", m)
	}
	refused(t, s, st, "MOVE G/AR G/IN 4 3", "G/AR and G/IN did not begin the turn together in one area, so they cannot move as a stack (8.21)")
}

func TestMove_8_25_NoSecondMove(t *testing.T) {
	s, st := moveGame(t)
	st, _ = mustPlay(t, s, st, "MOVE G/MX 4 3")
	st, _ = mustPlay(t, s, st, "")
	refused(t, s, st, "MOVE G/MX 3 2", "G/MX already moved in an earlier impulse this turn (8.25)")
	// A new turn clears it.
	for st.Next.String() != "G17-1" {
		st, _ = mustPlay(t, s, st, "")
	}
	mustPlay(t, s, st, "MOVE G/MX 3 2")
}

func TestMove_8_27_NoEnemyToEnemy(t *testing.T) {
	s, st := moveGame(t)
	// G/IN shares South (6) with U/MX; U/AR holds Middle (2).
	place(st, "G/IN", rules.AreaPlace(6))
	place(st, "U/AR", rules.AreaPlace(2))
	refused(t, s, st, "MOVE G/IN 6 2", "South (6) and Middle (2) both hold enemy units: no unit moves directly from one to the other (8.27)")
}

func TestMove_8_36_LeavingEnemyArea(t *testing.T) {
	s, st := moveGame(t)
	st.Unit("G/EN").Place, st.Unit("G/EN").TurnStart = rules.AreaPlace(6), rules.AreaPlace(6)
	// 6 -> 2: secondary 2, +1 for leaving an area with enemy units (8.36).
	_, ev := mustPlay(t, s, st, "MOVE G/EN 6 2")
	oneMove(t, ev, 3, "")
}

func TestMove_8_34_FootAcrossBlownBridge(t *testing.T) {
	s, st := moveGame(t)
	st.Bridge(3, 4).Blown = true
	refused(t, s, st, "MOVE G/AR 4 3", "bridge 3-4 is blown: armour cannot cross it (8.34)")
	refused(t, s, st, "MOVE G/MX 4 3", "bridge 3-4 is blown: G/MX crosses it only moving as infantry, with FOOT (8.34, 8.35)")
	next, ev := mustPlay(t, s, st, "FOOT G/MX 4 3")
	oneMove(t, ev, 3, " flat across the blown bridge (8.34)")
	// 8.35: it stays at 5 MP until it can trace supply without a blown
	// bridge.
	if !next.Unit("G/MX").Dismounted {
		t.Errorf("G/MX not dismounted after crossing on foot (8.35)")
	}
}

func TestMove_5_24_RedTriangle(t *testing.T) {
	s, st := moveGame(t)
	refused(t, s, st, "MOVE G/RT 5 4", "G/RT has a red triangle: it may not move before 16-2 (5.24)")
	st, _ = mustPlay(t, s, st, "")
	st, _ = mustPlay(t, s, st, "")
	mustPlay(t, s, st, "MOVE G/RT 5 4")
}

func TestMove_5_23_GreenTriangle(t *testing.T) {
	s, st := moveGame(t)
	st, _ = mustPlay(t, s, st, "")
	refused(t, s, st, "MOVE U/MX 6 2", "U/MX has no green triangle: on 16-1 only green-triangle units move (5.23)")
	_, ev := mustPlay(t, s, st, "MOVE U/AR D 1 2")
	if len(moved(ev)) != 1 {
		t.Errorf("green-triangle unit did not move: %v", ev)
	}
	// 5.23: every Allied unit but armour may entrench on 16-1.
	_, ev = mustPlay(t, s, st, "ENTRENCH U/MX")
	if len(ev) == 0 || ev[0] != (rules.Entrenched{Unit: "U/MX"}) {
		t.Errorf("events %v", ev)
	}
}

func TestEntrench_8_5(t *testing.T) {
	s, st := moveGame(t)
	// The parser refuses this already; the engine checks orders built in
	// code too.
	o := &rules.Orders{List: []rules.Order{rules.Entrench{Units: []string{"G/AR"}}}, Lines: []int{1}}
	if _, _, err := rules.Play(s, st, o, &scripted{}); err == nil || !strings.Contains(err.Error(), "G/AR is armour, which never entrenches (8.54)") {
		t.Errorf("error %v", err)
	}
	refused(t, s, st, "MOVE G/IN 5 4\nENTRENCH G/IN", "G/IN moved this impulse: it entrenches only with all its MP (8.53)")
	// 8.52: an engineer entrenches after up to 4 MP of movement.
	next, _ := mustPlay(t, s, st, "MOVE G/EN 5 4\nENTRENCH G/EN")
	if !next.Unit("G/EN").Entrenched {
		t.Errorf("engineer did not entrench (8.52)")
	}
	refused(t, s, st, "MOVE G/EN 5 4 3 2\nENTRENCH G/EN", "G/EN has spent 5 MP: an engineer entrenches for 4 MP, after at most 4 MP of movement (8.52)")
	st.Unit("G/IN").Place, st.Unit("G/IN").TurnStart = rules.AreaPlace(6), rules.AreaPlace(6)
	refused(t, s, st, "ENTRENCH G/IN", "G/IN shares its area with enemy units: no entrenching there (8.55)")
}

func TestEntrench_8_58_MovingLosesIt(t *testing.T) {
	s, st := moveGame(t)
	st, _ = mustPlay(t, s, st, "")
	st, _ = mustPlay(t, s, st, "")
	st, _ = mustPlay(t, s, st, "")
	next, _ := mustPlay(t, s, st, "MOVE U/IN 1 2") // A16-2: U/IN began entrenched
	if next.Unit("U/IN").Entrenched {
		t.Errorf("U/IN kept its entrenchment after moving (8.58)")
	}
}

func TestZones_12_25_NoReturnFromVPZone(t *testing.T) {
	s, st := moveGame(t)
	place(st, "U/IN", rules.AreaPlace(6))
	place(st, "G/AR", rules.AreaPlace(2))
	st, _ = mustPlay(t, s, st, "MOVE G/AR 2 1 D")
	if !st.Unit("G/AR").Exited {
		t.Fatalf("G/AR in the Allied VP zone D is not marked (12.25)")
	}
	for st.Next.String() != "G17-1" {
		st, _ = mustPlay(t, s, st, "")
	}
	refused(t, s, st, "MOVE G/AR D 1", "G/AR entered an Allied VP zone and may never return to the map (12.25)")
}

func TestMove_8_29_OutOfSupplyOneArea(t *testing.T) {
	s, st := moveGame(t)
	for st.Next.String() != "A16-2" {
		st, _ = mustPlay(t, s, st, "")
	}
	// A German unit alone in West (1) cuts U/MX in South (6) off from zone
	// D: judged before the move (13.15), it may move one area only (8.29),
	// and, already out of supply, not into an area it cannot trace supply
	// from either (8.28, 13.23 1, as the rulebook's supply example forbids
	// the cut-off armour its move from Nives to Moircy).
	place(st, "U/IN", rules.AreaPlace(6))
	place(st, "G/IN", rules.AreaPlace(1))
	refused(t, s, st, "MOVE U/MX 6 2 3", "U/MX is out of supply and may move only one area (8.29, 13.23)")
	refused(t, s, st, "MOVE U/MX 6 2", "U/MX would be out of supply in Middle (2)")
	// With West free again, U/MX is in supply and moves on.
	place(st, "G/IN", rules.AreaPlace(5))
	next, _ := mustPlay(t, s, st, "MOVE U/MX 6 2 3")
	if p := next.Unit("U/MX").Place; p != rules.AreaPlace(3) || !next.Unit("U/MX").InSupply {
		t.Errorf("U/MX at %v, in supply %v", p, next.Unit("U/MX").InSupply)
	}
}

func TestBridge_B2_ElsePath(t *testing.T) {
	s, st := moveGame(t)
	st = toTurn17(t, s, st)
	place(st, "U/IN", rules.AreaPlace(3))
	next, ev, err := playDice(t, s, st, "MOVE G/MX 4 3 ELSE 4 5", 1)
	if err != nil {
		t.Fatal(err)
	}
	// 1 MP for the blown bridge, 2 for the secondary road, 1 for entering
	// an occupied area (8.37).
	if next.Unit("G/MX").Place != rules.AreaPlace(5) {
		t.Errorf("G/MX at %v, want 5 by the ELSE path", next.Unit("G/MX").Place)
	}
	oneMove(t, ev, 4, "")
}

func TestMove_8_28_NotIntoOutOfSupply(t *testing.T) {
	s, st := moveGame(t)
	st = toTurn17(t, s, st)
	// G/IN shares Bridgehead (3) with U/AR, and traces supply through it
	// to Eastbank and zone A (13.13). Once it leaves for Middle (2), 3 is
	// held by the enemy alone, and every road out of 2 leads into an area
	// only the enemy holds: 1 (U/IN), 3 (U/AR), 6 (U/MX).
	place(st, "U/AR", rules.AreaPlace(3))
	place(st, "G/IN", rules.AreaPlace(3))
	st.JudgeSupply(s)
	if !st.Unit("G/IN").InSupply {
		t.Fatal("G/IN out of supply before the move")
	}
	refused(t, s, st, "MOVE G/IN 3 2", "G/IN would be out of supply in Middle (2): no unit may move so that it becomes out of supply (8.28)")
}

// The rulebook's movement example on the shipped map: German armour in
// Mersch reaches Rambrouch through Ettelbruck and Eschdorf for 5 MP; with
// bridge 58-59 blown the road through Sael costs 9 MP, beyond its 8 (8.31,
// 8.33, 8.38).
func TestExample_Movement(t *testing.T) {
	s, st := germansAlone(t)
	place(st, "1SS/1", rules.AreaPlace(59))
	_, ev := mustPlay(t, s, st, "MOVE 1SS/1 59 58 63 64")
	oneMove(t, ev, 5, "")
	st.Bridge(58, 59).Blown = true
	refused(t, s, st, "MOVE 1SS/1 59 60 61 62 63 64", "entering Rambrouch (64) needs 2 MP, but 1SS/1 has only 1 left (8.38)")
}

func TestMove_8_26_ZoneCostsRoadOnly(t *testing.T) {
	s, st := moveGame(t)
	st, _ = mustPlay(t, s, st, "")
	st, _ = mustPlay(t, s, st, "")
	// G16-2: G/RF waits in zone A; entering it costs the primary road only,
	// nothing for the units there (8.26, 11.21).
	_, ev := mustPlay(t, s, st, "MOVE G/MX 4 A")
	oneMove(t, ev, 1, "")
}

// 8.34, 8.35: with every line home across a blown bridge, a mech unit that
// moved on foot without crossing one has its 8 MP next turn; one that
// crossed one stays at 5 MP until it traces supply without a blown bridge.
func TestMove_8_35_DismountedNextTurn(t *testing.T) {
	for _, c := range []struct {
		name, foot string
		from       int
		dismounted bool
	}{
		// 8.34: moving as infantry is for the turn only.
		{"on foot on the west bank, no blown bridge crossed (8.34)", "FOOT G/MX 2 3", 2, false},
		// 8.35: crossing a blown bridge keeps it at 5 MP.
		{"on foot across the blown bridge 3-4 (8.35)", "FOOT G/MX 4 3", 4, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := rules.LoadScenario(readOS, "../testdata/move/sf.toml") // plays on to 19 December
			if err != nil {
				t.Fatal(err)
			}
			st := toTurn17(t, s, rules.NewState(s))
			for _, id := range []string{"U/IN", "U/MX", "U/AR"} {
				u := st.Unit(id)
				u.Eliminated, u.Place = true, rules.Place{}
			}
			// Both bridges blown: every line from the west bank home to
			// zone A crosses one of them.
			st.Bridge(3, 4).Blown = true
			st.Bridge(5, 6).Blown = true
			place(st, "G/MX", rules.AreaPlace(c.from))
			st, _ = mustPlay(t, s, st, c.foot)
			for st.Next.String() != "G18-1" {
				st, _ = mustPlay(t, s, st, "")
			}
			if got := st.Unit("G/MX").Dismounted; got != c.dismounted {
				t.Fatalf("G/MX dismounted %v, want %v", got, c.dismounted)
			}
			// 3-2 (1), 2-6 (2), back 6-2 (2) and 2-1 (1) is 6 MP.
			const long = "MOVE G/MX 3 2 6 2 1"
			if !c.dismounted {
				mustPlay(t, s, st, long) // its 8 MP (8.31)
				return
			}
			// 8.35: still unable to trace supply without a blown bridge,
			// G/MX has 5 MP a turn, not 8.
			refused(t, s, st, long, "entering West (1) needs 1 MP, but G/MX has only 0 left (8.38)")
			// Once the bridge is repaired it traces supply without a blown
			// bridge and has its 8 MP again.
			st.Bridge(3, 4).Blown = false
			next, _ := mustPlay(t, s, st, "")
			next, _ = mustPlay(t, s, next, "")
			if next.Unit("G/MX").Dismounted {
				t.Errorf("G/MX still dismounted with an intact bridge home (8.35)")
			}
		})
	}
}

// 8.28, 10.2, 8.42: a move the board refuses when it is carried out (here a
// bridge blown earlier in the impulse cuts the destination off, so the move
// would leave its units out of supply) is undone, and an undone move leaves
// every field of its units as it was: an entrenched unit stays entrenched
// (8.58 takes the marker only from a unit that leaves), an engineer that
// would have crossed on foot is not left at 5 MP (8.35).
func TestMove_8_28_UndoneMoveRestoresUnit(t *testing.T) {
	for _, c := range []struct {
		name, unit, order string
	}{
		{"entrenched infantry keeps its entrenchment (8.58)", "G/IN", "MOVE G/IN 6 2"},
		{"engineer on foot is not left dismounted (8.35)", "G/EN", "FOOT G/EN 6 2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, st := moveGame(t)
			st = toTurn17(t, s, st)
			// U/IN alone in Bridgehead (3) can blow bridge 3-4 (10.22). The
			// unit shares South (6) with U/MX, entrenched from before, and
			// traces supply over bridge 5-6 to zone A.
			place(st, "U/IN", rules.AreaPlace(3))
			place(st, c.unit, rules.AreaPlace(6))
			st.Unit(c.unit).Entrenched = true
			st.JudgeSupply(s)
			before := *st.Unit(c.unit)
			if !before.InSupply {
				t.Fatalf("%s out of supply before the move", c.unit)
			}
			// Checked with every bridge holding, G/MX reaches 3 and makes it
			// contested, so Middle (2) traces supply through it (13.13).
			// Carried out, U/IN blows the bridge (roll 4, 10.29): G/MX stops
			// on the near side (8.42), 3 stays the enemy's alone, and in 2
			// the unit would be out of supply (8.28): its move is undone.
			next, ev, err := playDice(t, s, st, "MOVE G/MX 4 3\n"+c.order, 4)
			if err != nil {
				t.Fatal(err)
			}
			if !next.Bridge(3, 4).Blown || len(eventsOf[rules.Stopped](ev)) != 1 {
				t.Fatalf("want the bridge blown and the move stopped: %v", ev)
			}
			if after := *next.Unit(c.unit); !reflect.DeepEqual(after, before) {
				t.Errorf("after the undone move %s is\n%+v\nwant, as before it,\n%+v", c.unit, after, before)
			}
		})
	}
}

// Zones are ends of moves, never passed through (3.21, 8.26, 11.13): a move
// may end in a zone, and a reinforcement waiting in one leaves it (11.12,
// 11.15), by a shifted zone too (11.14), but no path, ELSE path included,
// runs area - zone - area. Refused when the orders are checked, before any
// die.
func TestMove_8_26_ZonesNotPassedThrough(t *testing.T) {
	const through = "a zone ends a move and is never passed through (3.21, 8.26, 11.13)"
	for _, c := range []struct {
		name, impulse, order, refusal string
	}{
		{"area - zone - area", "G16-1", "MOVE G/MX 4 A 5", "the path passes through zone A: " + through},
		{"without the start area", "G16-1", "MOVE G/MX A 5", "the path passes through zone A: " + through},
		{"an ELSE path", "G16-1", "MOVE G/MX 4 3 ELSE 4 A 5", "the path passes through zone A: " + through},
		{"back through its own zone", "G16-2", "MOVE G/RF A 4 A 5", "the path passes through zone A: " + through},
		{"ending in a zone", "G16-1", "MOVE G/MX 4 A", ""},
		{"a reinforcement leaving its zone", "G16-2", "MOVE G/RF A 4", ""},
		{"a reinforcement leaving by a shifted zone", "G16-3", "MOVE G/RF B 5", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, st := moveGame(t)
			for st.Next.String() != c.impulse {
				st, _ = mustPlay(t, s, st, "")
			}
			if c.refusal != "" {
				refused(t, s, st, c.order, c.refusal)
				return
			}
			mustPlay(t, s, st, c.order)
		})
	}
}

// The campaign's zone A joins Losheim (33) and Hollerath (39): the way
// between them runs by road, not through the zone (8.26, 11.13).
func TestMove_8_26_CampaignZoneNotAShortcut(t *testing.T) {
	s, st := germansAlone(t)
	refused(t, s, st, "MOVE 3FJ/5 33 A 39", "the path passes through zone A: a zone ends a move and is never passed through (3.21, 8.26, 11.13)")
}

// 12.25: a German unit that enters an Allied VP zone never returns to the
// map, not even in the move that took it there: zone G (Huy) joins 95 and
// 96, and a path through it is refused with 12.25.
func TestZones_12_25_NotThroughVPZone(t *testing.T) {
	s, st := germansAlone(t)
	place(st, "3FJ/5", rules.AreaPlace(95))
	refused(t, s, st, "MOVE 3FJ/5 95 G 96", "the path passes through zone G, an Allied VP zone: a German unit that enters one never returns to the map (12.25)")
	next, _ := mustPlay(t, s, st, "MOVE 3FJ/5 95 G")
	if !next.Unit("3FJ/5").Exited {
		t.Errorf("3FJ/5 in zone G is not marked (12.25)")
	}
}

// 8.34: a mech, mot or engineer unit moving as infantry has 5 MP for that
// turn only; it keeps 5 MP on later turns (8.35) only if it crossed a blown
// bridge. G/MX walks over the intact bridge 3-4 and is not marked.
func TestMove_8_34_FootForOneTurn(t *testing.T) {
	s, st := moveGame(t)
	// On foot it has 5 MP this turn: 4-5 (2, +1 for the units in 5, 8.37)
	// and 5-6 (2, +1 for U/MX) is 6.
	refused(t, s, st, "FOOT G/MX 4 5 6", "entering South (6) needs 3 MP, but G/MX has only 2 left (8.38)")
	st, ev := mustPlay(t, s, st, "FOOT G/MX 4 3")
	oneMove(t, ev, 1, "")
	if st.Unit("G/MX").Dismounted {
		t.Fatalf("G/MX left at 5 MP after moving on foot over an intact bridge (8.34, 8.35)")
	}
}

// 8.34, 8.52: an engineer moving as infantry has 5 MP for the turn; in the
// impulse of its move it entrenches (4 MP) only after at most 1 MP on foot.
func TestEntrench_8_52_AfterFoot(t *testing.T) {
	s, st := moveGame(t)
	// 5-4: secondary road 2, +1 for the units in 4 (8.37).
	refused(t, s, st, "FOOT G/EN 5 4\nENTRENCH G/EN", "G/EN has spent 3 MP: an engineer entrenches for 4 MP, after at most 1 MP of movement (8.52)")
	next, _ := mustPlay(t, s, st, "MOVE G/EN 5 4\nENTRENCH G/EN")
	if !next.Unit("G/EN").Entrenched {
		t.Errorf("G/EN did not entrench after 3 MP of its 8 (8.52)")
	}
}
