package picture

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"io"
	"slices"
)

// encoder writes pictures as paletted PNGs, keeping its scratch space, some
// megabytes, from one picture to the next. It is not safe for concurrent
// use: each render takes one of its own (see Render).
//
// The picture is cut into bands of zRows rows, each compressed on its own
// (see zband), in parallel; the bands' deflate streams, each ended by a
// sync flush on a byte boundary, make one zlib stream together. The bands
// are fixed by the picture's height, never by the number of goroutines,
// so that the same picture always gives the same bytes.
type encoder struct {
	w, h   int           // the picture's size
	pal    color.Palette // worked out by palette, once every row is counted
	counts []*table      // colour counts, one table per goroutine
	z      []*zband      // one per goroutine
	raw    [][]byte      // a band's rows after the row before, one per goroutine
	head   []byte        // the last row of the rows compressed before
	tail   []byte        // the last row of the rows compressed last
	bands  []band
	out    []byte // the PNG's chunks before and after the bands, as written last
	others []colourCount
}

// band is a band of rows compressed: its deflate stream, and the adler-32
// checksum and length of its rows before.
type band struct {
	z     []byte
	adler uint32
	n     int
}

type colourCount struct {
	k uint32
	n int32
}

// bandRows is the height of the bands of the picture the goroutines share
// out when they count colours or draw the ground.
const bandRows = 32

// zRows is the height of the bands compressed on their own: twice as many
// rows as fill 64 KB, a band making one block with its own Huffman codes;
// at the campaign's width, 58 rows. Bands of 64 KB made the campaign's
// picture 1 % larger and took a fifth more time to write the codes, twice
// as many blocks' codes worked out and written. Twice 64 KB, not 128 KB:
// the canvas's bands of rows (see stripRowsIndexed) are whole bands of
// these, and shapes cut at their edges may differ there by a shade; so
// their edges stay where they were with bands of 64 KB.
func zRows(w int) int { return 2 * max(1, (1<<16-1)/(w+1)) }

// The encoder writes a picture as a paletted PNG: a quarter of the bytes of
// an RGB one, and quicker to compress. The palette is worked out from a
// picture drawn in RGBA: the colours of style.go, exactly, then the
// commonest of the rest (the shades antialiasing makes at the edges of
// lines and letters). Everything is counted and sorted, never taken in a
// map's order, so that the same picture gives the same palette. Pictures
// are then drawn in the palette's entries (see fixedPalette).
//
// A picture drawn in RGBA a band of rows at a time is counted in steps:
// begin, count each band, palette. A picture drawn in a palette's entries
// is encoded in steps: beginIndexed, compressIndexed each band, png.

// begin starts counting the colours of a picture of w x h pixels.
func (e *encoder) begin(w, h int) {
	e.w, e.h = w, h
	k := workers((h + bandRows - 1) / bandRows)
	e.grow(k)
	// The colours are counted only when a palette is worked out, once
	// for a scenario and language: the tables are not made before.
	for len(e.counts) < k {
		e.counts = append(e.counts, newTable())
	}
	for _, t := range e.counts {
		t.reset()
	}
	if nb := (h + zRows(w) - 1) / zRows(w); len(e.bands) < nb {
		e.bands = append(e.bands, make([]band, nb-len(e.bands))...)
	}
}

// beginIndexed starts a picture of w x h pixels drawn in the entries of
// fp (see compressIndexed).
func (e *encoder) beginIndexed(fp *fixedPalette, w, h int) {
	e.w, e.h, e.pal = w, h, fp.pal
	e.grow(workers((h + zRows(w) - 1) / zRows(w)))
	if nb := (h + zRows(w) - 1) / zRows(w); len(e.bands) < nb {
		e.bands = append(e.bands, make([]band, nb-len(e.bands))...)
	}
}

// count counts the colours of rows of the picture (see countColours).
func (e *encoder) count(img *image.RGBA) {
	nb := (img.Rect.Dy() + bandRows - 1) / bandRows
	k := min(workers(nb), len(e.counts))
	parallel(k, nb, func(wk, i int) {
		y0 := img.Rect.Min.Y + i*bandRows
		countBand(e.counts[wk], img, y0, min(img.Rect.Max.Y, y0+bandRows))
	})
}

// compressIndexed compresses the bands of zRows rows of the indexed
// canvas, in parallel, into e.bands. The canvas begins on a band's first
// row. A band's block may repeat the row before it, the last of the band
// before: on the canvas, or kept in e.tail from the rows compressed
// before.
func (e *encoder) compressIndexed(ix *indexed) {
	w, h := e.w, e.h
	rows := zRows(w)
	nb := (h + rows - 1) / rows
	top := ix.rect.Min.Y
	first := top / rows
	last := min(nb, (ix.rect.Max.Y+rows-1)/rows)
	k := min(workers(last-first), len(e.z))
	e.head, e.tail = e.tail, e.head
	parallel(k, last-first, func(wk, j int) {
		i := first + j
		y0, y1 := i*rows, min(h, (i+1)*rows)
		band := ix.pix[(y0-top)*(w+1) : (y1-top)*(w+1)]
		data, hist := band, 0
		switch {
		case y0 == 0:
		case y0 > top:
			data, hist = ix.pix[(y0-1-top)*(w+1):(y1-top)*(w+1)], w+1
		default:
			e.raw[wk] = append(append(e.raw[wk][:0], e.head...), band...)
			data, hist = e.raw[wk], len(e.head)
		}
		b := &e.bands[i]
		b.adler, b.n = adler32Of(band), len(band)
		b.z = e.z[wk].deflate(b.z[:0], data, hist, 1+w, i == nb-1)
		if i == last-1 {
			e.tail = append(e.tail[:0], band[len(band)-(1+w):]...)
		}
	})
}

// png returns the PNG of the picture with its palette and bands (see
// writePNG), in memory of its own, the size it is: the caller keeps it,
// and the encoder keeps none of it for the next.
func (e *encoder) png() []byte {
	b := bytes.NewBuffer(make([]byte, 0, e.pngSize()))
	e.writePNG(b) // a bytes.Buffer's writes fail only when out of memory, which panics
	return b.Bytes()
}

// pngSize is the size of the PNG of the picture in bytes.
func (e *encoder) pngSize() int {
	return 8 + 3*12 + 13 + 3*len(e.pal) + e.idatSize() + 12
}

// idatSize is the size of the data of the IDAT chunk: the bands' zlib
// stream, with its header and checksum.
func (e *encoder) idatSize() int {
	size := 2 + 4
	for _, b := range e.bands[:e.nbands()] {
		size += len(b.z)
	}
	return size
}

func (e *encoder) nbands() int { return (e.h + zRows(e.w) - 1) / zRows(e.w) }

// writePNG writes the PNG of the picture with its palette and bands to w:
// signature, header, palette, the bands' zlib stream in one IDAT, each
// band written from the encoder's scratch as it is.
func (e *encoder) writePNG(w io.Writer) error {
	pal := e.pal
	out := append(e.out[:0], "\x89PNG\r\n\x1a\n"...)
	var hdr [13]byte
	binary.BigEndian.PutUint32(hdr[0:], uint32(e.w))
	binary.BigEndian.PutUint32(hdr[4:], uint32(e.h))
	hdr[8], hdr[9] = 8, 3 // 8 bits a pixel, paletted
	out = chunk(out, "IHDR", hdr[:])
	plte := make([]byte, 0, 3*256)
	for _, c := range pal {
		c := c.(color.RGBA)
		plte = append(plte, c.R, c.G, c.B)
	}
	out = chunk(out, "PLTE", plte)
	start := len(out)
	out = binary.BigEndian.AppendUint32(out, uint32(e.idatSize()))
	out = append(out, 'I', 'D', 'A', 'T')
	out = append(out, 0x78, 0x01) // zlib, deflate with a 32 KB window, fastest
	crc := crc32.Update(0, crc32.IEEETable, out[start+4:])
	e.out = out
	if _, err := w.Write(out); err != nil {
		return err
	}
	adler := uint32(1)
	for _, b := range e.bands[:e.nbands()] {
		if _, err := w.Write(b.z); err != nil {
			return err
		}
		crc = crc32.Update(crc, crc32.IEEETable, b.z)
		adler = adler32Combine(adler, b.adler, b.n)
	}
	out = binary.BigEndian.AppendUint32(out[:0], adler)
	crc = crc32.Update(crc, crc32.IEEETable, out)
	out = binary.BigEndian.AppendUint32(out, crc)
	out = chunk(out, "IEND", nil)
	e.out = out
	_, err := w.Write(out)
	return err
}

// grow makes room for k goroutines' scratch space.
func (e *encoder) grow(k int) {
	for len(e.z) < k {
		e.z = append(e.z, &zband{})
		e.raw = append(e.raw, nil)
	}
}

// chunk appends a PNG chunk to out.
func chunk(out []byte, name string, data []byte) []byte {
	start := len(out)
	out = binary.BigEndian.AppendUint32(out, uint32(len(data)))
	out = append(out, name...)
	out = append(out, data...)
	return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(out[start+4:]))
}

// adler32Combine returns the adler-32 checksum of two byte strings one
// after the other from theirs and the length of the second, as zlib's
// adler32_combine.
func adler32Combine(a1, a2 uint32, n2 int) uint32 {
	const base = 65521
	rem := uint32(n2 % base)
	s1 := a1 & 0xffff
	s2 := rem * s1 % base
	s1 += a2&0xffff + base - 1
	s2 += a1>>16 + a2>>16 + base - rem
	if s1 >= base {
		s1 -= base
	}
	if s1 >= base {
		s1 -= base
	}
	if s2 >= 2*base {
		s2 -= 2 * base
	}
	if s2 >= base {
		s2 -= base
	}
	return s2<<16 | s1
}

// pixel returns the colour of the RGBA pixel at pix[i:] as 0xBBGGRR: one
// load of four bytes, the alpha dropped (the picture is opaque).
func pixel(pix []byte, i int) uint32 { return binary.LittleEndian.Uint32(pix[i:]) & 0xffffff }

func key(c color.RGBA) uint32 { return uint32(c.R) | uint32(c.G)<<8 | uint32(c.B)<<16 }

// stylePalette is the colours of style.go and the shades of edgeShades,
// each once, in their order, and styleKeys their set.
var stylePalette, styleKeys = func() (color.Palette, *table) {
	var pal color.Palette
	t := newTable()
	for _, c := range append(styleColours(), edgeShades()...) {
		if n := t.at(key(c)); *n == 0 {
			*n = 1
			pal = append(pal, c)
		}
	}
	return pal, t
}()

// palette works out the palette from the colours counted: the colours of
// style.go and, up to 256, the commonest other colours of the picture.
func (e *encoder) palette() {
	for _, t := range e.counts[1:] {
		for i, c := range t.keys {
			if c != 0 {
				*e.counts[0].at(c - 1) += t.vals[i]
			}
		}
	}
	pal := append(make(color.Palette, 0, 256), stylePalette...)
	e.others = commonest(e.counts[0], 256-len(pal), e.others[:0])
	for _, o := range e.others {
		if len(pal) == 256 {
			break
		}
		pal = append(pal, color.RGBA{uint8(o.k), uint8(o.k >> 8), uint8(o.k >> 16), 0xff})
	}
	e.pal = pal
	// The tables go: the next palette is for another scenario or
	// language, and their 200 KB each would stay in the heap meanwhile.
	clear(e.counts)
	e.counts = e.counts[:0]
	e.others = nil
}

// countStep is how many rows apart countBand counts: the commonest colours
// are as common in every fourth row, counted in a quarter of the time.
const countStep = 4

// countBand adds to count the colours of the rows y0 to y1 of the picture
// img holds that are a multiple of countStep, but those of style.go. A
// count is a sum, the same however the rows are shared out.
func countBand(count *table, img *image.RGBA, y0, y1 int) {
	w := img.Rect.Dx()
	last, run := pixel(img.Pix, img.PixOffset(0, y0)), int32(0)
	flush := func() {
		if run > 0 && styleKeys.get(last) == 0 {
			*count.at(last) += run
		}
	}
	for y := (y0 + countStep - 1) / countStep * countStep; y < y1; y += countStep {
		row := img.Pix[img.PixOffset(0, y):][:4*w]
		for i := 0; i < len(row); i += 4 {
			if i+8 <= len(row) && binary.LittleEndian.Uint64(row[i:]) == uint64(last|0xff000000)*(1<<32+1) {
				run += 2
				i += 4
				continue
			}
			k := pixel(row, i)
			if k == last {
				run++
				continue
			}
			flush()
			last, run = k, 1
		}
	}
	flush()
}

// commonest appends to out the m commonest colours counted, or more where
// counts tie, commonest first, and returns it. Only the commonest m colours
// are wanted, out of tens of thousands: those counted at least t times, t
// the greatest count that leaves m, are sorted, the rest passed over.
func commonest(count *table, m int, out []colourCount) []colourCount {
	var hist [1 << 10]int32 // how many colours were counted n times, n capped
	for i, k := range count.keys {
		if k != 0 && count.vals[i] > 0 {
			hist[min(count.vals[i], int32(len(hist)-1))]++
		}
	}
	t, above := int32(len(hist)-1), int32(0)
	for ; t > 1; t-- {
		if above += hist[t]; above >= int32(m) {
			break
		}
	}
	for i, k := range count.keys {
		if k != 0 && count.vals[i] >= max(t, 1) {
			out = append(out, colourCount{k - 1, count.vals[i]})
		}
	}
	// By count, then by colour: an order the table's layout plays no part in.
	slices.SortFunc(out, func(a, b colourCount) int {
		if c := cmp.Compare(b.n, a.n); c != 0 {
			return c
		}
		return cmp.Compare(a.k, b.k)
	})
	return out
}

// nearestIndex returns the palette entry nearest to colour k, weighting the
// channels as the eye does, roughly.
func nearestIndex(pal color.Palette, k uint32) int {
	r, g, b := int(k&0xff), int(k>>8&0xff), int(k>>16&0xff)
	best, bd := 0, 1<<62
	for i, c := range pal {
		c := c.(color.RGBA)
		dr, dg, db := int(c.R)-r, int(c.G)-g, int(c.B)-b
		if d := 3*dr*dr + 4*dg*dg + 2*db*db; d < bd {
			best, bd = i, d
		}
	}
	return best
}

// table maps colours to numbers: a hash table with open addressing, as
// the encoder looks up a colour for every run of pixels and Go's maps are
// several times slower at that.
type table struct {
	keys []uint32 // the colour plus one; zero is an empty slot
	vals []int32
	n    int
}

func newTable() *table { return &table{keys: make([]uint32, 1<<14), vals: make([]int32, 1<<14)} }

// reset empties the table, keeping its room.
func (t *table) reset() {
	clear(t.keys)
	clear(t.vals)
	t.n = 0
}

// at returns the number of colour k, zero if new.
func (t *table) at(k uint32) *int32 {
	if 2*(t.n+1) > len(t.keys) {
		t.grow()
	}
	mask := uint32(len(t.keys) - 1)
	for i := (k * 0x9e3779b1) >> 8 & mask; ; i = (i + 1) & mask {
		switch t.keys[i] {
		case k + 1:
			return &t.vals[i]
		case 0:
			t.keys[i] = k + 1
			t.n++
			return &t.vals[i]
		}
	}
}

// get returns the number of colour k, zero if not in the table. Unlike at,
// it changes nothing: goroutines may share a table to look colours up.
func (t *table) get(k uint32) int32 {
	mask := uint32(len(t.keys) - 1)
	for i := (k * 0x9e3779b1) >> 8 & mask; ; i = (i + 1) & mask {
		switch t.keys[i] {
		case k + 1:
			return t.vals[i]
		case 0:
			return 0
		}
	}
}

func (t *table) grow() {
	old := *t
	*t = table{keys: make([]uint32, 2*len(old.keys)), vals: make([]int32, 2*len(old.keys))}
	for i, k := range old.keys {
		if k != 0 {
			*t.at(k - 1) = old.vals[i]
		}
	}
}
