package rules_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"titm/rules"
)

func combatGame(t *testing.T) (*rules.Scenario, *rules.State) {
	t.Helper()
	s, st := loadGame(t, "../testdata/combat/scenario.toml")
	st.Next, _ = rules.ParseImpulse("G16-2") // 10.26: no Allied demolition on 16 December
	return s, st
}

func fires(ev []rules.Event) []rules.FireRoll { return eventsOf[rules.FireRoll](ev) }

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

// 9.53: "防御側ユニット(または移動していないユニット)は、1戦力しかない攻撃側
// ユニットを射撃する必要はありません". The parenthesis names the firing unit
// (the defender, the side that did not move), not the target: every
// attacking unit of 1 SP is exempt, whether it moved into the area or began
// the impulse there and attacks (9.13). The rulebook's combat example, both
// ways: the US mech may leave the 1-SP German mech for the 2-SP infantry,
// where 9.57 alone would make it fire at the mech.
func TestCombat_9_53_OneSPAttackerThatDidNotMove(t *testing.T) {
	cases := []struct {
		name   string
		inside bool // the Germans begin the impulse in Bridgehead (3)
		orders string
	}{
		{"moved in", false, "MOVE G/AR G/MX G/I2 4 3"},
		{"began the impulse there", true, "ATTACK 3 WITH G/AR G/MX G/I2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, st := combatGame(t)
			if c.inside {
				for _, id := range []string{"G/AR", "G/MX", "G/I2"} {
					place(st, id, rules.AreaPlace(3))
				}
			}
			d := &recorder{roll: 10}
			o, err := rules.ParseOrders(c.orders, s, nil)
			if err != nil {
				t.Fatal(err)
			}
			_, ev, err := rules.Play(s, st, o, d)
			if err != nil {
				t.Fatal(err)
			}
			b := battleAt(ev, 3)
			if b == nil || len(b.Attackers) != 3 {
				t.Fatalf("battle %+v", b)
			}
			got := map[string]string{}
			for _, f := range fires(ev) {
				if f.Side == rules.Allied {
					got[f.Unit] = f.Target
				}
			}
			want := map[string]string{"U/AR": "G/AR", "U/MX": "G/I2"}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("Allied targets %v, want %v", got, want)
			}
		})
	}
}

func strikes(ev []rules.Event) []rules.Strike { return eventsOf[rules.Strike](ev) }

func calls(ev []rules.Event) []rules.ArtilleryCall { return eventsOf[rules.ArtilleryCall](ev) }

// 13.22: units out of supply get no artillery; they still fight, and fire
// at +1 (9.71).
func TestCombat_13_22_OutOfSupplyNoArtillery(t *testing.T) {
	s, st := combatGame(t)
	// Cut the US units off from zone D: a German unit alone in Middle (2)
	// blocks the only road home (13.12).
	st.Unit("G/I3").Place, st.Unit("G/I3").TurnStart = rules.AreaPlace(2), rules.AreaPlace(2)
	d := &recorder{roll: 10}
	o, _ := rules.ParseOrders("MOVE G/AR G/MX G/I2 4 3", s, nil)
	_, ev, err := rules.Play(s, st, o, d)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range calls(ev) {
		if c.Side == rules.Allied {
			t.Errorf("an Allied call out of supply: %v", c)
		}
	}
	for _, f := range fires(ev) {
		if f.Side == rules.Allied && !containsMod(f.Mods, "+1 firer out of supply (9.71)") {
			t.Errorf("Allied fire without the out-of-supply modifier: %v", f)
		}
	}
}

// 9.42 against 13.22: "防御側は常に最低でも1回の砲撃要請を行えます" (the
// defender can always make at least one call) is the general rule;
// "補給切れのユニットも攻撃を行えますが、砲撃支援を受けられません" (units
// out of supply ... receive no artillery support) the particular one for
// units out of supply, and it governs: a defender whose units are all out of
// supply makes no call.
func TestCombat_9_42_13_22_DefenderOutOfSupply(t *testing.T) {
	cases := []struct {
		name  string
		cut   bool // a German unit alone in Middle (2) cuts the US off from zone D
		calls int
	}{
		{"in supply, 2 SP: one call all the same (9.42)", false, 1},
		{"out of supply, 2 SP: none (13.22)", true, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, st := combatGame(t)
			// U/AR (2 SP) defends alone: 9.42's minimum is its only call.
			st.Unit("U/MX").Eliminated, st.Unit("U/MX").Place = true, rules.Place{}
			if c.cut {
				place(st, "G/I3", rules.AreaPlace(2))
			}
			d := &recorder{roll: 10}
			o, _ := rules.ParseOrders("MOVE G/AR 4 3", s, nil)
			_, ev, err := rules.Play(s, st, o, d)
			if err != nil {
				t.Fatal(err)
			}
			if battleAt(ev, 3) == nil {
				t.Fatalf("no battle at 3: %v", ev)
			}
			n := 0
			for _, x := range calls(ev) {
				if x.Side == rules.Allied {
					n++
				}
			}
			if n != c.calls {
				t.Errorf("%d Allied calls, want %d", n, c.calls)
			}
		})
	}
}

func containsMod(mods []rules.Modifier, m string) bool {
	for _, x := range mods {
		if x.String() == m {
			return true
		}
	}
	return false
}

// 9.47: a strike on a unit eliminated by an earlier strike is lost; 9.48:
// strikes for the defender hit on 1-5.
func TestCombat_9_47_StrikeOnEliminatedLost(t *testing.T) {
	s, st := combatGame(t)
	// Only the 1-SP mech attacks; the US (5 SP) call once, and with the
	// call succeeding the single strike goes to it.
	st.Unit("U/MX").Strength = 4
	st.Unit("U/AR").Strength = 4 // 8 SP: two calls
	d := &recorder{roll: 10, first: []int{1, 1, 1, 1}}
	o, _ := rules.ParseOrders("MOVE G/MX 4 3", s, nil)
	_, ev, err := rules.Play(s, st, o, d)
	if err != nil {
		t.Fatal(err)
	}
	ss := strikes(ev)
	if len(ss) != 2 || !ss[0].Hit || ss[0].Need != 5 || !ss[1].Lost {
		t.Errorf("strikes %+v: the first hits on 1-5 and eliminates G/MX, the second is lost", ss)
	}
}

// 9.73: no river modifier when an attacking unit was already in the area
// at the start of the impulse.
func TestCombat_9_73_AlreadyThere(t *testing.T) {
	s, st := combatGame(t)
	st.Unit("G/I3").Place, st.Unit("G/I3").TurnStart = rules.AreaPlace(3), rules.AreaPlace(3)
	d := &recorder{roll: 10}
	o, _ := rules.ParseOrders("MOVE G/AR G/MX G/I2 4 3\nATTACK 3 WITH G/I3", s, nil)
	_, ev, err := rules.Play(s, st, o, d)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fires(ev) {
		if f.Side == rules.Allied && containsMod(f.Mods, "-1 attackers crossed a river (9.71)") {
			t.Errorf("river modifier with an attacker already in the area (9.73): %v", f)
		}
	}
	if b := battleAt(ev, 3); b == nil || len(b.Attackers) != 4 {
		t.Errorf("battle %+v", b)
	}
}

// 9.6: with infantry-type units, armour and a successful call the attacker
// has combined arms, and the defender's fire loses its -1.
func TestCombat_9_6_CombinedArms(t *testing.T) {
	s, st := combatGame(t)
	d := &recorder{roll: 10, first: []int{9, 1}} // the US call fails, the first German call succeeds
	o, _ := rules.ParseOrders("MOVE G/AR G/MX G/I2 G/I3 4 3", s, nil)
	_, ev, err := rules.Play(s, st, o, d)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fires(ev) {
		if f.Side == rules.Allied && containsMod(f.Mods, "-1 attacker without combined arms (9.6)") {
			t.Errorf("combined arms not recognised: %v", f)
		}
	}
}

// 14.24: CONFUSION gives all Allied fire in the named battle +1,
// artillery included.
func TestCombat_14_24_Confusion(t *testing.T) {
	s, st := combatGame(t)
	st.SF = &rules.SFCounter{Area: 3, Effect: rules.SFConfusion, Battle: 3, Placed: st.Next}
	d := &recorder{roll: 1}
	o, _ := rules.ParseOrders("MOVE G/AR G/MX G/I2 G/I3 4 3", s, nil)
	_, ev, err := rules.Play(s, st, o, d)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range fires(ev) {
		if f.Side == rules.Allied {
			n++
			if !containsMod(f.Mods, "+1 confusion (14.24)") {
				t.Errorf("Allied fire without confusion: %v", f)
			}
		} else if containsMod(f.Mods, "+1 confusion (14.24)") {
			t.Errorf("German fire with confusion: %v", f)
		}
	}
	for _, x := range strikes(ev) {
		if x.Side == rules.Allied && !containsMod(x.Mods, "+1 confusion (14.24)") {
			t.Errorf("Allied strike without confusion: %v", x)
		}
	}
	if n == 0 {
		t.Errorf("no Allied fire")
	}
}

// B3: the attacker's FIRE and ARTY lines are honoured when legal and
// refused at order check, citing the rule, when not.
func TestCombat_B3_ChoicesChecked(t *testing.T) {
	s, st := combatGame(t)
	move := "MOVE G/AR G/MX G/I2 G/I3 4 3\n"
	refused(t, s, st, move+"FIRE 3 G/AR>U/MX", "G/AR cannot fire at U/MX: ")
	refused(t, s, st, move+"FIRE 3 G/AR>U/MX", "(9.5")
	refused(t, s, st, move+"FIRE 2 G/AR>U/MX", "there is no battle of yours at Middle (2) this impulse")
	refused(t, s, st, move+"ARTY 3 U/IN", "U/IN is not an enemy unit in the battle at 3: strikes go to the enemy units there (9.46)")
	d := &recorder{roll: 10}
	o, err := rules.ParseOrders(move+"FIRE 3 G/AR>U/AR G/I3>U/AR", s, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, ev, err := rules.Play(s, st, o, d)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fires(ev) {
		if (f.Unit == "G/AR" || f.Unit == "G/I3") && f.Target != "U/AR" {
			t.Errorf("FIRE pair not honoured: %+v", f)
		}
	}
}

// B3: a FIRE or ARTY line the targeting rules forbid as the battle begins
// is refused at order check, once, with the rule the line breaks as
// written.
func TestCombat_B3_RefusalCitesTheRule(t *testing.T) {
	s, st := combatGame(t)
	move := "MOVE G/AR G/MX G/I2 G/I3 4 3\n"
	for _, c := range []struct{ line, want string }{
		// Each target one firing unit, in the wrong order of quality: the
		// armour first, at the armour.
		{"FIRE 3 G/AR>U/MX G/MX>U/AR", "G/AR cannot fire at U/MX: G/AR must fire at U/AR (armor, equal quality) before lower-quality targets such as U/MX (mech) (9.57)"},
		{"FIRE 3 G/AR>U/MX G/MX>U/AR # two against two", "G/AR cannot fire at U/MX: G/AR must fire at U/AR (armor, equal quality) before lower-quality targets such as U/MX (mech) (9.57)"},
		{"FIRE 3 G/MX>U/AR", "G/MX cannot fire at U/AR: G/MX must fire at U/MX (mech, equal quality), not at U/AR, which already has one firing unit while U/MX has none: no target gets a second firing unit until every target has one (9.55, 9.57)"},
		{"FIRE 3 G/I2>U/AR G/I3>U/AR", "G/I3 cannot fire at U/AR: U/AR gets 3 firing units while U/MX gets one firing unit: no target gets a third firing unit until every target has two (9.55)"},
		// 9.46: the mech's 3 SP outweigh the armour's 2.
		{"ARTY 3 U/AR", "strike 1 cannot go to U/AR (armor): a strike goes to a unit of the type with the largest total strength, mech with 3 SP against armor's 2 (9.46); strike 1 may go to U/MX"},
		{"ARTY 3 U/MX U/MX", "strike 2 cannot go to U/MX, which has strike 1: no unit gets a second strike until every enemy unit in the battle has one (9.46); strike 2 may go to U/AR"},
	} {
		orders := move + c.line
		if strings.HasSuffix(c.line, "two against two") {
			orders = "MOVE G/AR G/MX 4 3\n" + c.line
		}
		_, _, err := play(t, s, st, orders)
		var es rules.OrderErrors
		if !errors.As(err, &es) || len(es) != 1 || es[0].Line != strings.Count(orders, "\n")+1 || es[0].Msg != c.want {
			t.Errorf("%s: %v\nwant %s", c.line, err, c.want)
		}
	}
	// A legal ARTY line is honoured: strike 1 on the mech, 2 on the armour.
	o, err := rules.ParseOrders(move+"ARTY 3 U/MX U/AR", s, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, ev, err := rules.Play(s, st, o, &recorder{roll: 1})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, x := range strikes(ev) {
		if x.Side == rules.German {
			got = append(got, x.Target)
		}
	}
	if !reflect.DeepEqual(got, []string{"U/MX", "U/AR"}) {
		t.Errorf("German strikes on %v, want U/MX U/AR", got)
	}
}

// 9.72: attackers from two areas, only one of them across a river: no
// river modifier.
func TestCombat_9_72_TwoAreasOneRiver(t *testing.T) {
	s, st := combatGame(t)
	st.Unit("G/I3").Place, st.Unit("G/I3").TurnStart = rules.AreaPlace(2), rules.AreaPlace(2)
	d := &recorder{roll: 10}
	o, _ := rules.ParseOrders("MOVE G/AR G/MX G/I2 4 3\nMOVE G/I3 2 3", s, nil)
	_, ev, err := rules.Play(s, st, o, d)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range fires(ev) {
		if f.Side == rules.Allied {
			n++
			if containsMod(f.Mods, "-1 attackers crossed a river (9.71)") {
				t.Errorf("river modifier with one attacker not across a river (9.72): %v", f)
			}
		}
	}
	if n == 0 {
		t.Errorf("no Allied fire: %v", ev)
	}
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

// 9.14, B5, 9.16: a unit in a battle area that stays without attacking gets
// its moved marker, and one that attacked may not move: later in the turn,
// each is refused with the rule that spends it.
func TestBattle_9_14_9_16_SpentForTheTurn(t *testing.T) {
	cases := []struct {
		name, orders string // G16-1, with G/IN in South (6) beside U/MX
		later, want  string // G16-2, and its refusal
	}{
		{"9.14: stayed, then moves", "MOVE G/EN 5 6", "MOVE G/IN 6 2",
			"G/IN stayed without attacking in South (6), where a battle was fought, earlier this turn: it counts as moved and may not move again this turn (9.14, B5)"},
		{"9.14: stayed, then attacks", "MOVE G/EN 5 6", "ATTACK 6 WITH G/IN",
			"G/IN stayed without attacking in South (6), where a battle was fought, earlier this turn: it counts as moved and may not attack this turn (9.14, B5)"},
		{"8.25: entrenched where it began, then moves", "ENTRENCH G/EN", "MOVE G/EN 5 4", "G/EN already moved in an earlier impulse this turn (8.25)"},
		{"9.16: attacked, then moves", "ATTACK 6", "MOVE G/IN 6 2", "G/IN attacked this turn and may not move (9.16)"},
		{"8.25: moved, then moves", "MOVE G/IN 6 2", "MOVE G/IN 2 1", "G/IN already moved in an earlier impulse this turn (8.25)"},
	}
	for _, c := range cases {
		s, st := moveGame(t)
		place(st, "G/IN", rules.AreaPlace(6))
		o, err := rules.ParseOrders(c.orders, s, nil)
		if err != nil {
			t.Fatal(err)
		}
		next, _, err := rules.Play(s, st, o, &recorder{roll: 10})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		next, _ = mustPlay(t, s, next, "") // A16-1
		_, _, err = play(t, s, next, c.later)
		var es rules.OrderErrors
		if !errors.As(err, &es) || len(es) != 1 || es[0].Msg != c.want {
			t.Errorf("%s: %v\nwant %s", c.name, err, c.want)
		}
	}
}

// 9.38: when the battle is over the event names the side left alone in the
// area, or none when units of both sides are still there.
func TestCombat_9_38_BattleEndsHolder(t *testing.T) {
	cases := []struct {
		name   string
		game   func(*testing.T) (*rules.Scenario, *rules.State)
		orders string
		dice   []int
		holder rules.Side
		text   string
	}{
		{
			// Both calls fail, U/IN misses three times, G/AR hits four
			// times: the entrenched 3-SP infantry is gone.
			"the attacker alone", moveGame, "MOVE G/AR 4 3 2 1",
			[]int{9, 9, 10, 10, 10, 1, 1, 1, 1},
			rules.German, "the battle at 1 is over: German hold the area",
		},
		{
			// Both calls succeed; the Allied strike and three hits take
			// the 4-SP armour; the German strike still falls.
			"the defender alone", moveGame, "MOVE G/AR 4 3 2 1",
			[]int{1, 1, 1, 1, 1, 1, 1},
			rules.Allied, "the battle at 1 is over: Allied hold the area",
		},
		{
			// The rulebook's combat example: units of both sides survive.
			"both sides", combatGame, "MOVE G/AR G/MX G/I2 G/I3 4 3",
			[]int{9, 9, 7, 2, 8, 3, 5, 6, 4, 2, 3, 3, 3},
			"", "the battle at 3 is over: both sides hold the area",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, st := c.game(t)
			_, ev, err := playDice(t, s, st, c.orders, c.dice...)
			if err != nil {
				t.Fatal(err)
			}
			ends := eventsOf[rules.BattleEnds](ev)
			if len(ends) != 1 || ends[0].Holder != c.holder || ends[0].String() != c.text {
				t.Errorf("battle ends %v, want holder %q: %q", ends, c.holder, c.text)
			}
		})
	}
}
