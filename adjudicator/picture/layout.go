package picture

import (
	"cmp"
	"image"
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"
	"sync"

	"titm/adjudicator/lang"
	"titm/rules"
)

// The picture's frame. The map is scaled to fit maxMapW x maxMapH; the
// legend stands to its right and the title above it.
const (
	maxMapW   = 1860
	maxMapH   = 2000
	maxScale  = 2600 // pixels per degree of latitude: small scenarios are not blown up beyond it
	mapMargin = 64   // between the outermost towns and the map's edge: room for labels
	legendW   = 340
	titleH    = 62

	labelH     = 17 // an area's label
	counterH   = 16 // one unit
	strengthW  = 14 // the strength box at a counter's right
	movedW     = 4  // the moved mark at a counter's left
	dotR       = 5  // a town's dot
	zoneR      = 13 // a zone's disc
	gap        = 5  // between a town's dot and its label
	zoneRows   = 6
	clearance  = 4   // the least space kept between boxes of different places
	searchStep = 6   // pixels between the rings of the search for room
	searchMax  = 300 // how far from its town a box may be set
	nearLabel  = 40  // how far from its town a label may be set before the stacks are placed
)

// A Box is a rectangle of the picture that belongs to a place: an area's
// label, a zone's marker, or the stack of units in a place.
type Box struct {
	Place rules.Place
	Rect  image.Rectangle
	// Anchor is the place's town dot or zone disc. A box set away from it,
	// where the map is crowded, is joined to it by a leader line.
	Anchor image.Point
	// Units lists a stack's units, by id, top first: the order of battle's
	// order, so German units before Allied ones.
	Units []string
	// VP is an area label's VP marker, drawn in gold at its end: what the
	// area is worth in the scenario (see vpMark); empty for an area that
	// is worth nothing.
	VP string

	columns [][]string // a stack's units as drawn, column by column
}

// A Plan is where everything of a picture goes, computed from the map and
// the position without drawing: Render draws it, and tests check it.
type Plan struct {
	Width, Height int
	Title         image.Rectangle // the title band
	Map           image.Rectangle // the map's frame
	Legend        image.Rectangle // the legend panel

	// Labels holds every area's label, number and name (3.22) and VP
	// (3.26), in the map's order; Zones every perimeter zone's disc and
	// name (3.21, 3.28); Stacks the units of every occupied area, in the
	// map's order, then those of every occupied zone.
	Labels []Box
	Zones  []Box
	Stacks []Box

	// Overlaps counts the boxes that could be put nowhere free and were
	// put where they overlap another: zero on the shipped scenarios.
	Overlaps int

	s      *rules.Scenario
	st     *rules.State
	pr     *lang.Printer   // the reader's language: the title line and the legend
	lost   map[string]bool // the units drawn crossed out (see Lost)
	ground *ground         // the ground drawn under it, once found (see groundOf)

	legendRowsKept []legendRow // the legend's rows, once worked out (see legend)
	proj           projection
	anchor         map[rules.Place]vec
	zoneStacks     map[rules.Place]zoneStack // set with the zones' markers (see zoneAnchors)
	counterW       int
	bridges        []bridgeAt // in the map's order of roads (see fixedBoxes)
	leaders        [][2]vec
	// riverLabels are the rivers' names, where room was found for them.
	riverLabels []riverLabel
}

type riverLabel struct {
	at   image.Point // the baseline's start
	name string
}

// projection maps latitude and longitude to the picture: linearly, with a
// degree of longitude shortened by the cosine of the map's middle latitude,
// so that the map keeps its shape.
type projection struct {
	lat0, lon0, cos, k float64
	off                vec
}

func (p projection) at(lat, lon float64) vec {
	return vec{(lon-p.lon0)*p.cos*p.k + p.off.X, (p.lat0-lat)*p.k + p.off.Y}
}

// Layout computes where the picture of the position puts everything.
func Layout(s *rules.Scenario, st *rules.State) *Plan {
	fs, err := getFaces()
	if err != nil {
		// The fonts are compiled in: they fail to parse only if the build is broken.
		panic("picture: " + err.Error())
	}
	defer faceSets.Put(fs)
	return layout(s, st, fs, nil, lang.EN())
}

// layout computes the plan: the frame and the projection, then the boxes
// that are fixed (towns, bridges, zones), then the labels and stacks set
// where there is room, then the rivers' names.
func layout(s *rules.Scenario, st *rules.State, fs *faces, lost []Lost, pr *lang.Printer) *Plan {
	p := &Plan{s: s, st: st, pr: pr, anchor: map[rules.Place]vec{}, lost: map[string]bool{}, zoneStacks: map[rules.Place]zoneStack{}}
	units := unitsByPlace(s, st)
	// The units lost in the impulse stand crossed out where they fell,
	// after the living.
	for _, l := range lost {
		pl := rules.AreaPlace(l.Area)
		if u := st.Unit(l.Unit); u != nil && !u.OnMap() && s.OOB.Unit(l.Unit) != nil && s.Map.Has(pl) && !p.lost[l.Unit] {
			p.lost[l.Unit] = true
			units[pl] = append(units[pl], l.Unit)
		}
	}
	areas, zones := shownPlaces(s, units)
	b := baseOf(s, pr, fs, areas, zones)
	p.Width, p.Height, p.Title, p.Map, p.Legend = b.width, b.height, b.title, b.mapR, b.legend
	p.proj, p.counterW, p.anchor = b.proj, b.counterW, maps.Clone(b.anchor)
	p.legendRowsKept, p.bridges = b.legendRows, b.bridges
	free := b.free()
	defer b.done(free)
	p.zoneAnchors(fs, free, zones, units)
	pl := &placer{
		p:      p,
		free:   free,
		units:  units,
		items:  p.placingOrder(b, zones, units),
		labels: map[int]Box{},
		stacks: map[rules.Place]Box{},
	}
	pl.place()
	free.owner = rules.Place{}
	p.placeRiverNames(free, fs)
	p.collect(areas, zones, pl.labels, pl.stacks)
	return p
}

// unitsByPlace returns the units in each place (4.1): on the map or in a
// zone. A unit of a position made by hand may stand in a place the
// scenario leaves out, or be none of the scenario's: the first is drawn,
// the second cannot be.
func unitsByPlace(s *rules.Scenario, st *rules.State) map[rules.Place][]string {
	units := map[rules.Place][]string{}
	for _, u := range st.Units {
		if u.OnMap() && s.OOB.Unit(u.ID) != nil && s.Map.Has(u.Place) {
			units[u.Place] = append(units[u.Place], u.ID)
		}
	}
	return units
}

// shownPlaces returns the areas and zones drawn, in the map's order: those
// the scenario uses (3.21, 3.22) and those with units in them.
func shownPlaces(s *rules.Scenario, units map[rules.Place][]string) (areas []*rules.Area, zones []*rules.Zone) {
	for _, a := range s.Map.Areas {
		if pl := rules.AreaPlace(a.ID); s.Uses(pl) || units[pl] != nil {
			areas = append(areas, a)
		}
	}
	for _, z := range s.Map.Zones {
		if pl := rules.ZonePlace(z.ID); s.Uses(pl) || units[pl] != nil {
			zones = append(zones, z)
		}
	}
	return areas, zones
}

// extent is the span of latitude and longitude of the places drawn.
type extent struct {
	minLat, maxLat, minLon, maxLon float64
}

// extentOf returns the extent of the areas' and zones' towns; of the point
// 0, 0 if there are none.
func extentOf(areas []*rules.Area, zones []*rules.Zone) extent {
	e := extent{math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)}
	for _, a := range areas {
		e.extend(a.Lat, a.Lon)
	}
	for _, z := range zones {
		e.extend(z.Lat, z.Lon)
	}
	if len(areas)+len(zones) == 0 {
		e.extend(0, 0)
	}
	return e
}

func (e *extent) extend(lat, lon float64) {
	e.minLat, e.maxLat = math.Min(e.minLat, lat), math.Max(e.maxLat, lat)
	e.minLon, e.maxLon = math.Min(e.minLon, lon), math.Max(e.maxLon, lon)
}

// frame sets the picture's size and frames (title, map and legend), the
// counters' width and the projection that fits the areas drawn into the
// map's frame, and the anchors of the areas at their towns. The zones do
// not widen the frame: they lie off the map (3.21), some far off, and are
// set on its edge (see zoneAnchors).
func (p *Plan) frame(fs *faces, areas []*rules.Area, zones []*rules.Zone) {
	e := extentOf(areas, nil)
	if len(areas) == 0 {
		e = extentOf(nil, zones)
	}
	cos := math.Cos((e.minLat + e.maxLat) / 2 * math.Pi / 180)
	extW, extH := math.Max((e.maxLon-e.minLon)*cos, 1e-3), math.Max(e.maxLat-e.minLat, 1e-3)
	k := math.Min(math.Min((maxMapW-2*mapMargin)/extW, (maxMapH-2*mapMargin)/extH), maxScale)
	mapW, mapH := int(math.Ceil(extW*k))+2*mapMargin, int(math.Ceil(extH*k))+2*mapMargin
	p.proj = projection{lat0: e.maxLat, lon0: e.minLon, cos: cos, k: k, off: vec{float64(mapMargin), float64(titleH + mapMargin)}}
	// The frame widens on each side to take in the scenario's boundary.
	west, north, east, south := p.boundaryRoom(areas, mapW, mapH)
	mapW, mapH = mapW+west+east, mapH+north+south
	p.proj.off = p.proj.off.add(vec{float64(west), float64(north)})
	p.counterW = counterWidth(fs, p.s.Units)
	p.Title = image.Rect(0, 0, mapW+legendW, titleH)
	p.Map = image.Rect(0, titleH, mapW, titleH+mapH)
	p.Legend = image.Rect(mapW, titleH, mapW+legendW, titleH+max(mapH, p.legend(nil, fs, image.Point{})))
	p.Width, p.Height = p.Legend.Max.X, p.Legend.Max.Y
	for _, a := range areas {
		p.anchor[rules.AreaPlace(a.ID)] = p.proj.at(a.Lat, a.Lon)
	}
}

// The room the frame keeps beyond a scenario's boundary, and the most it
// widens on a side to take the boundary in.
const (
	boundaryMargin  = 14
	maxBoundaryRoom = 3 * mapMargin
)

// boundaryRoom returns how many pixels the frame, mapW by mapH with the
// projection so far, must widen on each side to show the boundary of a
// scenario on part of the map (3.2). The boundary runs halfway between the
// towns of an area drawn and of its neighbour left out (see cellMap), no
// farther from the first than its region reaches.
func (p *Plan) boundaryRoom(areas []*rules.Area, mapW, mapH int) (west, north, east, south int) {
	if p.s.WholeMap {
		return 0, 0, 0, 0
	}
	drawn := map[int]bool{}
	for _, a := range areas {
		drawn[a.ID] = true
	}
	km := p.proj.k / 111.2
	for _, r := range p.s.Map.Roads {
		a, b := p.s.Map.Area(r.A), p.s.Map.Area(r.B)
		if a == nil || b == nil || drawn[a.ID] == drawn[b.ID] {
			continue
		}
		if !drawn[a.ID] {
			a, b = b, a
		}
		from, to := p.proj.at(a.Lat, a.Lon), p.proj.at(b.Lat, b.Lon)
		d := to.sub(from)
		l := d.len()
		if l == 0 {
			continue
		}
		at := from.add(d.mul(math.Min(0.5, maxReach*km/l)))
		top := float64(titleH)
		west = max(west, int(math.Ceil(boundaryMargin-at.X)))
		east = max(east, int(math.Ceil(at.X+boundaryMargin-float64(mapW))))
		north = max(north, int(math.Ceil(boundaryMargin-(at.Y-top))))
		south = max(south, int(math.Ceil(at.Y-top+boundaryMargin-float64(mapH))))
	}
	return min(west, maxBoundaryRoom), min(north, maxBoundaryRoom), min(east, maxBoundaryRoom), min(south, maxBoundaryRoom)
}

// counterWidth is the width of a counter: as wide as the longest id of the
// scenario's units.
func counterWidth(fs *faces, units []*rules.Unit) int {
	idW := 0
	for _, u := range units {
		idW = max(idW, fs.unit.width(u.ID))
	}
	return movedW + 3 + idW + 4 + strengthW + 1
}

// base is what of a plan depends on the scenario, the language and the
// places drawn alone, not on the units: the frame and the projection, the
// anchors of the areas, the boxes fixed in it, and each area's label's
// size and how crowded its part of the map is. It is worked out once for
// the places a scenario uses, in each language, and kept (see bases):
// the daemon lays out many positions of the same few scenarios. A base is
// not changed once made, and renders share it.
type base struct {
	s      *rules.Scenario
	pr     *lang.Printer
	areas  []*rules.Area
	zones  []*rules.Zone
	width  int
	height int
	title  image.Rectangle
	mapR   image.Rectangle
	legend image.Rectangle
	proj   projection
	anchor map[rules.Place]vec // of the areas
	// counterW is the counters' width (see counterWidth).
	counterW int
	// legendRows are the legend's rows, their text wrapped (see legend).
	legendRows []legendRow
	bridges    []bridgeAt
	// fixed holds the towns' dots and the bridges (see fixedBoxes); each
	// plan lays its own boxes over it (see index.over).
	fixed *index
	// label and crowd are each area's label's size and how many other
	// towns are near it, by the area's index in areas (see placingOrder).
	label []image.Point
	crowd []int
	// spare holds indexes over fixed that plans laid their boxes in and
	// are done with, emptied, for the next plans: an index's cells grow
	// by a few boxes at a time, which made a fifth of what a render
	// allocates.
	spare struct {
		sync.Mutex
		list []*index
	}
}

// spareIndexes is how many indexes a base keeps: as many as plans are
// laid out at once, one for each lane that draws.
const spareIndexes = 2

// free returns an empty index over the fixed boxes, to lay a plan's boxes
// in: one kept, or a new one.
func (b *base) free() *index {
	b.spare.Lock()
	defer b.spare.Unlock()
	if n := len(b.spare.list); n > 0 {
		ix := b.spare.list[n-1]
		b.spare.list = b.spare.list[:n-1]
		return ix
	}
	return b.fixed.over()
}

// done empties an index of free and keeps it for the next plan, its
// cells' room with it.
func (b *base) done(ix *index) {
	for i := range ix.cells {
		ix.cells[i] = ix.cells[i][:0]
	}
	for i := range ix.leaderCells {
		ix.leaderCells[i] = ix.leaderCells[i][:0]
	}
	ix.leaders = ix.leaders[:0]
	ix.owner, ix.blocker, ix.crosser = rules.Place{}, nil, nil
	b.spare.Lock()
	defer b.spare.Unlock()
	if len(b.spare.list) < spareIndexes {
		b.spare.list = append(b.spare.list, ix)
	}
}

// bases keeps the bases of the places the scenarios drawn lately use, in
// each language, the latest first: some tens of kilobytes each.
var bases struct {
	sync.Mutex
	list []*base
}

const maxBases = 8

// baseOf returns the base of a plan of scenario s in the language of pr,
// drawing areas and zones: kept, if they are the places the scenario uses
// (see shownPlaces), or else worked out for the plan alone.
func baseOf(s *rules.Scenario, pr *lang.Printer, fs *faces, areas []*rules.Area, zones []*rules.Zone) *base {
	bases.Lock()
	for i, b := range bases.list {
		if b.of(s, pr, areas, zones) {
			copy(bases.list[1:i+1], bases.list[:i])
			bases.list[0] = b
			bases.Unlock()
			return b
		}
	}
	bases.Unlock()
	b := newBase(s, pr, fs, areas, zones)
	if used, usedZones := shownPlaces(s, nil); !slices.Equal(used, areas) || !slices.Equal(usedZones, zones) {
		// A position with units where the scenario goes not: its plan's
		// own, not kept.
		return b
	}
	bases.Lock()
	defer bases.Unlock()
	// Another render may have kept the same meanwhile: one is kept.
	for _, o := range bases.list {
		if o.of(s, pr, areas, zones) {
			return o
		}
	}
	bases.list = slices.Insert(bases.list, 0, b)
	if len(bases.list) > maxBases {
		bases.list[maxBases] = nil
		bases.list = bases.list[:maxBases]
	}
	return b
}

// of reports whether b is the base of a plan of scenario s in the language
// of pr drawing areas and zones.
func (b *base) of(s *rules.Scenario, pr *lang.Printer, areas []*rules.Area, zones []*rules.Zone) bool {
	return b.s == s && b.pr == pr && slices.Equal(b.areas, areas) && slices.Equal(b.zones, zones)
}

// newBase works out the base of a plan drawing areas and zones.
func newBase(s *rules.Scenario, pr *lang.Printer, fs *faces, areas []*rules.Area, zones []*rules.Zone) *base {
	p := &Plan{s: s, pr: pr, anchor: map[rules.Place]vec{}}
	p.frame(fs, areas, zones)
	b := &base{
		s: s, pr: pr, areas: areas, zones: zones,
		width: p.Width, height: p.Height, title: p.Title, mapR: p.Map, legend: p.Legend,
		proj: p.proj, anchor: p.anchor, counterW: p.counterW, legendRows: p.legendRowsKept,
		fixed: p.fixedBoxes(areas),
	}
	b.bridges = p.bridges
	for _, a := range areas {
		b.label = append(b.label, image.Pt(labelWidth(fs, s, a), labelH))
		at, crowd := p.anchor[rules.AreaPlace(a.ID)], 0
		for _, o := range areas {
			if d := p.anchor[rules.AreaPlace(o.ID)].sub(at).len(); o != a && d < 110 {
				crowd++
			}
		}
		b.crowd = append(b.crowd, crowd)
	}
	return b
}

// fixedBoxes returns the index of free room with what is fixed in it, which
// nothing may cover: the towns' dots, and the bridges, as a blown one must
// show (5.1). The zones' markers with their stacks are added to it for
// each plan (see zoneAnchors).
func (p *Plan) fixedBoxes(areas []*rules.Area) *index {
	free := newIndex(p.Map.Inset(3))
	for _, a := range areas {
		free.owner = rules.AreaPlace(a.ID)
		at := p.anchor[free.owner].pt()
		free.add(image.Rectangle{Min: at, Max: at}.Inset(-dotR-1), kindDot)
	}
	free.owner = rules.Place{}
	for _, r := range p.s.Map.Roads {
		a, okA := p.anchor[rules.AreaPlace(r.A)]
		b, okB := p.anchor[rules.AreaPlace(r.B)]
		if okA && okB && (r.Bridge || r.River != "") {
			at := p.crossing(r, a, b)
			p.bridges = append(p.bridges, bridgeAt{r, at, b.sub(a).unit()})
			q := at.pt()
			free.add(image.Rectangle{Min: q, Max: q}.Inset(-7), kindBridge)
		}
	}
	return free
}

// bridgeAt is a bridge drawn: its road, where the road crosses its river,
// and the road's way from its first area to its second.
type bridgeAt struct {
	r     *rules.Road
	at, d vec
}

// A zoneStack is the stack of a zone's units, set with its marker.
type zoneStack struct {
	r    image.Rectangle
	cols [][]string
}

// zoneAnchors sets each zone's marker on the edge of the map beside the
// areas it joins (3.21, 11.13): where the line from their middle towards
// the zone's town leaves the map, or the nearest free room along the edge,
// kept clear of the towns and of the zones set before. A zone with units
// in it has them against its marker, one block with it, the marker moved
// along the edge as far as it must be for room: a zone may hold fifteen
// units at the start (11.11), and a stack set away from its zone hangs on
// a long line among the areas' stacks, where it reads as theirs. Only
// where the edge has no room for the block is the marker set alone and
// its stack left to be placed with the areas'. It records the markers in
// p.Zones, the stacks in p.zoneStacks, and both in free.
func (p *Plan) zoneAnchors(fs *faces, free *index, zones []*rules.Zone, units map[rules.Place][]string) {
	edge := p.Map.Inset(zoneR + 8)
	for _, z := range zones {
		pl := rules.ZonePlace(z.ID)
		free.owner = pl
		at, along := p.zoneStart(edge, z)
		shapes := p.zoneShapes(units[pl])
		best, zs, found := p.zoneRoom(fs, free, edge, z, at, along, shapes)
		if !found && len(shapes) > 0 {
			best, _, found = p.zoneRoom(fs, free, edge, z, at, along, nil)
		}
		if !found {
			best = at
			p.Overlaps++
		}
		best = ptVec(best.pt())
		p.anchor[pl] = best
		r := p.zoneMarker(fs, z, best)
		free.add(r, kindLabel)
		p.Zones = append(p.Zones, Box{Place: pl, Rect: r, Anchor: best.pt()})
		if zs.cols != nil {
			free.add(zs.r, kindStack)
			p.zoneStacks[pl] = zs
		}
	}
	free.owner = rules.Place{}
}

// zoneStart returns where on the edge a zone's marker would best go, and
// the way along the edge there.
func (p *Plan) zoneStart(edge image.Rectangle, z *rules.Zone) (at, along vec) {
	var mid vec
	n := 0
	for _, a := range z.Areas {
		if at, ok := p.anchor[rules.AreaPlace(a)]; ok {
			mid = mid.add(at)
			n++
		}
	}
	to := p.proj.at(z.Lat, z.Lon)
	if n == 0 {
		mid = ptVec(p.Map.Min.Add(p.Map.Max).Div(2))
	} else {
		mid = mid.mul(1 / float64(n))
	}
	at = onEdge(edge, mid, to.sub(mid))
	along = vec{1, 0}
	if at.X <= float64(edge.Min.X)+0.5 || at.X >= float64(edge.Max.X)-0.5 {
		along = vec{0, 1}
	}
	return at, along
}

// zoneRoom looks along the edge from at, nearest first, for room for a
// zone's marker and, given the shapes its stack may take, the stack against
// it. It returns where the disc goes and the stack, if any.
func (p *Plan) zoneRoom(fs *faces, free *index, edge image.Rectangle, z *rules.Zone, at, along vec, shapes [][][]string) (vec, zoneStack, bool) {
	for d := 0; d <= 2*searchMax; d += searchStep {
		for _, sgn := range []float64{1, -1} {
			q := at.add(along.mul(sgn * float64(d)))
			if q.X < float64(edge.Min.X) || q.X > float64(edge.Max.X) || q.Y < float64(edge.Min.Y) || q.Y > float64(edge.Max.Y) {
				continue
			}
			m := p.zoneMarker(fs, z, ptVec(q.pt()))
			if !free.fits(m) {
				continue
			}
			if len(shapes) == 0 {
				return q, zoneStack{}, true
			}
			for _, cols := range shapes {
				if r, ok := besideDisc(free, m, q, stackSize(p.counterW, cols)); ok {
					return q, zoneStack{r, cols}, true
				}
			}
		}
	}
	return at, zoneStack{}, false
}

// besideDisc finds room for a zone's stack against its marker m, the disc
// at q: under or over the disc itself before the far end of the name, so
// that the eye goes from the disc straight to the first counter.
func besideDisc(free *index, m image.Rectangle, q vec, size image.Point) (image.Rectangle, bool) {
	rs := beside(m, size)
	slices.SortStableFunc(rs, func(a, b image.Rectangle) int {
		return cmp.Compare(nearest(a, q).sub(q).len(), nearest(b, q).sub(q).len())
	})
	for _, r := range rs {
		if free.fits(r) {
			return r, true
		}
	}
	return image.Rectangle{}, false
}

// zoneShapes returns the ways to arrange the units in a zone in columns,
// the likeliest to fit first: zoneRows to a column, then taller or lower
// blocks, which fit along an east or west edge or along a north or south
// one. None for an empty zone.
func (p *Plan) zoneShapes(ids []string) [][][]string {
	if len(ids) == 0 {
		return nil
	}
	var shapes [][][]string
	seen := map[image.Point]bool{}
	for _, rows := range []int{zoneRows, zoneRows + 2, zoneRows - 2, zoneRows + 4, zoneRows - 3} {
		cols := p.columns(ids, rows)
		if sz := stackSize(p.counterW, cols); !seen[sz] {
			seen[sz] = true
			shapes = append(shapes, cols)
		}
	}
	return shapes
}

// onEdge returns where the ray from a point of r along d leaves r; the
// point pulled into r if d is nil.
func onEdge(r image.Rectangle, from, d vec) vec {
	x0, y0, x1, y1 := float64(r.Min.X), float64(r.Min.Y), float64(r.Max.X), float64(r.Max.Y)
	from = vec{math.Max(x0, math.Min(x1, from.X)), math.Max(y0, math.Min(y1, from.Y))}
	if d.len() < 1e-9 {
		return from
	}
	t := math.Inf(1)
	if d.X > 0 {
		t = math.Min(t, (x1-from.X)/d.X)
	} else if d.X < 0 {
		t = math.Min(t, (x0-from.X)/d.X)
	}
	if d.Y > 0 {
		t = math.Min(t, (y1-from.Y)/d.Y)
	} else if d.Y < 0 {
		t = math.Min(t, (y0-from.Y)/d.Y)
	}
	q := from.add(d.mul(t))
	return vec{math.Max(x0, math.Min(x1, q.X)), math.Max(y0, math.Min(y1, q.Y))}
}

// zoneMarker returns the box of a zone's marker at at: its disc, with its
// name to the right, or in the east of the map to the left, kept inside the
// map.
func (p *Plan) zoneMarker(fs *faces, z *rules.Zone, at vec) image.Rectangle {
	w := fs.smallBold.width(zoneName(z)) + 6
	r := image.Rect(int(at.X)-zoneR, int(at.Y)-zoneR, int(at.X)+zoneR+w, int(at.Y)+zoneR)
	if at.X > float64(p.Map.Min.X+p.Map.Dx()/2) {
		r = image.Rect(int(at.X)-zoneR-w, int(at.Y)-zoneR, int(at.X)+zoneR, int(at.Y)+zoneR)
	}
	return shiftInto(r, p.Map.Inset(3))
}

// item is what is placed for a place: an area's label, with its stack if
// it has units, or a zone's stack.
type item struct {
	place   rules.Place
	label   image.Point // size, zero for a zone
	stack   image.Point // size, zero when empty
	columns [][]string
	crowd   int // how many other towns are near: the order of placing
}

// placingOrder returns what is placed, and in which order: the zones'
// stacks, which are the largest, then the areas from the most crowded part
// of the map out, so that where room is scarce the first come nearest their
// towns. The order is fixed by the data alone: the same position, the same
// picture.
func (p *Plan) placingOrder(b *base, zones []*rules.Zone, units map[rules.Place][]string) []item {
	var items []item
	for _, z := range zones {
		pl := rules.ZonePlace(z.ID)
		if us := units[pl]; len(us) > 0 {
			cols := p.columns(us, zoneRows)
			if zs, ok := p.zoneStacks[pl]; ok {
				cols = zs.cols
			}
			items = append(items, item{place: pl, stack: stackSize(p.counterW, cols), columns: cols, crowd: 1 << 20})
		}
	}
	for i, a := range b.areas {
		pl := rules.AreaPlace(a.ID)
		it := item{place: pl, label: b.label[i], crowd: b.crowd[i]}
		if us := units[pl]; len(us) > 0 {
			it.columns = p.columns(us, rules.StackUnits)
			it.stack = stackSize(p.counterW, it.columns)
		}
		items = append(items, it)
	}
	sort.SliceStable(items, func(i, j int) bool { return items[i].crowd > items[j].crowd })
	return items
}

// placer sets the items' labels and stacks where there is room.
type placer struct {
	p      *Plan
	free   *index
	units  map[rules.Place][]string
	items  []item
	labels map[int]Box         // by area number
	stacks map[rules.Place]Box // by place

	// Which items are placed: placed the label (or the zone's stack),
	// stackPlaced the stack.
	placed, stackPlaced []bool
}

// place places the items in four rounds, each for what the rounds before
// left without room:
//  1. an area's label and stack together against its town;
//  2. the label alone against its town, or near it;
//  3. the stack against its label, or on rings round the town;
//  4. the label on rings round the town.
//
// So every town keeps its name by it wherever room can be found, before
// any stack is set away from it.
func (pl *placer) place() {
	pl.placed = make([]bool, len(pl.items))
	pl.stackPlaced = make([]bool, len(pl.items))
	pl.placeTogether()
	pl.placeLabelsNear()
	pl.placeStacks()
	pl.placeLabelsAround()
}

func (pl *placer) setLabel(i int, r image.Rectangle) {
	it := pl.items[i]
	pl.free.owner = it.place
	pl.free.add(r, kindLabel)
	pl.free.addLeader(pl.p.anchor[it.place], r, dotR+gap+2)
	pl.labels[it.place.Area] = Box{Place: it.place, Rect: r, Anchor: pl.p.anchor[it.place].pt()}
	pl.placed[i] = true
}

func (pl *placer) setStack(i int, r image.Rectangle) {
	it := pl.items[i]
	pl.free.owner = it.place
	pl.free.add(r, kindStack)
	if l, ok := pl.labels[it.place.Area]; it.place.IsZone() || !ok || rectDist(l.Rect, r) > clearance+2 {
		pl.free.addLeader(pl.p.anchor[it.place], r, dotR+gap+2)
	}
	pl.stacks[it.place] = Box{Place: it.place, Rect: r, Anchor: pl.p.anchor[it.place].pt(), Units: pl.units[it.place], columns: it.columns}
	pl.stackPlaced[i] = true
}

// placeTogether is the first round: each zone's stack against its marker,
// or near it; each area's label with its stack against its town.
func (pl *placer) placeTogether() {
	p := pl.p
	for i, it := range pl.items {
		pl.free.owner = it.place
		if it.place.IsZone() {
			pl.placeZoneStack(i)
			continue
		}
		if lr, sr, ok := p.placeNear(pl.free, p.anchor[it.place], it.label, it.stack); ok {
			pl.setLabel(i, lr)
			if it.stack != (image.Point{}) {
				pl.setStack(i, sr)
			}
		}
	}
}

// placeZoneStack places the stack of the i-th item, a zone's: where
// zoneAnchors set it, against the zone's marker; or else, where the edge
// had no room for it, on rings round the marker.
func (pl *placer) placeZoneStack(i int) {
	p, it := pl.p, pl.items[i]
	if zs, ok := p.zoneStacks[it.place]; ok {
		pl.stacks[it.place] = Box{Place: it.place, Rect: zs.r, Anchor: p.anchor[it.place].pt(), Units: pl.units[it.place], columns: zs.cols}
		pl.stackPlaced[i], pl.placed[i] = true, true
		return
	}
	var zr image.Rectangle
	for _, z := range p.Zones {
		if z.Place == it.place {
			zr = z.Rect
		}
	}
	r, ok := p.placeBeside(pl.free, zr, it.stack)
	if !ok {
		if r, ok = p.placeAround(pl.free, p.anchor[it.place], it.stack, searchMax); !ok {
			p.Overlaps++
		}
	}
	pl.setStack(i, r)
	pl.placed[i] = true
}

// placeLabelsNear is the second round: the labels left, alone against
// their towns or near them.
func (pl *placer) placeLabelsNear() {
	p := pl.p
	for i, it := range pl.items {
		if pl.placed[i] {
			continue
		}
		pl.free.owner = it.place
		if lr, _, ok := p.placeNear(pl.free, p.anchor[it.place], it.label, image.Point{}); ok {
			pl.setLabel(i, lr)
		} else if lr, ok := p.around(pl.free, p.anchor[it.place], it.label, nearLabel, true); ok {
			pl.setLabel(i, lr)
		}
	}
}

// placeStacks is the third round: the stacks left, against their labels or
// on rings round their towns.
func (pl *placer) placeStacks() {
	p := pl.p
	for i, it := range pl.items {
		if pl.stackPlaced[i] || it.stack == (image.Point{}) {
			continue
		}
		pl.free.owner = it.place
		var r image.Rectangle
		ok := false
		if pl.placed[i] {
			r, ok = p.placeBeside(pl.free, pl.labels[it.place.Area].Rect, it.stack)
		}
		if !ok {
			r, ok = p.placeAround(pl.free, p.anchor[it.place], it.stack, 2*searchMax)
		}
		if !ok {
			p.Overlaps++
		}
		pl.setStack(i, r)
	}
}

// placeLabelsAround is the last round: the labels left, on rings round
// their towns, or over something if there is no room.
func (pl *placer) placeLabelsAround() {
	p := pl.p
	for i, it := range pl.items {
		if pl.placed[i] {
			continue
		}
		pl.free.owner = it.place
		lr, ok := p.placeAround(pl.free, p.anchor[it.place], it.label, searchMax)
		if !ok {
			p.Overlaps++
		}
		pl.setLabel(i, lr)
	}
}

// collect records the boxes placed in the map's order, areas then zones,
// and the leader lines of those set away from their towns.
func (p *Plan) collect(areas []*rules.Area, zones []*rules.Zone, labels map[int]Box, stacks map[rules.Place]Box) {
	p.Labels, p.Stacks = make([]Box, 0, len(areas)), make([]Box, 0, len(stacks))
	for _, a := range areas {
		b := labels[a.ID]
		b.VP = vpMark(p.s, a)
		p.Labels = append(p.Labels, b)
		p.leader(b.Anchor, b.Rect, dotR+gap+2)
	}
	var order []rules.Place
	for _, a := range areas {
		order = append(order, rules.AreaPlace(a.ID))
	}
	for _, z := range zones {
		order = append(order, rules.ZonePlace(z.ID))
	}
	for _, pl := range order {
		b, ok := stacks[pl]
		if !ok {
			continue
		}
		p.Stacks = append(p.Stacks, b)
		if pl.IsZone() {
			for _, z := range p.Zones {
				if z.Place == pl && rectDist(z.Rect, b.Rect) > clearance+2 {
					p.leader(b.Anchor, b.Rect, zoneR+1)
				}
			}
		} else if rectDist(labels[pl.Area].Rect, b.Rect) > clearance+2 {
			p.leader(b.Anchor, b.Rect, dotR+gap+2)
		}
	}
}

// zoneName is a zone's name as its marker shows it: "Liège" or "Huy VP×2"
// for the Allied VP zones (3.28).
func zoneName(z *rules.Zone) string {
	if z.VPMultiplier > 0 {
		return z.Name + " VP×" + strconv.Itoa(z.VPMultiplier)
	}
	return z.Name
}

// vpMark is what marks area a as a VP area of scenario s: the VP it is
// worth there, its map VP (3.26) if the scenario counts them and the
// scenario's own for a victory area of a scenario won on VP; "VP" for a
// victory area of a scenario won by control, as the introductory
// scenario's Luxembourg and Mersch; empty for an area worth nothing. The
// map VP of a scenario that does not count them are not shown: they win
// nothing there.
func vpMark(s *rules.Scenario, a *rules.Area) string {
	vp := 0
	if s.Victory.MapVP {
		vp = a.VP
	}
	if slices.Contains(s.Victory.Areas, a.ID) {
		if s.Victory.Kind == rules.VictoryControl {
			return "VP"
		}
		vp += s.Victory.ControlledVP
	}
	if vp > 0 {
		return strconv.Itoa(vp)
	}
	return ""
}

// labelWidth is the width of an area's label in scenario s: number, name
// and VP marker.
func labelWidth(fs *faces, s *rules.Scenario, a *rules.Area) int {
	return labelWidthOf(fs, a.ID, a.Name, vpMark(s, a))
}

func labelWidthOf(fs *faces, id int, name string, vp string) int {
	w := 3 + fs.labelBold.width(strconv.Itoa(id)) + 4 + fs.label.width(name) + 3
	if vp != "" {
		w += vpBadgeW(fs, vp) + 2
	}
	return w
}

func vpBadgeW(fs *faces, vp string) int { return max(15, fs.smallBold.width(vp)+8) }

// columns arranges the units of a place in columns of at most rows
// counters: each side's units in columns of their own, German first, so
// that in a contested area (12.22) the sides stand apart; a side with more
// units than rows, as Germans over the stacking limit at set-up (7.1) or
// the units in a zone (7.3), in columns as even as can be.
func (p *Plan) columns(ids []string, rows int) [][]string {
	var cols [][]string
	for _, side := range []rules.Side{rules.German, rules.Allied} {
		var us []string
		for _, id := range ids {
			if p.s.OOB.Unit(id).Side == side {
				us = append(us, id)
			}
		}
		if len(us) == 0 {
			continue
		}
		n := (len(us) + rows - 1) / rows
		per := (len(us) + n - 1) / n
		for len(us) > 0 {
			k := min(per, len(us))
			cols = append(cols, us[:k])
			us = us[k:]
		}
	}
	return cols
}

// stackSize is the size of a stack of counters in columns.
func stackSize(counterW int, cols [][]string) image.Point {
	rows := 0
	for _, c := range cols {
		rows = max(rows, len(c))
	}
	return image.Pt(len(cols)*(counterW+1)+1, rows*(counterH+1)+1)
}

// leader records a line from a town to a box set away from it.
func (p *Plan) leader(at image.Point, r image.Rectangle, near int) {
	a := ptVec(at)
	q := nearest(r, a)
	if q.sub(a).len() <= float64(near) {
		return
	}
	p.leaders = append(p.leaders, [2]vec{a, q})
}

// nearest returns the point of r nearest to v.
func nearest(r image.Rectangle, v vec) vec {
	return vec{
		math.Max(float64(r.Min.X), math.Min(v.X, float64(r.Max.X-1))),
		math.Max(float64(r.Min.Y), math.Min(v.Y, float64(r.Max.Y-1))),
	}
}

// rectDist is the gap between two rectangles in pixels, 0 if they touch.
func rectDist(a, b image.Rectangle) int {
	dx := max(0, a.Min.X-b.Max.X, b.Min.X-a.Max.X)
	dy := max(0, a.Min.Y-b.Max.Y, b.Min.Y-a.Max.Y)
	return max(dx, dy)
}

func shiftInto(r, in image.Rectangle) image.Rectangle {
	d := image.Point{}
	if r.Min.X < in.Min.X {
		d.X = in.Min.X - r.Min.X
	} else if r.Max.X > in.Max.X {
		d.X = in.Max.X - r.Max.X
	}
	if r.Min.Y < in.Min.Y {
		d.Y = in.Min.Y - r.Min.Y
	} else if r.Max.Y > in.Max.Y {
		d.Y = in.Max.Y - r.Max.Y
	}
	return r.Add(d)
}

// card returns the ways to set an area's label with its stack under it
// (or over it) against the town's dot: to its right, left, below or above.
// A zero stack is a label alone.
func card(at vec, label, stack image.Point) [6][2]image.Rectangle {
	ax, ay := int(math.Round(at.X)), int(math.Round(at.Y))
	lw, lh := label.X, label.Y
	east := image.Rect(ax+dotR+gap, ay-lh/2, ax+dotR+gap+lw, ay-lh/2+lh)
	west := image.Rect(ax-dotR-gap-lw, ay-lh/2, ax-dotR-gap, ay-lh/2+lh)
	south := image.Rect(ax-lw/2, ay+dotR+2, ax-lw/2+lw, ay+dotR+2+lh)
	north := image.Rect(ax-lw/2, ay-dotR-2-lh, ax-lw/2+lw, ay-dotR-2)
	return [6][2]image.Rectangle{
		{east, under(east, stack, false)}, {west, under(west, stack, true)},
		{east, over(east, stack, false)}, {west, over(west, stack, true)},
		{south, centred(south, stack, true)}, {north, centred(north, stack, false)},
	}
}

// under, over and centred return where a stack goes against a label:
// under or over it, against its right or left edge, or centred.
func under(l image.Rectangle, s image.Point, right bool) image.Rectangle {
	if right {
		return image.Rect(l.Max.X-s.X, l.Max.Y, l.Max.X, l.Max.Y+s.Y)
	}
	return image.Rect(l.Min.X, l.Max.Y, l.Min.X+s.X, l.Max.Y+s.Y)
}

func over(l image.Rectangle, s image.Point, right bool) image.Rectangle {
	if right {
		return image.Rect(l.Max.X-s.X, l.Min.Y-s.Y, l.Max.X, l.Min.Y)
	}
	return image.Rect(l.Min.X, l.Min.Y-s.Y, l.Min.X+s.X, l.Min.Y)
}

func centred(l image.Rectangle, s image.Point, below bool) image.Rectangle {
	x := (l.Min.X+l.Max.X)/2 - s.X/2
	if below {
		return image.Rect(x, l.Max.Y, x+s.X, l.Max.Y+s.Y)
	}
	return image.Rect(x, l.Min.Y-s.Y, x+s.X, l.Min.Y)
}

// placeNear finds room for an area's label and stack against its town.
func (p *Plan) placeNear(free *index, at vec, label, stack image.Point) (lr, sr image.Rectangle, ok bool) {
	for _, c := range card(at, label, stack) {
		if free.fits(c[0]) && (stack == (image.Point{}) || free.fits(c[1])) {
			return c[0], c[1], true
		}
	}
	return image.Rectangle{}, image.Rectangle{}, false
}

// placeBeside finds room for a stack against a box, or else returns false.
func (p *Plan) placeBeside(free *index, b image.Rectangle, size image.Point) (image.Rectangle, bool) {
	for _, r := range beside(b, size) {
		if free.fits(r) {
			return r, true
		}
	}
	return image.Rectangle{}, false
}

// beside returns the ways to set a box of the size against box b: under
// it, over it, to its right, to its left, each against one end of b and
// then the other.
func beside(b image.Rectangle, size image.Point) []image.Rectangle {
	w, h := size.X, size.Y
	return []image.Rectangle{
		image.Rect(b.Min.X, b.Max.Y, b.Min.X+w, b.Max.Y+h),
		image.Rect(b.Max.X-w, b.Max.Y, b.Max.X, b.Max.Y+h),
		image.Rect(b.Min.X, b.Min.Y-h, b.Min.X+w, b.Min.Y),
		image.Rect(b.Max.X-w, b.Min.Y-h, b.Max.X, b.Min.Y),
		image.Rect(b.Max.X, b.Min.Y, b.Max.X+w, b.Min.Y+h),
		image.Rect(b.Min.X-w, b.Min.Y, b.Min.X, b.Min.Y+h),
		image.Rect(b.Max.X, b.Max.Y-h, b.Max.X+w, b.Max.Y),
		image.Rect(b.Min.X-w, b.Max.Y-h, b.Min.X, b.Max.Y),
	}
}

// placeAround finds room for a box of the size on rings round a town out
// to the radius, the nearest first, where a leader line from the town can
// reach it crossing nothing; else, where a town is hemmed in all round,
// the nearest room at all. If there is none it returns a box by the town.
func (p *Plan) placeAround(free *index, at vec, size image.Point, radius int) (image.Rectangle, bool) {
	for _, try := range []struct {
		radius int
		leader bool
	}{{radius, true}, {2 * searchMax, true}} {
		if r, ok := p.around(free, at, size, min(try.radius, 2*searchMax), try.leader); ok {
			return r, true
		}
	}
	if r, ok := p.leastCrossed(free, at, size, radius); ok {
		return r, true
	}
	ax, ay := int(math.Round(at.X)), int(math.Round(at.Y))
	return image.Rect(ax, ay, ax+size.X, ay+size.Y), false
}

// around finds room on the rings round a town, out to radius (at most
// 2 searchMax: see searchRings); with leader, only where a leader line can
// reach it crossing nothing.
func (p *Plan) around(free *index, at vec, size image.Point, radius int, leader bool) (image.Rectangle, bool) {
	ax, ay := int(math.Round(at.X)), int(math.Round(at.Y))
	w, h := size.X, size.Y
	for _, ring := range searchRings() {
		if ring.r > radius {
			break
		}
		for _, d := range ring.pts {
			cx, cy := ax+d.X, ay+d.Y
			b := image.Rect(cx-w/2, cy-h/2, cx-w/2+w, cy-h/2+h)
			if free.fits(b) && (!leader || free.clear(at, b)) {
				return b, true
			}
		}
	}
	return image.Rectangle{}, false
}

// leastCrossed finds room on the rings round a town, out to radius, where
// the leader line from the town crosses the fewest other places' boxes:
// for a town hemmed in all round, where no line crosses nothing.
func (p *Plan) leastCrossed(free *index, at vec, size image.Point, radius int) (image.Rectangle, bool) {
	ax, ay := int(math.Round(at.X)), int(math.Round(at.Y))
	w, h := size.X, size.Y
	best, fewest := image.Rectangle{}, -1
	for _, ring := range searchRings() {
		if ring.r > radius {
			break
		}
		for _, d := range ring.pts {
			cx, cy := ax+d.X, ay+d.Y
			b := image.Rect(cx-w/2, cy-h/2, cx-w/2+w, cy-h/2+h)
			if !free.fits(b) {
				continue
			}
			if n := free.crossed(at, b); fewest < 0 || n < fewest {
				best, fewest = b, n
			}
		}
	}
	return best, fewest >= 0
}

// searchRing is a ring of the search for room round a town: its radius,
// and its points relative to the town.
type searchRing struct {
	r   int
	pts []image.Point
}

// searchRings are the rings of the search for room, from 12 pixels out to
// twice searchMax, worked out once: the layout looks at some thousands of
// their points.
var searchRings = sync.OnceValue(func() []searchRing {
	var rings []searchRing
	for r := 12; r <= 2*searchMax; r += searchStep {
		n := max(8, int(2*math.Pi*float64(r)/float64(searchStep)))
		ring := searchRing{r: r, pts: make([]image.Point, n)}
		for i := range n {
			a := 2 * math.Pi * float64(i) / float64(n)
			ring.pts[i] = image.Pt(int(math.Round(float64(r)*math.Cos(a))), int(math.Round(float64(r)*math.Sin(a))))
		}
		rings = append(rings, ring)
	}
	return rings
})

// index holds the boxes placed so far, in a grid of cells, to tell quickly
// whether a new box would come too near one.
type index struct {
	bounds image.Rectangle // boxes must lie inside
	cols   int
	cells  [][]entry
	// under holds boxes under these, as in cells, shared and not changed
	// (see over); or nil.
	under [][]entry
	// owner is the place whose boxes are being placed: they may touch its
	// label, so that a stack against a label is plainly that label's.
	owner rules.Place
	// leaders are the leader lines of the boxes placed away from their
	// towns: no other place's box goes over one. leaderCells holds, by
	// cell, the leaders whose bounds reach it (see cellRange).
	leaders     []leaderLine
	leaderCells [][]int32
	// blocker is the box that last kept a box from fitting, if any: the
	// boxes tried one after another round a town mostly overlap, and
	// most are kept out by the same box as the one before.
	blocker *entry
	// crosser is the box that last kept a leader line from being clear.
	crosser *entry
}

// leaderLine is a leader line of a place's box, and its bounds.
type leaderLine struct {
	a, b   vec
	bounds image.Rectangle
	owner  rules.Place
}

// addLeader records the leader line from a town at to box r of the
// current owner, if r is set far enough from it to have one (see
// Plan.leader).
func (ix *index) addLeader(at vec, r image.Rectangle, near int) {
	q := nearest(r, at)
	if q.sub(at).len() <= float64(near) {
		return
	}
	b := image.Rectangle{Min: at.pt(), Max: at.pt().Add(image.Pt(1, 1))}.Union(image.Rectangle{Min: q.pt(), Max: q.pt().Add(image.Pt(1, 1))})
	if ix.leaderCells == nil {
		ix.leaderCells = make([][]int32, len(ix.cells))
	}
	x0, y0, x1, y1 := ix.cellRange(b)
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			ix.leaderCells[y*ix.cols+x] = append(ix.leaderCells[y*ix.cols+x], int32(len(ix.leaders)))
		}
	}
	ix.leaders = append(ix.leaders, leaderLine{at, q, b, ix.owner})
}

// cellRange returns the cells r reaches, from x0, y0 to x1, y1, each
// taken into the grid: two rectangles that overlap share a cell, wherever
// they lie.
func (ix *index) cellRange(r image.Rectangle) (x0, y0, x1, y1 int) {
	rows := len(ix.cells) / ix.cols
	in := func(v, n int) int { return max(0, min(n-1, v)) }
	return in(r.Min.X/cell, ix.cols), in(r.Min.Y/cell, rows), in((r.Max.X-1)/cell, ix.cols), in((r.Max.Y-1)/cell, rows)
}

// onLeader reports whether r lies over another place's leader line.
func (ix *index) onLeader(r image.Rectangle) bool {
	if len(ix.leaders) == 0 || r.Empty() {
		return false
	}
	x0, y0, x1, y1 := ix.cellRange(r)
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			for _, i := range ix.leaderCells[y*ix.cols+x] {
				l := &ix.leaders[i]
				if l.owner != ix.owner && l.bounds.Overlaps(r) && segmentMeets(l.a, l.b, r) {
					return true
				}
			}
		}
	}
	return false
}

// segmentMeets reports whether the segment a-b meets the rectangle r
// (Liang-Barsky clipping).
func segmentMeets(a, b vec, r image.Rectangle) bool {
	t0, t1 := 0.0, 1.0
	d := b.sub(a)
	for _, e := range [4][2]float64{
		{-d.X, a.X - float64(r.Min.X)}, {d.X, float64(r.Max.X) - a.X},
		{-d.Y, a.Y - float64(r.Min.Y)}, {d.Y, float64(r.Max.Y) - a.Y},
	} {
		p, q := e[0], e[1]
		if p == 0 {
			if q < 0 {
				return false
			}
			continue
		}
		t := q / p
		if p < 0 {
			t0 = math.Max(t0, t)
		} else {
			t1 = math.Min(t1, t)
		}
		if t0 > t1 {
			return false
		}
	}
	return true
}

type entry struct {
	r     image.Rectangle
	owner rules.Place
	kind  kind
}

// The kinds of box.
type kind int

const (
	kindStack  kind = iota
	kindLabel       // an area's label or a zone's marker: its stack may touch it
	kindDot         // a town's dot
	kindBridge      // a bridge on a road: a leader line may cross it
)

const cell = 48

func newIndex(bounds image.Rectangle) *index {
	cols := bounds.Max.X/cell + 1
	rows := bounds.Max.Y/cell + 1
	return &index{bounds: bounds, cols: cols, cells: make([][]entry, cols*rows)}
}

// over returns an empty index over ix, which holds no leader lines: it
// holds the boxes of ix, and those added to it alone. ix must be no index
// over another, hold no leader lines and not change while it is in use.
func (ix *index) over() *index {
	return &index{bounds: ix.bounds, cols: ix.cols, cells: make([][]entry, len(ix.cells)), under: ix.cells}
}

// entries returns the boxes of cell i: those under, and its own.
func (ix *index) entries(i int) (under, own []entry) {
	if ix.under != nil {
		under = ix.under[i]
	}
	return under, ix.cells[i]
}

func (ix *index) each(r image.Rectangle, f func(i int) bool) {
	r = r.Intersect(ix.bounds)
	if r.Empty() {
		return
	}
	for y := r.Min.Y / cell; y <= (r.Max.Y-1)/cell; y++ {
		for x := r.Min.X / cell; x <= (r.Max.X-1)/cell; x++ {
			if !f(y*ix.cols + x) {
				return
			}
		}
	}
}

// clear reports whether a leader line from a town to box r would cross no
// other place's box on its way.
func (ix *index) clear(at vec, r image.Rectangle) bool {
	q := nearest(r, at)
	d := q.sub(at)
	l := d.len()
	// A point of the line crosses a box if the box holds it; it lies in
	// one cell, or in none outside the bounds. The box that kept the line
	// before is tried first (see blocker).
	crosses := func(e *entry, v image.Point) bool {
		return e.owner != ix.owner && e.kind != kindBridge && v.In(e.r)
	}
	for t := 0.0; t < l; t += 3 {
		v := at.add(d.mul(t / l)).pt()
		if !v.In(ix.bounds) {
			continue
		}
		if ix.crosser != nil && crosses(ix.crosser, v) {
			return false
		}
		under, own := ix.entries(v.Y/cell*ix.cols + v.X/cell)
		for _, es := range [2][]entry{under, own} {
			for i := range es {
				if crosses(&es[i], v) {
					ix.crosser = &es[i]
					return false
				}
			}
		}
	}
	return true
}

// crossed counts the other places' boxes a leader line from a town to
// box r would cross on its way.
func (ix *index) crossed(at vec, r image.Rectangle) int {
	q := nearest(r, at)
	seg := image.Rectangle{Min: at.pt(), Max: at.pt().Add(image.Pt(1, 1))}.Union(image.Rectangle{Min: q.pt(), Max: q.pt().Add(image.Pt(1, 1))})
	seen := map[image.Rectangle]bool{}
	ix.each(seg, func(i int) bool {
		under, own := ix.entries(i)
		for _, es := range [2][]entry{under, own} {
			for _, e := range es {
				if e.owner != ix.owner && e.kind != kindBridge && !seen[e.r] && segmentMeets(at, q, e.r) {
					seen[e.r] = true
				}
			}
		}
		return true
	})
	return len(seen)
}

// add records a box of the current owner.
func (ix *index) add(r image.Rectangle, k kind) {
	e := entry{r, ix.owner, k}
	ix.each(r, func(i int) bool {
		ix.cells[i] = append(ix.cells[i], e)
		return true
	})
}

// fits reports whether r lies inside the bounds and keeps its clearance
// from every box placed, but the owner's label, which it need only not
// overlap.
func (ix *index) fits(r image.Rectangle) bool {
	if !r.In(ix.bounds) {
		return false
	}
	// The cells of each, in loops of their own: fits is asked some tens
	// of thousands of times for a crowded picture. The leader lines
	// last: most boxes tried are kept out by a box.
	g := r.Inset(-clearance)
	blocks := func(e *entry) bool {
		return e.r.Overlaps(g) && (e.kind != kindLabel || e.owner != ix.owner || e.r.Overlaps(r))
	}
	if ix.blocker != nil && blocks(ix.blocker) {
		return false
	}
	in := g.Intersect(ix.bounds)
	for y := in.Min.Y / cell; y <= (in.Max.Y-1)/cell; y++ {
		for x := in.Min.X / cell; x <= (in.Max.X-1)/cell; x++ {
			under, own := ix.entries(y*ix.cols + x)
			for _, es := range [2][]entry{under, own} {
				for i := range es {
					if blocks(&es[i]) {
						ix.blocker = &es[i]
						return false
					}
				}
			}
		}
	}
	return !ix.onLeader(r.Inset(-1))
}

// placeRiverNames finds room for each river's name by its course, as near
// the middle of the course as can be.
func (p *Plan) placeRiverNames(free *index, fs *faces) {
	for _, r := range p.s.Map.Rivers {
		pts := p.course(r)
		if len(pts) < 2 {
			continue
		}
		w, h := fs.river.width(r.Name), 13
		// The segments' middles, from the middle of the course outwards.
		var order []int
		mid := (len(pts) - 2) / 2
		for d := 0; d < len(pts); d++ {
			for _, i := range []int{mid - d, mid + d + 1} {
				if i >= 0 && i+1 < len(pts) && !slices.Contains(order, i) {
					order = append(order, i)
				}
			}
		}
	search:
		for _, i := range order {
			m := lerpVec(pts[i], pts[i+1], 0.5)
			for _, off := range []vec{{6, -6 - float64(h)}, {6, 6}, {-6 - float64(w), -6 - float64(h)}, {-6 - float64(w), 6}} {
				q := m.add(off).pt()
				b := image.Rect(q.X, q.Y, q.X+w, q.Y+h)
				if free.fits(b) {
					free.add(b, kindStack)
					p.riverLabels = append(p.riverLabels, riverLabel{image.Pt(b.Min.X, b.Max.Y-3), r.Name})
					break search
				}
			}
		}
	}
}
