package picture

import "image"

// Much of a picture is drawn the same in every picture of a scenario and
// language: the legend, the areas' labels, and counters showing the same
// unit the same way. Each is drawn in a rectangle it first fills whole,
// and draws nothing outside: its pixels there depend on nothing drawn
// before, and are kept, in the palette's entries, and copied the next time
// instead of being drawn again (see canvas.block).

// blockKey is what a kept block's pixels depend on: the palette (and so
// the scenario and language, see paletteFor), what is drawn, the size of
// its rectangle and the part of it the canvas's clip left.
type blockKey struct {
	fp   *fixedPalette
	what blockOf
	size image.Point
	part image.Rectangle // relative to the rectangle's corner
}

// blockOf is what a block shows: a counter, an area's label, a zone's
// name plate, or the legend.
type blockOf struct {
	u      counter
	area   int
	name   string
	vp     string
	zone   bool
	x      int // where a zone's name begins in its plate
	legend bool
}

// keptBlock is a block's pixels, row by row, or nil where the drawing went
// outside its rectangle, or did not begin by filling it, and is drawn
// every time.
type keptBlock struct {
	pix []byte
	gen int // the render that last drew it
}

// blockCache keeps the blocks drawn, for as long as renders draw them.
type blockCache struct {
	gen  int
	kept map[blockKey]*keptBlock
}

// sweep begins a render: the blocks none of the last keepRenders renders
// drew are let go.
func (bc *blockCache) sweep() {
	bc.gen++
	for k, kb := range bc.kept {
		if kb.gen < bc.gen-keepRenders {
			delete(bc.kept, k)
		}
	}
}

// block draws what, in rectangle r, with draw: or copies its pixels, kept
// from the last time it was drawn in the same palette and with the same
// part of r within the clip. draw must draw the same every time for the
// same what and size of r.
func (c *canvas) block(what blockOf, r image.Rectangle, draw func()) {
	in := r.Intersect(c.clip)
	if !c.indexed || in.Empty() || c.ix.track != nil {
		// Not in a palette's entries, or not on the canvas, or within
		// another block, which keeps it with its own.
		draw()
		return
	}
	ix, bc := c.ix, &c.blocks
	k := blockKey{fp: ix.fp, what: what, size: r.Size(), part: in.Sub(r.Min)}
	if kb := bc.kept[k]; kb != nil {
		kb.gen = bc.gen
		if kb.pix == nil {
			draw()
			return
		}
		w := in.Dx()
		for y := in.Min.Y; y < in.Max.Y; y++ {
			copy(ix.row(y)[in.Min.X:in.Max.X], kb.pix[(y-in.Min.Y)*w:])
		}
		return
	}
	ix.track = &tracked{}
	draw()
	t := ix.track
	ix.track = nil
	kb := &keptBlock{gen: bc.gen}
	if t.first.Eq(in) && t.drawn.In(in) {
		w := in.Dx()
		kb.pix = make([]byte, 0, w*in.Dy())
		for y := in.Min.Y; y < in.Max.Y; y++ {
			kb.pix = append(kb.pix, ix.row(y)[in.Min.X:in.Max.X]...)
		}
	}
	if bc.kept == nil {
		bc.kept = map[blockKey]*keptBlock{}
	}
	bc.kept[k] = kb
}

// tracked is where a block's drawing went: the rectangle its first
// drawing filled, if its first drawing was a fill, and the bounds of all
// it drew.
type tracked struct {
	ops   int
	first image.Rectangle
	drawn image.Rectangle
}

// note notes that r was drawn on, filled whole if fill.
func (t *tracked) note(r image.Rectangle, fill bool) {
	if r.Empty() {
		return
	}
	if t.ops == 0 && fill {
		t.first = r
	}
	t.ops++
	t.drawn = t.drawn.Union(r)
}
