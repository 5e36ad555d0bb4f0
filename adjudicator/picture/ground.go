package picture

import (
	"encoding/binary"
	"image"
	"image/color"
	"slices"
	"sync"

	"titm/rules"
)

// ground is the bottom of the picture: the ground off the map, the areas'
// regions tinted by control (12.22) with the lines between them, the
// rivers and the roads without their bridges. Only the tints depend on the
// position, and only on who controls each area, so the rest is worked out
// once for a scenario and kept: the daemon draws many games of the same
// few scenarios.
//
// The regions are kept as the spans of each area's cell on each row. The
// rivers and roads are kept as a layer of their own: the pixels they cover,
// each with its colour premultiplied by how much of it they cover, laid
// over the ground as the last thing.
type ground struct {
	// What the ground was worked out for.
	s      *rules.Scenario
	size   image.Point
	mapR   image.Rectangle
	proj   projection
	places []rules.Place // drawn, in the map's order

	ids      []int           // the areas, by id, whose cells the spans give
	tintR    image.Rectangle // where the regions may go
	rowStart []int32         // the spans of row y of tintR: spans[rowStart[y]:rowStart[y+1]]
	spans    []tintSpan
	off      []int32  // the pixels the lines cover, ascending, by offset in the rows of the whole picture in palette entries (see indexed.row)
	lines    []uint32 // their colour, premultiplied RGBA, little-endian
	rows     [nGrounds][]byte

	mu      sync.Mutex
	indexes map[*fixedPalette]*groundIndexes // see indexesFor
}

// The grounds a pixel of the map can have under the lines, by index into
// ground.rows and groundColours.
const (
	groundOff = iota
	groundNeutral
	groundGerman
	groundAllied
	groundEdge
	groundBoundary
	nGrounds
)

// cellRows is the height of the bands of rows newGround works the cells
// out in.
const cellRows = 64

var groundColours = [nGrounds]color.RGBA{offMap, paper, germanTint, alliedTint, areaEdge, ink}

// tintSpan is a run of a row's pixels in one area's cell, or on the lines
// between cells.
type tintSpan struct {
	x0, x1 uint16 // in the picture: the map at most maxMapW wide, and the legend beside it
	site   int16  // the area's index in ground.ids, or edgeCell: as the cells hold it
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

// groundOf returns the plan's ground from grounds, or works it out and
// keeps it.
func (p *Plan) groundOf() *ground {
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
	g := p.newGround(places)
	grounds.Lock()
	grounds.list = slices.Insert(grounds.list, 0, g)
	if len(grounds.list) > maxGrounds {
		grounds.list[maxGrounds] = nil
		grounds.list = grounds.list[:maxGrounds]
	}
	grounds.Unlock()
	return g
}

func (p *Plan) newGround(places []rules.Place) *ground {
	g := &ground{s: p.s, size: image.Pt(p.Width, p.Height), mapR: p.Map, proj: p.proj, places: places}

	// The cells a band of rows at a time: the whole map's would be some
	// megabytes more at the first render.
	cm := p.cellMap()
	g.ids, g.tintR = cm.ids, p.Map.Inset(1)
	r := g.tintR
	g.rowStart = make([]int32, 0, r.Dy()+1)
	var own []int16
	for y0 := r.Min.Y; y0 < r.Max.Y; y0 += cellRows {
		br := image.Rect(r.Min.X, y0, r.Max.X, min(r.Max.Y, y0+cellRows))
		own = cm.cells(br, own)
		for y := range br.Dy() {
			g.rowStart = append(g.rowStart, int32(len(g.spans)))
			row := own[y*r.Dx() : (y+1)*r.Dx()]
			for x := 0; x < len(row); {
				e := x + 1
				for e < len(row) && row[e] == row[x] {
					e++
				}
				if row[x] != offCell {
					g.spans = append(g.spans, tintSpan{uint16(r.Min.X + x), uint16(r.Min.X + e), row[x]})
				}
				x = e
			}
		}
	}
	g.rowStart = append(g.rowStart, int32(len(g.spans)))
	g.spans = slices.Clip(g.spans)

	for i, col := range groundColours {
		if i == groundBoundary {
			col = boundaryColour(p.s)
		}
		g.rows[i] = make([]byte, 4*p.Width)
		for x := range p.Width {
			copy(g.rows[i][4*x:], []byte{col.R, col.G, col.B, col.A})
		}
	}

	// The lines, drawn on nothing, on a canvas of their own a band of
	// rows at a time: what they leave is their layer.
	c := newCanvas(0, 0)
	h := stripRows(p.Width)
	for y0 := p.Map.Min.Y; y0 < p.Map.Max.Y; y0 += h {
		c.reset(p.Width, y0, min(p.Map.Max.Y, y0+h))
		c.fillRect(c.img.Rect, color.RGBA{})
		c.setClip(p.Map)
		p.drawLines(c)
		for y := c.img.Rect.Min.Y; y < c.img.Rect.Max.Y; y++ {
			for x := p.Map.Min.X; x < p.Map.Max.X; x++ {
				if v := binary.LittleEndian.Uint32(c.img.Pix[c.img.PixOffset(x, y):]); v != 0 {
					g.off = append(g.off, int32(y*(p.Width+1)+1+x))
					g.lines = append(g.lines, v)
				}
			}
		}
	}
	g.off, g.lines = slices.Clip(g.off), slices.Clip(g.lines)
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
	kind := make([]int8, len(g.ids)) // the ground of each area
	for i, id := range g.ids {
		switch st.Control[id] {
		case rules.German:
			kind[i] = groundGerman
		case rules.Allied:
			kind[i] = groundAllied
		default:
			kind[i] = groundNeutral
		}
	}
	if c.indexed {
		g.drawIndexed(c.ix, kind)
		return
	}
	img := c.img
	top, h := img.Rect.Min.Y, img.Rect.Dy()
	nb := (h + bandRows - 1) / bandRows
	parallel(workers(nb), nb, func(_, b int) {
		y0, y1 := top+b*bandRows, top+min(h, (b+1)*bandRows)
		for y := y0; y < y1; y++ {
			row := img.Pix[img.PixOffset(0, y):][:4*img.Rect.Dx()]
			copy(row, g.rows[groundOff])
			if y < g.tintR.Min.Y || y >= g.tintR.Max.Y {
				continue
			}
			j := y - g.tintR.Min.Y
			for _, s := range g.spans[g.rowStart[j]:g.rowStart[j+1]] {
				x0, x1 := int(s.x0), int(s.x1)
				copy(row[4*x0:4*x1], g.rows[spanGround(s, kind)][4*x0:])
			}
		}
		// The lines' offsets are in the whole picture's rows of entries,
		// the canvas's RGBA rows from top.
		w1 := int32(img.Rect.Dx() + 1)
		i, _ := slices.BinarySearch(g.off, int32(y0)*w1)
		for ; i < len(g.off) && g.off[i] < int32(y1)*w1; i++ {
			y, x := g.off[i]/w1, g.off[i]%w1-1
			layOver(img.Pix[img.PixOffset(int(x), int(y)):], g.lines[i])
		}
	})
}

// layOver lays the premultiplied colour v over the opaque pixel px.
func layOver(px []byte, v uint32) {
	a := v >> 24
	if a == 0xff {
		binary.LittleEndian.PutUint32(px, v)
		return
	}
	k := 0xff - a
	for ch := range 3 {
		s := v >> (8 * ch) & 0xff
		px[ch] = uint8(s + (uint32(px[ch])*k+0x7f)/0xff)
	}
	px[3] = 0xff
}
