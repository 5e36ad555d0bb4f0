package rules

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
)

// Targeting: where artillery strikes go (9.46) and which unit each firing
// unit fires at (9.5), with the fixed policy of ruling B3 for every choice
// the rules and the players' orders leave open. Everything here is pure: the
// functions read their arguments and return a result.
//
// Units of strength 0 or less are not in the battle (9.23: eliminated) and
// are left out of every list. Unit ids are taken to be unique.
//
// # The readings this file makes
//
// 9.46, strikes: the totals are counted on the targets' strength now. Within
// a cycle of strikes only units without a strike are candidates and the
// total of a type is the strength of its units without a strike (the total
// "reduced by the strength of the unit the marker was placed on"); when
// every unit has a strike the cycle starts again from the full totals.
// Ties between types leave every tied type open (the rulebook's second
// example: "歩兵タイプと機械化タイプの戦力が等しくなったので、二個目の砲撃
// 支援の目標は歩兵と機械化歩兵のどちらでも選択できます").
//
// 9.5, fire, in a battle where the firing side has several units:
//
//   - Targets are chosen one firing unit at a time, in order of the firing
//     unit's quality, high to low (9.57: "目標選択は射撃ユニットのクオリティの
//     高い順に行います"). Among firing units of equal quality the firing side
//     chooses which goes first (the 9.57 example: "歩兵のうち1ユニット(射撃
//     プレイヤーの選択)").
//   - 9.55 binds every choice, in that order: a unit may fire only at a
//     target that has no more firing units than any other target so far
//     ("同一目標に対して3ユニットによる射撃を割り当てるためには、各目標
//     ユニットに最低2ユニットを割り当てていなければなりません"). This is
//     stricter than asking only that the final counts differ by at most one
//     when the firing units are more than twice the targets: four armour
//     and an infantry against an armour and an infantry may not put three
//     armour on the armour and leave the infantry target's second firing
//     unit to their own infantry, though the counts would end 3 and 2.
//   - While some target still has no firing unit, the unit must take, among
//     the targets that 9.55 leaves it (those without a firing unit), the one
//     9.57 names: equal quality, else the best quality below its own, else
//     the lowest quality above it (which includes 9.52).
//   - Once every target has a firing unit, the rest are assigned "freely"
//     within 9.55 (9.56: "自由に割り当てることができます"): 9.52 and 9.57 no
//     longer bind. The rulebook's own examples demand it: in the 9.57
//     example the last infantry "may fire at any of the three" of engineer,
//     mot and armour, and in the combat example the German infantry may
//     fire at either the US armour or the US mech, where 9.52 alone would
//     force the lowest (mot, mech).
//   - 9.53 (a defender need not fire at an attacking unit of 1 SP; the
//     rulebook adds "または移動していないユニット", or a unit that has not
//     moved, which the caller covers by passing defender) lifts an
//     obligation and forbids nothing: the quality rule is met by the target
//     it names among all the targets, or by the one it names when the 1-SP
//     attackers are left out. 9.55 still counts the 1-SP attackers (9.54:
//     "9.55のルールは9.53より優先して適用されます"), so a 1-SP attacker
//     gets a firing unit before any target gets a second.
//
// A lone firing unit (9.54) may fire at any target of equal or lower quality
// (9.52), or, if there is none, at the lowest quality above its own; a lone
// defender may also apply 9.52 with the 1-SP attackers left out (9.53).
//
// B3 policy, for every choice still open: the target that can be eliminated
// soonest, that is the lowest strength now; then the higher quality (9.51:
// the better unit is the better prize); then the lower unit id. A defender's
// policy fires at a 1-SP attacker only when no other target is legal
// (B3, 9.53).

// PlaceStrikes places n successful artillery strikes on the enemy units of a
// battle, before the fire of either side (9.46), and returns the id of the
// unit each strike goes to, in order.
//
// Each strike must go to a unit of the type with the largest total strength
// among the targets; after a strike the total of the struck unit's type is
// reduced by that unit's strength for the next placement; no unit gets a
// second strike until every target has one, and then the count starts again
// (9.46). Among the units the rule leaves open (several units of the type, or
// several types tied), strike i goes to choices[i] if that is one of them
// (the player's ARTY order: its i-th target for the i-th strike), else to
// the B3 policy's target: the lowest strength, then the higher quality
// (9.51), then the lower id.
//
// With no targets the strikes are lost and the result is empty.
func PlaceStrikes(n int, targets []Combatant, choices []string) []string {
	ts := tgLive(targets)
	if n <= 0 || len(ts) == 0 {
		return nil
	}
	struck := make([]bool, len(ts))
	left := len(ts)
	out := make([]string, 0, n)
	for i := range n {
		if left == 0 { // 9.46: every unit has one; the count starts again
			clear(struck)
			left = len(ts)
		}
		open := tgStrikeOptions(ts, struck)
		pick := -1
		if i < len(choices) {
			for _, j := range open {
				if ts[j].ID == choices[i] {
					pick = j
				}
			}
		}
		if pick < 0 {
			pick = tgPolicy(ts, open)
		}
		struck[pick] = true
		left--
		out = append(out, ts[pick].ID)
	}
	return out
}

// CheckStrikes reports whether strikes placed in the order of choices,
// strike i on choices[i], obey 9.46: each goes to a unit of the type (or
// tied types) with the largest total strength of the units without a strike
// in this cycle, and no unit gets a second strike until every target has
// one. The error names the strike, the rule and where it may go. nil means
// legal.
func CheckStrikes(targets []Combatant, choices []string) error {
	ts := tgLive(targets)
	struck := make([]int, len(ts)) // the strike each unit has in this cycle, from 1; 0: none
	left := len(ts)
	for i, id := range choices {
		j := slices.IndexFunc(ts, func(c Combatant) bool { return c.ID == id })
		if j < 0 {
			return M("strike %d cannot go to %s, which is not an enemy unit in the battle: the targets are %s (9.46)", i+1, id, tgIDs(ts)).Err()
		}
		if left == 0 { // every unit has one: the count starts again
			clear(struck)
			left = len(ts)
		}
		has := make([]bool, len(ts))
		for k, n := range struck {
			has[k] = n > 0
		}
		open := tgStrikeOptions(ts, has)
		if !slices.Contains(open, j) {
			if struck[j] > 0 {
				return M("strike %d cannot go to %s, which has strike %d: no unit gets a second strike until every enemy unit in the battle has one (9.46); strike %d may go to %s",
					i+1, id, struck[j], i+1, tgOrList(ts, open)).Err()
			}
			total := map[UnitType]int{}
			for k, t := range ts {
				if !has[k] {
					total[t.Type] += t.Strength
				}
			}
			best := ts[open[0]].Type
			return M("strike %d cannot go to %s (%s): a strike goes to a unit of the type with the largest total strength, %s with %d SP against %s's %d (9.46); strike %d may go to %s",
				i+1, id, ts[j].Type.Text(), best.Text(), total[best], ts[j].Type.Text(), total[ts[j].Type], i+1, tgOrList(ts, open)).Err()
		}
		struck[j] = i + 1
		left--
	}
	return nil
}

// tgStrikeOptions returns the units a strike may go to (9.46): those without
// a strike in this cycle, of the type (or tied types) with the largest total
// strength of units without a strike.
func tgStrikeOptions(ts []Combatant, struck []bool) []int {
	total := map[UnitType]int{}
	best := 0
	for i, t := range ts {
		if !struck[i] {
			total[t.Type] += t.Strength
			best = max(best, total[t.Type])
		}
	}
	var open []int
	for i, t := range ts {
		if !struck[i] && total[t.Type] == best {
			open = append(open, i)
		}
	}
	return open
}

// tgPolicy returns, of the units at the indices, the one the B3 policy
// chooses: the lowest strength (eliminated soonest), then the higher quality
// (9.51), then the lower id.
func tgPolicy(ts []Combatant, idx []int) int {
	return slices.MinFunc(idx, func(a, b int) int {
		x, y := ts[a], ts[b]
		return cmp.Or(
			cmp.Compare(x.Strength, y.Strength),
			cmp.Compare(y.Quality(), x.Quality()),
			strings.Compare(x.ID, y.ID))
	})
}

// tgLive returns the units still in the battle: strength above 0.
func tgLive(cs []Combatant) []Combatant {
	out := make([]Combatant, 0, len(cs))
	for _, c := range cs {
		if c.Strength > 0 {
			out = append(out, c)
		}
	}
	return out
}

// tgFire is the state of a side's target selection: the targets, how many
// firing units each has so far, and which targets 9.53 exempts.
type tgFire struct {
	ts       []Combatant
	count    []int
	exempt   []bool // 9.53: an attacking unit of 1 SP, when the defender fires
	lone     bool   // 9.54: the firing side has a single unit
	defender bool
}

func newTgFire(ts []Combatant, defender, lone bool) *tgFire {
	s := &tgFire{ts: ts, count: make([]int, len(ts)), exempt: make([]bool, len(ts)), lone: lone, defender: defender}
	for i, t := range ts {
		s.exempt[i] = defender && t.Strength == 1
	}
	return s
}

// tgRank places a target for a firing unit of quality q by 9.57: equal
// quality ranks first, then lower quality, the higher the better, then
// higher quality, the lower the better. A lower rank is preferred.
func tgRank(q, tq int) int {
	switch {
	case tq == q:
		return 0
	case tq < q:
		return 1 + (q - tq) // the best quality below ranks next
	default:
		return 100 + (tq - q) // then the lowest quality above
	}
}

// tgBest57 returns the targets among idx that 9.57 names for a firing unit
// of quality q: equal quality, else the best of lower quality, else the
// lowest of higher quality.
func (s *tgFire) tgBest57(q int, idx []int) []int {
	best := -1
	for _, i := range idx {
		if r := tgRank(q, s.ts[i].Quality()); best < 0 || r < best {
			best = r
		}
	}
	var out []int
	for _, i := range idx {
		if tgRank(q, s.ts[i].Quality()) == best {
			out = append(out, i)
		}
	}
	return out
}

// tgAllowed52 returns the targets among idx that 9.52 allows a unit of
// quality q: every target of equal or lower quality, or if there is none,
// the lowest of the higher.
func (s *tgFire) tgAllowed52(q int, idx []int) []int {
	var out []int
	for _, i := range idx {
		if s.ts[i].Quality() <= q {
			out = append(out, i)
		}
	}
	if len(out) > 0 {
		return out
	}
	return s.tgBest57(q, idx) // all higher: the lowest of them
}

// tgCovering reports whether some target still has no firing unit: the part
// of the selection where 9.57 binds (9.56).
func (s *tgFire) tgCovering() bool { return slices.Contains(s.count, 0) }

// tgLevel returns the targets 9.55 leaves open now: those with no more
// firing units than any other.
func (s *tgFire) tgLevel() []int {
	m := slices.Min(s.count)
	var out []int
	for i, c := range s.count {
		if c == m {
			out = append(out, i)
		}
	}
	return out
}

// tgWithout returns idx without the targets 9.53 exempts.
func (s *tgFire) tgWithout(idx []int) []int {
	var out []int
	for _, i := range idx {
		if !s.exempt[i] {
			out = append(out, i)
		}
	}
	return out
}

// options returns the targets a firing unit of quality q may fire at now,
// in target order (9.52-9.57, with the readings above).
func (s *tgFire) options(q int) []int {
	if s.lone { // 9.54: within 9.52 and 9.53 only
		all := make([]int, len(s.ts))
		for i := range all {
			all[i] = i
		}
		return tgUnion(s.tgAllowed52(q, all), s.tgAllowed52(q, s.tgWithout(all)))
	}
	open := s.tgLevel() // 9.55
	if !s.tgCovering() {
		return open // 9.56: freely, within 9.55
	}
	return tgUnion(s.tgBest57(q, open), s.tgBest57(q, s.tgWithout(open))) // 9.57, 9.53
}

// tgUnion merges two sorted index lists.
func tgUnion(a, b []int) []int {
	out := slices.Concat(a, b)
	slices.Sort(out)
	return slices.Compact(out)
}

// policy returns the target the fixed policy picks among opts (B3): the
// first type of prefer that has a target there (DEFEND PREFER), then for a
// defender a target that is not a 1-SP attacker if there is one (9.53),
// then the lowest strength, the higher quality, the lower id.
func (s *tgFire) policy(opts []int, prefer []UnitType, avoid map[int]bool) int {
	cand := opts
	if len(avoid) > 0 { // targets that firing units yet to choose have been ordered at
		var free []int
		for _, i := range cand {
			if !avoid[i] {
				free = append(free, i)
			}
		}
		if len(free) > 0 {
			cand = free
		}
	}
	for _, t := range prefer {
		var of []int
		for _, i := range cand {
			if s.ts[i].Type == t {
				of = append(of, i)
			}
		}
		if len(of) > 0 {
			cand = of
			break
		}
	}
	if s.defender {
		if ne := s.tgWithout(cand); len(ne) > 0 {
			cand = ne
		}
	}
	return tgPolicy(s.ts, cand)
}

func (s *tgFire) index(id string) int {
	return slices.IndexFunc(s.ts, func(t Combatant) bool { return t.ID == id })
}

// AssignFire chooses the target of every firing unit of one side in a
// battle (9.5), all before any fire (9.59), one target each (9.58), and
// returns one pair per firing unit in the order the targets were chosen:
// by the firing unit's quality, high to low (9.57). defender tells whether
// the firing side is the defender (9.53).
//
// The targets follow 9.52-9.57 as read at the top of this file. Where the
// rules leave a choice open it goes, in this order of preference:
//
//   - to the firing side's own pair in chosen (the attacker's FIRE pairs or
//     the defender's DEFEND area pairs), if legal at that moment; among
//     firing units of equal quality, a unit whose pair is legal now chooses
//     first, in the order of chosen, and a unit without a pair before one
//     whose pair is not yet legal;
//   - by the fixed policy (B3) to a target that no unit still to choose has
//     been ordered at, if there is one; then to the first type of prefer
//     (DEFEND PREFER) that has a legal target; then, for a defender, to a
//     target that is not a 1-SP attacker if there is one (9.53); then to
//     the lowest strength, the higher quality (9.51), the lower id.
//
// Firing units of equal quality with no pair choose in the order given.
// The result always passes CheckFire. With no firing unit or no target the
// result is empty.
func AssignFire(firers, targets []Combatant, defender bool, chosen []FirePair, prefer []UnitType) []FirePair {
	fs, ts := tgLive(firers), tgLive(targets)
	if len(fs) == 0 || len(ts) == 0 {
		return nil
	}
	slices.SortStableFunc(fs, func(a, b Combatant) int { return cmp.Compare(b.Quality(), a.Quality()) }) // 9.57
	as := &assigner{fs: fs, s: newTgFire(ts, defender, len(fs) == 1), chosen: chosen, prefer: prefer,
		want: map[string]int{}, done: make([]bool, len(fs))}
	for k, p := range chosen {
		if _, dup := as.want[p.Unit]; !dup {
			as.want[p.Unit] = k
		}
	}
	out := make([]FirePair, 0, len(fs))
	for len(out) < len(fs) {
		g0 := slices.Index(as.done, false)
		q := fs[g0].Quality()
		opts := as.s.options(q)
		fi, ti := as.fromChosen(q, opts)
		if fi < 0 {
			fi, ti = as.byPolicy(g0, q, opts)
		}
		as.done[fi] = true
		as.s.count[ti]++
		out = append(out, FirePair{Unit: fs[fi].ID, Target: ts[ti].ID})
	}
	return out
}

// An assigner pairs the firers of a battle's side with targets, group by
// group of equal quality (9.57), as AssignFire describes.
type assigner struct {
	fs     []Combatant // the firers, best quality first
	s      *tgFire
	chosen []FirePair
	prefer []UnitType
	want   map[string]int // each unit's first pair in chosen, as an index into chosen
	done   []bool         // the firers paired
}

// inGroup reports whether firer k is of quality q and not yet paired.
func (as *assigner) inGroup(k int, q int) bool { return !as.done[k] && as.fs[k].Quality() == q }

// fromChosen returns a legal pair of the group of quality q, in the order
// chosen, or -1, -1.
func (as *assigner) fromChosen(q int, opts []int) (fi, ti int) {
	for k, p := range as.chosen {
		f := slices.IndexFunc(as.fs, func(c Combatant) bool { return c.ID == p.Unit })
		if f < 0 || !as.inGroup(f, q) || as.want[p.Unit] != k {
			continue
		}
		if t := as.s.index(p.Target); t >= 0 && slices.Contains(opts, t) {
			return f, t
		}
	}
	return -1, -1
}

// byPolicy pairs a firer of the group beginning at g0, one not ordered if
// there is one, with the target the policy gives, avoiding the targets the
// other ordered firers chose.
func (as *assigner) byPolicy(g0, q int, opts []int) (fi, ti int) {
	fi = g0
	for k := g0; k < len(as.fs) && as.inGroup(k, q); k++ {
		if _, ordered := as.want[as.fs[k].ID]; !ordered {
			fi = k
			break
		}
	}
	avoid := map[int]bool{}
	for k, f := range as.fs {
		if k == fi || as.done[k] {
			continue
		}
		if w, ok := as.want[f.ID]; ok {
			if t := as.s.index(as.chosen[w].Target); t >= 0 {
				avoid[t] = true
			}
		}
	}
	return fi, as.s.policy(opts, as.prefer, avoid)
}

// CheckFire reports whether the assignment a of targets to the firing units
// of one side obeys 9.52-9.59: every firing unit has exactly one target
// (9.58, 9.59), every target is an enemy unit in the battle, no target gets
// a second firing unit until every target has one and so on (9.55, which
// overrides 9.53), and there is an order of the firing units by quality,
// high to low, ties in any order, in which each choice is the one 9.52 and
// 9.57 (or, for a lone unit, 9.52 and 9.54) require, a defender being free
// not to fire at attackers of 1 SP (9.53). The assignment's own order does
// not matter. The error names the rule and what would be legal. nil means
// legal.
func CheckFire(firers, targets []Combatant, defender bool, a []FirePair) error {
	fs, ts := tgLive(firers), tgLive(targets)
	s := newTgFire(ts, defender, len(fs) == 1)
	given, err := s.givenTargets(fs, a)
	if err != nil || len(ts) == 0 {
		return err
	}
	if s.lone { // 9.54
		f := fs[0]
		t := s.index(given[f.ID])
		if !slices.Contains(s.options(f.Quality()), t) {
			return &pairError{f.ID, s.ts[t].ID, s.explain(f, t)}
		}
		return nil
	}
	if err := s.check55(fs, given); err != nil {
		return err
	}
	return s.check57(fs, given)
}

// givenTargets reads the assignment a into each firing unit's target,
// checking that every pair is a firing unit and an enemy unit of the battle
// and that every firing unit has exactly one target (9.58, 9.59).
func (s *tgFire) givenTargets(fs []Combatant, a []FirePair) (map[string]string, error) {
	ts := s.ts
	firing := map[string]bool{}
	for _, f := range fs {
		firing[f.ID] = true
	}
	given := map[string]string{}
	for _, p := range a {
		if !firing[p.Unit] {
			return nil, M("%s is not a firing unit in this battle: the firing units are %s", p.Unit, tgIDs(fs)).Err()
		}
		if prev, dup := given[p.Unit]; dup {
			return nil, M("%s is given two targets, %s and %s: a unit's dice are never split between targets (9.58)", p.Unit, prev, p.Target).Err()
		}
		if s.index(p.Target) < 0 {
			if len(ts) == 0 {
				return nil, M("%s cannot fire at %s: no enemy unit is left in the battle", p.Unit, p.Target).Err()
			}
			return nil, M("%s cannot fire at %s, which is not an enemy unit in this battle: the targets are %s", p.Unit, p.Target, tgIDs(ts)).Err()
		}
		given[p.Unit] = p.Target
	}
	if len(ts) == 0 {
		return given, nil
	}
	for _, f := range fs {
		if _, ok := given[f.ID]; !ok {
			return nil, M("%s has no target: every firing unit is given one target before any fire (9.58, 9.59)", f.ID).Err()
		}
	}
	return given, nil
}

// check55 checks 9.55 on the whole assignment first, for the plainest
// message: no target has two firing units more than another.
func (s *tgFire) check55(fs []Combatant, given map[string]string) error {
	ts := s.ts
	final := make([]int, len(ts))
	for _, f := range fs {
		final[s.index(given[f.ID])]++
	}
	hi, lo := 0, 0
	for i := range final {
		if final[i] > final[hi] {
			hi = i
		}
		if final[i] < final[lo] {
			lo = i
		}
	}
	if final[hi]-final[lo] <= 1 {
		return nil
	}
	var also Message
	if s.exempt[lo] {
		also = M("; 9.55 overrides 9.53, so the 1-SP attacker %s gets its firing unit too", ts[lo].ID)
	}
	return M("%s gets %s while %s gets %s: no target gets a %s firing unit until every target has %s (9.55)%s",
		ts[hi].ID, tgFiring(final[hi]), ts[lo].ID, tgFiring(final[lo]), tgOrdinal(final[lo]+2), tgNumber(final[lo]+1), also).Err()
}

// check57 checks that the choices can be made in order of firing-unit
// quality, high to low (9.57), within a quality in some order, each as
// 9.52, 9.55 and 9.57 require.
func (s *tgFire) check57(fs []Combatant, given map[string]string) error {
	order := slices.Clone(fs)
	slices.SortStableFunc(order, func(x, y Combatant) int { return cmp.Compare(y.Quality(), x.Quality()) })
	for g := 0; g < len(order); {
		q := order[g].Quality()
		e := g
		rem := make([]int, len(s.ts))
		for ; e < len(order) && order[e].Quality() == q; e++ {
			rem[s.index(given[order[e].ID])]++
		}
		var stuck tgStuck
		if !s.orderGroup(q, rem, 0, &stuck) {
			s.count = stuck.count
			for k := e - 1; k >= g; k-- { // the last unit named that could not choose
				f := order[k]
				if t := s.index(given[f.ID]); stuck.rem[t] > 0 {
					return &pairError{f.ID, s.ts[t].ID, s.explain(f, t)}
				}
			}
		}
		for i, n := range rem {
			s.count[i] += n
		}
		g = e
	}
	return nil
}

// tgStuck is the deepest state where an order of one quality's choices
// could go no further: the counts then and the choices still to make.
type tgStuck struct {
	depth      int
	count, rem []int
}

// orderGroup reports whether the choices rem (how many firing units of
// quality q fire at each target) can be made one by one, each legal when it
// is made, from the counts now. The counts are restored on return; on
// failure stuck holds the deepest dead end.
func (s *tgFire) orderGroup(q int, rem []int, depth int, stuck *tgStuck) bool {
	if !slices.ContainsFunc(rem, func(n int) bool { return n > 0 }) {
		return true
	}
	for _, t := range s.options(q) {
		if rem[t] == 0 {
			continue
		}
		rem[t]--
		s.count[t]++
		ok := s.orderGroup(q, rem, depth+1, stuck)
		rem[t]++
		s.count[t]--
		if ok {
			return true
		}
	}
	if stuck.count == nil || depth > stuck.depth {
		stuck.depth, stuck.count, stuck.rem = depth, slices.Clone(s.count), slices.Clone(rem)
	}
	return false
}

// explain says why firing unit f may not fire at target t in the present
// state and what it must fire at instead, with the rules.
func (s *tgFire) explain(f Combatant, t int) Message {
	q := f.Quality()
	tc := s.ts[t]
	if s.lone {
		all := make([]int, len(s.ts))
		for i := range all {
			all[i] = i
		}
		return M("%s must fire at %s%s, not at %s (%s) (9.52, 9.54)",
			f.ID, s.describe52(q, s.tgAllowed52(q, all)), s.alt53(q, all, true), tc.ID, tc.Type.Text())
	}
	if !slices.Contains(s.tgLevel(), t) { // 9.55
		open := s.tgLevel()
		m := s.count[open[0]]
		c := s.count[t]
		if m == 0 { // 9.57 still binds: name its target among the open ones
			var also Message
			if slices.ContainsFunc(open, func(i int) bool { return s.exempt[i] }) {
				also = M("; 9.55 overrides 9.53")
			}
			return M("%s must fire at %s%s, not at %s, which already has %s while %s: no target gets a second firing unit until every target has one (9.55, 9.57)%s",
				f.ID, s.describe57(q, s.tgBest57(q, open)), s.alt53(q, open, false), tc.ID, tgFiring(c), tgHaveNone(s.ts, open), also)
		}
		return M("%s must fire at %s, which %s, not at %s, which already has %s: no target gets a %s firing unit until every target has %s (9.55; targets are chosen in order of the firing unit's quality, 9.57)",
			f.ID, tgOrList(s.ts, open), tgHave(len(open), tgFiring(m)), tc.ID, tgFiring(c), tgOrdinal(c+1), tgNumber(c))
	}
	open := s.tgLevel()
	best := s.tgBest57(q, open)
	than := M("lower-quality")
	if tc.Quality() > s.ts[best[0]].Quality() {
		than = M("higher-quality")
	}
	rules := Plain("9.57")
	if len(open) < len(s.ts) {
		rules = M("9.57, among the targets without a firing unit yet, 9.55")
	}
	return M("%s must fire at %s%s before %s targets such as %s (%s) (%s)",
		f.ID, s.describe57(q, best), s.alt53(q, open, false), than, tc.ID, tc.Type.Text(), rules)
}

// describe57 writes the targets 9.57 names, with the reason.
func (s *tgFire) describe57(q int, best []int) Message {
	tq := s.ts[best[0]].Quality()
	ty := s.ts[best[0]].Type.Text()
	switch {
	case tq == q:
		return M("%s (%s, equal quality)", tgOrList(s.ts, best), ty)
	case tq < q:
		return M("%s (%s, the best quality below its own)", tgOrList(s.ts, best), ty)
	}
	return M("%s (%s, the lowest quality above its own, as no target is of equal or lower quality)", tgOrList(s.ts, best), ty)
}

// describe52 writes the targets 9.52 allows, with the reason.
func (s *tgFire) describe52(q int, ok []int) Message {
	if s.ts[ok[0]].Quality() <= q {
		return M("a target of equal or lower quality, %s", tgOrList(s.ts, ok))
	}
	return M("%s (%s, the lowest quality above its own, as no target is of equal or lower quality)", tgOrList(s.ts, ok), s.ts[ok[0]].Type.Text())
}

// alt53 writes the other choice 9.53 opens to a defender, if any: the
// target the rule names when the 1-SP attackers among idx are left out.
func (s *tgFire) alt53(q int, idx []int, lone bool) Message {
	ne := s.tgWithout(idx)
	if len(ne) == len(idx) || len(ne) == 0 {
		return Message{}
	}
	var with, without []int
	if lone {
		with, without = s.tgAllowed52(q, idx), s.tgAllowed52(q, ne)
	} else {
		with, without = s.tgBest57(q, idx), s.tgBest57(q, ne)
	}
	if slices.Equal(with, without) {
		return Message{}
	}
	d := s.describe57(q, without)
	if lone {
		d = s.describe52(q, without)
	}
	return M(", or, as a defender need not fire at attacking units of 1 SP (9.53), at %s", d)
}

// A pairError says why a firing unit may not fire at a target (CheckFire).
type pairError struct {
	unit, target string
	msg          Message
}

func (e *pairError) Error() string    { return e.msg.String() }
func (e *pairError) message() Message { return e.msg }

// asWritten completes the pairs chosen into a target for every firing unit:
// a unit with a pair fires at its target, legal or not; one without, at the
// target the policy picks among those the rules leave it when its turn
// comes (9.57: by quality, high to low, a unit with a pair before one of
// the same quality without). CheckFire on the result says which rule the
// pairs, as written, break; the targets the policy gives the others can
// break none.
func asWritten(firers, targets []Combatant, defender bool, chosen []FirePair) []FirePair {
	fs, ts := tgLive(firers), tgLive(targets)
	if len(fs) == 0 || len(ts) == 0 {
		return nil
	}
	want := map[string]int{}
	for _, p := range chosen {
		if _, dup := want[p.Unit]; !dup {
			want[p.Unit] = slices.IndexFunc(ts, func(c Combatant) bool { return c.ID == p.Target })
		}
	}
	slices.SortStableFunc(fs, func(a, b Combatant) int {
		_, pa := want[a.ID]
		_, pb := want[b.ID]
		return cmp.Or(cmp.Compare(b.Quality(), a.Quality()), -tgBool(pa)+tgBool(pb))
	})
	s := newTgFire(ts, defender, len(fs) == 1)
	out := make([]FirePair, 0, len(fs))
	for _, f := range fs {
		t, ok := want[f.ID]
		if !ok || t < 0 {
			t = s.policy(s.options(f.Quality()), nil, nil)
		}
		s.count[t]++
		out = append(out, FirePair{Unit: f.ID, Target: ts[t].ID})
	}
	return out
}

func tgBool(b bool) int {
	if b {
		return 1
	}
	return 0
}

// tgIDs lists the units' ids.
func tgIDs(cs []Combatant) Message {
	ids := make([]string, len(cs))
	for i, c := range cs {
		ids[i] = c.ID
	}
	return List(ids)
}

// tgIndexIDs returns the ids of the targets at the indices.
func tgIndexIDs(ts []Combatant, idx []int) []string {
	ids := make([]string, len(idx))
	for k, i := range idx {
		ids[k] = ts[i].ID
	}
	return ids
}

// tgOrList writes the targets at the indices as "a", "a or b", "a, b or c".
func tgOrList(ts []Combatant, idx []int) Message { return OrList(tgIndexIDs(ts, idx)) }

// tgHave says that n targets have the firing units f: "has one firing
// unit", "have 2 firing units".
func tgHave(n int, f Message) Message {
	if n == 1 {
		return M("has %s", f)
	}
	return M("have %s", f)
}

// tgHaveNone says that the targets at the indices have no firing unit: "a
// has none", "a and b have none".
func tgHaveNone(ts []Combatant, idx []int) Message {
	if len(idx) == 1 {
		return M("%s has none", AndList(tgIndexIDs(ts, idx)))
	}
	return M("%s have none", AndList(tgIndexIDs(ts, idx)))
}

// tgFiring writes a number of firing units: no firing unit, one firing
// unit, 2 firing units.
func tgFiring(n int) Message {
	switch n {
	case 0:
		return M("no firing unit")
	case 1:
		return M("one firing unit")
	}
	return M("%d firing units", n)
}

// tgNumber writes a small count in words, as "until every target has
// two".
func tgNumber(n int) Message {
	switch n {
	case 0:
		return M("none")
	case 1:
		return M("one")
	case 2:
		return M("two")
	case 3:
		return M("three")
	case 4:
		return M("four")
	case 5:
		return M("five")
	case 6:
		return M("six")
	}
	return Plain(strconv.Itoa(n))
}

// tgOrdinal writes the n-th firing unit's ordinal, as "no target gets a
// second firing unit".
func tgOrdinal(n int) Message {
	switch n {
	case 1:
		return M("first")
	case 2:
		return M("second")
	case 3:
		return M("third")
	case 4:
		return M("fourth")
	case 5:
		return M("fifth")
	case 6:
		return M("sixth")
	}
	return M("%sth", strconv.Itoa(n))
}

// A Combatant is a unit in a battle as the targeting rules see it (9.46,
// 9.5): its id, type and strength now.
type Combatant struct {
	ID       string
	Type     UnitType
	Strength int
}

// Quality is the unit's place in the quality order, higher first (9.51).
func (c Combatant) Quality() int {
	v, _ := c.Type.Values()
	return v.Quality
}
