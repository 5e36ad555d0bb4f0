package picture

import (
	"encoding/binary"
	"image"
	"image/color"
	"slices"
	"sync"

	"titm/adjudicator/lang"
	"titm/rules"
)

// A picture is drawn into its palette directly: each pixel an index, a
// quarter of the bytes of RGBA, compressed as drawn, with no colours to
// count nor to look up afterwards. The palette is fixed before: worked out
// once for a scenario and language from the picture of the scenario's
// start, drawn in RGBA and counted as the encoder does (see
// encoder.palette), and kept (see palettes). A shape's or a letter's edge,
// which covers a pixel in part, mixes its colour with the pixel's, and the
// mixture takes the nearest entry of the palette; the mixtures are kept as
// worked out.
//
// The palette of a scenario and language is the same whatever was drawn
// before it, so that the same inputs always give the same bytes.

// fixedPalette is a palette fixed before drawing, with the lookups of the
// drawing. It is used by one render at a time (see renderers).
type fixedPalette struct {
	pal   color.Palette
	rgb   []uint32 // the entries as 0xBBGGRR
	index *table   // colour to entry, plus one
	near  [1 << 15]int16
	// mixed keeps the mixtures worked out: pixel<<16 | colour<<8 |
	// coverage, then the entry of the mixture in the low byte, each in
	// the slot of a hash of the first, overwriting the one there. It is
	// looked up for every pixel an edge covers in part, and a slot holds
	// the answer or not: a crowded picture mixes some 12,000, a sixth of
	// them sharing a slot, worked out again when met.
	mixed []uint32
}

const mixBits = 16

func newFixedPalette(pal color.Palette) *fixedPalette {
	fp := &fixedPalette{pal: pal, index: newTable(), mixed: make([]uint32, 1<<mixBits)}
	for i, c := range pal {
		k := key(c.(color.RGBA))
		fp.rgb = append(fp.rgb, k)
		*fp.index.at(k) = int32(i) + 1
	}
	for i := range fp.near {
		fp.near[i] = -1
	}
	return fp
}

// of returns the entry of colour k (0xBBGGRR), or else the nearest, by 5
// bits a channel: edge shades that close are told apart by no one.
func (fp *fixedPalette) of(k uint32) uint8 {
	if i := fp.index.get(k); i > 0 {
		return uint8(i - 1)
	}
	q := (k>>3&31)<<10 | (k>>11&31)<<5 | (k >> 19 & 31)
	if fp.near[q] < 0 {
		c := (q>>10)<<3 | (q>>5&31)<<11 | (q&31)<<19 | 0x040404
		fp.near[q] = int16(nearestIndex(fp.pal, c))
	}
	return uint8(fp.near[q])
}

// mix returns the entry of colour s laid over colour d with coverage a,
// 1 to 254, as image/draw's Over does.
func (fp *fixedPalette) mix(d, s, a uint8) uint8 {
	k := uint32(d)<<16 | uint32(s)<<8 | uint32(a)
	// A key is never 0, as the coverage is not.
	slot := &fp.mixed[k*0x9e3779b1>>(32-mixBits)]
	if *slot>>8 == k {
		return uint8(*slot)
	}
	i := fp.of(laidOver(fp.rgb[d], fp.rgb[s], a))
	*slot = k<<8 | uint32(i)
	return i
}

// laidOver returns colour s (0xBBGGRR) laid over colour d with coverage a, as
// image/draw's Over does.
func laidOver(d, s uint32, a uint8) uint32 {
	ma := uint32(a) * 0x101
	var out uint32
	for ch := uint32(0); ch < 24; ch += 8 {
		dv, sv := (d>>ch&0xff)*0x101, (s>>ch&0xff)*0x101
		out |= ((dv*(0xffff-ma) + sv*ma) / 0xffff >> 8) << ch
	}
	return out
}

// palettes keeps the palettes of the scenarios and languages drawn lately,
// the latest first.
var palettes struct {
	sync.Mutex
	list []*keptPalette
}

type keptPalette struct {
	s  *rules.Scenario
	pr *lang.Printer
	fp *fixedPalette
}

const maxPalettes = 8

// paletteFor returns the palette of scenario s in the language of pr: kept,
// or worked out now from the picture of the scenario's start.
func paletteFor(s *rules.Scenario, pr *lang.Printer, fs *faces) *fixedPalette {
	palettes.Lock()
	for i, k := range palettes.list {
		if k.s == s && k.pr == pr {
			copy(palettes.list[1:i+1], palettes.list[:i])
			palettes.list[0] = k
			palettes.Unlock()
			return k.fp
		}
	}
	palettes.Unlock()

	p := layout(s, rules.NewState(s), fs, nil, pr)
	r := <-renderers
	pal := r.countColours(p, fs, &Options{Lang: pr})
	renderers <- r
	fp := newFixedPalette(pal)
	palettes.Lock()
	palettes.list = slices.Insert(palettes.list, 0, &keptPalette{s, pr, fp})
	if len(palettes.list) > maxPalettes {
		palettes.list[maxPalettes] = nil
		palettes.list = palettes.list[:maxPalettes]
	}
	palettes.Unlock()
	return fp
}

// countColours draws the plan in RGBA, a band of rows at a time, counts
// its colours and returns the palette the encoder makes of them.
func (r *renderer) countColours(p *Plan, fs *faces, opt *Options) color.Palette {
	c, e := r.c, &r.enc
	rows := stripRows(p.Width)
	p.ground = p.groundOf()
	e.begin(p.Width, p.Height)
	for i := range (p.Height + rows - 1) / rows {
		c.reset(p.Width, i*rows, min(p.Height, (i+1)*rows))
		p.draw(c, fs, opt)
		e.count(c.img)
	}
	e.palette()
	// The RGBA canvas is drawn on again only for another scenario or
	// language: its memory is let go till then.
	c.img = &image.RGBA{}
	return slices.Clone(e.pal)
}

// indexed is a band of the picture's rows drawn in palette entries: each
// row the PNG's filter byte, None, then the row's pixels, as the encoder
// compresses them.
type indexed struct {
	pix  []byte
	w    int
	rect image.Rectangle
	fp   *fixedPalette
	mask *image.Alpha // a shape's coverage, as the rasterizer gives it
	// track notes where the drawing goes while a block is drawn (see
	// canvas.block); else nil.
	track *tracked
}

// row returns the pixels of row y.
func (ix *indexed) row(y int) []byte {
	o := (y-ix.rect.Min.Y)*(ix.w+1) + 1
	return ix.pix[o : o+ix.w]
}

// stripRowsIndexed is the height of the bands of rows Render draws at a
// time in a picture w pixels wide, drawn in palette entries: whole bands
// of the encoder's, some 2 MB of canvas, the whole campaign map in three.
// Each band draws the plan's shapes that fall in it, and cuts those that
// cross its edges: a band of 512 KB took a tenth more time.
func stripRowsIndexed(w int) int {
	z := zRows(w)
	return max(1, (2<<20)/(w+1)/z) * z
}

// resetIndexed makes the canvas the rows y0 to y1 of a picture w pixels
// wide, drawn in the entries of fp, reusing its memory if large enough.
func (c *canvas) resetIndexed(fp *fixedPalette, w, y0, y1 int) {
	if c.ix == nil {
		c.ix = &indexed{mask: image.NewAlpha(image.Rectangle{})}
	}
	ix := c.ix
	n := (w + 1) * (y1 - y0)
	if cap(ix.pix) < n {
		ix.pix = make([]byte, n)
	}
	ix.pix, ix.w, ix.rect, ix.fp = ix.pix[:n], w, image.Rect(0, y0, w, y1), fp
	for i := 0; i < n; i += w + 1 {
		ix.pix[i] = 0
	}
	c.indexed, c.clip = true, ix.rect
}

// fillIndexed fills r, within the clip, with colour col.
func (c *canvas) fillIndexed(r image.Rectangle, col color.RGBA) {
	r = r.Intersect(c.clip)
	if c.ix.track != nil {
		c.ix.track.note(r, true)
	}
	i := c.ix.fp.of(key(col))
	for y := r.Min.Y; y < r.Max.Y; y++ {
		fill(c.ix.row(y)[r.Min.X:r.Max.X], i)
	}
}

// fill sets every byte of b to v: a short b byte by byte, a longer one by
// copying what is set already, doubling it each time.
func fill(b []byte, v byte) {
	if len(b) <= 16 {
		for x := range b {
			b[x] = v
		}
		return
	}
	b[0] = v
	for n := 1; n < len(b); n *= 2 {
		copy(b[n:], b[:n])
	}
}

// maskFor returns the mask of a shape of bounds bb, its room reused.
func (ix *indexed) maskFor(bb image.Rectangle) *image.Alpha { return reuseMask(ix.mask, bb) }

// reuseMask makes m the mask of a shape of bounds bb, from (0, 0), in
// its own room if large enough, and returns it.
func reuseMask(m *image.Alpha, bb image.Rectangle) *image.Alpha {
	n := bb.Dx() * bb.Dy()
	if cap(m.Pix) < n {
		m.Pix = make([]byte, n)
	}
	*m = image.Alpha{Pix: m.Pix[:n], Stride: bb.Dx(), Rect: image.Rect(0, 0, bb.Dx(), bb.Dy())}
	return m
}

// composite lays colour col over the pixels of r with the coverage of
// mask m from mp.
func (ix *indexed) composite(r image.Rectangle, m *image.Alpha, mp image.Point, col color.RGBA) {
	if ix.track != nil {
		ix.track.note(r, false)
	}
	fp := ix.fp
	s := fp.of(key(col))
	sk, s8 := uint32(s)<<8, uint64(s)*0x0101010101010101
	for y := r.Min.Y; y < r.Max.Y; y++ {
		row := ix.row(y)[r.Min.X:r.Max.X]
		mrow := m.Pix[m.PixOffset(mp.X, mp.Y+y-r.Min.Y):][:len(row)]
		for x := 0; x < len(mrow); x++ {
			// Eight pixels the shape misses, or covers whole, at once.
			if x+8 <= len(mrow) {
				switch binary.LittleEndian.Uint64(mrow[x:]) {
				case 0:
					x += 7
					continue
				case ^uint64(0):
					binary.LittleEndian.PutUint64(row[x:], s8)
					x += 7
					continue
				}
			}
			switch a := mrow[x]; a {
			case 0:
			case 0xff:
				row[x] = s
			default:
				// The shape's edges in quarters (see edge); mix's
				// lookup, inline.
				a = edge(a)
				k := uint32(row[x])<<16 | sk | uint32(a)
				if e := fp.mixed[k*0x9e3779b1>>(32-mixBits)]; e>>8 == k {
					row[x] = uint8(e)
				} else {
					row[x] = fp.mix(row[x], s, a)
				}
			}
		}
	}
}

// groundIndexes is a ground in the entries of a palette: each ground's
// entry, and the entry of each pixel of the lines over each ground.
type groundIndexes struct {
	rows   [nGrounds][]byte // a row of each ground
	kindOf [256]int8        // the ground of an entry
	lines  []uint8          // by line pixel, nGrounds entries
}

// indexesFor returns the ground in the entries of fp, worked out once.
func (g *ground) indexesFor(fp *fixedPalette) *groundIndexes {
	g.mu.Lock()
	defer g.mu.Unlock()
	if gi := g.indexes[fp]; gi != nil {
		return gi
	}
	gi := &groundIndexes{lines: make([]uint8, len(g.lines)*nGrounds)}
	var cols [nGrounds]uint32
	for k := range nGrounds {
		cols[k] = pixel(g.rows[k], 0)
		i := fp.of(cols[k])
		gi.rows[k] = slices.Repeat([]byte{i}, g.size.X)
		gi.kindOf[i] = int8(k)
	}
	seen := map[uint32][nGrounds]uint8{}
	for j, v := range g.lines {
		ks, ok := seen[v]
		if !ok {
			for k := range nGrounds {
				var px [4]byte
				px[0], px[1], px[2] = byte(cols[k]), byte(cols[k]>>8), byte(cols[k]>>16)
				layOver(px[:], v)
				ks[k] = fp.of(pixel(px[:], 0))
			}
			seen[v] = ks
		}
		copy(gi.lines[j*nGrounds:], ks[:])
	}
	if g.indexes == nil || len(g.indexes) >= maxPalettes {
		g.indexes = map[*fixedPalette]*groundIndexes{}
	}
	g.indexes[fp] = gi
	return gi
}

// drawIndexed draws the ground of the position on the indexed canvas,
// which it covers whole, as draw does in RGBA.
func (g *ground) drawIndexed(ix *indexed, kind []int8) {
	gi := g.indexesFor(ix.fp)
	top, h, w1 := ix.rect.Min.Y, ix.rect.Dy(), int32(ix.w+1)
	nb := (h + bandRows - 1) / bandRows
	parallel(workers(nb), nb, func(_, b int) {
		y0, y1 := top+b*bandRows, top+min(h, (b+1)*bandRows)
		for y := y0; y < y1; y++ {
			row := ix.row(y)
			copy(row, gi.rows[groundOff])
			if y < g.tintR.Min.Y || y >= g.tintR.Max.Y {
				continue
			}
			j := y - g.tintR.Min.Y
			for _, s := range g.spans[g.rowStart[j]:g.rowStart[j+1]] {
				k := spanGround(s, kind)
				// Most spans are the lines between areas, a pixel or two:
				// set at once, without a call to copy.
				if seg := row[s.x0:s.x1]; len(seg) <= 16 {
					fill(seg, gi.rows[k][0])
				} else {
					copy(seg, gi.rows[k][int(s.x0):])
				}
			}
		}
		// The lines' offsets are those of the whole picture's rows,
		// the canvas's from top.
		pix := ix.pix[:(y1-top)*int(w1)]
		base, hi := int32(top)*w1, int32(y1)*w1
		i, _ := slices.BinarySearch(g.off, int32(y0)*w1)
		for ; i < len(g.off) && g.off[i] < hi; i++ {
			px := &pix[g.off[i]-base]
			*px = gi.lines[i*nGrounds+int(gi.kindOf[*px])]
		}
	})
}

// spanGround returns the ground of a span, given the ground of each area.
func spanGround(s tintSpan, kind []int8) int {
	switch {
	case s.site >= 0:
		return int(kind[s.site])
	case s.site == boundaryCell:
		return groundBoundary
	}
	return groundEdge
}
