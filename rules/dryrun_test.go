package rules_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"titm/rules"
)

// day17 returns the movement fixture at G17-1, every unit free to act and
// the Allies free to blow bridges (10.26 bars them only on 16 December).
func day17(t *testing.T) (*rules.Scenario, *rules.State) {
	t.Helper()
	s, st := moveGame(t)
	for st.Next.String() != "G17-1" {
		st, _ = mustPlay(t, s, st, "")
	}
	return s, st
}

// rehearse parses the orders for the side to move and rehearses them.
func rehearse(t *testing.T, s *rules.Scenario, st *rules.State, body string) *rules.Rehearsal {
	t.Helper()
	o, err := rules.ParseOrders(body, s, &rules.ParseOptions{Side: st.Next.Side})
	if err != nil {
		t.Fatalf("orders do not parse: %v", err)
	}
	rh, err := rules.Rehearse(s, st, o)
	if err != nil {
		t.Fatalf("%q: %v", body, err)
	}
	return rh
}

// The dry run tells each step of a move and its MP: the road (8.33), +1
// entering an area holding units (8.37), +1 leaving one holding enemy units
// (8.36); the steps add up to the move's MP, and Play tells the same steps.
func TestRehearse_8_33_8_36_8_37_Steps(t *testing.T) {
	sec, pri := rules.Secondary, rules.Primary
	a := rules.AreaPlace
	cases := []struct {
		name, orders string
		setup        func(st *rules.State)
		want         []rules.Step
	}{
		{"8.33: primary roads, one over a bridge", "MOVE G/MX 4 3 2", nil, []rules.Step{
			{From: a(4), To: a(3), Road: pri, Bridge: "3-4", MP: 1},
			{From: a(3), To: a(2), Road: pri, MP: 1},
		}},
		{"8.37: a secondary road into an area with friendly units", "MOVE G/EN 5 4", nil, []rules.Step{
			{From: a(5), To: a(4), Road: sec, Occupied: true, MP: 3},
		}},
		{"8.36: out of an area with enemy units", "MOVE G/EN 6 2", func(st *rules.State) { place(st, "G/EN", a(6)) }, []rules.Step{
			{From: a(6), To: a(2), Road: sec, LeavesEnemy: true, MP: 3},
		}},
		{"8.36 and 8.37 together", "MOVE G/IN 5 4", func(st *rules.State) { place(st, "U/IN", a(5)) }, []rules.Step{
			{From: a(5), To: a(4), Road: sec, Occupied: true, LeavesEnemy: true, MP: 4},
		}},
	}
	for _, c := range cases {
		s, st := day17(t)
		if c.setup != nil {
			c.setup(st)
		}
		rh := rehearse(t, s, st, c.orders)
		m := moved(rh.Events)
		if len(m) != 1 || !reflect.DeepEqual(m[0].Steps, c.want) {
			t.Errorf("%s: moves %+v\nwant steps %+v", c.name, m, c.want)
			continue
		}
		sum := 0
		for _, x := range m[0].Steps {
			sum += x.MP
		}
		if sum != m[0].MP {
			t.Errorf("%s: the steps make %d MP, the move %d", c.name, sum, m[0].MP)
		}
		_, ev, err := play(t, s, st, c.orders)
		if err != nil {
			t.Fatal(err)
		}
		if p := moved(ev); len(p) != 1 || !reflect.DeepEqual(p[0], m[0]) {
			t.Errorf("%s: Play moves %+v, the dry run %+v", c.name, p, m)
		}
	}
}

// 7.1, 7.2, B6: a stack over the limit after the moves: the dry run names
// the units the end of the impulse removes, the REMOVE order's first, then
// the weakest (B6), as Play removes them.
func TestRehearse_7_2_B6_Removal(t *testing.T) {
	cases := []struct {
		name, orders string
		want         []rules.StackRemoved
	}{
		// 4 holds G/AR 4 SP and G/MX 3; G/IN 3, G/EN 2, G/RT 1 join them:
		// 5 units, 13 SP. B6 takes G/RT (1 SP), then, at 4 units and 12
		// SP, G/EN (2 SP), leaving 3 units and 10 SP.
		{"B6: weakest first", "MOVE G/IN G/EN G/RT 5 4", []rules.StackRemoved{
			{Unit: "G/RT", Area: 4, Why: rules.RemovedByPolicy}, {Unit: "G/EN", Area: 4, Why: rules.RemovedByPolicy},
		}},
		// 7.2: the owner's choice: G/AR leaves 4 units and 9 SP.
		{"7.2: REMOVE", "MOVE G/IN G/EN G/RT 5 4\nREMOVE 4 G/AR", []rules.StackRemoved{
			{Unit: "G/AR", Area: 4, Why: rules.RemovedByOrder},
		}},
		{"within the limit", "MOVE G/RT 5 4", nil},
	}
	for _, c := range cases {
		s, st := day17(t)
		rh := rehearse(t, s, st, c.orders)
		if !reflect.DeepEqual(rh.Removed, c.want) {
			t.Errorf("%s: removes %+v, want %+v", c.name, rh.Removed, c.want)
		}
		over := false
		for _, x := range rh.Stacks {
			over = over || x.Over()
		}
		if over != (c.want != nil) {
			t.Errorf("%s: stacks %+v, over %v", c.name, rh.Stacks, over)
		}
		_, ev, err := play(t, s, st, c.orders)
		if err != nil {
			t.Fatal(err)
		}
		if got := eventsOf[rules.StackRemoved](ev); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: Play removes %+v, the dry run %+v", c.name, got, c.want)
		}
	}
}

// 8.25, 9.14, B5, 9.16: the dry run names the units spent for the turn: a
// unit that moves, one that attacks, and one that began the impulse in the
// battle area and stays there without attacking as its side moves in; Play
// marks the same units.
func TestRehearse_9_14_B5_Spent(t *testing.T) {
	cases := []struct {
		name, orders string
		want         map[string]string
	}{
		{"9.14, B5: G/IN stays as G/EN moves in", "MOVE G/EN 5 6", map[string]string{
			"G/EN": "attacks (9.11, 9.16)",
			"G/IN": "stays without attacking where its side fights, and counts as moved (9.14, B5)",
		}},
		{"9.13, 9.16: G/IN attacks where it stands", "ATTACK 6 WITH G/IN", map[string]string{
			"G/IN": "attacks (9.11, 9.16)",
		}},
		{"B5: no battle, G/IN stays free", "MOVE G/MX 4 3", map[string]string{
			"G/MX": "moves (8.25)",
		}},
		{"8.5: entrenching spends the unit", "ENTRENCH G/EN", map[string]string{
			"G/EN": "entrenches (8.5)",
		}},
	}
	for _, c := range cases {
		s, st := day17(t)
		place(st, "G/IN", rules.AreaPlace(6)) // beside U/MX
		rh := rehearse(t, s, st, c.orders)
		got := map[string]string{}
		for _, x := range rh.Spent {
			got[x.Unit] = x.Why
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: spent %v, want %v", c.name, got, c.want)
		}
		o, _ := rules.ParseOrders(c.orders, s, &rules.ParseOptions{Side: rules.German})
		next, _, err := rules.Play(s, st, o, &recorder{roll: 10})
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range next.Units {
			spent := u.Moved || u.Attacked || u.Bridging
			if spent != (got[u.ID] != "") && s.OOB.Unit(u.ID).Side == rules.German {
				t.Errorf("%s: after Play %s is spent %v, the dry run says %q", c.name, u.ID, spent, got[u.ID])
			}
		}
	}
}

// 10.2, B1: the dry run never reads the enemy's standing orders: a crossing
// the rules let him try at is listed with who may try, whether his orders
// say BLOW ALL or BLOW NONE, and the first die it names is the battle's,
// where Play's first die is the demolition's. 10.24: a unit in an area the
// mover held at the start of the impulse may not try; 10.26: the Allies
// never try on 16 December.
func TestRehearse_10_2_StandingOrdersUnread(t *testing.T) {
	s, st := day17(t)
	place(st, "U/MX", rules.AreaPlace(3))
	const orders = "MOVE G/RT 5 4 3"
	var seen []*rules.Rehearsal
	for _, blow := range []string{"BLOW ALL", "BLOW NONE"} {
		o, err := rules.ParseOrders(blow, s, &rules.ParseOptions{Side: rules.Allied})
		if err != nil {
			t.Fatal(err)
		}
		withOrders, err := rules.ApplyStanding(st, rules.Allied, o)
		if err != nil {
			t.Fatal(err)
		}
		before, _ := json.Marshal(withOrders)
		rh := rehearse(t, s, withOrders, orders)
		after, _ := json.Marshal(withOrders)
		if string(before) != string(after) {
			t.Errorf("%s: the dry run changed the position", blow)
		}
		seen = append(seen, rh)
		want := []rules.Crossing{{Line: 1, Units: []string{"G/RT"}, From: rules.AreaPlace(4), To: rules.AreaPlace(3), Bridge: "3-4",
			Chances: []rules.Chance{{Unit: "U/MX", Need: 4}}}} // 10.29: infantry-type, not moved
		if !reflect.DeepEqual(rh.Crossings, want) {
			t.Errorf("%s: crossings %+v, want %+v", blow, rh.Crossings, want)
		}
		if rh.FirstDie != "G17-1 battle 3: Allied artillery call 1 of 1" {
			t.Errorf("%s: first die %q", blow, rh.FirstDie)
		}
		if blow == "BLOW ALL" {
			d := &recorder{roll: 10}
			o, _ := rules.ParseOrders(orders, s, &rules.ParseOptions{Side: rules.German})
			if _, _, err := rules.Play(s, withOrders, o, d); err != nil {
				t.Fatal(err)
			}
			if d.purposes[0] != "G17-1 demolition 3-4 by U/MX" {
				t.Errorf("Play's first die %q", d.purposes[0])
			}
		}
	}
	if !reflect.DeepEqual(seen[0], seen[1]) {
		t.Errorf("the dry run depends on the enemy's standing orders:\n%+v\n%+v", seen[0], seen[1])
	}

	// 10.24: U/IN in 5, where the Germans began the impulse, may not try
	// at bridge 5-6.
	s, st = day17(t)
	place(st, "U/IN", rules.AreaPlace(5))
	place(st, "U/MX", rules.AreaPlace(1))
	if rh := rehearse(t, s, st, "MOVE G/EN 5 6"); len(rh.Crossings) != 0 {
		t.Errorf("10.24: crossings %+v", rh.Crossings)
	}
	// 10.26: on 16 December no Allied try.
	s, st = moveGame(t)
	place(st, "U/MX", rules.AreaPlace(3))
	if rh := rehearse(t, s, st, "MOVE G/MX 4 3"); len(rh.Crossings) != 0 {
		t.Errorf("10.26: crossings %+v", rh.Crossings)
	}
}

// Orders that need no die are carried out to the end of the impulse, which
// the dry run tells; orders the position refuses are refused, every one.
func TestRehearse_NoDieAndRefusals(t *testing.T) {
	s, st := day17(t)
	rh := rehearse(t, s, st, "ENTRENCH G/EN")
	if rh.FirstDie != "" || len(eventsOf[rules.ImpulseEnded](rh.Rest)) != 1 {
		t.Errorf("first die %q, rest %v", rh.FirstDie, rh.Rest)
	}
	o, err := rules.ParseOrders("MOVE G/AR 4 3 2 1 D\nMOVE G/IN 5 4 3 2 1", s, &rules.ParseOptions{Side: rules.German})
	if err != nil {
		t.Fatal(err)
	}
	_, err = rules.Rehearse(s, st, o)
	var es rules.OrderErrors
	if !errors.As(err, &es) || len(es) != 2 {
		t.Errorf("refusals %v, want 2", err)
	}
}

// 14.22, 14.23: the special forces in the dry run: DELAY adds 1 MP to enter
// and 1 to leave their area, each step saying so; DEMOLITION leaves the
// enemy unit in their area a 1 only to blow the bridge.
func TestRehearse_14_22_14_23_SpecialForces(t *testing.T) {
	s, st := sfGame(t)
	st, _ = mustPlay(t, s, st, "SF 2 DELAY")
	rh := rehearse(t, s, st, "MOVE U/MX 6 2 1")
	a := rules.AreaPlace
	want := []rules.Step{
		{From: a(6), To: a(2), Road: rules.Secondary, Delay: 1, MP: 3},
		{From: a(2), To: a(1), Road: rules.Primary, Occupied: true, Delay: 1, MP: 3},
	}
	if m := moved(rh.Events); len(m) != 1 || !reflect.DeepEqual(m[0].Steps, want) || m[0].MP != 6 {
		t.Errorf("14.22: moves %+v, want steps %+v", m, want)
	}

	s, st = sfGame(t)
	place(st, "U/IN", rules.AreaPlace(3))
	rh = rehearse(t, s, st, "SF 3 DEMOLITION\nMOVE G/MX 4 3")
	if len(rh.Crossings) != 1 || !reflect.DeepEqual(rh.Crossings[0].Chances, []rules.Chance{{Unit: "U/IN", Need: 1}}) {
		t.Errorf("14.23: crossings %+v", rh.Crossings)
	}
}
