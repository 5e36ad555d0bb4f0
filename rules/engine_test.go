package rules_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"titm/rules"
)

// scripted is a Dice that plays back fixed rolls and fails, naming the roll
// needed, when they run out.
type scripted struct{ rolls []int }

func (d *scripted) Roll(purpose string) (int, error) {
	if len(d.rolls) == 0 {
		return 0, fmt.Errorf("no scripted die left for %s", purpose)
	}
	r := d.rolls[0]
	d.rolls = d.rolls[1:]
	return r, nil
}

// moveGame loads the movement test scenario and its starting position.
func moveGame(t *testing.T) (*rules.Scenario, *rules.State) {
	t.Helper()
	return loadGame(t, "../testdata/move/scenario.toml")
}

// loadGame loads a test scenario and its starting position.
func loadGame(t *testing.T, path string) (*rules.Scenario, *rules.State) {
	t.Helper()
	s, err := rules.LoadScenario(readOS, path)
	if err != nil {
		t.Fatal(err)
	}
	return s, rules.NewState(s)
}

// play parses the orders for the side to move and plays the impulse.
func play(t *testing.T, s *rules.Scenario, st *rules.State, body string) (*rules.State, []rules.Event, error) {
	t.Helper()
	var o *rules.Orders
	if body != "" {
		var err error
		o, err = rules.ParseOrders(body, s, &rules.ParseOptions{Side: st.Next.Side})
		if err != nil {
			t.Fatalf("orders do not parse: %v", err)
		}
	}
	return rules.Play(s, st, o, &scripted{})
}

// mustPlay plays an impulse that must be legal.
func mustPlay(t *testing.T, s *rules.Scenario, st *rules.State, body string) (*rules.State, []rules.Event) {
	t.Helper()
	next, ev, err := play(t, s, st, body)
	if err != nil {
		t.Fatalf("%s: %v", st.Next, err)
	}
	return next, ev
}

// refused plays an impulse that must be refused with the message.
func refused(t *testing.T, s *rules.Scenario, st *rules.State, body, want string) {
	t.Helper()
	_, _, err := play(t, s, st, body)
	var es rules.OrderErrors
	if !errors.As(err, &es) {
		t.Fatalf("%q: error %v, want a refusal %q", body, err, want)
	}
	if !strings.Contains(es.Error(), want) {
		t.Errorf("%q refused with\n%v\nwant %q", body, es, want)
	}
	if es[0].Line < 1 {
		t.Errorf("refusal without a line: %v", es)
	}
}

// eventsOf returns the events of one type, in order.
func eventsOf[T rules.Event](ev []rules.Event) []T {
	var out []T
	for _, e := range ev {
		if x, ok := e.(T); ok {
			out = append(out, x)
		}
	}
	return out
}

func moved(ev []rules.Event) []rules.Moved { return eventsOf[rules.Moved](ev) }

// oneMove checks that the events hold exactly one move, of mp MP.
func oneMove(t *testing.T, ev []rules.Event, mp int, why string) {
	t.Helper()
	if m := moved(ev); len(m) != 1 || m[0].MP != mp {
		t.Errorf("moves %v, want one of %d MP%s", m, mp, why)
	}
}

func TestSequence_6_0_ImpulseOrder(t *testing.T) {
	// 6.0, 8.1: German first, three impulses each, one each on 22 December.
	want := []string{"G16-1", "A16-1", "G16-2", "A16-2", "G16-3", "A16-3", "G17-1"}
	i, _ := rules.ParseImpulse("G16-1")
	for _, w := range want {
		if i.String() != w {
			t.Fatalf("got %s, want %s", i, w)
		}
		i = rules.NextImpulse(i)
	}
	i, _ = rules.ParseImpulse("A21-3")
	for _, w := range []string{"G22-1", "A22-1", "G23-1"} {
		i = rules.NextImpulse(i)
		if i.String() != w {
			t.Errorf("after 21-3: %s, want %s", i, w)
		}
	}
}

func TestSequence_B8_Pass(t *testing.T) {
	s, st := moveGame(t)
	next, ev := mustPlay(t, s, st, "")
	if next.Next.String() != "A16-1" {
		t.Errorf("next %s", next.Next)
	}
	if _, ok := ev[0].(rules.Passed); !ok {
		t.Errorf("events %v, want Passed first", ev)
	}
	if st.Next.String() != "G16-1" {
		t.Errorf("Play changed its input state")
	}
}

func TestSequence_ScenarioEnd(t *testing.T) {
	s, st := moveGame(t)
	for !st.Over {
		st, _ = mustPlay(t, s, st, "")
	}
	// The scenario ends after A17-3.
	if st.Next.String() != "G18-1" {
		t.Errorf("game over at %s, want after A17-3", st.Next)
	}
	if _, _, err := play(t, s, st, ""); !errors.Is(err, rules.ErrGameOver) {
		t.Errorf("playing after the end: %v", err)
	}
}

func TestPlay_ImpulseMismatch(t *testing.T) {
	s, st := moveGame(t)
	refused(t, s, st, "IMPULSE 17-1\nMOVE G/MX 4 3", "these orders are for 17-1, but the impulse to play is G16-1")
}

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

func TestMove_9_12_EnteringForcesBattle(t *testing.T) {
	s, st := moveGame(t)
	d := &recorder{roll: 10}
	o, _ := rules.ParseOrders("MOVE G/AR 4 3 2 1", s, nil)
	_, ev, err := rules.Play(s, st, o, d)
	if err != nil {
		t.Fatal(err)
	}
	if b := battleAt(ev, 1); b == nil || len(b.Attackers) != 1 || b.Attackers[0].ID != "G/AR" {
		t.Errorf("no battle at 1 with G/AR attacking (9.12): %v", ev)
	}
}

// recorder is a Dice that always rolls the same and records what for.
type recorder struct {
	roll     int
	first    []int
	purposes []string
}

func (d *recorder) Roll(purpose string) (int, error) {
	d.purposes = append(d.purposes, purpose)
	if len(d.first) > 0 {
		r := d.first[0]
		d.first = d.first[1:]
		return r, nil
	}
	return d.roll, nil
}

func (d *recorder) rolled(what string) bool {
	for _, p := range d.purposes {
		if strings.Contains(p, what) {
			return true
		}
	}
	return false
}

func battleAt(ev []rules.Event, area int) *rules.BattleBegins {
	for _, e := range ev {
		if b, ok := e.(rules.BattleBegins); ok && b.Area == area {
			return &b
		}
	}
	return nil
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

// place puts a unit somewhere, as if it had begun the turn there.
func place(st *rules.State, id string, p rules.Place) {
	u := st.Unit(id)
	u.Place, u.TurnStart, u.Arrived = p, p, true
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

func TestControl_12_22(t *testing.T) {
	s, st := moveGame(t)
	if st.Control[1] != rules.Allied || st.Control[4] != rules.German {
		t.Errorf("control at start: %v", st.Control)
	}
	if _, ok := st.Control[3]; ok {
		t.Errorf("empty area 3 controlled at start")
	}
	next, ev := mustPlay(t, s, st, "MOVE G/MX 4 3")
	if next.Control[3] != rules.German {
		t.Errorf("area 3 not German after a German unit ended the impulse there alone (12.22)")
	}
	found := false
	for _, e := range ev {
		found = found || e == rules.Event(rules.ControlChanged{Area: 3, Side: rules.German})
	}
	if !found {
		t.Errorf("no control event: %v", ev)
	}
}

func TestState_JSONRoundTrip(t *testing.T) {
	s, st := moveGame(t)
	st, _ = mustPlay(t, s, st, "MOVE G/MX 4 3")
	data, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	back, err := rules.LoadState(s, data)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := json.Marshal(back)
	if string(again) != string(data) {
		t.Errorf("state changed through JSON:\n%s\n%s", data, again)
	}
	if _, err := rules.LoadState(s, []byte(`{"scenario":"intro"}`)); err == nil || !strings.Contains(err.Error(), `the saved state is of scenario "intro", not "move"`) {
		t.Errorf("foreign state: %v", err)
	}
	// Playing on from the loaded state gives what playing on from the
	// original gives.
	a, _ := mustPlay(t, s, st, "")
	b, _ := mustPlay(t, s, back, "")
	if !reflect.DeepEqual(mustJSON(t, a), mustJSON(t, b)) {
		t.Errorf("different play after reload")
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestMove_8_29_OutOfSupplyOneArea(t *testing.T) {
	s, st := moveGame(t)
	for st.Next.String() != "A16-2" {
		st, _ = mustPlay(t, s, st, "")
	}
	// A German unit alone in West (1) cuts U/MX in South (6) off from zone
	// D: judged before the move (13.15), it may move one area only.
	place(st, "U/IN", rules.AreaPlace(6))
	place(st, "G/IN", rules.AreaPlace(1))
	refused(t, s, st, "MOVE U/MX 6 2 3", "U/MX is out of supply and may move only one area (8.29, 13.23)")
	next, ev := mustPlay(t, s, st, "MOVE U/MX 6 2")
	if next.Unit("U/MX").InSupply {
		t.Errorf("U/MX in supply")
	}
	found := false
	for _, e := range ev {
		found = found || e == rules.Event(rules.SupplyChange{Unit: "U/MX", InSupply: false})
	}
	if !found {
		t.Errorf("no supply event for U/MX: %v", ev)
	}
}

func TestAttrition_13_21_EndOfTurn(t *testing.T) {
	s, st := moveGame(t)
	place(st, "U/IN", rules.AreaPlace(6))
	place(st, "G/IN", rules.AreaPlace(1))
	for st.Next.String() != "G17-1" {
		st, _ = mustPlay(t, s, st, "")
	}
	// 6.0 VIII: out of supply at the end of the turn, U/MX and U/IN lose
	// 1 SP each (13.21); G/IN, traced back to zone A, does not.
	if u := st.Unit("U/MX"); u.Strength != 1 {
		t.Errorf("U/MX strength %d, want 1", u.Strength)
	}
	if u := st.Unit("U/IN"); u.Strength != 2 {
		t.Errorf("U/IN strength %d, want 2", u.Strength)
	}
	if u := st.Unit("G/IN"); u.Strength != 3 {
		t.Errorf("G/IN strength %d, want 3", u.Strength)
	}
}

// playDice plays the orders with scripted dice.
func playDice(t *testing.T, s *rules.Scenario, st *rules.State, body string, dice ...int) (*rules.State, []rules.Event, error) {
	t.Helper()
	var o *rules.Orders
	if body != "" {
		var err error
		if o, err = rules.ParseOrders(body, s, &rules.ParseOptions{Side: st.Next.Side}); err != nil {
			t.Fatalf("orders do not parse: %v", err)
		}
	}
	return rules.Play(s, st, o, &scripted{rolls: dice})
}

// toTurn17 passes impulses until G17-1.
func toTurn17(t *testing.T, s *rules.Scenario, st *rules.State) *rules.State {
	t.Helper()
	for st.Next.String() != "G17-1" {
		st, _ = mustPlay(t, s, st, "")
	}
	return st
}

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

// The 5th Panzer scenario's rule: reinforcements that arrive outside its
// map are removed at the end of their turn unless inside and in supply; the
// units inside stay.
func TestFifthPanzer_OutsidersRemoved(t *testing.T) {
	s := scenario(t, "fifth-panzer")
	st := rules.NewState(s)
	var outside, inside []string
	for _, u := range s.Units {
		if u.Arrival.Day != 17 || len(u.Zones) == 0 {
			continue
		}
		in := false
		for _, z := range u.Zones {
			in = in || s.Uses(rules.ZonePlace(z))
		}
		if in {
			inside = append(inside, u.ID)
		} else {
			outside = append(outside, u.ID)
		}
	}
	if len(outside) == 0 || len(inside) == 0 {
		t.Fatalf("want 17 December arrivals both outside and inside the map: %v %v", outside, inside)
	}
	for st.Next.String() != "G18-1" {
		var err error
		if st, _, err = rules.Play(s, st, nil, &scripted{}); err != nil {
			t.Fatal(err)
		}
	}
	for _, id := range outside {
		if !st.Unit(id).Eliminated {
			t.Errorf("%s, arrived outside and waiting there, is still in play after 17 December", id)
		}
	}
	for _, id := range inside {
		if st.Unit(id).Eliminated {
			t.Errorf("%s, arrived inside, was removed", id)
		}
	}
}

func TestReinforcements_11_21_NotFromGermanHeldZone(t *testing.T) {
	s, st := moveGame(t)
	st, _ = mustPlay(t, s, st, "")
	place(st, "G/IN", rules.ZonePlace("D"))
	refused(t, s, st, "MOVE U/AR D 1", "zone D holds German units: Allied reinforcements cannot enter from it (11.21)")
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
	s := scenario(t, "campaign")
	st := rules.NewState(s)
	st.Next, _ = rules.ParseImpulse("G17-1")
	for _, u := range st.Units {
		if s.OOB.Unit(u.ID).Side == rules.Allied {
			u.Eliminated, u.Place = true, rules.Place{}
		}
	}
	place(st, "1SS/1", rules.AreaPlace(59))
	_, ev := mustPlay(t, s, st, "MOVE 1SS/1 59 58 63 64")
	oneMove(t, ev, 5, "")
	st.Bridge(58, 59).Blown = true
	refused(t, s, st, "MOVE 1SS/1 59 60 61 62 63 64", "entering Rambrouch (64) needs 2 MP, but 1SS/1 has only 1 left (8.38)")
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

func TestMove_8_26_ZoneCostsRoadOnly(t *testing.T) {
	s, st := moveGame(t)
	st, _ = mustPlay(t, s, st, "")
	st, _ = mustPlay(t, s, st, "")
	// G16-2: G/RF waits in zone A; entering it costs the primary road only,
	// nothing for the units there (8.26, 11.21).
	_, ev := mustPlay(t, s, st, "MOVE G/MX 4 A")
	oneMove(t, ev, 1, "")
}

func TestMove_8_35_DismountedNextTurn(t *testing.T) {
	s, err := rules.LoadScenario(readOS, "../testdata/move/sf.toml") // plays on to 19 December
	if err != nil {
		t.Fatal(err)
	}
	st := toTurn17(t, s, rules.NewState(s))
	for _, id := range []string{"U/IN", "U/MX", "U/AR"} {
		u := st.Unit(id)
		u.Eliminated, u.Place = true, rules.Place{}
	}
	// Both bridges blown: every line from the west bank home to zone A
	// crosses one of them.
	st.Bridge(3, 4).Blown = true
	st.Bridge(5, 6).Blown = true
	st, _ = mustPlay(t, s, st, "FOOT G/MX 4 3")
	for st.Next.String() != "G18-1" {
		st, _ = mustPlay(t, s, st, "")
	}
	// 8.35: still unable to trace supply without a blown bridge, G/MX has
	// 5 MP a turn, not 8: 3-2 (1), 2-6 (2), back 6-2 (2) and 2-1 (1) is 6.
	if !st.Unit("G/MX").Dismounted {
		t.Fatal("G/MX no longer dismounted")
	}
	refused(t, s, st, "MOVE G/MX 3 2 6 2 1", "entering West (1) needs 1 MP, but G/MX has only 0 left (8.38)")
	// Once the bridge is repaired it traces supply without a blown bridge
	// and has its 8 MP again.
	st.Bridge(3, 4).Blown = false
	next, _ := mustPlay(t, s, st, "")
	next, _ = mustPlay(t, s, next, "")
	if next.Unit("G/MX").Dismounted {
		t.Errorf("G/MX still dismounted with an intact bridge home (8.35)")
	}
}

func TestBattle_9_13_Attack(t *testing.T) {
	s, st := moveGame(t)
	place(st, "G/IN", rules.AreaPlace(6))
	d := &recorder{roll: 10}
	o, _ := rules.ParseOrders("ATTACK 6", s, nil)
	next, ev, err := rules.Play(s, st, o, d)
	if err != nil {
		t.Fatal(err)
	}
	if b := battleAt(ev, 6); b == nil || b.Attackers[0].ID != "G/IN" {
		t.Errorf("events %v", ev)
	}
	// 9.11, 9.16: it attacked, and may neither attack again this turn nor
	// move.
	if u := next.Unit("G/IN"); !u.Attacked || !u.Moved {
		t.Errorf("G/IN %+v", u)
	}
	refused(t, s, st, "ATTACK 2", "Middle (2) holds no enemy units to attack")
}

// B5: units that begin the impulse in a contested area stay there without
// attacking unless ordered: no battle.
func TestBattle_B5_StayWithoutAttacking(t *testing.T) {
	s, st := moveGame(t)
	place(st, "G/IN", rules.AreaPlace(6))
	next, _ := mustPlay(t, s, st, "MOVE G/MX 4 3")
	if next.Unit("G/IN").Place != rules.AreaPlace(6) || next.Unit("U/MX").Place != rules.AreaPlace(6) {
		t.Errorf("the contested area changed without a battle")
	}
}

// The rulebook's bridging example on the shipped map: a German mech unit
// crosses from Dasburg to Marnach over the blown bridge on foot, 3 MP and 1
// for the units in Marnach (8.34, 8.37); armour cannot follow; the engineer
// in Dasburg tries to repair the bridge at the end of the impulse (10.1).
// In the rulebook Marnach holds Allied units and a battle follows; here a
// German unit stands there instead, to isolate the movement and repair.
func TestExample_Bridging(t *testing.T) {
	s := scenario(t, "campaign")
	st := rules.NewState(s)
	st.Next, _ = rules.ParseImpulse("G17-1")
	for _, u := range st.Units {
		if s.OOB.Unit(u.ID).Side == rules.Allied {
			u.Eliminated, u.Place = true, rules.Place{}
		}
	}
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

// 6.0, the scenarios: each shipped scenario ends where its card says, with a
// result (12.0).
func TestSequence_ShippedScenarioEnds(t *testing.T) {
	for _, c := range []struct{ name, last string }{
		{"intro", "A18-3"}, {"fifth-panzer", "G22-1"}, {"three-days", "A18-3"}, {"campaign", "A22-1"},
	} {
		s := scenario(t, c.name)
		st := rules.NewState(s)
		var last rules.Impulse
		for !st.Over {
			last = st.Next
			var err error
			if st, _, err = rules.Play(s, st, nil, &scripted{}); err != nil {
				t.Fatalf("%s %s: %v", c.name, last, err)
			}
		}
		if last.String() != c.last || st.Result == "" {
			t.Errorf("%s: last impulse %s, result %q; want %s and a result", c.name, last, st.Result, c.last)
		}
	}
}

// 8.42, B2: a Stopped event names its order by its text, so that a game's
// log, which keeps orders in canonical form on other lines than the mail's,
// replays to the same events.
func TestStoppedNamesTheOrderNotItsLine(t *testing.T) {
	a := rules.Stopped{Line: 3, Order: "MOVE G/MX 4 3", Why: "bridge 3-4 is blown"}
	b := a
	b.Line = 7
	if a.String() != b.String() || strings.Contains(a.String(), "line") {
		t.Errorf("%q and %q", a, b)
	}
}
