package picture

import (
	"image"
	"image/color"
	"testing"
)

// letters draws each letter of s on its own, apart: where two letters'
// edges meet, a pixel is laid over twice.
func letters(c *canvas, f *face, s string) {
	x := 4
	for _, r := range s {
		c.text(f, x, 30, string(r), moveInk)
		x += 36
	}
}

// TestEdgesInQuarters: a shape's or a letter's edge takes one of four
// shades between its colour and the one under it (see edge), drawn in RGBA
// (from which the palette is counted) and in a palette's entries alike:
// a disc, Latin letters and Japanese ones, in moveInk over paper. The
// palette the canvas draws in has every shade of the two colours, so that
// it tells apart whatever coverage the edges are given.
func TestEdgesInQuarters(t *testing.T) {
	fs, err := getFaces()
	if err != nil {
		t.Fatal(err)
	}
	defer faceSets.Put(fs)
	pal := color.Palette{paper, moveInk}
	for a := 1; a < 0xff; a++ {
		k := laidOver(key(paper), key(moveInk), uint8(a))
		if c := rgb(uint8(k), uint8(k>>8), uint8(k>>16)); c != paper && c != moveInk {
			pal = append(pal, c)
		}
	}
	fp := newFixedPalette(pal)
	const w, h = 160, 48
	draws := []struct {
		name string
		draw func(c *canvas)
	}{
		{"a disc", func(c *canvas) { c.fill(moveInk, circle(vec{30.3, 24.6}, 17.4)) }},
		{"Latin letters", func(c *canvas) { letters(c, fs.label, "Bsg8") }},
		{"Japanese letters", func(c *canvas) { letters(c, fs.label, "勝利連合") }},
	}
	// Japanese glyphs of their own, not the '?' of one the face lacks.
	for _, r := range "勝利連合" {
		if fs.label.ja[r] == nil {
			t.Fatalf("the labels' face has no Japanese glyph %c", r)
		}
	}
	for _, d := range draws {
		rgba := newCanvas(0, 0)
		rgba.reset(w, 0, h)
		rgba.fillRect(rgba.img.Rect, paper)
		d.draw(rgba)
		shades := map[color.RGBA]bool{}
		for y := range h {
			for x := range w {
				if c := rgba.img.RGBAAt(x, y); c != paper && c != moveInk {
					shades[c] = true
				}
			}
		}
		if len(shades) == 0 || len(shades) > 4 {
			t.Errorf("%s in RGBA: %d shades at its edges, want 1 to 4", d.name, len(shades))
		}

		ix := newCanvas(0, 0)
		ix.resetIndexed(fp, w, 0, h)
		ix.fillRect(image.Rect(0, 0, w, h), paper)
		d.draw(ix)
		entries := map[uint8]bool{}
		for y := range h {
			for _, e := range ix.ix.row(y) {
				if e > 1 {
					entries[e] = true
				}
			}
		}
		if len(entries) == 0 || len(entries) > 4 {
			t.Errorf("%s in the palette's entries: %d shades at its edges, want 1 to 4", d.name, len(entries))
		}
	}
}
