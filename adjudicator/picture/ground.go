package picture

import (
	"encoding/binary"
	"image"
	"image/color"
	"slices"
	"sort"
	"sync"

	"titm/rules"
)

// ground is the bottom of the picture: the paper, the control tints
// (12.22), the rivers and the roads without their bridges. Only the tints
// depend on the position, and only on who controls each area, so the rest
// is worked out once for a scenario and kept: the daemon draws many games
// of the same few scenarios.
//
// The tints are kept as the spans of each area's cell on each row. The
// rivers and roads are kept as the pixels they change, each with what it
// becomes on each of the three grounds a pixel can have under them, paper
// or either side's tint: a pixel drawn over with antialiased shapes ends as
// a function of its colour before alone, so the picture is the same, to
// the bit, as one drawn shape by shape.
type ground struct {
	// What the ground was worked out for.
	s      *rules.Scenario
	size   image.Point
	mapR   image.Rectangle
	proj   projection
	places []rules.Place // drawn, in the map's order

	ids      []int           // the areas, by id, whose cells the spans give
	tintR    image.Rectangle // where the tints may go
	rowStart []int32         // the spans of row y of tintR: spans[rowStart[y]:rowStart[y+1]]
	spans    []tintSpan
	off      []int32     // the pixels the lines change, by offset in the RGBA picture, ascending
	lines    [][3]uint32 // what they become over paper, the German tint and the Allied tint
	rows     [3][]byte   // a row of the picture in paper, the German tint and the Allied tint
}

// tintSpan is a run of a row's pixels in one area's cell.
type tintSpan struct {
	x0, x1 int32 // in the picture
	site   int32 // the area's index in ground.ids
}

// grounds keeps the grounds of the last scenarios drawn, the latest first;
// a handful: a ground is some megabytes.
var grounds struct {
	sync.Mutex
	list []*ground
}

const maxGrounds = 4

// places returns the places the plan draws, in the map's order.
func (p *Plan) places() []rules.Place {
	var pls []rules.Place
	for _, a := range p.s.Map.Areas {
		if _, ok := p.anchor[rules.AreaPlace(a.ID)]; ok {
			pls = append(pls, rules.AreaPlace(a.ID))
		}
	}
	for _, z := range p.s.Map.Zones {
		if _, ok := p.anchor[rules.ZonePlace(z.ID)]; ok {
			pls = append(pls, rules.ZonePlace(z.ID))
		}
	}
	return pls
}

// fits reports whether g is the ground of the plan: the same scenario,
// drawn at the same places and scale.
func (g *ground) fits(p *Plan, places []rules.Place) bool {
	return g.s == p.s && g.size == image.Pt(p.Width, p.Height) && g.mapR == p.Map && g.proj == p.proj && slices.Equal(g.places, places)
}

// groundOf returns the plan's ground from grounds, or works it out on the
// canvas, which it leaves to be drawn afresh, and keeps it.
func (p *Plan) groundOf(c *canvas) *ground {
	places := p.places()
	grounds.Lock()
	for i, g := range grounds.list {
		if g.fits(p, places) {
			copy(grounds.list[1:i+1], grounds.list[:i])
			grounds.list[0] = g
			grounds.Unlock()
			return g
		}
	}
	grounds.Unlock()

	// Two renders may both work out the same ground: both are the same,
	// and the second one kept stands in for the first.
	g := p.newGround(c, places)
	grounds.Lock()
	grounds.list = slices.Insert(grounds.list, 0, g)
	if len(grounds.list) > maxGrounds {
		grounds.list[maxGrounds] = nil
		grounds.list = grounds.list[:maxGrounds]
	}
	grounds.Unlock()
	return g
}

var groundColours = [3]color.RGBA{paper, germanTint, alliedTint}

func (p *Plan) newGround(c *canvas, places []rules.Place) *ground {
	g := &ground{s: p.s, size: image.Pt(p.Width, p.Height), mapR: p.Map, proj: p.proj, places: places}

	var own []int16
	g.ids, g.tintR, own = p.tintCells()
	r := g.tintR
	g.rowStart = make([]int32, 0, r.Dy()+1)
	for y := range r.Dy() {
		g.rowStart = append(g.rowStart, int32(len(g.spans)))
		row := own[y*r.Dx() : (y+1)*r.Dx()]
		for x := 0; x < len(row); {
			e := x + 1
			for e < len(row) && row[e] == row[x] {
				e++
			}
			if row[x] >= 0 {
				g.spans = append(g.spans, tintSpan{int32(r.Min.X + x), int32(r.Min.X + e), int32(row[x])})
			}
			x = e
		}
	}
	g.rowStart = append(g.rowStart, int32(len(g.spans)))
	g.spans = slices.Clip(g.spans)

	for i, col := range groundColours {
		g.rows[i] = make([]byte, 4*p.Width)
		for x := range p.Width {
			copy(g.rows[i][4*x:], []byte{col.R, col.G, col.B, col.A})
		}
	}

	// The lines drawn on each ground in turn; a pixel a line leaves as it
	// was on one ground may yet change on another.
	var changed [3]map[int32]uint32
	for i, col := range groundColours {
		c.fillRect(c.img.Bounds(), col)
		c.clip = p.Map
		p.drawLines(c)
		c.clip = c.img.Bounds()
		changed[i] = map[int32]uint32{}
		bg := key(col)
		for y := p.Map.Min.Y; y < p.Map.Max.Y; y++ {
			for x := p.Map.Min.X; x < p.Map.Max.X; x++ {
				o := y*c.img.Stride + 4*x
				if pixel(c.img.Pix, o) != bg {
					changed[i][int32(o)] = binary.LittleEndian.Uint32(c.img.Pix[o:])
				}
			}
		}
	}
	for i := range changed {
		for o := range changed[i] {
			g.off = append(g.off, o)
		}
	}
	slices.Sort(g.off)
	g.off = slices.Compact(g.off)
	g.lines = make([][3]uint32, len(g.off))
	for j, o := range g.off {
		for i, col := range groundColours {
			v, ok := changed[i][o]
			if !ok {
				v = key(col) | 0xff000000
			}
			g.lines[j][i] = v
		}
	}
	return g
}

// drawLines draws what of the ground lies over the tints: the rivers and
// the roads, in that order.
func (p *Plan) drawLines(c *canvas) {
	p.drawRivers(c)
	p.drawRoadLines(c)
}

// draw draws the ground of the position on the canvas, which it covers
// whole, in bands of rows in parallel: no two bands share a pixel.
func (g *ground) draw(c *canvas, st *rules.State) {
	kind := make([]int8, len(g.ids)) // the ground of each area: 1 German, 2 Allied, else 0
	for i, id := range g.ids {
		switch st.Control[id] {
		case rules.German:
			kind[i] = 1
		case rules.Allied:
			kind[i] = 2
		}
	}
	img := c.img
	h := img.Rect.Dy()
	keys := [3]uint32{key(paper), key(germanTint), key(alliedTint)}
	nb := (h + bandRows - 1) / bandRows
	parallel(workers(nb), nb, func(_, b int) {
		y0, y1 := b*bandRows, min(h, (b+1)*bandRows)
		for y := y0; y < y1; y++ {
			row := img.Pix[y*img.Stride:][:4*img.Rect.Dx()]
			copy(row, g.rows[0])
			if y < g.tintR.Min.Y || y >= g.tintR.Max.Y {
				continue
			}
			j := y - g.tintR.Min.Y
			for _, s := range g.spans[g.rowStart[j]:g.rowStart[j+1]] {
				if k := kind[s.site]; k != 0 {
					copy(row[4*s.x0:4*s.x1], g.rows[k][4*s.x0:])
				}
			}
		}
		lo, hi := int32(y0*img.Stride), int32(y1*img.Stride)
		i := sort.Search(len(g.off), func(i int) bool { return g.off[i] >= lo })
		for ; i < len(g.off) && g.off[i] < hi; i++ {
			o := g.off[i]
			k := 0
			switch pixel(img.Pix, int(o)) {
			case keys[1]:
				k = 1
			case keys[2]:
				k = 2
			}
			binary.LittleEndian.PutUint32(img.Pix[o:], g.lines[i][k])
		}
	})
}
