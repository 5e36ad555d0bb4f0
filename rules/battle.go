package rules

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Battles (9.0): after all movement, the battles the impulse caused are
// fought one by one, in the order the phasing player gave (BATTLES) or by
// area number (B4), each by the procedure of 9.3.

// A battle is one area's fight.
type battle struct {
	area      int
	attackers []*UnitState
	defenders []*UnitState
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
// attack (9.11, 9.13, 8.25).
func (g *game) attackUnits(at Attack) []*UnitState {
	var out []*UnitState
	for _, u := range g.st.UnitsAt(g.s, AreaPlace(at.Area), g.side()) {
		if len(at.With) > 0 && !contains(at.With, u.ID) {
			continue
		}
		if u.Attacked || (u.Moved && !g.entered[u.ID]) {
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

// fight resolves one battle by the procedure of 9.3.
func (g *game) fight(b *battle) {
	side := g.side()
	// Every die says what it is for (B10); the prefix is made once.
	prefix := g.imp.String() + " battle " + strconv.Itoa(b.area) + ": "
	purpose := func(format string, args ...any) string {
		return prefix + fmt.Sprintf(format, args...)
	}
	// 13.16: supply for combat is judged just before the battle.
	for _, c := range g.st.JudgeSupply(g.s) {
		g.event(c)
	}
	for _, u := range b.attackers {
		u.Attacked, u.Moved = true, true // 9.11, 9.16
		u.Entrenched = false             // 8.59
	}
	g.event(BattleBegins{Area: b.area, Attacker: side, Attackers: combatants(b.attackers, g), Defenders: combatants(b.defenders, g)})

	// 9.31, 9.42: both sides' calls, fixed before any fire on the SP in
	// the battle; 13.22: no artillery for units out of supply.
	supSP := func(us []*UnitState) int {
		n := 0
		for _, u := range us {
			if u.InSupply {
				n += u.Strength
			}
		}
		return n
	}
	defCalls, attCalls := supSP(b.defenders)/3, supSP(b.attackers)/3
	if defCalls == 0 && supSP(b.defenders) > 0 {
		defCalls = 1 // 9.42: the defender always has at least one
	}
	need := func(s Side) int {
		if s == Allied {
			return 8 // 9.43
		}
		if a := g.s.Map.Area(b.area); a != nil && a.Frontline {
			return 6 // 9.44: against an Allied front-line area
		}
		return 4 // 9.45
	}
	roll := func(p string) int {
		if g.err != nil {
			return 10
		}
		r, err := g.dice.Roll(p)
		if err != nil {
			g.err = err
			return 10
		}
		return r
	}
	calls := func(s Side, n int) int {
		ok := 0
		for i := 1; i <= n; i++ {
			r := roll(purpose("%s artillery call %d of %d", s.Title(), i, n))
			hit := r <= need(s)
			if hit {
				ok++
			}
			g.event(ArtilleryCall{Area: b.area, Side: s, N: i, Of: n, Roll: r, Need: need(s), Success: hit})
		}
		return ok
	}
	defStrikes := calls(side.Enemy(), defCalls)
	attStrikes := calls(side, attCalls)
	if g.err != nil {
		return
	}

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
	combined := inf && arm && attStrikes > 0
	// 9.71-9.73: the defender's fire gets -1 when every attacker crossed a
	// river into the area, unless one was already there at the start of
	// the impulse.
	river := len(b.attackers) > 0
	for _, u := range b.attackers {
		if !g.crossed[u.ID] || g.startHeld[AreaPlace(b.area)] {
			river = false
		}
	}
	confusion := g.st.SF != nil && g.st.SF.Effect == SFConfusion && g.st.SF.Battle == b.area // 14.24

	// mods returns the DRM for a die of fire or strike by the firing side
	// (9.49, 9.71, 9.74: cumulative), and their names for the report.
	mods := func(firing Side, firer *UnitState, target *UnitState) (int, []string) {
		d, why := 0, []string(nil)
		defending := firing != side
		if firer != nil && !firer.InSupply {
			d, why = d+1, append(why, "+1 firer out of supply (9.71)")
		}
		if !defending && target.Entrenched {
			d, why = d+1, append(why, "+1 target entrenched (8.56, 9.71)")
		}
		if defending && !combined {
			d, why = d-1, append(why, "-1 attacker without combined arms (9.6)")
		}
		if defending && river {
			d, why = d-1, append(why, "-1 attackers crossed a river (9.71)")
		}
		if confusion && firing == Allied {
			d, why = d+1, append(why, "+1 confusion (14.24)")
		}
		return d, why
	}
	unit := func(id string) *UnitState { return g.st.Unit(id) }
	hit := func(u *UnitState, n int) {
		for ; n > 0 && !u.Eliminated; n-- { // 9.22: hits beyond elimination are lost
			u.Strength--
			if u.Strength == 0 {
				u.Eliminated, u.Place, u.Entrenched = true, Place{}, false
				g.event(Eliminated{Unit: u.ID, Area: b.area})
			}
		}
	}

	strike := func(firing Side, n int, targets []*UnitState, choices []string, hitOn int) {
		placed := PlaceStrikes(n, combatants(targets, g), choices) // 9.46
		for i, id := range placed {
			t := unit(id)
			r := roll(purpose("%s strike %d of %d on %s", firing.Title(), i+1, n, id))
			if t.Eliminated {
				g.event(Strike{Area: b.area, Side: firing, Target: id, Roll: r, Lost: true}) // 9.47
				continue
			}
			d, why := mods(firing, nil, t)
			ok := r+d <= hitOn
			g.event(Strike{Area: b.area, Side: firing, Target: id, Roll: r, Modified: r + d, Need: hitOn, Mods: why, Hit: ok})
			if ok {
				hit(t, 1)
			}
		}
	}
	fire := func(firing Side, firers, targets []*UnitState, chosen []FirePair, prefer []UnitType) {
		assign := AssignFire(combatants(firers, g), combatants(targets, g), firing != side, chosen, prefer) // 9.5
		hits := map[string]int{}
		for _, fp := range assign {
			f, t := unit(fp.Unit), unit(fp.Target)
			v, _ := g.info(f.ID).Type.Values()
			needN := v.Attack
			if firing != side {
				needN = v.Defence
			}
			d, why := mods(firing, f, t)
			fr := FireRoll{Area: b.area, Side: firing, Unit: f.ID, Target: t.ID, Need: needN, Mods: why}
			what := prefix + firing.Title() + " fire " + f.ID + " at " + t.ID + ", die "
			of := " of " + strconv.Itoa(f.Strength)
			for i := 1; i <= f.Strength; i++ { // 9.21: one die per SP
				r := roll(what + strconv.Itoa(i) + of)
				fr.Rolls = append(fr.Rolls, r)
				fr.Modified = append(fr.Modified, r+d)
				if r+d <= needN {
					fr.Hits++
				}
			}
			hits[t.ID] += fr.Hits
			g.event(fr)
		}
		// 9.34, 9.37: the side's hits are applied after all its fire.
		for _, fp := range assign {
			if n := hits[fp.Target]; n > 0 {
				hit(unit(fp.Target), n)
				hits[fp.Target] = 0
			}
		}
	}
	alive := func(us []*UnitState) []*UnitState {
		var out []*UnitState
		for _, u := range us {
			if !u.Eliminated {
				out = append(out, u)
			}
		}
		return out
	}

	// 9.32: the defender's artillery, on 1-5 (9.48).
	strike(side.Enemy(), defStrikes, b.attackers, nil, 5)
	// 9.33, 9.34: the defender chooses targets and fires.
	var chosen []FirePair
	var prefer []UnitType
	for _, d := range g.st.Standing[side.Enemy()].Defend {
		if len(d.Prefer) > 0 {
			prefer = d.Prefer
		} else if d.Area == b.area {
			chosen = d.Pairs
		}
	}
	fire(side.Enemy(), alive(b.defenders), alive(b.attackers), chosen, prefer)
	// 9.35: the attacker's artillery, on 1-3 (9.48).
	strike(side, attStrikes, alive(b.defenders), g.arty[b.area], 3)
	// 9.36, 9.37: the attacker chooses targets and fires.
	fire(side, alive(b.attackers), alive(b.defenders), g.fire[b.area], nil)

	holder := "both sides"
	if h, ok := g.st.soleHolder(g.s, b.area); ok {
		holder = h.Title()
	}
	g.event(BattleEnds{Area: b.area, Holder: holder})
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
	Mods           []string
	Hit, Lost      bool
}

// FireRoll: one unit's fire (9.2, 9.5, 9.7).
type FireRoll struct {
	Area            int
	Side            Side
	Unit, Target    string
	Rolls, Modified []int
	Need            int
	Mods            []string
	Hits            int
}

// Eliminated: a unit lost its last SP (9.21).
type Eliminated struct {
	Unit string
	Area int
}

// BattleEnds: the battle is over (9.38).
type BattleEnds struct {
	Area   int
	Holder string
}

func combatList(cs []Combatant) string {
	var parts []string
	for _, c := range cs {
		parts = append(parts, fmt.Sprintf("%s (%s %d)", c.ID, c.Type, c.Strength))
	}
	return strings.Join(parts, ", ")
}

func (e BattleBegins) String() string {
	return fmt.Sprintf("battle at %d: %s attack with %s against %s (9.3)", e.Area, e.Attacker.Title(), combatList(e.Attackers), combatList(e.Defenders))
}

func (e ArtilleryCall) String() string {
	res := "fails"
	if e.Success {
		res = "succeeds"
	}
	return fmt.Sprintf("%s artillery call %d of %d: rolls %d, needs %d or less: %s (9.43-9.45)", e.Side.Title(), e.N, e.Of, e.Roll, e.Need, res)
}

func (e Strike) String() string {
	if e.Lost {
		return fmt.Sprintf("%s strike on %s is lost: the unit is gone (9.47)", e.Side.Title(), e.Target)
	}
	res := "misses"
	if e.Hit {
		res = "hits"
	}
	return fmt.Sprintf("%s strike on %s: rolls %d, modified %d %s, needs %d or less: %s (9.48)", e.Side.Title(), e.Target, e.Roll, e.Modified, strings.Join(e.Mods, " "), e.Need, res)
}

func (e FireRoll) String() string {
	return fmt.Sprintf("%s fires at %s: rolls %v, modified %v %s, needs %d or less: %d hit(s) (9.21)", e.Unit, e.Target, e.Rolls, e.Modified, strings.Join(e.Mods, " "), e.Need, e.Hits)
}

func (e Eliminated) String() string {
	return fmt.Sprintf("%s is eliminated in %d (9.21)", e.Unit, e.Area)
}

func (e BattleEnds) String() string {
	return fmt.Sprintf("the battle at %d is over: %s hold the area", e.Area, e.Holder)
}

// battles fights the battles the impulse caused (8.39, 9.0), in order (B4).
// Units that began the impulse in a battle area and did not attack stayed
// without attacking, and count as moved for the turn (9.14, B5).
func (g *game) battles() error {
	for _, b := range g.findBattles() {
		g.fought[b.area] = true
		g.fight(b)
		if g.err != nil {
			return g.err
		}
		for _, u := range g.st.UnitsAt(g.s, AreaPlace(b.area), g.side()) {
			u.Moved = true
		}
	}
	return nil
}

// attack checks an ATTACK order (9.13): units that began the impulse in an
// area holding enemy units attack there.
func (g *game) attack(line int, o Attack) {
	p := AreaPlace(o.Area)
	if !g.hasEnemy(p, g.side()) {
		g.refuse(line, o, "%s holds no enemy units to attack", g.s.Map.PlaceName(p))
		return
	}
	for _, id := range o.With {
		u := g.st.Unit(id)
		switch {
		case u == nil || !u.OnMap() || u.Place != p:
			g.refuse(line, o, "%s is not in %s", id, g.s.Map.PlaceName(p))
			return
		case g.info(id).Side != g.side():
			g.refuse(line, o, "%s is not yours", id)
			return
		case u.Attacked:
			g.refuse(line, o, "%s attacked earlier this turn: once a turn (9.11)", id)
			return
		case u.Moved && !g.entered[id]:
			g.refuse(line, o, "%s moved earlier this turn and may not attack (8.25)", id)
			return
		}
	}
	if len(g.attackUnits(o)) == 0 {
		g.refuse(line, o, "none of your units in %s may attack: they moved or attacked earlier this turn (8.25, 9.11)", g.s.Map.PlaceName(p))
		return
	}
	g.attacks = append(g.attacks, o)
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
	in := func(us []*UnitState, id string) bool {
		for _, u := range us {
			if u.ID == id {
				return true
			}
		}
		return false
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
			g.refuse(c.line, c.o, "there is no battle of yours at %s this impulse", g.s.Map.PlaceName(AreaPlace(area)))
			continue
		}
		switch o := c.o.(type) {
		case Arty:
			for _, id := range o.Targets {
				if !in(b.defenders, id) {
					g.refuse(c.line, o, "%s is not an enemy unit in the battle at %d: strikes go to the enemy units there (9.46)", id, area)
				}
			}
		case Fire:
			ok := true
			for _, p := range o.Pairs {
				if !in(b.attackers, p.Unit) {
					g.refuse(c.line, o, "%s does not attack at %d: only the attacking units fire (9.12-9.14)", p.Unit, area)
					ok = false
				}
				if !in(b.defenders, p.Target) {
					g.refuse(c.line, o, "%s is not an enemy unit in the battle at %d (9.5)", p.Target, area)
					ok = false
				}
			}
			if !ok {
				continue
			}
			firers, targets := combatants(b.attackers, g), combatants(b.defenders, g)
			got := AssignFire(firers, targets, false, o.Pairs, nil)
			for _, p := range o.Pairs {
				if contains(got, p) {
					continue
				}
				// Say which rule the pair breaks: the assignment with it put in.
				alt := append([]FirePair(nil), got...)
				for i := range alt {
					if alt[i].Unit == p.Unit {
						alt[i] = p
					}
				}
				why := "it breaks the targeting rules (9.52-9.58)"
				if err := CheckFire(firers, targets, false, alt); err != nil {
					why = err.Error()
				}
				g.refuse(c.line, o, "%s cannot fire at %s: %s", p.Unit, p.Target, why)
			}
		}
	}
}
