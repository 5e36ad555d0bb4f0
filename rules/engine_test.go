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

// place puts a unit somewhere, as if it had begun the turn there.
func place(st *rules.State, id string, p rules.Place) {
	u := st.Unit(id)
	u.Place, u.TurnStart, u.Arrived = p, p, true
}

// germansAlone returns the campaign at G17-1 with every Allied unit gone,
// and with them their control of the areas they held (12.22, 13.12), for
// the rulebook's examples that isolate a German move.
func germansAlone(t *testing.T) (*rules.Scenario, *rules.State) {
	t.Helper()
	s := scenario(t, "campaign")
	st := rules.NewState(s)
	st.Next, _ = rules.ParseImpulse("G17-1")
	for _, u := range st.Units {
		if s.OOB.Unit(u.ID).Side == rules.Allied {
			u.Eliminated, u.Place = true, rules.Place{}
		}
	}
	for a, side := range st.Control {
		if side == rules.Allied {
			delete(st.Control, a)
		}
	}
	return s, st
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

// passTo plays empty impulses until the impulse to play is next.
func passTo(t *testing.T, s *rules.Scenario, st *rules.State, next string) *rules.State {
	t.Helper()
	for st.Next.String() != next {
		st, _ = mustPlay(t, s, st, "")
	}
	return st
}

// The 5th Panzer scenario's rule on the shipped data: reinforcements placed
// outside its map (70T in P on 16-2; the 7th Armored in D and F on 17
// December) may move through areas outside it to enter it; at the end of
// the turn they stay if inside and in supply, and are removed if they
// stayed outside. A unit with one of its zones on the scenario's map waits
// there (705TD: F or G, placed in G), and is no outsider. Inside, the
// ordinary rules hold: no move into Ettelbruck, whose one road on the map
// crosses the bridge blown at start, leaves armour in supply (8.28, 13.14).
func TestFifthPanzer_OutsidersMoveIn(t *testing.T) {
	cases := []struct {
		name, at, orders, unit, end string
		want                        rules.Place // zero: removed
	}{
		{"70T by Luxembourg and Arlon to Martelange", "A16-2", "MOVE 70T P 4 116 115 107", "70T", "G17-1", a(107)},
		{"70T waits in P", "A16-2", "", "70T", "G17-1", rules.Place{}},
		{"7AD/87 from D by Malmedy and Stavelot to Vielsalm", "A17-1", "MOVE 7AD/87 D 42 44 77 76 75", "7AD/87", "G18-1", a(75)},
		{"7AD/CCA from F by Aywaille to Werbomont", "A17-3", "MOVE 7AD/CCA F 80 81", "7AD/CCA", "G18-1", a(81)},
		{"7AD/CCA waits in F", "A17-3", "", "7AD/CCA", "G18-1", rules.Place{}},
		{"705TD waits in G, the scenario's zone of its two", "A19-1", "", "705TD", "G20-1", rules.ZonePlace("G")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := scenario(t, "fifth-panzer")
			st := passTo(t, s, rules.NewState(s), c.at)
			var removed bool
			for orders := c.orders; st.Next.String() != c.end; orders = "" {
				var ev []rules.Event
				st, ev = mustPlay(t, s, st, orders)
				for _, e := range eventsOf[rules.OutsiderRemoved](ev) {
					removed = removed || e.Unit == c.unit
				}
			}
			u := st.Unit(c.unit)
			if c.want.IsZero() {
				if !u.Eliminated || !removed {
					t.Errorf("%s at %v, eliminated %v, removed event %v; want removed at the end of the turn", c.unit, u.Place, u.Eliminated, removed)
				}
				return
			}
			if u.Eliminated || u.Place != c.want {
				t.Errorf("%s at %v, eliminated %v; want it in %v", c.unit, u.Place, u.Eliminated, c.want)
			}
		})
	}
	s := scenario(t, "fifth-panzer")
	st := passTo(t, s, rules.NewState(s), "A16-2")
	refused(t, s, st, "MOVE 70T P 4 59 58", "70T would be out of supply in Ettelbruck (58)")
}

// The 5th Panzer scenario's rule on a small map (testdata/supply/part.toml:
// areas 1-6 and zones A, D; G/OUT sets up in 8 and G/RE arrives on 16-2 in
// zone B, both outside): a unit outside may pass through areas outside the
// map only to enter it, and no unit steps out of it; the units that are not
// outsiders keep to the map.
func TestFifthPanzer_OutsidersOnTheirWayIn(t *testing.T) {
	cases := []struct {
		name, at, orders string
		refusal          string      // "": played
		unit             string      // the unit checked at the end of 16 December
		want             rules.Place // zero: removed
	}{
		{"G/OUT from its set-up straight in", "G16-1", "MOVE G/OUT 8 4", "", "G/OUT", a(4)},
		{"G/OUT through 7, outside, in to 5", "G16-1", "MOVE G/OUT 8 7 5", "", "G/OUT", a(5)},
		{"G/OUT stays outside", "G16-1", "", "", "G/OUT", rules.Place{}},
		{"G/RE from zone B through 7 to 5", "G16-2", "MOVE G/RE B 7 5", "", "G/RE", a(5)},
		{"G/RE waits in zone B", "G16-2", "", "", "G/RE", rules.Place{}},
		{"a move that ends outside", "G16-1", "MOVE G/OUT 8 7", "Suedost (7) is outside the map of Supply tests on part of the map: a unit outside it may pass through areas outside it only on its way in", "", rules.Place{}},
		{"in, then out again", "G16-2", "MOVE G/RE B 7 5 7 6", "Suedost (7) is outside the map of Supply tests on part of the map", "", rules.Place{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, st := loadGame(t, "../testdata/supply/part.toml")
			st = passTo(t, s, st, c.at)
			if c.refusal != "" {
				refused(t, s, st, c.orders, c.refusal)
				return
			}
			st, _ = mustPlay(t, s, st, c.orders)
			st = passTo(t, s, st, "G17-1")
			u := st.Unit(c.unit)
			if c.want.IsZero() != u.Eliminated || u.Place != c.want {
				t.Errorf("%s at %v, eliminated %v after 16 December; want %v (zero: removed)", c.unit, u.Place, u.Eliminated, c.want)
			}
		})
	}
	// Only the units that set up or arrive outside may be ordered there.
	s, _ := loadGame(t, "../testdata/supply/part.toml")
	_, err := rules.ParseOrders("MOVE G/IN 6 7", s, mailOpts(rules.German))
	if err == nil || !strings.Contains(err.Error(), "Suedost (7) is outside the map of Supply tests on part of the map") {
		t.Errorf("G/IN, inside, ordered out of the map: %v", err)
	}
}

// 10.2 on the edge of a partial map: a unit on its way in crosses a bridge
// with one end outside the scenario's map, and the enemy at the other end
// may blow it as it crosses (10.29); the state keeps that bridge.
func TestFifthPanzer_BridgeOnTheEdge(t *testing.T) {
	s, st := loadGame(t, "../testdata/supply/part.toml")
	st.Next, _ = rules.ParseImpulse("G17-1") // 10.26: the Allies never try on 16 December
	place(st, "U/IN", a(3))
	next, ev, err := playDice(t, s, st, "MOVE G/OUT 8 3", 1)
	if err != nil {
		t.Fatal(err)
	}
	if d := eventsOf[rules.DemolitionTried](ev); len(d) != 1 || d[0].Bridge != "3-8" || !d[0].Blown {
		t.Errorf("demolition %v, want U/IN to blow 3-8", d)
	}
	if b := next.Bridge(3, 8); b == nil || !b.Blown {
		t.Errorf("bridge 3-8 in the state: %+v, want blown", b)
	}
	if p := next.Unit("G/OUT").Place; p != a(8) {
		t.Errorf("G/OUT at %v, want stopped in 8 (8.42)", p)
	}
	// A state saved before the state kept the edge's bridges: the bridge is
	// not tried, and the move goes on.
	var kept []rules.BridgeState
	for _, b := range st.Bridges {
		if b != (rules.BridgeState{A: 3, B: 8}) {
			kept = append(kept, b)
		}
	}
	st.Bridges = kept
	o, err := rules.ParseOrders("MOVE G/OUT 8 3", s, mailOpts(rules.German))
	if err != nil {
		t.Fatal(err)
	}
	d := &recorder{roll: 10}
	if next, _, err = rules.Play(s, st, o, d); err != nil {
		t.Fatal(err)
	}
	if d.rolled("demolition") || next.Unit("G/OUT").Place != a(3) {
		t.Errorf("without 3-8 in the state: rolls %v, G/OUT at %v; want no try and G/OUT in 3", d.purposes, next.Unit("G/OUT").Place)
	}
}

// A mail with a line that does not read is refused for it, and the lines
// that read are checked against the position all the same, so that one
// answer lists every error, by line, in line order; nothing is changed
// and no die is rolled.
func TestCheckOrders_LinesThatRead(t *testing.T) {
	s := scenario(t, "intro")
	st := rules.NewState(s)
	before, _ := json.Marshal(st)
	mail := "IMPULSE 16-1\nMOVE 352/914 23 24\nATACK 24\nMOVE 212/316 18 10\n"
	o, err := rules.ParseOrders(mail, s, &rules.ParseOptions{Side: rules.German})
	var parsed rules.OrderErrors
	if !errors.As(err, &parsed) || len(parsed) != 1 || parsed[0].Line != 3 {
		t.Fatalf("parse: %v", err)
	}
	var checked rules.OrderErrors
	if err := rules.CheckOrders(s, st, o); !errors.As(err, &checked) {
		t.Fatalf("check: %v", err)
	}
	all := parsed.With(checked...)
	if len(all) != 2 || all[0].Line != 3 || all[1].Line != 4 ||
		!strings.Contains(all[1].Msg, "which 7.1 forbids on 16 December") {
		t.Errorf("errors:\n%v", all)
	}
	if after, _ := json.Marshal(st); string(after) != string(before) {
		t.Errorf("the check changed the position")
	}
	// Orders the position allows: no error.
	o, _ = rules.ParseOrders("IMPULSE 16-1\nMOVE 352/914 23 24\n", s, &rules.ParseOptions{Side: rules.German})
	if err := rules.CheckOrders(s, st, o); err != nil {
		t.Errorf("legal orders: %v", err)
	}
}

// With merges errors in line order, those of one line in the order given.
func TestOrderErrors_With(t *testing.T) {
	a := rules.OrderErrors{{Line: 2, Msg: "a"}, {Line: 5, Msg: "b"}}
	got := a.With(rules.OrderError{Line: 5, Msg: "c"}, rules.OrderError{Line: 1, Msg: "d"}, rules.OrderError{Line: 2, Msg: "a"})
	want := rules.OrderErrors{{Line: 1, Msg: "d"}, {Line: 2, Msg: "a"}, {Line: 5, Msg: "b"}, {Line: 5, Msg: "c"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if rules.OrderErrors(nil).With() != nil {
		t.Errorf("no errors should be nil")
	}
}
