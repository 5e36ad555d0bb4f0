package rules_test

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"titm/rules"
)

// u makes a combatant.
func u(id string, t rules.UnitType, sp int) rules.Combatant {
	return rules.Combatant{ID: id, Type: t, Strength: sp}
}

// pairs reads "a>b c>d".
func pairs(s string) []rules.FirePair {
	var out []rules.FirePair
	for _, f := range strings.Fields(s) {
		a, b, _ := strings.Cut(f, ">")
		out = append(out, rules.FirePair{Unit: a, Target: b})
	}
	return out
}

// pairSet writes an assignment in a canonical order, for comparison.
func pairSet(ps []rules.FirePair) string {
	var s []string
	for _, p := range ps {
		s = append(s, p.String())
	}
	slices.Sort(s)
	return strings.Join(s, " ")
}

// allAssignments calls f with every assignment of one target to each firer.
func allAssignments(fs, ts []rules.Combatant, f func(as []int)) {
	as := make([]int, len(fs))
	var rec func(i int)
	rec = func(i int) {
		if i == len(fs) {
			f(as)
			return
		}
		for j := range ts {
			as[i] = j
			rec(i + 1)
		}
	}
	rec(0)
}

func toPairs(fs, ts []rules.Combatant, as []int) []rules.FirePair {
	out := make([]rules.FirePair, len(fs))
	for i, j := range as {
		out[i] = rules.FirePair{Unit: fs[i].ID, Target: ts[j].ID}
	}
	return out
}

// legalSet returns every assignment CheckFire accepts, canonically written.
func legalSet(fs, ts []rules.Combatant, defender bool) []string {
	var out []string
	allAssignments(fs, ts, func(as []int) {
		ps := toPairs(fs, ts, as)
		if rules.CheckFire(fs, ts, defender, ps) == nil {
			out = append(out, pairSet(ps))
		}
	})
	slices.Sort(out)
	return out
}

// ---- 9.46 artillery strikes ----

// The rulebook's examples of play, "戦闘: 砲兵の割り当て", first example:
// two strikes against infantry 3, infantry 3 and armour 2 both go to the
// infantry: 6 > 2, then 6-3 = 3 > 2.
func TestStrikes_9_46_RulebookExample1(t *testing.T) {
	ts := []rules.Combatant{u("inf-a", rules.Infantry, 3), u("inf-b", rules.Infantry, 3), u("arm", rules.Armor, 2)}
	got := PlaceStrikesChecked(t, 2, ts, nil)
	if !reflect.DeepEqual(got, []string{"inf-a", "inf-b"}) {
		t.Errorf("strikes = %v, want both infantry", got)
	}
	// The player may not send the second to the armour (3 > 2): the
	// choice is ignored.
	got = PlaceStrikesChecked(t, 2, ts, []string{"inf-b", "arm"})
	if !reflect.DeepEqual(got, []string{"inf-b", "inf-a"}) {
		t.Errorf("strikes with ARTY inf-b arm = %v, want inf-b inf-a", got)
	}
	// Nor the first: infantry 6 > armour 2.
	got = PlaceStrikesChecked(t, 1, ts, []string{"arm"})
	if got[0] == "arm" {
		t.Errorf("first strike on the armour, though infantry total 6 > 2")
	}
}

// Second example: mech 3, infantry 4, infantry 3. The first strike goes to
// an infantry, and the player may pick the 4; then infantry 7-4 = 3 equals
// mech 3, so the second may go to the other infantry or to the mech.
func TestStrikes_9_46_RulebookExample2(t *testing.T) {
	ts := []rules.Combatant{u("mech", rules.Mech, 3), u("inf4", rules.Infantry, 4), u("inf3", rules.Infantry, 3)}
	for _, c := range []struct {
		choices []string
		want    []string
	}{
		{[]string{"inf4", "mech"}, []string{"inf4", "mech"}}, // as in the rulebook, either is open
		{[]string{"inf4", "inf3"}, []string{"inf4", "inf3"}},
		{[]string{"inf3"}, []string{"inf3", "inf4"}},         // then 7-3 = 4 > 3: the other infantry
		{[]string{"mech", "mech"}, []string{"inf3", "inf4"}}, // the mech is never open here
		{nil, []string{"inf3", "inf4"}},                      // policy: lowest SP first
		{[]string{"inf4"}, []string{"inf4", "mech"}},         // policy at the tie: SP 3 = 3, higher quality
	} {
		got := PlaceStrikesChecked(t, 2, ts, c.choices)
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("ARTY %v: strikes %v, want %v", c.choices, got, c.want)
		}
	}
}

// No unit gets a second strike until every enemy unit has one; then the
// count starts again from the full totals.
func TestStrikes_9_46_NoSecondStrike(t *testing.T) {
	ts := []rules.Combatant{u("inf-a", rules.Infantry, 3), u("inf-b", rules.Infantry, 3), u("arm", rules.Armor, 2)}
	got := PlaceStrikesChecked(t, 5, ts, nil)
	want := []string{"inf-a", "inf-b", "arm", "inf-a", "inf-b"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("5 strikes = %v, want %v", got, want)
	}
	// A choice of a unit already struck in the cycle is ignored.
	got = PlaceStrikesChecked(t, 3, ts, []string{"inf-b", "inf-b", "inf-b"})
	if !reflect.DeepEqual(got, []string{"inf-b", "inf-a", "arm"}) {
		t.Errorf("ARTY inf-b inf-b inf-b = %v", got)
	}
	// Armour 8 against two infantry 2: the armour first, then the
	// infantry, whose total 4 now exceeds the armour's 0.
	ts = []rules.Combatant{u("arm", rules.Armor, 4), u("arm2", rules.Armor, 4), u("i1", rules.Infantry, 1), u("i2", rules.Infantry, 2)}
	got = PlaceStrikesChecked(t, 4, ts, nil)
	if !reflect.DeepEqual(got, []string{"arm", "arm2", "i1", "i2"}) {
		t.Errorf("strikes = %v", got)
	}
	// At a tie (armour 8-4 = 4, infantry 4) either type is open.
	ts[2].Strength = 2
	got = PlaceStrikesChecked(t, 4, ts, []string{"arm", "i2"})
	if !reflect.DeepEqual(got, []string{"arm", "i2", "arm2", "i1"}) {
		t.Errorf("strikes = %v", got)
	}
	if got := rules.PlaceStrikes(3, nil, nil); len(got) != 0 {
		t.Errorf("strikes with no target: %v", got)
	}
	if got := rules.PlaceStrikes(2, []rules.Combatant{u("dead", rules.Mech, 0), u("m", rules.Mech, 1)}, []string{"dead"}); !reflect.DeepEqual(got, []string{"m", "m"}) {
		t.Errorf("strikes with an eliminated target: %v", got)
	}
}

// CheckStrikes accepts an ARTY line exactly when PlaceStrikes honours every
// strike of it (9.46), on the rulebook's second example and on every line
// of up to four strikes against four units.
func TestStrikes_9_46_CheckStrikes(t *testing.T) {
	ts := []rules.Combatant{u("mech", rules.Mech, 3), u("inf4", rules.Infantry, 4), u("inf3", rules.Infantry, 3)}
	for _, c := range []struct {
		choices []string
		want    string // "" when legal
	}{
		{[]string{"inf4", "mech"}, ""},
		{[]string{"inf3", "inf4", "mech", "inf3"}, ""},
		{[]string{"mech"}, "strike 1 cannot go to mech (mech): a strike goes to a unit of the type with the largest total strength, infantry with 7 SP against mech's 3 (9.46); strike 1 may go to inf4 or inf3"},
		{[]string{"inf3", "mech"}, "strike 2 cannot go to mech (mech): a strike goes to a unit of the type with the largest total strength, infantry with 4 SP against mech's 3 (9.46); strike 2 may go to inf4"},
		{[]string{"inf4", "inf4"}, "strike 2 cannot go to inf4, which has strike 1: no unit gets a second strike until every enemy unit in the battle has one (9.46); strike 2 may go to mech or inf3"},
		{[]string{"tank"}, "strike 1 cannot go to tank, which is not an enemy unit in the battle: the targets are mech, inf4, inf3 (9.46)"},
	} {
		err := rules.CheckStrikes(ts, c.choices)
		if got := fmt.Sprint(err); (c.want == "" && err != nil) || (c.want != "" && got != c.want) {
			t.Errorf("ARTY %v: %v, want %q", c.choices, err, c.want)
		}
	}
	ts = append(ts, u("arm", rules.Armor, 5))
	var ids []string
	for _, c := range ts {
		ids = append(ids, c.ID)
	}
	var lines func(prefix []string)
	lines = func(prefix []string) {
		if len(prefix) > 0 {
			honoured := slices.Equal(rules.PlaceStrikes(len(prefix), ts, prefix), prefix)
			if err := rules.CheckStrikes(ts, prefix); (err == nil) != honoured {
				t.Errorf("ARTY %v: CheckStrikes %v, but PlaceStrikes honours it: %v", prefix, err, honoured)
			}
		}
		if len(prefix) == 4 {
			return
		}
		for _, id := range ids {
			lines(append(slices.Clone(prefix), id))
		}
	}
	lines(nil)
}

// PlaceStrikesChecked places strikes and checks the invariants of 9.46
// independently: the count, no second strike before every unit has one,
// and each strike on a type of the largest remaining total.
func PlaceStrikesChecked(t *testing.T, n int, ts []rules.Combatant, choices []string) []string {
	t.Helper()
	got := rules.PlaceStrikes(n, ts, choices)
	if len(got) != n {
		t.Fatalf("%d strikes placed, want %d", len(got), n)
	}
	struck := map[string]bool{}
	for i, id := range got {
		if len(struck) == len(ts) {
			struck = map[string]bool{}
		}
		total := map[rules.UnitType]int{}
		var typ rules.UnitType
		for _, c := range ts {
			if !struck[c.ID] {
				total[c.Type] += c.Strength
			}
			if c.ID == id {
				typ = c.Type
			}
		}
		if struck[id] {
			t.Errorf("strike %d: %s struck twice before every unit has a strike (9.46)", i+1, id)
		}
		for ty, n := range total {
			if n > total[typ] {
				t.Errorf("strike %d on %s (%s %d) while %s has %d (9.46)", i+1, id, typ, total[typ], ty, n)
			}
		}
		struck[id] = true
	}
	return got
}

// ---- 9.5 fire ----

// The rulebook's 9.57 example: the firing side has armour, mech and two
// infantry; the targets are engineer, mot and armour. The armour must fire
// at the armour, the mech at the mot, one infantry (the player's choice) at
// the engineer, and the last unit at any of the three.
func TestFire_9_57_RulebookExample(t *testing.T) {
	fs := []rules.Combatant{u("A", rules.Armor, 4), u("M", rules.Mech, 3), u("I1", rules.Infantry, 3), u("I2", rules.Infantry, 3)}
	ts := []rules.Combatant{u("E", rules.Engineer, 3), u("T", rules.Mot, 2), u("R", rules.Armor, 4)}
	var want []string
	for _, last := range []string{"E", "T", "R"} {
		want = append(want, pairSet(pairs("A>R M>T I1>E I2>"+last)), pairSet(pairs("A>R M>T I2>E I1>"+last)))
	}
	slices.Sort(want)
	want = slices.Compact(want)
	if got := legalSet(fs, ts, false); !reflect.DeepEqual(got, want) {
		t.Errorf("legal assignments:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	got := rules.AssignFire(fs, ts, false, nil, nil)
	if w := pairs("A>R M>T I1>E I2>T"); !reflect.DeepEqual(got, w) {
		t.Errorf("AssignFire = %v, want %v (the last infantry free: the lowest SP)", got, w)
	}
	for _, c := range []struct{ a, want string }{
		{"A>T M>R I1>E I2>E", "A must fire at R (armor, equal quality) before lower-quality targets such as T (mot) (9.57)"},
		{"A>R M>E I1>T I2>T", "M must fire at T (mot, the best quality below its own) before higher-quality targets such as E (engineer)"},
		{"A>R M>R I1>E I2>T", "M must fire at T (mot, the best quality below its own), not at R, which already has one firing unit while E and T have none: no target gets a second firing unit until every target has one (9.55, 9.57)"},
		{"A>E M>T I1>R I2>R", "A must fire at R (armor, equal quality) before higher-quality targets such as E (engineer) (9.57)"},
		{"A>R M>T I1>T I2>T", "T gets 3 firing units while E gets no firing unit: no target gets a second firing unit until every target has one (9.55)"},
	} {
		err := rules.CheckFire(fs, ts, false, pairs(c.a))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("CheckFire(%s) = %v, want %q", c.a, err, c.want)
		}
	}
}

// The rulebook's combat example ("戦闘", with the erratum: the US mech has
// 3 SP). The US armour (2 SP: it rolls two dice) and the entrenched US mech
// defend against German armour (2 SP: one hit leaves it at 1), mech (1 SP),
// infantry (2 SP) and infantry (3 SP here; the rulebook does not say).
func TestFire_CombatExample(t *testing.T) {
	us := []rules.Combatant{u("US-arm", rules.Armor, 2), u("US-mech", rules.Mech, 3)}
	de := []rules.Combatant{u("G-arm", rules.Armor, 2), u("G-mech", rules.Mech, 1), u("G-inf2", rules.Infantry, 2), u("G-inf3", rules.Infantry, 3)}

	// The defender fires first: the US armour must fire at the German
	// armour; the mech fires at the 2-SP infantry, as the US is not forced
	// onto the 1-SP mech (9.53).
	got := rules.AssignFire(us, de, true, nil, nil)
	if w := pairs("US-arm>G-arm US-mech>G-inf2"); !reflect.DeepEqual(got, w) {
		t.Errorf("US fire = %v, want %v", got, w)
	}
	want := []string{
		pairSet(pairs("US-arm>G-arm US-mech>G-mech")), // 9.57: equal quality, open to it
		pairSet(pairs("US-arm>G-arm US-mech>G-inf2")), // 9.53: or skip it, and the best below
		pairSet(pairs("US-arm>G-arm US-mech>G-inf3")),
	}
	slices.Sort(want)
	if got := legalSet(us, de, true); !reflect.DeepEqual(got, want) {
		t.Errorf("legal US assignments %v, want %v", got, want)
	}
	err := rules.CheckFire(us, de, true, pairs("US-arm>G-inf2 US-mech>G-arm"))
	if err == nil || !strings.Contains(err.Error(), "US-arm must fire at G-arm (armor, equal quality) before lower-quality targets such as G-inf2 (infantry) (9.57)") {
		t.Errorf("US armour off the German armour: %v", err)
	}
	err = rules.CheckFire(us, de, true, pairs("US-arm>G-arm US-mech>G-mech"))
	if err != nil {
		t.Errorf("the US mech may still fire at the 1-SP mech: %v", err)
	}
	// As an attacker, the mech would have to fire at the mech.
	err = rules.CheckFire(us, de, false, pairs("US-arm>G-arm US-mech>G-inf2"))
	if err == nil || !strings.Contains(err.Error(), "US-mech must fire at G-mech (mech, equal quality)") {
		t.Errorf("without 9.53: %v", err)
	}

	// The German fire, after the US hits: the armour at 1 SP, the 2-SP
	// infantry gone. The armour must fire at the US armour, the mech at
	// the US mech, and the infantry may choose either; in the rulebook it
	// chose the armour.
	de = []rules.Combatant{u("G-arm", rules.Armor, 1), u("G-mech", rules.Mech, 1), u("G-inf3", rules.Infantry, 3)}
	want = []string{
		pairSet(pairs("G-arm>US-arm G-mech>US-mech G-inf3>US-arm")),
		pairSet(pairs("G-arm>US-arm G-mech>US-mech G-inf3>US-mech")),
	}
	if got := legalSet(de, us, false); !reflect.DeepEqual(got, want) {
		t.Errorf("legal German assignments %v, want %v", got, want)
	}
	got = rules.AssignFire(de, us, false, pairs("G-inf3>US-arm"), nil)
	if w := pairs("G-arm>US-arm G-mech>US-mech G-inf3>US-arm"); !reflect.DeepEqual(got, w) {
		t.Errorf("German fire = %v, want %v", got, w)
	}
	got = rules.AssignFire(de, us, false, pairs("G-inf3>US-mech"), nil)
	if w := pairs("G-arm>US-arm G-mech>US-mech G-inf3>US-mech"); !reflect.DeepEqual(got, w) {
		t.Errorf("German fire = %v, want %v", got, w)
	}
}

// 9.53: a defender need not fire at attacking units of 1 SP; the policy
// fires at them only when nothing else is legal (B3).
func TestFire_9_53_DefenderSkipsOneSP(t *testing.T) {
	// A lone infantry must fire at the lowest quality above its own (9.52),
	// the 1-SP armour; as a defender it may fire at the engineer instead.
	fs := []rules.Combatant{u("inf", rules.Infantry, 3)}
	ts := []rules.Combatant{u("arm1", rules.Armor, 1), u("eng", rules.Engineer, 3)}
	if got := rules.AssignFire(fs, ts, true, nil, nil); !reflect.DeepEqual(got, pairs("inf>eng")) {
		t.Errorf("defender: %v, want inf>eng", got)
	}
	if got := rules.AssignFire(fs, ts, false, nil, nil); !reflect.DeepEqual(got, pairs("inf>arm1")) {
		t.Errorf("attacker: %v, want inf>arm1", got)
	}
	for _, tg := range []string{"arm1", "eng"} {
		if err := rules.CheckFire(fs, ts, true, pairs("inf>"+tg)); err != nil {
			t.Errorf("defender inf>%s: %v", tg, err)
		}
	}
	err := rules.CheckFire(fs, ts, false, pairs("inf>eng"))
	if err == nil || !strings.Contains(err.Error(), "inf must fire at arm1 (armor, the lowest quality above its own") || !strings.Contains(err.Error(), "9.52") {
		t.Errorf("attacker inf>eng: %v", err)
	}
	// A lone defending armour prefers the 3-SP infantry to the 1-SP mech.
	fs = []rules.Combatant{u("arm", rules.Armor, 4)}
	ts = []rules.Combatant{u("mech1", rules.Mech, 1), u("inf3", rules.Infantry, 3)}
	if got := rules.AssignFire(fs, ts, true, nil, nil); !reflect.DeepEqual(got, pairs("arm>inf3")) {
		t.Errorf("defender: %v, want arm>inf3", got)
	}
	if got := rules.AssignFire(fs, ts, false, nil, nil); !reflect.DeepEqual(got, pairs("arm>mech1")) {
		t.Errorf("attacker: %v, want arm>mech1 (lowest SP)", got)
	}
	// Only 1-SP attackers left: the defender fires at one of them.
	ts = []rules.Combatant{u("mech1", rules.Mech, 1), u("inf1", rules.Infantry, 1)}
	if got := rules.AssignFire(fs, ts, true, nil, nil); !reflect.DeepEqual(got, pairs("arm>mech1")) {
		t.Errorf("only 1-SP attackers: %v", got)
	}
	// Several defenders, fewer than the targets: the 1-SP units are left.
	fs = []rules.Combatant{u("d1", rules.Mech, 3), u("d2", rules.Mech, 3)}
	ts = []rules.Combatant{u("m1", rules.Mech, 1), u("i1", rules.Infantry, 1), u("i4", rules.Infantry, 4), u("t3", rules.Mot, 3)}
	if got := rules.AssignFire(fs, ts, true, nil, nil); !reflect.DeepEqual(got, pairs("d1>t3 d2>i4")) {
		t.Errorf("defenders: %v, want d1>t3 d2>i4", got)
	}
}

// 9.55 overrides 9.53 (9.54): a 1-SP attacker gets its firing unit before
// any target gets a second.
func TestFire_9_55_OverridesExemption(t *testing.T) {
	fs := []rules.Combatant{u("d1", rules.Mech, 3), u("d2", rules.Mech, 3), u("d3", rules.Mech, 3)}
	ts := []rules.Combatant{u("arm1", rules.Armor, 1), u("inf3", rules.Infantry, 3)}
	got := rules.AssignFire(fs, ts, true, nil, nil)
	if w := pairs("d1>inf3 d2>arm1 d3>inf3"); !reflect.DeepEqual(got, w) {
		t.Errorf("AssignFire = %v, want %v", got, w)
	}
	err := rules.CheckFire(fs, ts, true, pairs("d1>inf3 d2>inf3 d3>inf3"))
	if err == nil || !strings.Contains(err.Error(), "no target gets a second firing unit until every target has one (9.55); 9.55 overrides 9.53, so the 1-SP attacker arm1 gets its firing unit too") {
		t.Errorf("CheckFire = %v", err)
	}
	// Two defenders, two targets: one each, the 1-SP armour included.
	fs = fs[:2]
	want := []string{pairSet(pairs("d1>inf3 d2>arm1")), pairSet(pairs("d1>arm1 d2>inf3"))}
	slices.Sort(want)
	if got := legalSet(fs, ts, true); !reflect.DeepEqual(got, want) {
		t.Errorf("legal: %v, want %v", got, want)
	}
	// A 1-SP attacker the defender may skip while the firing units are
	// fewer than the targets, but not once they are more.
	fs = []rules.Combatant{u("d1", rules.Armor, 3), u("d2", rules.Infantry, 3), u("d3", rules.Infantry, 3)}
	ts = []rules.Combatant{u("m1", rules.Mech, 1), u("i3", rules.Infantry, 3)}
	if got := rules.AssignFire(fs, ts, true, nil, nil); !reflect.DeepEqual(got, pairs("d1>i3 d2>m1 d3>i3")) {
		t.Errorf("AssignFire = %v", got)
	}
}

// 9.55 binds each choice in the order of 9.57, not only the final counts:
// the fourth armour may not give the armour target its third firing unit
// while the infantry target has one, though the infantry behind it would
// even the counts.
func TestFire_9_55_InOrder(t *testing.T) {
	fs := []rules.Combatant{u("A1", rules.Armor, 4), u("A2", rules.Armor, 4), u("A3", rules.Armor, 4), u("A4", rules.Armor, 4), u("I", rules.Infantry, 3)}
	ts := []rules.Combatant{u("P", rules.Armor, 4), u("Q", rules.Infantry, 3)}
	err := rules.CheckFire(fs, ts, false, pairs("A1>P A2>Q A3>P A4>P I>Q"))
	if want := "A4 must fire at Q, which has one firing unit, not at P, which already has 2 firing units: no target gets a third firing unit until every target has two (9.55; targets are chosen in order of the firing unit's quality, 9.57)"; err == nil || err.Error() != want {
		t.Errorf("CheckFire = %v\nwant %s", err, want)
	}
	if err := rules.CheckFire(fs, ts, false, pairs("A1>P A2>Q A3>P A4>Q I>P")); err != nil {
		t.Errorf("CheckFire: %v", err)
	}
	got := rules.AssignFire(fs, ts, false, nil, nil)
	if w := pairs("A1>P A2>Q A3>Q A4>P I>Q"); !reflect.DeepEqual(got, w) {
		t.Errorf("AssignFire = %v, want %v", got, w)
	}
}

// 9.54: a lone unit may fire at any target within 9.52 and 9.53; a unit
// with company follows 9.57.
func TestFire_9_54_LoneUnit(t *testing.T) {
	ts := []rules.Combatant{u("arm3", rules.Armor, 3), u("inf2", rules.Infantry, 2), u("mech4", rules.Mech, 4), u("eng1", rules.Engineer, 1)}
	lone := []rules.Combatant{u("arm", rules.Armor, 4)}
	for _, tg := range []string{"arm3", "inf2", "mech4"} {
		if err := rules.CheckFire(lone, ts, false, pairs("arm>"+tg)); err != nil {
			t.Errorf("lone arm>%s: %v", tg, err)
		}
	}
	err := rules.CheckFire(lone, ts, false, pairs("arm>eng1"))
	if err == nil || !strings.Contains(err.Error(), "arm must fire at a target of equal or lower quality, arm3, inf2 or mech4, not at eng1 (engineer) (9.52, 9.54)") {
		t.Errorf("lone arm>eng1: %v", err)
	}
	if got := rules.AssignFire(lone, ts, false, nil, nil); !reflect.DeepEqual(got, pairs("arm>inf2")) {
		t.Errorf("lone armour: %v, want the lowest SP within 9.52", got)
	}
	// With an infantry beside it, the armour must fire at the armour.
	two := []rules.Combatant{u("arm", rules.Armor, 4), u("inf", rules.Infantry, 3)}
	if got := rules.AssignFire(two, ts, false, nil, nil); !reflect.DeepEqual(got, pairs("arm>arm3 inf>inf2")) {
		t.Errorf("two units: %v", got)
	}
	if err := rules.CheckFire(two, ts, false, pairs("arm>inf2 inf>eng1")); err == nil || !strings.Contains(err.Error(), "(9.57)") {
		t.Errorf("two units arm>inf2: %v", err)
	}
	// A lone infantry against engineer and armour: the lowest above.
	lone = []rules.Combatant{u("inf", rules.Infantry, 3)}
	ts = []rules.Combatant{u("eng", rules.Engineer, 3), u("arm", rules.Armor, 2)}
	if want := []string{"inf>arm"}; !reflect.DeepEqual(legalSet(lone, ts, false), want) {
		t.Errorf("lone infantry: %v, want %v", legalSet(lone, ts, false), want)
	}
}

// 9.58: a unit's dice are never split; 9.59: every unit has its target
// before any fire.
func TestFire_9_58_NoSplit(t *testing.T) {
	fs := []rules.Combatant{u("a", rules.Armor, 4), u("b", rules.Infantry, 3)}
	ts := []rules.Combatant{u("x", rules.Armor, 4), u("y", rules.Infantry, 3)}
	for _, c := range []struct{ a, want string }{
		{"a>x a>y b>y", "a is given two targets, x and y: a unit's dice are never split between targets (9.58)"},
		{"a>x a>x b>y", "a is given two targets, x and x"},
		{"a>x", "b has no target: every firing unit is given one target before any fire (9.58, 9.59)"},
		{"a>x b>y c>y", "c is not a firing unit in this battle: the firing units are a, b"},
		{"a>x b>z", "b cannot fire at z, which is not an enemy unit in this battle: the targets are x, y"},
	} {
		err := rules.CheckFire(fs, ts, false, pairs(c.a))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("CheckFire(%s) = %v, want %q", c.a, err, c.want)
		}
	}
	// Balanced in the end, but the second armour chooses while the
	// infantry target has no firing unit (9.55 in the order of 9.57).
	four := []rules.Combatant{u("X", rules.Armor, 4), u("Y", rules.Armor, 4), u("Z", rules.Infantry, 3), u("W", rules.Infantry, 3)}
	two := []rules.Combatant{u("P", rules.Armor, 4), u("Q", rules.Infantry, 3)}
	err := rules.CheckFire(four, two, false, pairs("X>P Y>P Z>Q W>Q"))
	if want := "Y must fire at Q (infantry, the best quality below its own), not at P, which already has one firing unit while Q has none: no target gets a second firing unit until every target has one (9.55, 9.57)"; err == nil || err.Error() != want {
		t.Errorf("CheckFire = %v, want %q", err, want)
	}
	if err := rules.CheckFire(fs, ts, false, pairs("b>y a>x")); err != nil {
		t.Errorf("the order of the pairs does not matter: %v", err)
	}
	if err := rules.CheckFire(fs, nil, false, nil); err != nil {
		t.Errorf("no targets, no fire: %v", err)
	}
	if got := rules.AssignFire(fs, nil, false, nil, nil); len(got) != 0 {
		t.Errorf("no targets: %v", got)
	}
}

// B3: what the rules leave open goes to the lowest SP, then the higher
// quality, then the lower id; DEFEND PREFER comes first.
func TestFire_B3_Policy(t *testing.T) {
	for _, c := range []struct {
		name     string
		fs, ts   []rules.Combatant
		defender bool
		prefer   []rules.UnitType
		want     string
	}{
		{"lowest SP", []rules.Combatant{u("f", rules.Armor, 4)},
			[]rules.Combatant{u("m3", rules.Mech, 3), u("i2", rules.Infantry, 2), u("t4", rules.Mot, 4)}, false, nil, "f>i2"},
		{"then higher quality", []rules.Combatant{u("f", rules.Engineer, 3)},
			[]rules.Combatant{u("i2", rules.Infantry, 2), u("a2", rules.Armor, 2)}, false, nil, "f>a2"},
		{"then id", []rules.Combatant{u("f", rules.Infantry, 3)},
			[]rules.Combatant{u("b", rules.Infantry, 2), u("a", rules.Infantry, 2)}, false, nil, "f>a"},
		{"prefer", []rules.Combatant{u("f", rules.Armor, 4)},
			[]rules.Combatant{u("i2", rules.Infantry, 2), u("m3", rules.Mech, 3)}, true, []rules.UnitType{rules.Engineer, rules.Mech}, "f>m3"},
		{"prefer within the rules", []rules.Combatant{u("f", rules.Armor, 4), u("g", rules.Infantry, 3)},
			[]rules.Combatant{u("a4", rules.Armor, 4), u("i2", rules.Infantry, 2)}, true, []rules.UnitType{rules.Infantry}, "f>a4 g>i2"},
		{"9.53 before lowest SP", []rules.Combatant{u("f", rules.Armor, 4)},
			[]rules.Combatant{u("i1", rules.Infantry, 1), u("m4", rules.Mech, 4)}, true, nil, "f>m4"},
		{"free choices after coverage", []rules.Combatant{u("f", rules.Armor, 4), u("g", rules.Armor, 4), u("h", rules.Infantry, 1)},
			[]rules.Combatant{u("e4", rules.Engineer, 4), u("i3", rules.Infantry, 3)}, false, nil, "f>i3 g>e4 h>i3"},
	} {
		got := rules.AssignFire(c.fs, c.ts, c.defender, nil, c.prefer)
		if !reflect.DeepEqual(got, pairs(c.want)) {
			t.Errorf("%s: %v, want %s", c.name, got, c.want)
		}
		if err := rules.CheckFire(c.fs, c.ts, c.defender, got); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

// The firing side's pairs are followed where legal at that moment.
func TestFire_ChosenHonoured(t *testing.T) {
	fs := []rules.Combatant{u("A", rules.Armor, 4), u("M", rules.Mech, 3), u("I1", rules.Infantry, 3), u("I2", rules.Infantry, 3)}
	ts := []rules.Combatant{u("E", rules.Engineer, 3), u("T", rules.Mot, 2), u("R", rules.Armor, 4)}
	// The player picks which infantry fires at the engineer and where the
	// other goes (9.57 example).
	got := rules.AssignFire(fs, ts, false, pairs("I1>R I2>E"), nil)
	if w := pairs("A>R M>T I2>E I1>R"); !reflect.DeepEqual(got, w) {
		t.Errorf("AssignFire = %v, want %v", got, w)
	}
	// An order for one unit only: the policy keeps clear of the target
	// the other has been ordered at.
	fs = []rules.Combatant{u("A", rules.Armor, 4), u("B", rules.Infantry, 3)}
	ts = []rules.Combatant{u("Z1", rules.Infantry, 2), u("Z2", rules.Infantry, 3)}
	got = rules.AssignFire(fs, ts, false, pairs("B>Z1"), nil)
	if w := pairs("A>Z2 B>Z1"); !reflect.DeepEqual(got, w) {
		t.Errorf("AssignFire = %v, want %v", got, w)
	}
	// DEFEND area pairs against the 9.53 policy: the defender may fire at
	// the 1-SP mech if he says so.
	us := []rules.Combatant{u("US-arm", rules.Armor, 2), u("US-mech", rules.Mech, 3)}
	de := []rules.Combatant{u("G-arm", rules.Armor, 2), u("G-mech", rules.Mech, 1), u("G-inf2", rules.Infantry, 2)}
	got = rules.AssignFire(us, de, true, pairs("US-mech>G-mech"), []rules.UnitType{rules.Infantry})
	if w := pairs("US-arm>G-arm US-mech>G-mech"); !reflect.DeepEqual(got, w) {
		t.Errorf("AssignFire = %v, want %v", got, w)
	}
}

// A pair the rules forbid at its moment is ignored and the policy chooses;
// so are pairs for units or targets not in the battle, and a unit's
// second pair.
func TestFire_ChosenIllegalIgnored(t *testing.T) {
	us := []rules.Combatant{u("US-arm", rules.Armor, 2), u("US-mech", rules.Mech, 3)}
	de := []rules.Combatant{u("G-arm", rules.Armor, 2), u("G-mech", rules.Mech, 1), u("G-inf2", rules.Infantry, 2), u("G-inf3", rules.Infantry, 3)}
	for _, chosen := range []string{
		"US-mech>G-arm",                // 9.57: not the mech's target while another is open
		"US-arm>G-inf3",                // 9.57: the armour must fire at the armour
		"X>G-arm US-mech>nobody",       // not in the battle
		"US-mech>G-inf2 US-mech>G-arm", // the second pair of a unit
	} {
		got := rules.AssignFire(us, de, true, pairs(chosen), nil)
		if w := pairs("US-arm>G-arm US-mech>G-inf2"); !reflect.DeepEqual(got, w) {
			t.Errorf("chosen %s: %v, want %v", chosen, got, w)
		}
	}
	// The 9.57 example: both infantry want the armour, but one must take
	// the engineer first (9.55); the first in the order given does, and
	// the other gets the armour.
	fs := []rules.Combatant{u("A", rules.Armor, 4), u("M", rules.Mech, 3), u("I1", rules.Infantry, 3), u("I2", rules.Infantry, 3)}
	ts := []rules.Combatant{u("E", rules.Engineer, 3), u("T", rules.Mot, 2), u("R", rules.Armor, 4)}
	got := rules.AssignFire(fs, ts, false, pairs("I1>R I2>R"), nil)
	if w := pairs("A>R M>T I1>E I2>R"); !reflect.DeepEqual(got, w) {
		t.Errorf("AssignFire = %v, want %v", got, w)
	}
}

// ---- brute force ----

// bruteLegal decides from the rule text alone, by trying every order of the
// firing units, whether the assignment as (firer i fires at target as[i])
// is legal:
//
//   - 9.54: a lone unit fires within 9.52 and 9.53 only.
//   - 9.57: targets are chosen in order of firing-unit quality, high to low
//     (ties in any order).
//   - 9.55: at each choice, no target gets its (k+1)-th firing unit while
//     another has fewer than k.
//   - 9.57/9.56: while some target has no firing unit, the unit takes,
//     among the targets without one, equal quality, else the best below,
//     else the lowest above; after that, free within 9.55.
//   - 9.53: a defender need not fire at 1-SP attackers: the quality rule
//     may also be met with them left out.
func bruteLegal(fs, ts []rules.Combatant, defender bool, as []int) bool {
	b := brute{ts: ts, defender: defender}
	all := make([]int, len(ts))
	for j := range all {
		all[j] = j
	}
	if len(fs) == 1 {
		fq, j := fs[0].Quality(), as[0]
		return b.rule952(fq, all, j) || b.rule952(fq, b.skip(all), j)
	}
	legal := false
	// 9.57: only orders by quality, high to low.
	byQuality := func(prev, next int) bool { return fs[next].Quality() <= fs[prev].Quality() }
	permute(len(fs), byQuality, func(order []int) bool {
		legal = b.inOrder(fs, as, order)
		return legal
	})
	return legal
}

// brute holds the targets and the firing side for bruteLegal's rules.
type brute struct {
	ts       []rules.Combatant
	defender bool
}

// skip leaves out of set the targets a defender need not fire at (9.53).
func (b brute) skip(set []int) []int {
	var out []int
	for _, j := range set {
		if !(b.defender && b.ts[j].Strength == 1) {
			out = append(out, j)
		}
	}
	return out
}

// rule957 reports whether target j is the one 9.57 names among set.
func (b brute) rule957(fq int, set []int, j int) bool {
	if !slices.Contains(set, j) {
		return false
	}
	var equal, lower, higher []int
	for _, k := range set {
		switch q := b.ts[k].Quality(); {
		case q == fq:
			equal = append(equal, k)
		case q < fq:
			lower = append(lower, k)
		default:
			higher = append(higher, k)
		}
	}
	jq := b.ts[j].Quality()
	if len(equal) > 0 {
		return jq == fq
	}
	if len(lower) > 0 {
		best := 0
		for _, k := range lower {
			best = max(best, b.ts[k].Quality())
		}
		return jq == best
	}
	low := 99
	for _, k := range higher {
		low = min(low, b.ts[k].Quality())
	}
	return jq == low
}

// rule952 reports whether 9.52 lets a unit of quality fq fire at j among
// set.
func (b brute) rule952(fq int, set []int, j int) bool {
	if !slices.Contains(set, j) {
		return false
	}
	for _, k := range set {
		if b.ts[k].Quality() <= fq {
			return b.ts[j].Quality() <= fq
		}
	}
	return b.rule957(fq, set, j) // all above: the lowest
}

// inOrder reports whether the firing units, choosing in the order given,
// can each take its target in as under 9.55, 9.57 and 9.53.
func (b brute) inOrder(fs []rules.Combatant, as, order []int) bool {
	count := make([]int, len(b.ts))
	for _, i := range order {
		j := as[i]
		for _, c := range count {
			if c < count[j] {
				return false // 9.55
			}
		}
		var bare []int
		for k, c := range count {
			if c == 0 {
				bare = append(bare, k)
			}
		}
		if len(bare) > 0 {
			fq := fs[i].Quality()
			if !b.rule957(fq, bare, j) && !b.rule957(fq, b.skip(bare), j) {
				return false // 9.57, 9.53
			}
		}
		count[j]++
	}
	return true
}

// permute calls f with every permutation of 0..n-1 in which each element
// may follow the one before it, until f returns true.
func permute(n int, follows func(prev, next int) bool, f func([]int) bool) {
	p := make([]int, n)
	used := make([]bool, n)
	var rec func(k int) bool
	rec = func(k int) bool {
		if k == n {
			return f(p)
		}
		for i := range n {
			if !used[i] && (k == 0 || follows(p[k-1], i)) {
				used[i], p[k] = true, i
				if rec(k + 1) {
					return true
				}
				used[i] = false
			}
		}
		return false
	}
	rec(0)
}

// multisets returns every multiset of unit types of size 1 to max.
func multisets(maxN int) [][]rules.UnitType {
	var out [][]rules.UnitType
	var rec func(from int, cur []rules.UnitType)
	rec = func(from int, cur []rules.UnitType) {
		if len(cur) > 0 {
			out = append(out, slices.Clone(cur))
		}
		if len(cur) == maxN {
			return
		}
		for i := from; i < len(rules.UnitTypes); i++ {
			rec(i, append(cur, rules.UnitTypes[i]))
		}
	}
	rec(0, nil)
	return out
}

// Every battle from 1-vs-1 to 4-vs-4, over all multisets of types on each
// side, as attacker and as defender, with strengths 1-4 from a fixed
// sequence:
//
//   - for four draws of strengths, with and without DEFEND PREFER and with
//     pairs drawn at random (legal or not) as the side's orders, AssignFire
//     gives every unit one target, in order of quality, and its result
//     passes both CheckFire and the brute force;
//   - for the first draw, CheckFire agrees with the brute force on every
//     assignment (up to the order of firing units of the same type, which
//     neither the rules nor the code tell apart: 9.57, "ユニットの戦力は
//     このルールには一切影響しません"), at least one is legal, every
//     refusal cites a rule, and every legal assignment given as the side's
//     pairs comes back unchanged (with -short, up to 3 firing units).
func TestFire_BruteForce(t *testing.T) {
	sets := multisets(4)
	for nf := 1; nf <= 4; nf++ {
		t.Run(fmt.Sprintf("%d firing units", nf), func(t *testing.T) {
			t.Parallel()
			seed := uint32(nf)
			next := func(n int) int { // a fixed linear congruential sequence, 1..n
				seed = seed*1664525 + 1013904223
				return int(seed>>24)%n + 1
			}
			battles, assignments := 0, 0
			for _, fset := range sets {
				if len(fset) != nf {
					continue
				}
				for _, tset := range sets {
					for _, defender := range []bool{false, true} {
						for draw := range 4 {
							var fs, ts []rules.Combatant
							for i, ty := range fset {
								fs = append(fs, u(fmt.Sprintf("f%d", i), ty, next(4)))
							}
							for i, ty := range tset {
								ts = append(ts, u(fmt.Sprintf("t%d", i), ty, next(4)))
							}
							battles++
							name := fmt.Sprintf("%v vs %v defender=%v", fs, ts, defender)
							var prefer []rules.UnitType
							var chosen []rules.FirePair
							if draw%2 == 1 {
								prefer = []rules.UnitType{rules.UnitTypes[next(5)-1], rules.UnitTypes[next(5)-1]}
							}
							if draw >= 2 {
								for _, f := range fs {
									if next(3) > 1 {
										chosen = append(chosen, rules.FirePair{Unit: f.ID, Target: ts[next(len(ts))-1].ID})
									}
								}
							}
							checkAssigned(t, name, fs, ts, defender, rules.AssignFire(fs, ts, defender, chosen, prefer))
							if draw > 0 || (testing.Short() && nf == 4) {
								continue
							}
							nlegal := 0
							canonicalAssignments(fs, ts, func(as []int) {
								assignments++
								ps := toPairs(fs, ts, as)
								brute := bruteLegal(fs, ts, defender, as)
								err := rules.CheckFire(fs, ts, defender, ps)
								if brute != (err == nil) {
									t.Fatalf("%s: %v: brute force legal=%v, CheckFire %v", name, ps, brute, err)
								}
								if !brute {
									if !strings.Contains(err.Error(), "(9.") {
										t.Fatalf("%s: %v: the error names no rule: %v", name, ps, err)
									}
									return
								}
								nlegal++
								back := rules.AssignFire(fs, ts, defender, ps, nil)
								if pairSet(back) != pairSet(ps) {
									t.Fatalf("%s: legal pairs %v given, AssignFire chose %v", name, ps, back)
								}
							})
							if nlegal == 0 {
								t.Fatalf("%s: no legal assignment", name)
							}
						}
					}
				}
			}
			t.Logf("%d battles, %d assignments compared", battles, assignments)
		})
	}
}

// checkAssigned checks one result of AssignFire: one target for each unit,
// in order of quality (9.57), legal by CheckFire and by the brute force.
func checkAssigned(t *testing.T, name string, fs, ts []rules.Combatant, defender bool, got []rules.FirePair) {
	t.Helper()
	if len(got) != len(fs) {
		t.Fatalf("%s: %d pairs for %d units", name, len(got), len(fs))
	}
	if err := rules.CheckFire(fs, ts, defender, got); err != nil {
		t.Fatalf("%s: AssignFire %v fails CheckFire: %v", name, got, err)
	}
	fidx, tidx := map[string]int{}, map[string]int{}
	for i, f := range fs {
		fidx[f.ID] = i
	}
	for j, c := range ts {
		tidx[c.ID] = j
	}
	as := make([]int, len(fs))
	for k, p := range got {
		as[fidx[p.Unit]] = tidx[p.Target]
		if k > 0 && fs[fidx[p.Unit]].Quality() > fs[fidx[got[k-1].Unit]].Quality() {
			t.Fatalf("%s: %v not in order of quality (9.57)", name, got)
		}
	}
	if !bruteLegal(fs, ts, defender, as) {
		t.Fatalf("%s: AssignFire %v is not legal by the brute force", name, got)
	}
}

// canonicalAssignments calls f with every assignment of one target to each
// firer, where firers of the same type, listed together, take targets in
// order of index.
func canonicalAssignments(fs, ts []rules.Combatant, f func(as []int)) {
	as := make([]int, len(fs))
	var rec func(i int)
	rec = func(i int) {
		if i == len(fs) {
			f(as)
			return
		}
		from := 0
		if i > 0 && fs[i].Type == fs[i-1].Type {
			from = as[i-1]
		}
		for j := from; j < len(ts); j++ {
			as[i] = j
			rec(i + 1)
		}
	}
	rec(0)
}

func BenchmarkAssignFire4v4(b *testing.B) {
	fs := []rules.Combatant{u("f-eng", rules.Engineer, 3), u("f-arm", rules.Armor, 4), u("f-inf1", rules.Infantry, 3), u("f-inf2", rules.Infantry, 2)}
	ts := []rules.Combatant{u("t-arm", rules.Armor, 1), u("t-mech", rules.Mech, 3), u("t-mot", rules.Mot, 2), u("t-inf", rules.Infantry, 4)}
	chosen := pairs("f-inf2>t-arm")
	for b.Loop() {
		rules.AssignFire(fs, ts, true, chosen, []rules.UnitType{rules.Mech})
	}
}
