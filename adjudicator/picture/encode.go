package picture

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"image"
	"image/color"
	"image/png"
	"slices"
)

// encode writes the picture as a paletted PNG: a quarter of the bytes of an
// RGB one, and quicker to compress. The palette is the picture's own: the
// colours of style.go, exactly, then the commonest of the rest (the shades
// antialiasing makes at the edges of lines and letters), each pixel taking
// the nearest. Everything is counted and sorted, never taken in a map's
// order, so that the same picture gives the same bytes.
func encode(img *image.RGBA) ([]byte, error) {
	pal := palette(img)
	out := image.NewPaletted(img.Bounds(), pal)
	index := newTable()
	for i, c := range pal {
		*index.at(key(c.(color.RGBA))) = int32(i) + 1
	}
	// The nearest palette entry of colours not in it, by 5 bits a channel:
	// edge shades that close are told apart by no one.
	var near [1 << 15]int16
	for i := range near {
		near[i] = -1
	}
	lookup := func(k uint32) uint8 {
		if i := *index.at(k); i > 0 {
			return uint8(i - 1)
		}
		q := (k>>3&31)<<10 | (k>>11&31)<<5 | (k >> 19 & 31)
		if near[q] < 0 {
			c := (q>>10)<<3 | (q>>5&31)<<11 | (q&31)<<19 | 0x040404
			near[q] = int16(nearestIndex(pal, c))
		}
		return uint8(near[q])
	}
	b := img.Bounds()
	last := pixel(img.Pix, 0)
	lastIdx := lookup(last)
	for y := range b.Dy() {
		row := img.Pix[y*img.Stride : y*img.Stride+4*b.Dx()]
		orow := out.Pix[y*out.Stride : y*out.Stride+b.Dx()]
		for x := 0; x < len(orow); x++ {
			// Most pixels are as the one before: two at a time while so.
			if x+1 < len(orow) && binary.LittleEndian.Uint64(row[4*x:]) == uint64(last|0xff000000)*(1<<32+1) {
				orow[x], orow[x+1] = lastIdx, lastIdx
				x++
				continue
			}
			if k := pixel(row, 4*x); k != last {
				last, lastIdx = k, lookup(k)
			}
			orow[x] = lastIdx
		}
	}
	var buf bytes.Buffer
	// BestSpeed: a third of the time of the default level, for a tenth
	// more bytes; the picture stays well under the 500 KB a mail may carry.
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&buf, out); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// pixel returns the colour of the RGBA pixel at pix[i:] as 0xBBGGRR: one
// load of four bytes, the alpha dropped (the picture is opaque).
func pixel(pix []byte, i int) uint32 { return binary.LittleEndian.Uint32(pix[i:]) & 0xffffff }

func key(c color.RGBA) uint32 { return uint32(c.R) | uint32(c.G)<<8 | uint32(c.B)<<16 }

// palette returns the colours of style.go and, up to 256, the commonest
// other colours of the picture.
func palette(img *image.RGBA) color.Palette {
	pal := color.Palette{}
	in := newTable()
	for _, c := range styleColours() {
		if n := in.at(key(c)); *n == 0 {
			*n = 1
			pal = append(pal, c)
		}
	}
	// Count the other colours, a run of equal pixels at a time, in every
	// other row: the commonest colours are as common there, in half the
	// time.
	count := newTable()
	last, run := pixel(img.Pix, 0), int32(0)
	flush := func() {
		if run > 0 && *in.at(last) == 0 {
			*count.at(last) += run
		}
	}
	b := img.Bounds()
	for y := 0; y < b.Dy(); y += 2 {
		row := img.Pix[y*img.Stride : y*img.Stride+4*b.Dx()]
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
	type kc struct {
		k uint32
		n int32
	}
	var others []kc
	for i, k := range count.keys {
		if k != 0 && count.vals[i] > 0 {
			others = append(others, kc{k - 1, count.vals[i]})
		}
	}
	slices.SortFunc(others, func(a, b kc) int {
		if c := cmp.Compare(b.n, a.n); c != 0 {
			return c
		}
		return cmp.Compare(a.k, b.k)
	})
	for _, o := range others {
		if len(pal) == 256 {
			break
		}
		pal = append(pal, color.RGBA{uint8(o.k), uint8(o.k >> 8), uint8(o.k >> 16), 0xff})
	}
	return pal
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

func (t *table) grow() {
	old := *t
	*t = table{keys: make([]uint32, 2*len(old.keys)), vals: make([]int32, 2*len(old.keys))}
	for i, k := range old.keys {
		if k != 0 {
			*t.at(k - 1) = old.vals[i]
		}
	}
}
