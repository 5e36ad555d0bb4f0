package picture

import (
	"image"
	"math"
	"slices"
	"strconv"

	"titm/adjudicator/lang"
	"titm/rules"
)

// draw draws the plan, from the ground up: what lies under is drawn first;
// of it, what falls on the canvas, which may be a band of the picture's rows.
func (p *Plan) draw(c *canvas, fs *faces, opt *Options) {
	g := p.ground
	if g == nil {
		g = p.groundOf()
	}
	g.draw(c, p.st) // the ground off the map, the areas, the rivers and roads

	c.setClip(p.Map)
	p.drawBridges(c)
	p.drawMoves(c, opt.Highlights.Moves)
	// Leader lines, cased in white to stand out from the roads.
	for _, l := range p.leaders {
		c.line(white, 5, l[0], l[1])
	}
	for _, l := range p.leaders {
		c.line(leaderInk, 2, l[0], l[1])
	}
	p.drawTowns(c, opt.Highlights.Battles)
	p.drawZones(c, fs)
	for _, rl := range p.riverLabels {
		c.text(fs.river, rl.at.X, rl.at.Y, rl.name, riverText)
	}
	battle := map[int]bool{}
	for _, a := range opt.Highlights.Battles {
		battle[a] = true
	}
	for _, b := range p.Labels {
		if c.shows(b.Rect) {
			p.drawLabel(c, fs, b)
		}
	}
	for _, b := range p.Stacks {
		if c.shows(b.Rect.Inset(-4)) {
			p.drawStack(c, fs, b, battle[b.Place.Area] && !b.Place.IsZone())
		}
	}
	c.setClip(c.bounds())
	c.frame(p.Map, 1, frameInk)

	p.drawTitle(c, fs, opt.Title)
	c.block(blockOf{legend: true}, p.Legend, func() { p.drawLegend(c, fs) })
}

// drawRivers draws the rivers the map gives a course (3.23).
func (p *Plan) drawRivers(c *canvas) {
	for _, r := range p.s.Map.Rivers {
		c.line(riverBlue, 2.6, p.course(r)...)
	}
}

// course is a river's course on the picture.
func (p *Plan) course(r rules.River) []vec {
	pts := make([]vec, len(r.Points))
	for i, q := range r.Points {
		pts[i] = p.proj.at(q[0], q[1])
	}
	return pts
}

// used reports whether the plan draws a road: whether it draws both its
// areas.
func (p *Plan) used(r *rules.Road) bool {
	_, a := p.anchor[rules.AreaPlace(r.A)]
	_, b := p.anchor[rules.AreaPlace(r.B)]
	return a && b
}

// drawRoadLines draws the roads by class (3.22, 8.33): primary roads wide
// and dark, secondary ones thin; the primary roads into the zones (11.13)
// dashed. They are part of the ground (see ground), drawn under the
// bridges.
func (p *Plan) drawRoadLines(c *canvas) {
	m := p.s.Map
	for _, z := range m.Zones {
		at, ok := p.anchor[rules.ZonePlace(z.ID)]
		if !ok {
			continue
		}
		for _, n := range z.Areas {
			if to, ok := p.anchor[rules.AreaPlace(n)]; ok {
				c.dashed(primary, 3, 9, 5, at, to)
			}
		}
	}
	for _, class := range []rules.RoadClass{rules.Secondary, rules.Primary} {
		for _, r := range m.Roads {
			if (r.Class == rules.Primary) != (class == rules.Primary) || !p.used(r) {
				continue
			}
			a, b := p.anchor[rules.AreaPlace(r.A)], p.anchor[rules.AreaPlace(r.B)]
			if class == rules.Primary {
				c.line(primary, 4, a, b)
			} else {
				c.line(secondary, 2.2, a, b)
			}
		}
	}
}

// drawBridges draws on every road across a river its bridge, a blown one
// crossed out in red (5.1, 10.0).
func (p *Plan) drawBridges(c *canvas) {
	for _, b := range p.bridges {
		// A bridge, blown or not, reaches some 11 pixels from its middle.
		if at := b.at.pt(); c.shows(image.Rectangle{Min: at, Max: at}.Inset(-20)) {
			drawBridge(c, b.at, b.d, p.blown(b.r))
		}
	}
}

// drawBridge draws a bridge across a road running along d: its two
// parapets, or if it is blown a red cross on a white ground, plain to see
// (5.1, 10.0).
func drawBridge(c *canvas, at, d vec, blown bool) {
	// A bridge's shapes are the scenario's, blown or not.
	c.kept(shapeKey{what: shapeBridge, at: at, d: d, blown: blown}, func() { bridgeShapes(c, at, d, blown) })
}

func bridgeShapes(c *canvas, at, d vec, blown bool) {
	n := d.perp()
	if blown {
		u, v := d.add(n).mul(6), d.sub(n).mul(6)
		c.line(white, 6, at.sub(u), at.add(u))
		c.line(white, 6, at.sub(v), at.add(v))
		c.line(blownRed, 3, at.sub(u), at.add(u))
		c.line(blownRed, 3, at.sub(v), at.add(v))
		return
	}
	for _, s := range []float64{-4.5, 4.5} {
		o := at.add(n.mul(s))
		c.line(ink, 1.6, o.sub(d.mul(5)).add(n.mul(s/3)), o.sub(d.mul(3.5)), o.add(d.mul(3.5)), o.add(d.mul(5)).add(n.mul(s/3)))
	}
}

// blown reports whether a road's bridge is blown now (10.0), or at the
// scenario's start if the position does not list it.
func (p *Plan) blown(r *rules.Road) bool {
	if b := p.st.Bridge(r.A, r.B); b != nil {
		return b.Blown
	}
	return p.s.BlownAtStart(r.A, r.B)
}

// crossing returns where the road from a to b crosses its river: where it
// meets the river's course nearest the road's middle, or the middle if the
// map gives the river no course there.
func (p *Plan) crossing(r *rules.Road, a, b vec) vec {
	mid := lerpVec(a, b, 0.5)
	best, bd := mid, math.Inf(1)
	for _, rv := range p.s.Map.Rivers {
		if rv.Name != r.River {
			continue
		}
		pts := p.course(rv)
		for i := 0; i+1 < len(pts); i++ {
			if x, ok := intersect(a, b, pts[i], pts[i+1]); ok {
				if d := x.sub(mid).len(); d < bd {
					best, bd = x, d
				}
			}
		}
	}
	return best
}

// intersect returns where segments ab and cd cross.
func intersect(a, b, c, d vec) (vec, bool) {
	r, s := b.sub(a), d.sub(c)
	den := r.X*s.Y - r.Y*s.X
	if math.Abs(den) < 1e-9 {
		return vec{}, false
	}
	q := c.sub(a)
	t := (q.X*s.Y - q.Y*s.X) / den
	u := (q.X*r.Y - q.Y*r.X) / den
	if t < 0 || t > 1 || u < 0 || u > 1 {
		return vec{}, false
	}
	return a.add(r.mul(t)), true
}

// drawMoves draws the paths moved along in the impulse, as arrows from
// town to town.
func (p *Plan) drawMoves(c *canvas, moves [][]rules.Place) {
	for _, path := range moves {
		var pts []vec
		for _, pl := range path {
			if at, ok := p.anchor[pl]; ok && (len(pts) == 0 || at != pts[len(pts)-1]) {
				pts = append(pts, at)
			}
		}
		if len(pts) < 2 {
			continue
		}
		drawArrow(c, pts)
	}
}

// drawArrow draws a move's arrow along pts, its head stopping short of the
// last point, a town's dot, so that both show.
func drawArrow(c *canvas, pts []vec) {
	pts = slices.Clone(pts)
	end, prev := pts[len(pts)-1], pts[len(pts)-2]
	d := end.sub(prev)
	l := d.len()
	u := d.unit()
	tip := end.sub(u.mul(math.Min(dotR+4, l/2)))
	base := tip.sub(u.mul(math.Min(16, l/2)))
	pts[len(pts)-1] = base.add(u.mul(2))
	c.line(moveInk, 4.5, pts...)
	n := u.perp().mul(7)
	c.fill(moveInk, ring([]vec{tip, base.add(n), base.sub(n)}))
}

// drawTowns draws every area's town as a dot in the colour of the side that
// controls it (12.22), ringed in red where a battle was just fought (9.3).
func (p *Plan) drawTowns(c *canvas, battles []int) {
	for _, a := range p.s.Map.Areas {
		at, ok := p.anchor[rules.AreaPlace(a.ID)]
		if !ok || !c.shows(image.Rectangle{Min: at.pt(), Max: at.pt()}.Inset(-17)) {
			continue
		}
		if slices.Contains(battles, a.ID) {
			c.fill(battleRed, annulus(at, 15, 10.5)...)
		}
		// The dots' shapes are the scenario's, in a side's colour.
		side := p.st.Control[a.ID]
		c.kept(shapeKey{what: shapeTown, at: at, side: side}, func() {
			c.fill(ink, circle(at, dotR+1.3))
			c.fill(controlDot(side), circle(at, dotR))
		})
	}
}

// annulus returns a ring between radii r1 > r2: the inner circle turns the
// other way, and cancels the outer one.
func annulus(at vec, r1, r2 float64) [][]vec {
	inner := circle(at, r2)
	slices.Reverse(inner)
	return [][]vec{circle(at, r1), inner}
}

// drawZones draws the perimeter zones (3.21): a disc with the letter in the
// colour of the side whose zone it is, and the name, with the VP multiplier
// of an Allied VP zone (3.28).
func (p *Plan) drawZones(c *canvas, fs *faces) {
	for _, b := range p.Zones {
		z := p.s.Map.Zone(b.Place.Zone)
		at := ptVec(b.Anchor)
		name := zoneName(z)
		plate := image.Rect(b.Rect.Min.X+zoneR, b.Anchor.Y-9, b.Rect.Max.X, b.Anchor.Y+9)
		tx := b.Anchor.X + zoneR + 4
		if b.Rect.Min.X < b.Anchor.X-zoneR-2 {
			plate = image.Rect(b.Rect.Min.X, b.Anchor.Y-9, b.Rect.Max.X-zoneR, b.Anchor.Y+9)
			tx = plate.Min.X + 3
		}
		c.block(blockOf{zone: true, name: name, x: tx - plate.Min.X}, plate, func() {
			c.fillRect(plate, white)
			c.frame(plate, 1, frameInk)
			c.text(fs.smallBold, tx, b.Anchor.Y+4, name, ink)
		})
		drawZoneDisc(c, fs, at, z.ID, z.Side)
	}
}

// drawZoneDisc draws a zone's letter on a disc of its side's colour.
func drawZoneDisc(c *canvas, fs *faces, at vec, id string, side rules.Side) {
	col := alliedDot
	if side == rules.German {
		col = germanDot
	}
	c.kept(shapeKey{what: shapeZone, at: at, side: side}, func() { // the disc's shapes are the scenario's
		c.fill(white, circle(at, zoneR+1.5))
		c.fill(col, circle(at, zoneR))
	})
	lw := fs.zone.width(id)
	c.text(fs.zone, int(math.Round(at.X))-lw/2, int(math.Round(at.Y))+6, id, white)
}

// drawLabel draws an area's label: its number and name (3.22) and, for a
// VP area of the scenario, its VP marker in gold (3.26, see vpMark).
func (p *Plan) drawLabel(c *canvas, fs *faces, b Box) {
	a := p.s.Map.Area(b.Place.Area)
	c.block(blockOf{area: a.ID, name: a.Name, vp: b.VP}, b.Rect, func() {
		drawLabelText(c, fs, b.Rect, a.ID, a.Name, b.VP)
	})
}

func drawLabelText(c *canvas, fs *faces, r image.Rectangle, id int, name string, vp string) {
	c.fillRect(r, white)
	c.frame(r, 1, frameInk)
	base := r.Min.Y + 13
	x := c.text(fs.labelBold, r.Min.X+3, base, strconv.Itoa(id), ink)
	c.text(fs.label, x+4, base, name, ink)
	if vp != "" {
		w := vpBadgeW(fs, vp)
		badge := image.Rect(r.Max.X-w-1, r.Min.Y+1, r.Max.X-1, r.Max.Y-1)
		c.fillRect(badge, vpGold)
		c.text(fs.smallBold, badge.Min.X+(w-fs.smallBold.width(vp))/2, base, vp, ink)
	}
}

// drawStack draws the units of a place as counters (4.1), each side in
// columns of its own, framed in red where a battle was just fought (9.3).
func (p *Plan) drawStack(c *canvas, fs *faces, b Box, battle bool) {
	if battle {
		c.frame(b.Rect.Inset(-2), 2, battleRed)
	}
	for i, col := range b.columns {
		for j, id := range col {
			r := image.Rect(0, 0, p.counterW+2, counterH+2).Add(b.Rect.Min.Add(image.Pt(i*(p.counterW+1), j*(counterH+1))))
			c.frame(r, 1, ink)
			p.drawCounter(c, fs, r.Inset(1), id)
		}
	}
}

func (p *Plan) drawCounter(c *canvas, fs *faces, r image.Rectangle, id string) {
	u := counter{style: styleOf(p.s.OOB.Unit(id)), id: id, lost: true}
	if !p.lost[id] {
		us := p.st.Unit(id)
		u = counter{
			style: u.style, id: id, strength: us.Strength,
			moved: us.Moved && !p.newDay(), entrenched: us.Entrenched, oos: !us.InSupply,
		}
	}
	c.block(blockOf{u: u}, r, func() { drawCounter(c, fs, r, u) })
}

// newDay reports whether the position is before the first impulse of a
// day: the moved marks of the day before are gone then (8.25), as the
// turn's first impulse takes them off before anything moves.
func (p *Plan) newDay() bool {
	return !p.st.Over && p.st.Next.Side == rules.German && p.st.Next.N == 1
}

// counter is what a counter shows.
type counter struct {
	style                  serviceStyle
	id                     string
	strength               int
	moved, entrenched, oos bool
	lost                   bool // eliminated in the impulse just played
}

// drawCounter draws a counter: the service's colour (4.12), the id, and
// the strength in SP (4.16) in a box at the right, which is red for a unit
// out of supply (13.1) and framed in brown for an entrenched one (8.5); a
// yellow edge at the left marks a unit that moved this turn (8.25).
func drawCounter(c *canvas, fs *faces, r image.Rectangle, u counter) {
	if u.lost {
		// Eliminated (9.21): pale, its id in its service's colour, crossed
		// out in red.
		c.fillRect(r, lostInk)
		c.fillRect(image.Rect(r.Min.X, r.Min.Y, r.Min.X+movedW, r.Max.Y), u.style.bg)
		c.text(fs.unit, r.Min.X+movedW+3, r.Min.Y+12, u.id, ink)
		a, b := ptVec(r.Min).add(vec{2, 2}), ptVec(r.Max).sub(vec{2, 2})
		c.line(blownRed, 2, a, b)
		c.line(blownRed, 2, vec{a.X, b.Y}, vec{b.X, a.Y})
		return
	}
	c.fillRect(r, u.style.bg)
	if u.moved {
		c.fillRect(image.Rect(r.Min.X, r.Min.Y, r.Min.X+movedW, r.Max.Y), movedMark)
	}
	c.text(fs.unit, r.Min.X+movedW+3, r.Min.Y+12, u.id, u.style.fg)
	sb := image.Rect(r.Max.X-strengthW-1, r.Min.Y+1, r.Max.X-1, r.Max.Y-1)
	bg, fg := white, ink
	if u.oos {
		bg, fg = oosRed, white
	}
	c.fillRect(sb, bg)
	if u.entrenched {
		c.frame(sb, 2, trench)
	}
	s := strconv.Itoa(u.strength)
	c.text(fs.smallBold, sb.Min.X+(sb.Dx()-fs.smallBold.width(s)+1)/2, r.Min.Y+12, s, fg)
}

// subtitle is the line under the title, in the language of pr: the
// scenario, the impulse to play next (8.1) and the German VP (12.12); or,
// once the game is over, its result, the scenario's or the referee's (a
// concession, a forfeit, a draw).
func subtitle(pr *lang.Printer, s *rules.Scenario, st *rules.State) string {
	scenario := pr.Data(s.Title)
	switch {
	case st.Over && st.Result != "":
		return pr.Sprintf("%s (%s) — the game is over — German VP %d — %s", scenario, s.Name, st.VP, pr.Text(rules.ResultMessage(st.Result)))
	case st.Over:
		return pr.Sprintf("%s (%s) — the game is over — German VP %d", scenario, s.Name, st.VP)
	}
	return pr.Sprintf("%s (%s) — next: %s impulse %d-%d — German VP %d", scenario, s.Name, st.Next.Side, st.Next.Day, st.Next.N, st.VP)
}

// drawTitle draws the title band: the caller's title, and a line with the
// scenario, the impulse to play next (8.1) and the German VP (12.12).
func (p *Plan) drawTitle(c *canvas, fs *faces, title string) {
	if !c.shows(p.Title) {
		return
	}
	c.fillRect(p.Title, titleBG)
	sub := subtitle(p.pr, p.s, p.st)
	if title == "" {
		c.text(fs.title, p.Title.Min.X+14, p.Title.Min.Y+37, sub, white)
		return
	}
	c.text(fs.title, p.Title.Min.X+14, p.Title.Min.Y+27, title, white)
	c.text(fs.subtitle, p.Title.Min.X+14, p.Title.Min.Y+50, sub, titleSub)
}
