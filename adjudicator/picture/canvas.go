package picture

import (
	"image"
	"image/color"
	"image/draw"
	"math"
	"slices"

	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"

	"titm/rules"
)

// vec is a point in image coordinates, in pixels, y down.
type vec struct{ X, Y float64 }

func (a vec) add(b vec) vec           { return vec{a.X + b.X, a.Y + b.Y} }
func (a vec) sub(b vec) vec           { return vec{a.X - b.X, a.Y - b.Y} }
func (a vec) mul(k float64) vec       { return vec{a.X * k, a.Y * k} }
func (a vec) len() float64            { return math.Hypot(a.X, a.Y) }
func (a vec) perp() vec               { return vec{-a.Y, a.X} }
func (a vec) pt() image.Point         { return image.Pt(int(math.Round(a.X)), int(math.Round(a.Y))) }
func (a vec) unit() vec               { return a.mul(1 / a.len()) }
func ptVec(p image.Point) vec         { return vec{float64(p.X), float64(p.Y)} }
func lerpVec(a, b vec, t float64) vec { return a.add(b.sub(a).mul(t)) }

// canvas draws antialiased shapes and text on an RGBA image. Every shape is
// rasterized in a buffer the size of its own bounding box: a buffer the size
// of the picture would cost a pass over four million pixels per shape.
type canvas struct {
	img  *image.RGBA
	clip image.Rectangle // shapes are cut to it
	r    *vector.Rasterizer
	// indexed: the canvas draws in the entries of a palette, on ix, not
	// on img (see resetIndexed).
	indexed bool
	ix      *indexed
	// shapes keeps the shapes drawn the same in every picture of a
	// scenario, as towns' dots and bridges (see kept); rec records the
	// fills of the one being drawn, if any.
	shapes shapeCache
	rec    *keptShape
	blocks blockCache  // see block
	mask   image.Alpha // a shape's coverage, drawn in RGBA
}

// shapeCache keeps the shapes drawn with canvas.kept, for as long as
// renders draw them.
type shapeCache struct {
	gen  int
	kept map[shapeKey]*keptShape
}

// shapeKey is what a kept shape is drawn from: what it is, where, in which
// colour, and the clip it was cut to (the canvas's band of rows).
type shapeKey struct {
	what  shapeOf
	at, d vec
	side  rules.Side
	blown bool
	clip  image.Rectangle
}

// The shapes kept.
type shapeOf uint8

const (
	shapeTown shapeOf = iota
	shapeZone
	shapeBridge
)

// keptShape is a shape as drawn: the masks of its fills, each with its
// bounds and colour, in the order drawn.
type keptShape struct {
	fills []keptFill
	gen   int // the render that last drew it
}

type keptFill struct {
	bb   image.Rectangle
	mask *image.Alpha
	col  color.RGBA
}

// keepRenders is how many renders a kept shape or block outlives the last
// that drew it: a daemon drawing the games of a few scenarios in turn
// keeps theirs. The crowded campaign picture keeps some 210 shapes, 140
// KB, and 260 blocks, 1.06 MB (see block).
const keepRenders = 4

// sweep begins a render: the shapes none of the last keepRenders renders
// drew are let go.
func (sc *shapeCache) sweep() {
	sc.gen++
	for k, ks := range sc.kept {
		if ks.gen < sc.gen-keepRenders {
			delete(sc.kept, k)
		}
	}
}

// kept draws the shape k with draw, which fills polygons only: or lays its
// fills' masks, kept from the last time, as draw would lay them. It
// rasterizes nothing, nor makes the polygons, once kept.
func (c *canvas) kept(k shapeKey, draw func()) {
	if !c.indexed || c.rec != nil {
		draw()
		return
	}
	sc := &c.shapes
	k.clip = c.clip
	if ks := sc.kept[k]; ks != nil {
		ks.gen = sc.gen
		for _, f := range ks.fills {
			c.ix.composite(f.bb, f.mask, image.Point{}, f.col)
		}
		return
	}
	ks := &keptShape{gen: sc.gen}
	c.rec = ks
	draw()
	c.rec = nil
	if sc.kept == nil {
		sc.kept = map[shapeKey]*keptShape{}
	}
	sc.kept[k] = ks
}

func newCanvas(w, h int) *canvas {
	return &canvas{img: image.NewRGBA(image.Rect(0, 0, w, h)), clip: image.Rect(0, 0, w, h), r: vector.NewRasterizer(1, 1)}
}

// reset makes the canvas the rows y0 to y1 of a picture w pixels wide,
// reusing its pixels' memory if large enough. The pixels are left as they
// were: every render begins by filling the whole canvas.
func (c *canvas) reset(w, y0, y1 int) {
	n := 4 * w * (y1 - y0)
	pix := c.img.Pix
	if cap(pix) < n {
		pix = make([]byte, n)
	}
	c.img = &image.RGBA{Pix: pix[:n], Stride: 4 * w, Rect: image.Rect(0, y0, w, y1)}
	c.clip = c.img.Rect
	c.indexed = false
}

// bounds is the canvas's rows of the picture.
func (c *canvas) bounds() image.Rectangle {
	if c.indexed {
		return c.ix.rect
	}
	return c.img.Rect
}

// setClip cuts what is drawn to r, within the canvas.
func (c *canvas) setClip(r image.Rectangle) { c.clip = r.Intersect(c.bounds()) }

// fillRect fills a rectangle without antialiasing: boxes sit on whole pixels.
func (c *canvas) fillRect(r image.Rectangle, col color.RGBA) {
	if c.indexed {
		c.fillIndexed(r, col)
		return
	}
	draw.Draw(c.img, r.Intersect(c.clip), image.NewUniform(col), image.Point{}, draw.Src)
}

// frame draws a rectangle's outline, w pixels wide, inside it.
func (c *canvas) frame(r image.Rectangle, w int, col color.RGBA) {
	c.fillRect(image.Rect(r.Min.X, r.Min.Y, r.Max.X, r.Min.Y+w), col)
	c.fillRect(image.Rect(r.Min.X, r.Max.Y-w, r.Max.X, r.Max.Y), col)
	c.fillRect(image.Rect(r.Min.X, r.Min.Y, r.Min.X+w, r.Max.Y), col)
	c.fillRect(image.Rect(r.Max.X-w, r.Min.Y, r.Max.X, r.Max.Y), col)
}

// fill fills polygons, which must all turn the same way (see ring): the
// rasterizer adds up signed coverage, so that overlapping polygons of the
// same turn make their union, where opposite turns would cancel.
func (c *canvas) fill(col color.RGBA, polys ...[]vec) {
	// Polygons go to the rasterizer in groups of a small bounding box, as
	// the rasterizer's work grows with the box: a long river in one piece
	// would cost a pass over most of the picture.
	var group [][]vec
	var gb image.Rectangle
	for _, p := range polys {
		if len(p) < 3 {
			continue
		}
		b := bounds(p)
		if u := gb.Union(b); len(group) > 0 && u.Dx()*u.Dy() > 1<<12 {
			c.fillGroup(col, gb, group)
			group, gb = nil, image.Rectangle{}
		}
		group = append(group, p)
		gb = gb.Union(b)
	}
	if len(group) > 0 {
		c.fillGroup(col, gb, group)
	}
}

func bounds(p []vec) image.Rectangle {
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, v := range p {
		minX, minY = math.Min(minX, v.X), math.Min(minY, v.Y)
		maxX, maxY = math.Max(maxX, v.X), math.Max(maxY, v.Y)
	}
	return image.Rect(int(math.Floor(minX)), int(math.Floor(minY)), int(math.Ceil(maxX))+1, int(math.Ceil(maxY))+1)
}

func (c *canvas) fillGroup(col color.RGBA, bb image.Rectangle, polys [][]vec) {
	bb = bb.Intersect(c.clip)
	if bb.Empty() {
		return
	}
	if c.indexed {
		m := c.ix.maskFor(bb)
		c.rasterize(m, bb, polys)
		if c.rec != nil {
			m = &image.Alpha{Pix: slices.Clone(m.Pix), Stride: m.Stride, Rect: m.Rect}
			c.rec.fills = append(c.rec.fills, keptFill{bb, m, col})
		}
		c.ix.composite(bb, m, image.Point{}, col)
		return
	}
	// In RGBA as in the palette's entries: the shape's edges in quarters.
	m := reuseMask(&c.mask, bb)
	c.rasterize(m, bb, polys)
	edges(m.Pix)
	draw.DrawMask(c.img, bb, image.NewUniform(col), image.Point{}, m, image.Point{}, draw.Over)
}

// edge returns the coverage an edge is drawn with, for a pixel a shape or
// letter covers in part (a, 1 to 254): the middle of its quarter. An
// edge then takes one of four shades between its colour and the one
// under it, not one of 254, which no one tells apart at the picture's
// scale; and the rows of a map, where edges come in every row, repeat
// far more often. The crowded campaign picture is 14 % smaller for it,
// and quicker to compress (docs/testing.md).
func edge(a uint8) uint8 { return a&0xc0 | 0x20 }

// edges takes the coverage of every pixel of a mask covered in part to
// its edge.
func edges(pix []byte) {
	for i, a := range pix {
		if a != 0 && a != 0xff {
			pix[i] = edge(a)
		}
	}
}

// path gives the rasterizer the polygons, in bounds bb.
func (c *canvas) path(bb image.Rectangle, polys [][]vec) {
	c.r.Reset(bb.Dx(), bb.Dy())
	o := ptVec(bb.Min)
	for _, p := range polys {
		c.r.MoveTo(float32(p[0].X-o.X), float32(p[0].Y-o.Y))
		for _, v := range p[1:] {
			c.r.LineTo(float32(v.X-o.X), float32(v.Y-o.Y))
		}
		c.r.ClosePath()
	}
}

// rasterize rasterizes the polygons, in bounds bb, into mask m: their
// coverage of each pixel.
func (c *canvas) rasterize(m *image.Alpha, bb image.Rectangle, polys [][]vec) {
	c.path(bb, polys)
	c.r.DrawOp = draw.Src
	c.r.Draw(m, m.Rect, image.Opaque, image.Point{})
	c.r.DrawOp = draw.Over
}

// ring returns the polygon p turning clockwise on the screen, the turn every
// polygon given to fill has.
func ring(p []vec) []vec {
	var a float64
	for i := range p {
		j := (i + 1) % len(p)
		a += p[i].X*p[j].Y - p[j].X*p[i].Y
	}
	if a < 0 {
		for i, j := 0, len(p)-1; i < j; i, j = i+1, j-1 {
			p[i], p[j] = p[j], p[i]
		}
	}
	return p
}

// circle returns a disc of radius r as a polygon.
func circle(at vec, r float64) []vec {
	n := 8 + int(r*1.5)
	n = min(n, 48)
	p := make([]vec, n)
	for i := range p {
		a := 2 * math.Pi * float64(i) / float64(n)
		p[i] = vec{at.X + r*math.Cos(a), at.Y + r*math.Sin(a)}
	}
	return ring(p)
}

// strokePolys returns the polygons of a line w pixels wide through pts:
// one quadrilateral per segment and round joins and caps, of those that
// may fall in clip.
func strokePolys(pts []vec, w float64, roundEnds bool, clip image.Rectangle) [][]vec {
	var polys [][]vec
	h := w / 2
	near := func(ps ...vec) bool { return bounds(ps).Inset(-int(w) - 2).Overlaps(clip) }
	for i := 0; i+1 < len(pts); i++ {
		a, b := pts[i], pts[i+1]
		d := b.sub(a)
		l := d.len()
		if l < 1e-6 || !near(a, b) {
			continue
		}
		u := d.mul(1 / l)
		n := u.perp().mul(h)
		// A long segment goes in short pieces, each of a small bounding
		// box (see fill). They overlap by a pixel and a half, so that no
		// seam shows where they meet: the colour is opaque, and where one
		// piece's edge leaves a pixel half covered, the next covers it.
		pieces := int(math.Ceil(l / pieceLen))
		for j := range pieces {
			s, e := l*float64(j)/float64(pieces), l*float64(j+1)/float64(pieces)
			if j > 0 {
				s -= 1.5
			}
			p, q := a.add(u.mul(s)), a.add(u.mul(e))
			if !near(p, q) {
				continue
			}
			polys = append(polys, ring([]vec{p.add(n), q.add(n), q.sub(n), p.sub(n)}))
		}
	}
	for i, p := range pts {
		if ((i > 0 && i < len(pts)-1) || roundEnds) && near(p) {
			polys = append(polys, circle(p, h))
		}
	}
	return polys
}

const pieceLen = 40

// line strokes a polyline.
func (c *canvas) line(col color.RGBA, w float64, pts ...vec) {
	if !c.reaches(pts, w) {
		return
	}
	c.fill(col, strokePolys(pts, w, true, c.clip)...)
}

// shows reports whether anything drawn in r falls on the canvas: the
// picture is drawn a band of rows at a time, and what falls in none of its
// rows is passed over before its shapes are made.
func (c *canvas) shows(r image.Rectangle) bool { return r.Overlaps(c.clip) }

// reaches reports whether a line w pixels wide through pts falls on the
// canvas.
func (c *canvas) reaches(pts []vec, w float64) bool {
	if len(pts) == 0 {
		return false
	}
	return c.shows(bounds(pts).Inset(-int(w) - 2))
}

// dashed strokes a polyline in dashes of on pixels with gaps of off pixels.
func (c *canvas) dashed(col color.RGBA, w, on, off float64, pts ...vec) {
	if !c.reaches(pts, w) {
		return
	}
	var polys [][]vec
	pos, drawing := 0.0, true // pos: how far into the current dash or gap
	for i := 0; i+1 < len(pts); i++ {
		a, b := pts[i], pts[i+1]
		l := b.sub(a).len()
		t := 0.0
		for t < l {
			run := on
			if !drawing {
				run = off
			}
			step := math.Min(run-pos, l-t)
			if drawing {
				polys = append(polys, strokePolys([]vec{lerpVec(a, b, t/l), lerpVec(a, b, (t+step)/l)}, w, false, c.clip)...)
			}
			t += step
			pos += step
			if pos >= run-1e-9 {
				pos, drawing = 0, !drawing
			}
		}
	}
	c.fill(col, polys...)
}

// glyph is a rendered glyph: its mask, where the mask goes relative to the
// dot, and the advance.
type glyph struct {
	mask    *image.Alpha
	rect    image.Rectangle // relative to the dot
	advance fixed.Int26_6
	// own: the face's font drew it, and kerns it with its neighbours;
	// else it is a Japanese glyph (see jaGlyphs), or a '?' standing for a
	// character no font has (missing).
	own     bool
	missing bool
}

// face is a font face whose glyphs are rasterized once, when first used,
// and kept with the face (see faceSets) for the renders after: text is set
// on whole pixels (the faces are hinted, so advances are whole pixels too),
// where every glyph of a rune looks the same. A character the font lacks
// is taken from the Japanese glyphs of the face's weight and size, if
// any.
type face struct {
	f      font.Face
	ja     map[rune]*glyph // the Japanese glyphs of its weight and size, or nil
	glyphs map[rune]*glyph
	ascent int
	height int
}

func newFace(f font.Face, ja map[rune]*glyph) *face {
	m := f.Metrics()
	return &face{f: f, ja: ja, glyphs: map[rune]*glyph{}, ascent: m.Ascent.Ceil(), height: m.Height.Ceil()}
}

func (f *face) glyph(r rune) *glyph {
	if g := f.glyphs[r]; g != nil {
		if g.missing {
			noteMissing(r)
		}
		return g
	}
	var g *glyph
	if _, ok := f.f.GlyphAdvance(r); ok {
		dr, mask, mp, adv, _ := f.f.Glyph(fixed.Point26_6{}, r)
		a := image.NewAlpha(image.Rect(0, 0, dr.Dx(), dr.Dy()))
		if mask != nil {
			draw.Draw(a, a.Bounds(), mask, mp, draw.Src)
			edges(a.Pix)
		}
		g = &glyph{mask: a, rect: dr, advance: adv, own: true}
		if r == '-' {
			g = hyphen(g)
		}
	} else if jg := f.ja[r]; jg != nil {
		g = jg
	} else {
		// No font has it: a '?' rather than a box, and the tests fail
		// (see missingGlyphs).
		q := *f.glyph('?')
		q.own, q.missing = false, true
		g = &q
		noteMissing(r)
	}
	f.glyphs[r] = g
	return g
}

// hyphen returns the font's hyphen glyph g cut to hyphenInk of its width,
// about a third of an em, its bearings and stroke kept: the Go fonts' hyphen
// is as wide as their en dash, and in "intro-1" or "G17-2" it would read
// as one.
func hyphen(g *glyph) *glyph {
	w := g.rect.Dx()
	n := max(2, (w*hyphenInk+50)/100)
	if n >= w {
		return g
	}
	cut := w - n
	from := cut / 2
	a := image.NewAlpha(image.Rect(0, 0, n, g.rect.Dy()))
	draw.Draw(a, a.Bounds(), g.mask, image.Pt(from, 0), draw.Src)
	return &glyph{
		mask:    a,
		rect:    image.Rect(g.rect.Min.X, g.rect.Min.Y, g.rect.Min.X+n, g.rect.Max.Y),
		advance: g.advance - fixed.I(cut),
		own:     true,
	}
}

// hyphenInk is how much of the font's hyphen, in per cent of its width,
// the hyphen drawn keeps.
const hyphenInk = 55

// width returns the advance of the text in whole pixels.
func (f *face) width(s string) int {
	var w fixed.Int26_6
	var prev *glyph
	pr := rune(-1)
	for _, r := range s {
		g := f.glyph(r)
		if prev != nil && prev.own && g.own {
			w += f.f.Kern(pr, r)
		}
		w += g.advance
		prev, pr = g, r
	}
	return w.Ceil()
}

// text draws s with its baseline starting at (x, y) and returns the x after
// it; or x, if the line falls off the canvas, as what follows on it does.
func (c *canvas) text(f *face, x, y int, s string, col color.RGBA) int {
	if y+f.height < c.clip.Min.Y || y-f.height > c.clip.Max.Y {
		return x
	}
	src := image.NewUniform(col)
	dot := fixed.I(x)
	var prev *glyph
	pr := rune(-1)
	for _, r := range s {
		g := f.glyph(r)
		if prev != nil && prev.own && g.own {
			dot += f.f.Kern(pr, r)
		}
		dr := g.rect.Add(image.Pt(dot.Round(), y))
		if in := dr.Intersect(c.clip); c.indexed {
			c.ix.composite(in, g.mask, in.Min.Sub(dr.Min), col)
		} else {
			draw.DrawMask(c.img, in, src, image.Point{}, g.mask, in.Min.Sub(dr.Min), draw.Over)
		}
		dot += g.advance
		prev, pr = g, r
	}
	return dot.Round()
}
