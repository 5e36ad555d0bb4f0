package rules_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"titm/internal/playtest"
	"titm/rules"
	"titm/rules/scenarios"
)

// stateRules are the rules by which a unit's own state bars an action,
// as rules.Abilities judges them: a refusal that cites one of them is one
// for the unit's state; any other (a path, a road, the enemy, the
// stacking limit, MP spent) is the order's.
var stateRules = map[rules.Action][]string{
	rules.ActMove:     {"9.21", "11.3", "11.11", "12.25", "10.14", "9.16", "9.14", "8.25", "5.23", "5.24", "8.29"},
	rules.ActAttack:   {"9.21", "11.3", "11.11", "9.17", "9.13", "9.11", "10.14", "9.14", "8.25"},
	rules.ActEntrench: {"9.21", "11.3", "11.11", "8.54", "8.5", "8.55", "8.25"},
}

// ruleRef finds the rule numbers a text cites in parentheses: "(8.29,
// 13.23)" cites 8.29 and 13.23.
var ruleRef = regexp.MustCompile(`\(([0-9B][0-9.]*(?:, [0-9B][0-9.]*)*)\)`)

func citedRules(text string) []string {
	var out []string
	for _, m := range ruleRef.FindAllStringSubmatch(text, -1) {
		out = append(out, strings.Split(m[1], ", ")...)
	}
	return out
}

// judged counts what the property test saw.
type judged struct {
	allowed, allowedAccepted, allowedOther int // orders the judgement allows: accepted, refused for the order's own reasons
	barred, barredSame                     int // orders it bars, and of them refused by the same rule
	positions                              int
	byRule                                 map[string]int // the orders barred, and those allowed within a limit, by the verdict's rule
}

// TestAbilitiesAgreeWithTheOrders plays the shipped scenarios through with
// random dice and, at each position reached, gives random legal-looking
// orders, one unit each: MOVE and FOOT along the roads, ENTRENCH, and
// ATTACK where the unit stands. An order the judgement of rules.Abilities
// (which UNITS shows) allows is never refused for the unit's own state,
// save by the limit the verdict itself names (8.29: one area out of
// supply); an order it bars is refused, citing the verdict's rule.
func TestAbilitiesAgreeWithTheOrders(t *testing.T) {
	n := judged{byRule: map[string]int{}}
	for i, c := range []struct {
		scenario string
		impulses int // impulses played through
	}{{"intro", 18}, {"fifth-panzer", 8}, {"three-days", 7}, {"campaign", 7}} {
		s, err := scenarios.Load(c.scenario)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(uint64(i)+1, 30))
		st := rules.NewState(s)
		for k := 0; k < c.impulses && !st.Over; k++ {
			judgePosition(t, s, st, r, &n)
			judgePosition(t, s, infiltrated(s, st, r), r, &n)
			if st, _, err = playtest.PlayEveryAttack(s, st, randomDice{r}); err != nil {
				t.Fatalf("%s: %v", c.scenario, err)
			}
		}
	}
	t.Logf("%d positions; allowed %d orders: %d accepted, %d refused for the order's own reasons; barred %d, %d of them refused by the verdict's rule",
		n.positions, n.allowed, n.allowedAccepted, n.allowedOther, n.barred, n.barredSame)
	t.Logf("by the verdict's rule: %v", n.byRule)
	// The test proves something only if it saw both kinds of verdict and
	// both kinds of answer.
	if n.allowedAccepted < 100 || n.allowedOther < 20 || n.barred < 100 || n.byRule["yes 8.29"] == 0 {
		t.Errorf("too few cases: %+v", n)
	}
}

// infiltrated returns a copy of the position with twelve of the enemy's
// units on the map put in random areas of it, as if they had begun the
// turn there: units of the side to move then share areas with the enemy
// (8.55, 9.13) and are cut off from supply (8.29, 13.22) more often than
// the games played reach.
func infiltrated(s *rules.Scenario, st *rules.State, r *rand.Rand) *rules.State {
	st = st.Clone()
	var enemy []*rules.UnitState
	for _, u := range st.Units {
		if u.OnMap() && s.OOB.Unit(u.ID).Side != st.Next.Side {
			enemy = append(enemy, u)
		}
	}
	var areas []rules.Place
	for _, a := range s.Map.Areas {
		if p := rules.AreaPlace(a.ID); s.Uses(p) {
			areas = append(areas, p)
		}
	}
	for i := 0; i < 12 && len(enemy) > 0; i++ {
		u := enemy[r.IntN(len(enemy))]
		p := areas[r.IntN(len(areas))]
		u.Place, u.TurnStart = p, p
	}
	return st
}

// judgePosition checks random orders for some units of the side to move
// against the judgement of the position.
func judgePosition(t *testing.T, s *rules.Scenario, st *rules.State, r *rand.Rand, n *judged) {
	t.Helper()
	n.positions++
	able := rules.Abilities(s, st, st.Next.Side)
	if len(able) == 0 {
		t.Fatalf("%s: no verdicts for the side to move", st.Next)
	}
	// Twelve units at random, and every unit whose verdicts name a limit
	// (8.29), which random games seldom reach.
	pick := r.Perm(len(able))[:min(len(able), 12)]
	for j, a := range able {
		if a.Of(rules.ActMove).May && a.Of(rules.ActMove).Rule != "" && !slices.Contains(pick, j) {
			pick = append(pick, j)
		}
	}
	for _, j := range pick {
		a := able[j]
		for _, act := range []rules.Action{rules.ActMove, rules.ActAttack, rules.ActEntrench} {
			line, ok := orderFor(s, st, r, a.Unit, act)
			if !ok {
				continue
			}
			judgeOrder(t, s, st, a.Of(act), act, line, n)
		}
	}
}

// judgeOrder checks one order against the verdict on its action.
func judgeOrder(t *testing.T, s *rules.Scenario, st *rules.State, v rules.Verdict, act rules.Action, line string, n *judged) {
	t.Helper()
	body := fmt.Sprintf("IMPULSE %d-%d\n%s", st.Next.Day, st.Next.N, line)
	o, err := rules.ParseOrders(body, s, &rules.ParseOptions{Side: st.Next.Side})
	var refusal []string
	if err != nil {
		refusal = errTexts(err)
	}
	if err := rules.CheckOrders(s, st, o); err != nil {
		refusal = append(refusal, errTexts(err)...)
	}
	var cited []string
	for _, text := range refusal {
		cited = append(cited, citedRules(text)...)
	}
	where := fmt.Sprintf("%s at %s: %q", s.Name, st.Next, line)
	if v.May {
		n.allowed++
		if v.Rule != "" {
			n.byRule["yes "+v.Rule]++ // allowed within a limit (8.29)
		}
		if len(refusal) == 0 {
			n.allowedAccepted++
			return
		}
		for _, rule := range cited {
			if slices.Contains(stateRules[act], rule) && rule != v.Rule {
				t.Errorf("%s: UNITS says %s, but the order is refused for the unit's state (%s):\n%s", where, v.Text(), rule, strings.Join(refusal, "\n"))
				return
			}
		}
		n.allowedOther++
		return
	}
	n.barred++
	if !slices.Contains(cited, v.Rule) {
		t.Errorf("%s: UNITS says %s (%s), but the order is not refused by %s:\n%s", where, v.Text(), v.Why, v.Rule, strings.Join(refusal, "\n"))
		return
	}
	n.barredSame++
	n.byRule[v.Rule]++
}

func errTexts(err error) []string {
	var es rules.OrderErrors
	if !errors.As(err, &es) {
		return []string{err.Error()}
	}
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.Msg
	}
	return out
}

// orderFor writes a random legal-looking order of the unit for the action:
// a MOVE or FOOT along one to three roads from where it stands, into
// areas, an ATTACK where it stands, an ENTRENCH. A
// unit not on the map is ordered to move to the first area of the map,
// so that the judgement of its absence is checked too.
func orderFor(s *rules.Scenario, st *rules.State, r *rand.Rand, id string, act rules.Action) (string, bool) {
	u := st.Unit(id)
	switch act {
	case rules.ActEntrench:
		return "ENTRENCH " + id, true
	case rules.ActAttack:
		if !u.OnMap() || u.Place.IsZone() {
			return "", false
		}
		return fmt.Sprintf("ATTACK %d WITH %s", u.Place.Area, id), true
	}
	kw := "MOVE"
	if r.IntN(4) == 0 && s.OOB.Unit(id).Type != rules.Armor {
		kw = "FOOT" // 8.34: armour never does; its refusal is the order's
	}
	if !u.OnMap() {
		for _, a := range s.Map.Areas {
			if s.Uses(rules.AreaPlace(a.ID)) {
				return fmt.Sprintf("%s %s %d", kw, id, a.ID), true
			}
		}
		return "", false
	}
	path := []string{}
	at, seen := u.Place, map[rules.Place]bool{u.Place: true}
	for steps := 1 + r.IntN(3); steps > 0; steps-- {
		var next []rules.Place
		for _, l := range s.Map.Links(at) {
			// Into areas only: a zone may be closed to the side (11.22,
			// 11.23), which the order's reading refuses first.
			if s.Uses(l.To) && !seen[l.To] && !l.To.IsZone() {
				next = append(next, l.To)
			}
		}
		if len(next) == 0 {
			break
		}
		at = next[r.IntN(len(next))]
		seen[at] = true
		path = append(path, at.String())
	}
	if len(path) == 0 {
		return "", false
	}
	return fmt.Sprintf("%s %s %s", kw, id, strings.Join(path, " ")), true
}

// verdictOf returns the verdict of rules.Abilities on one unit's action,
// for the unit's side.
func verdictOf(t *testing.T, s *rules.Scenario, st *rules.State, id string, act rules.Action) rules.Verdict {
	t.Helper()
	for _, a := range rules.Abilities(s, st, s.OOB.Unit(id).Side) {
		if a.Unit == id {
			return a.Of(act)
		}
	}
	t.Fatalf("no verdict on %s", id)
	return rules.Verdict{}
}

// The verdicts that random games seldom reach, each beside the refusal
// of the order it judges: a unit that entered an Allied VP zone never
// moves again (12.25), and neither attacks nor calls artillery there
// (9.17); an engineer that tried a bridge neither moves nor attacks
// (10.14); a unit out of supply moves one area only (8.29) and gets no
// artillery (13.22).
func TestAbilities_Verdicts(t *testing.T) {
	type want struct {
		id   string
		act  rules.Action
		text string // the verdict as UNITS writes it
	}
	check := func(name string, s *rules.Scenario, st *rules.State, ws ...want) {
		t.Helper()
		for _, w := range ws {
			if v := verdictOf(t, s, st, w.id, w.act); v.Text().String() != w.text {
				t.Errorf("%s: %s %s: %s (%s), want %s", name, w.id, w.act.Text(), v.Text(), v.Why, w.text)
			}
		}
	}

	s, st := moveGame(t)
	place(st, "U/IN", rules.AreaPlace(6))
	place(st, "G/AR", rules.AreaPlace(2))
	st, _ = mustPlay(t, s, st, "MOVE G/AR 2 1 D")
	for st.Next.String() != "G17-1" {
		st, _ = mustPlay(t, s, st, "")
	}
	check("exited", s, st, want{"G/AR", rules.ActMove, "no (12.25)"}, want{"G/AR", rules.ActAttack, "no (9.17)"},
		want{"G/AR", rules.ActArtillery, "no (9.17)"})
	refused(t, s, st, "MOVE G/AR D 1", "(12.25)")

	s, st = moveGame(t)
	for st.Next.String() != "A16-2" {
		st, _ = mustPlay(t, s, st, "")
	}
	place(st, "U/IN", rules.AreaPlace(6))
	place(st, "G/IN", rules.AreaPlace(1))
	check("cut off", s, st, want{"U/MX", rules.ActMove, "yes (8.29)"}, want{"U/MX", rules.ActArtillery, "no (13.22)"},
		want{"U/MX", rules.ActAttack, "no (9.13)"})
	refused(t, s, st, "MOVE U/MX 6 2 3", "(8.29, 13.23)")

	s, st = moveGame(t)
	for st.Next.String() != "G16-2" {
		st, _ = mustPlay(t, s, st, "")
	}
	st.Unit("G/EN").Bridging = true
	check("bridging", s, st, want{"G/EN", rules.ActMove, "no (10.14)"})
	refused(t, s, st, "MOVE G/EN 4 5", "(10.14)")
}
