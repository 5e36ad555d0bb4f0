package rules

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Battles (9.0): after all movement, the battles the impulse caused are
// fought one by one, in the order the phasing player gave (BATTLES) or by
// area number (B4), each by the procedure of 9.3.

// battles fights the battles the impulse caused (8.39, 9.0), in order (B4).
// Units that began the impulse in a battle area and did not attack stayed
// without attacking, and count as moved for the turn (9.14, B5).
func (g *game) battles() error {
	for _, b := range g.findBattles() {
		g.fought[b.area] = true
		movedIn := g.movedIn(b.area) // before the fight, which may eliminate them
		g.fight(b)
		if g.err != nil {
			return g.err
		}
		if movedIn {
			g.markStayers(b.area)
		}
	}
	return nil
}

// markStayers gives the moved marker to the units of the side to move that
// were in the battle area and did not attack, when units of theirs moved in
// (9.14: "even if those already there choose to stay without fighting, they
// get the moved marker"). Without movers (9.13 alone: some attack where they
// stand, others stay) the stayers keep their freedom for later impulses. The
// record of why a unit is spent lets a refusal say so.
func (g *game) markStayers(area int) {
	for _, u := range g.st.UnitsAt(g.s, AreaPlace(area), g.side()) {
		if !u.Moved && !u.Attacked {
			u.Stayed, u.Moved = true, true
		}
	}
}

// movedIn reports whether units of the side to move entered the area this
// impulse while the enemy held it (9.12, 9.14).
func (g *game) movedIn(area int) bool {
	for _, u := range g.st.UnitsAt(g.s, AreaPlace(area), g.side()) {
		if g.entered[u.ID] {
			return true
		}
	}
	return false
}

// attack checks an ATTACK order (9.13): units that began the impulse in an
// area holding enemy units attack there.
func (g *game) attack(line int, o Attack) {
	p := AreaPlace(o.Area)
	if !g.hasEnemy(p, g.side()) {
		g.refuse(line, o, "%s holds no enemy units to attack (9.13)", g.s.Map.PlaceMessage(p))
		return
	}
	for _, id := range o.With {
		u := g.st.Unit(id)
		switch {
		case u == nil || !u.OnMap() || u.Place != p:
			g.refuse(line, o, "%s is not in %s", id, g.s.Map.PlaceMessage(p))
			return
		case g.info(id).Side != g.side():
			g.refuse(line, o, "%s is not yours", id)
			return
		}
		if v := g.judgeAttack(u, g.info(id)); !v.May {
			g.refuseWith(line, o, v.Refusal)
			return
		}
	}
	if len(g.attackUnits(o)) == 0 {
		g.refuse(line, o, "none of your units in %s may attack: they moved, attacked, or stayed in a battle without attacking earlier this turn (8.25, 9.11, 9.14)", g.s.Map.PlaceMessage(p))
		return
	}
	g.attacks = append(g.attacks, o)
}

// findBattles lists the battles of the impulse: areas that phasing units
// entered while the enemy held them (8.22, 9.12), and areas named in ATTACK
// orders by units that began the impulse there (9.13, 9.14).
func (g *game) findBattles() []*battle {
	side := g.side()
	byArea := map[int]*battle{}
	add := func(u *UnitState) {
		a := u.Place.Area
		b := byArea[a]
		if b == nil {
			b = &battle{area: a}
			byArea[a] = b
		}
		for _, x := range b.attackers {
			if x == u {
				return
			}
		}
		b.attackers = append(b.attackers, u)
	}
	for _, u := range g.st.Units {
		if g.entered[u.ID] && u.OnMap() {
			add(u) // 9.12: it must attack
		}
	}
	for _, at := range g.attacks {
		for _, u := range g.attackUnits(at) {
			add(u)
		}
	}
	var out []*battle
	for _, b := range byArea {
		b.defenders = g.st.UnitsAt(g.s, AreaPlace(b.area), side.Enemy()) // 9.15
		if len(b.defenders) > 0 {
			out = append(out, b)
		}
	}
	// B4: in the order the phasing player listed, then by area number.
	rank := map[int]int{}
	for i, a := range g.battleOrder {
		rank[a] = i + 1
	}
	sort.Slice(out, func(i, j int) bool {
		ri, rj := rank[out[i].area], rank[out[j].area]
		switch {
		case ri > 0 && rj > 0:
			return ri < rj
		case ri > 0 || rj > 0:
			return ri > 0
		}
		return out[i].area < out[j].area
	})
	return out
}

// attackUnits returns the units an ATTACK order commits: those named, or
// every phasing unit in the area that began the impulse there and may
// attack (judgeAttack: 9.11, 9.13, 8.25, 9.14, 10.14).
func (g *game) attackUnits(at Attack) []*UnitState {
	var out []*UnitState
	for _, u := range g.st.UnitsAt(g.s, AreaPlace(at.Area), g.side()) {
		if len(at.With) > 0 && !contains(at.With, u.ID) {
			continue
		}
		if !g.judgeAttack(u, g.info(u.ID)).May {
			continue
		}
		out = append(out, u)
	}
	return out
}

func combatants(us []*UnitState, g *game) []Combatant {
	out := make([]Combatant, 0, len(us))
	for _, u := range us {
		if u.Strength > 0 && !u.Eliminated {
			out = append(out, Combatant{ID: u.ID, Type: g.info(u.ID).Type, Strength: u.Strength})
		}
	}
	return out
}

// A battle is one area's fight: the phasing side's units that attack there
// and the enemy units that defend it (9.12-9.15). fight resolves it by the
// steps of 9.3, one method each; what a step fixes for the later ones is
// kept here.
type battle struct {
	area      int
	attackers []*UnitState
	defenders []*UnitState

	g                  *game
	attacker, defender Side
	prefix             string // the start of what every die is for (B10)
	// 9.31: each side's successful artillery calls, its strikes.
	attStrikes, defStrikes int
	// The conditions of the DRM, fixed before any fire: the attacker has
	// combined arms (9.6), every attacker crossed a river into the area
	// (9.71-9.73), the special forces' CONFUSION is on the battle (14.24).
	combined, river, confusion bool
}

// fight resolves one battle by the procedure of 9.3.
func (g *game) fight(b *battle) {
	b.begin(g)
	b.determineArtillery() // 9.31
	if g.err != nil {
		return
	}
	b.fixModifiers()
	b.defenderArtilleryFires()            // 9.32
	targets := b.defenderChoosesTargets() // 9.33
	b.defenderFires(targets)              // 9.34
	b.attackerArtilleryFires()            // 9.35
	targets = b.attackerChoosesTargets()  // 9.36
	b.attackerFires(targets)              // 9.37
	b.end()                               // 9.38
}

// begin opens the battle: supply is judged (13.16), the attackers have
// attacked for the turn (9.11, 9.16) and leave their entrenchments (8.59).
func (b *battle) begin(g *game) {
	b.g = g
	b.attacker, b.defender = g.side(), g.side().Enemy()
	// Every die says what it is for (B10); the prefix is made once.
	b.prefix = g.imp.String() + " battle " + strconv.Itoa(b.area) + ": "
	// 13.16: supply for combat is judged just before the battle.
	for _, c := range g.st.JudgeSupply(g.s) {
		g.event(c)
	}
	for _, u := range b.attackers {
		u.Attacked, u.Moved = true, true // 9.11, 9.16
		u.Entrenched = false             // 8.59
	}
	g.event(BattleBegins{Area: b.area, Attacker: b.attacker, Attackers: combatants(b.attackers, g), Defenders: combatants(b.defenders, g)})
}

// determineArtillery is step 9.31: each side calls artillery once per 3 SP
// it has in the battle, the defender at least once, counted before any fire
// (9.42); units out of supply get none (13.22). The defender calls first.
//
// 9.42 "防御側は常に最低でも1回の砲撃要請を行えます" is the general rule,
// 13.22 "補給切れのユニットも攻撃を行えますが、砲撃支援を受けられません" the
// particular one for units out of supply, and it governs: only the SP in
// supply count, and the minimum of one call is for a defender with some SP
// in supply; one with none has no call.
func (b *battle) determineArtillery() {
	defSP, attSP := suppliedSP(b.defenders), suppliedSP(b.attackers)
	defCalls, attCalls := defSP/3, attSP/3
	if defCalls == 0 && defSP > 0 {
		defCalls = 1 // 9.42: the defender always has at least one; 13.22: if in supply
	}
	b.defStrikes = b.calls(b.defender, defCalls)
	b.attStrikes = b.calls(b.attacker, attCalls)
}

// suppliedSP sums the SP of the units in supply (13.22).
func suppliedSP(us []*UnitState) int {
	n := 0
	for _, u := range us {
		if u.InSupply {
			n += u.Strength
		}
	}
	return n
}

// calls rolls the side's n artillery calls and returns how many succeed.
func (b *battle) calls(s Side, n int) int {
	need := b.callNeed(s)
	ok := 0
	for i := 1; i <= n; i++ {
		r := b.roll(b.purpose("%s artillery call %d of %d", s.Title(), i, n))
		hit := r <= need
		if hit {
			ok++
		}
		b.g.event(ArtilleryCall{Area: b.area, Side: s, N: i, Of: n, Roll: r, Need: need, Success: hit})
	}
	return ok
}

// callNeed is the highest roll with which the side's artillery call
// succeeds (9.43-9.45).
func (b *battle) callNeed(s Side) int {
	if s == Allied {
		return 8 // 9.43
	}
	if a := b.g.s.Map.Area(b.area); a != nil && a.Frontline {
		return 6 // 9.44: against an Allied front-line area
	}
	return 4 // 9.45
}

// fixModifiers fixes, before any fire, the conditions of the DRM that hold
// for the whole battle.
func (b *battle) fixModifiers() {
	g := b.g
	// 9.6: combined arms needs infantry-type units, armour and artillery
	// (a call that succeeded) among the attackers.
	var inf, arm bool
	for _, u := range b.attackers {
		if g.info(u.ID).Type == Armor {
			arm = true
		} else {
			inf = true
		}
	}
	b.combined = inf && arm && b.attStrikes > 0
	// 9.71-9.73: the defender's fire gets -1 when every attacker crossed a
	// river into the area, unless one was already there at the start of
	// the impulse.
	b.river = len(b.attackers) > 0
	for _, u := range b.attackers {
		if !g.crossed[u.ID] || g.startHeld[AreaPlace(b.area)] {
			b.river = false
		}
	}
	// 14.24: CONFUSION acts on one battle, the one named ("指定された
	// 戦闘"), fought in the impulse of the placement; the counter stays
	// until the end of the next Allied impulse (14.3), but a battle in the
	// same area then is another battle.
	sf := g.st.SF
	b.confusion = sf != nil && sf.Effect == SFConfusion && sf.Battle == b.area && sf.Placed == g.imp
}

// defenderArtilleryFires is step 9.32: the defender's strikes, hitting on
// 1-5 (9.48).
func (b *battle) defenderArtilleryFires() {
	b.strike(b.defender, b.defStrikes, b.attackers, nil, 5)
}

// defenderChoosesTargets is step 9.33: the defender's targets, by its
// standing DEFEND orders for the area and its DEFEND PREFER (B3) where the
// rules leave the choice open (9.5). 9.53 "防御側ユニット(または移動して
// いないユニット)は、1戦力しかない攻撃側ユニットを射撃する必要はありません"
// names the firing units, the defender's (the side that did not move), and
// exempts every attacking unit of 1 SP, whether it moved into the area or
// began the impulse there and attacks (9.13).
func (b *battle) defenderChoosesTargets() []FirePair {
	var chosen []FirePair
	var prefer []UnitType
	for _, d := range b.g.st.Standing[b.defender].Defend {
		if len(d.Prefer) > 0 {
			prefer = d.Prefer
		} else if d.Area == b.area {
			chosen = d.Pairs
		}
	}
	return AssignFire(combatants(alive(b.defenders), b.g), combatants(alive(b.attackers), b.g), true, chosen, prefer)
}

// defenderFires is step 9.34: the defender fires, and its hits are applied.
func (b *battle) defenderFires(targets []FirePair) {
	b.fire(b.defender, targets)
}

// attackerArtilleryFires is step 9.35: the attacker's strikes, where its
// ARTY order places them, hitting on 1-3 (9.48).
func (b *battle) attackerArtilleryFires() {
	b.strike(b.attacker, b.attStrikes, alive(b.defenders), b.g.arty[b.area], 3)
}

// attackerChoosesTargets is step 9.36: the attacker's targets, by its FIRE
// order for the area where the rules leave the choice open (9.5, B3).
func (b *battle) attackerChoosesTargets() []FirePair {
	return AssignFire(combatants(alive(b.attackers), b.g), combatants(alive(b.defenders), b.g), false, b.g.fire[b.area], nil)
}

// attackerFires is step 9.37: the attacker fires, and its hits are applied.
func (b *battle) attackerFires(targets []FirePair) {
	b.fire(b.attacker, targets)
}

// end is step 9.38: the battle is over, and the report says who holds the
// area.
func (b *battle) end() {
	holder, _ := b.g.st.soleHolder(b.g.s, b.area) // "" if both sides are there
	b.g.event(BattleEnds{Area: b.area, Holder: holder})
}

// strike places and rolls the side's n strikes on the targets (9.46-9.49),
// choices[i] naming the target of strike i where 9.46 leaves it open; a
// strike hits on hitOn or less (9.48).
func (b *battle) strike(firing Side, n int, targets []*UnitState, choices []string, hitOn int) {
	g := b.g
	for i, id := range PlaceStrikes(n, combatants(targets, g), choices) { // 9.46
		t := g.st.Unit(id)
		r := b.roll(b.purpose("%s strike %d of %d on %s", firing.Title(), i+1, n, id))
		if t.Eliminated {
			g.event(Strike{Area: b.area, Side: firing, Target: id, Roll: r, Lost: true}) // 9.47
			continue
		}
		d, why := b.mods(firing, nil, t)
		ok := r+d <= hitOn
		g.event(Strike{Area: b.area, Side: firing, Target: id, Roll: r, Modified: r + d, Need: hitOn, Mods: why, Hit: ok})
		if ok {
			b.hit(t, 1)
		}
	}
}

// fire rolls the side's fire, each unit at its target (9.2), and applies
// the hits after all of it (9.34, 9.37).
func (b *battle) fire(firing Side, targets []FirePair) {
	hits := map[string]int{}
	for _, fp := range targets {
		hits[fp.Target] += b.fireUnit(firing, fp)
	}
	for _, fp := range targets {
		if n := hits[fp.Target]; n > 0 {
			b.hit(b.g.st.Unit(fp.Target), n)
			hits[fp.Target] = 0
		}
	}
}

// fireUnit rolls one unit's fire at its target, one die per SP (9.21),
// hitting on its attack value or, defending, its defence value, and
// returns the hits.
func (b *battle) fireUnit(firing Side, fp FirePair) int {
	g := b.g
	f, t := g.st.Unit(fp.Unit), g.st.Unit(fp.Target)
	v, _ := g.info(f.ID).Type.Values()
	need := v.Attack
	if firing == b.defender {
		need = v.Defence
	}
	d, why := b.mods(firing, f, t)
	fr := FireRoll{Area: b.area, Side: firing, Unit: f.ID, Target: t.ID, Need: need, Mods: why}
	what := b.prefix + firing.Title() + " fire " + f.ID + " at " + t.ID + ", die "
	of := " of " + strconv.Itoa(f.Strength)
	for i := 1; i <= f.Strength; i++ { // 9.21: one die per SP
		r := b.roll(what + strconv.Itoa(i) + of)
		fr.Rolls = append(fr.Rolls, r)
		fr.Modified = append(fr.Modified, r+d)
		if r+d <= need {
			fr.Hits++
		}
	}
	g.event(fr)
	return fr.Hits
}

// mods returns the DRM for a die of fire (firer set) or of a strike (firer
// nil) by the firing side at the target (9.49, 9.71, 9.74: cumulative), and
// their names for the report.
func (b *battle) mods(firing Side, firer, target *UnitState) (int, []Modifier) {
	d, why := 0, []Modifier(nil)
	defending := firing == b.defender
	if firer != nil && !firer.InSupply {
		d, why = d+1, append(why, modifier(1, "firer out of supply", "9.71"))
	}
	if !defending && target.Entrenched {
		d, why = d+1, append(why, modifier(1, "target entrenched", "8.56", "9.71"))
	}
	if defending && !b.combined {
		d, why = d-1, append(why, modifier(-1, "attacker without combined arms", "9.6"))
	}
	if defending && b.river {
		d, why = d-1, append(why, modifier(-1, "attackers crossed a river", "9.71"))
	}
	if b.confusion && firing == Allied {
		d, why = d+1, append(why, modifier(1, "confusion", "14.24"))
	}
	return d, why
}

// modifier makes a Modifier; why is a message key without arguments,
// which the catalogs give in the reader's language (Modifier.Text).
func modifier(value int, why string, rules ...string) Modifier {
	return Modifier{value, why, rules}
}

// hit takes n hits off the unit, one SP each (9.21); hits beyond its
// elimination are lost (9.22).
func (b *battle) hit(u *UnitState, n int) {
	for ; n > 0 && !u.Eliminated; n-- {
		u.Strength--
		if u.Strength == 0 {
			u.Eliminated, u.Place, u.Entrenched = true, Place{}, false
			b.g.event(Eliminated{Unit: u.ID, Area: b.area})
		}
	}
}

// roll rolls a die for the purpose; after a die that could not be rolled
// the battle goes on with 10s, which hit nothing, and Play reports the
// error.
func (b *battle) roll(purpose string) int {
	if b.g.err != nil {
		return 10
	}
	r, err := b.g.dice.Roll(purpose)
	if err != nil {
		b.g.err = err
		return 10
	}
	return r
}

// purpose says what a die of the battle is for (B10).
func (b *battle) purpose(format string, args ...any) string {
	return b.prefix + fmt.Sprintf(format, args...)
}

// alive returns the units not eliminated.
func alive(us []*UnitState) []*UnitState {
	var out []*UnitState
	for _, u := range us {
		if !u.Eliminated {
			out = append(out, u)
		}
	}
	return out
}

// BattleBegins: a battle is fought (9.3).
type BattleBegins struct {
	Area                 int
	Attacker             Side
	Attackers, Defenders []Combatant
}

// ArtilleryCall: one artillery call (9.42-9.45).
type ArtilleryCall struct {
	Area       int
	Side       Side
	N, Of      int
	Roll, Need int
	Success    bool
}

// Strike: one artillery strike (9.46-9.49).
type Strike struct {
	Area           int
	Side           Side
	Target         string
	Roll, Modified int
	Need           int
	Mods           []Modifier
	Hit, Lost      bool
}

// FireRoll: one unit's fire (9.2, 9.5, 9.7).
type FireRoll struct {
	Area            int
	Side            Side
	Unit, Target    string
	Rolls, Modified []int
	Need            int
	Mods            []Modifier
	Hits            int
}

// A Modifier is one DRM on a die of fire or of a strike (9.49, 9.7): its
// value, what gives it and the rules that say so. Why is in English, and is
// the key of its message in the catalogs.
type Modifier struct {
	Value int
	Why   string
	Rules []string
}

// String writes the modifier as the report prints it: "+1 target
// entrenched (8.56, 9.71)".
func (m Modifier) String() string { return m.Text().String() }

// Text is the modifier as a message, for the reader's language.
func (m Modifier) Text() Message {
	return M("%+d %s (%s)", m.Value, Message{Key: m.Why}, strings.Join(m.Rules, ", "))
}

// joinMods writes the modifiers one after the other, as "+1 target
// entrenched (8.56, 9.71) -1 ...".
func joinMods(ms []Modifier) Message {
	parts := make([]Message, len(ms))
	for i, m := range ms {
		parts[i] = m.Text()
	}
	return Spaced(parts)
}

// Eliminated: a unit lost its last SP (9.21).
type Eliminated struct {
	Unit string
	Area int
}

// BattleEnds: the battle is over (9.38).
type BattleEnds struct {
	Area int
	// Holder is the side alone in the area after the battle, or "" if
	// units of both sides are still there (or of neither).
	Holder Side
}

// combatList lists the units of a battle, as "9AD/60 (mech 3), 15Flak (mot
// 2)".
func combatList(cs []Combatant) Message {
	parts := make([]Message, len(cs))
	for i, c := range cs {
		parts[i] = M("%s (%s %d)", c.ID, c.Type.Text(), c.Strength)
	}
	return List(parts)
}

// String writes the event as the report prints it.
func (e BattleBegins) String() string { return e.Text().String() }

// Text is the event as a message.
func (e BattleBegins) Text() Message {
	return M("battle at %d: %s attack with %s against %s (9.3)", e.Area, e.Attacker, combatList(e.Attackers), combatList(e.Defenders))
}

// String writes the event as the report prints it.
func (e ArtilleryCall) String() string { return e.Text().String() }

// Text is the event as a message.
func (e ArtilleryCall) Text() Message {
	if e.Success {
		return M("%s artillery call %d of %d: rolls %d, needs %d or less: succeeds (9.43-9.45)", e.Side, e.N, e.Of, e.Roll, e.Need)
	}
	return M("%s artillery call %d of %d: rolls %d, needs %d or less: fails (9.43-9.45)", e.Side, e.N, e.Of, e.Roll, e.Need)
}

// String writes the event as the report prints it.
func (e Strike) String() string { return e.Text().String() }

// Text is the event as a message.
func (e Strike) Text() Message {
	switch {
	case e.Lost:
		return M("%s strike on %s is lost: the unit is gone (9.47)", e.Side, e.Target)
	case e.Hit:
		return M("%s strike on %s: rolls %d, modified %d %s, needs %d or less: hits (9.48)", e.Side, e.Target, e.Roll, e.Modified, joinMods(e.Mods), e.Need)
	}
	return M("%s strike on %s: rolls %d, modified %d %s, needs %d or less: misses (9.48)", e.Side, e.Target, e.Roll, e.Modified, joinMods(e.Mods), e.Need)
}

// String writes the event as the report prints it.
func (e FireRoll) String() string { return e.Text().String() }

// Text is the event as a message.
func (e FireRoll) Text() Message {
	return M("%s fires at %s: rolls %s, modified %s %s, needs %d or less: %d hit(s) (9.21)", e.Unit, e.Target, fmt.Sprint(e.Rolls), fmt.Sprint(e.Modified), joinMods(e.Mods), e.Need, e.Hits)
}

// String writes the event as the report prints it.
func (e Eliminated) String() string { return e.Text().String() }

// Text is the event as a message.
func (e Eliminated) Text() Message {
	return M("%s is eliminated in %d (9.21)", e.Unit, e.Area)
}

// String writes the event as the report prints it.
func (e BattleEnds) String() string { return e.Text().String() }

// Text is the event as a message.
func (e BattleEnds) Text() Message {
	if e.Holder != "" {
		return M("the battle at %d is over: %s hold the area", e.Area, e.Holder)
	}
	return M("the battle at %d is over: both sides hold the area", e.Area)
}

type choiceLine struct {
	line int
	o    Order
}

// checkChoices refuses FIRE and ARTY lines that cannot be honoured in the
// battles the moves cause (B3): a battle that does not take place, a unit
// that is not in it, or a target 9.52-9.58 forbid, judged on the units as
// the battle begins.
func (g *game) checkChoices() {
	battles := map[int]*battle{}
	for _, b := range g.findBattles() {
		battles[b.area] = b
	}
	for _, c := range g.choiceLines {
		var area int
		switch o := c.o.(type) {
		case Fire:
			area = o.Area
		case Arty:
			area = o.Area
		}
		b := battles[area]
		if b == nil {
			g.refuse(c.line, c.o, "there is no battle of yours at %s this impulse", g.s.Map.PlaceMessage(AreaPlace(area)))
			continue
		}
		switch o := c.o.(type) {
		case Arty:
			g.checkArty(c.line, o, b)
		case Fire:
			g.checkFire(c.line, o, b)
		}
	}
}

// checkArty refuses an ARTY line whose targets are not enemy units in the
// battle, or whose strikes, placed in its order on the units as the battle
// begins, 9.46 forbids.
func (g *game) checkArty(line int, o Arty, b *battle) {
	ok := true
	for _, id := range o.Targets {
		if !hasUnit(b.defenders, id) {
			g.refuse(line, o, "%s is not an enemy unit in the battle at %d: strikes go to the enemy units there (9.46)", id, b.area)
			ok = false
		}
	}
	if !ok {
		return
	}
	// The defenders are as they begin the battle when the attacker's
	// strikes are placed (9.35): only the attacker's strikes and fire hit
	// them.
	if err := CheckStrikes(combatants(b.defenders, g), o.Targets); err != nil {
		g.refuseWith(line, o, MessageOf(err))
	}
}

// checkFire refuses the pairs of a FIRE line that are not an attacking unit
// and an enemy unit of the battle, or that the targeting rules forbid
// (9.52-9.58), saying which rule.
func (g *game) checkFire(line int, o Fire, b *battle) {
	ok := true
	for _, p := range o.Pairs {
		if !hasUnit(b.attackers, p.Unit) {
			g.refuse(line, o, "%s does not attack at %d: only the attacking units fire (9.12-9.14)", p.Unit, b.area)
			ok = false
		}
		if !hasUnit(b.defenders, p.Target) {
			g.refuse(line, o, "%s is not an enemy unit in the battle at %d (9.5)", p.Target, b.area)
			ok = false
		}
	}
	if !ok {
		return
	}
	firers, targets := combatants(b.attackers, g), combatants(b.defenders, g)
	got := AssignFire(firers, targets, false, o.Pairs, nil)
	var bad []FirePair
	for _, p := range o.Pairs {
		if !contains(got, p) {
			bad = append(bad, p)
		}
	}
	if len(bad) == 0 {
		return
	}
	// Say which rule the pairs break as written, every one of them as the
	// player wants it: a pair refused only because another one was (in the
	// assignment the policy makes of the rest) breaks none.
	var pe *pairError
	switch err := CheckFire(firers, targets, false, asWritten(firers, targets, false, o.Pairs)); {
	case errors.As(err, &pe) && contains(o.Pairs, FirePair{pe.unit, pe.target}):
		g.refuse(line, o, "%s cannot fire at %s: %s", pe.unit, pe.target, MessageOf(err))
		return
	case err != nil && len(bad) == 1:
		g.refuse(line, o, "%s cannot fire at %s: %s", bad[0].Unit, bad[0].Target, MessageOf(err))
		return
	case err != nil:
		g.refuseWith(line, o, MessageOf(err))
		return
	}
	for _, p := range bad {
		// Say which rule the pair breaks: the assignment with it put in.
		alt := append([]FirePair(nil), got...)
		for i := range alt {
			if alt[i].Unit == p.Unit {
				alt[i] = p
			}
		}
		why := M("it breaks the targeting rules (9.52-9.58)")
		if err := CheckFire(firers, targets, false, alt); err != nil {
			why = MessageOf(err)
		}
		g.refuse(line, o, "%s cannot fire at %s: %s", p.Unit, p.Target, why)
	}
}

// hasUnit reports whether the unit with the id is among us.
func hasUnit(us []*UnitState, id string) bool {
	for _, u := range us {
		if u.ID == id {
			return true
		}
	}
	return false
}
