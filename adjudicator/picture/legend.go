package picture

import (
	"image"
	"strings"

	"titm/adjudicator/lang"
	"titm/rules"
)

// legendRow is one entry of the legend: a sample drawn in the left column
// and its explanation, wrapped, in the right one.
type legendRow struct {
	heading string // a section's heading instead of a sample
	sample  func(c *canvas, fs *faces, r image.Rectangle)
	text    string
	lines   []string // text wrapped to the legend's width
}

const (
	legendPad     = 14
	legendSampleW = 104
)

// drawLegend draws the legend panel.
func (p *Plan) drawLegend(c *canvas, fs *faces) {
	c.fillRect(p.Legend, panelBG)
	c.fillRect(image.Rect(p.Legend.Min.X, p.Legend.Min.Y, p.Legend.Min.X+1, p.Legend.Max.Y), frameInk)
	p.legend(c, fs, p.Legend.Min)
}

// legend draws the legend from the top left corner of its panel and
// returns its height; with a nil canvas it only measures.
func (p *Plan) legend(c *canvas, fs *faces, at image.Point) int {
	x0 := at.X + legendPad
	textX := x0 + legendSampleW + 8
	textW := at.X + legendW - legendPad - textX
	y := at.Y + legendPad
	if c != nil {
		c.text(fs.title, x0, y+18, p.pr.Sprintf("Legend"), ink)
	}
	y += 34
	if p.legendRowsKept == nil {
		// Kept for the draws of the picture's bands: the rows and their
		// text wrapped are the same every time.
		p.legendRowsKept = p.legendRows()
		for i := range p.legendRowsKept {
			p.legendRowsKept[i].lines = wrap(fs.small, p.legendRowsKept[i].text, textW)
		}
	}
	for _, row := range p.legendRowsKept {
		if row.heading != "" {
			y += 8
			if c != nil {
				c.text(fs.smallBold, x0, y+12, row.heading, ink)
				c.fillRect(image.Rect(x0, y+16, at.X+legendW-legendPad, y+17), frameInk)
			}
			y += 22
			continue
		}
		lines := row.lines
		h := max(len(lines)*15, counterH+2)
		if c != nil && c.shows(image.Rect(at.X, y-8, at.X+legendW, y+h+8)) {
			row.sample(c, fs, image.Rect(x0, y, x0+legendSampleW, y+min(h, 2*15)))
			for i, l := range lines {
				c.text(fs.small, textX, y+12+i*15, l, ink)
			}
		}
		y += h + 6
	}
	return y + legendPad - at.Y
}

func (p *Plan) legendRows() []legendRow {
	unit := func(u counter) func(c *canvas, fs *faces, r image.Rectangle) {
		return func(c *canvas, fs *faces, r image.Rectangle) {
			b := image.Rect(r.Min.X, r.Min.Y, r.Min.X+min(p.counterW, legendSampleW)+2, r.Min.Y+counterH+2)
			c.fillRect(b, ink)
			drawCounter(c, fs, b.Inset(1), u)
		}
	}
	heer := services[1].style
	pr := p.pr
	rows := []legendRow{{heading: pr.Sprintf("Units (4.1), coloured as 4.12 gives")}}
	for _, s := range services {
		rows = append(rows, legendRow{sample: unit(counter{style: s.style, id: s.sample, strength: 3}), text: pr.Text(s.legend)})
	}
	rows = append(rows,
		legendRow{sample: unit(counter{style: heer, id: "116/60", strength: 4}), text: pr.Sprintf("unit id and strength in SP (4.16)")},
		legendRow{sample: unit(counter{style: heer, id: "116/60", strength: 4, moved: true}), text: pr.Sprintf("yellow edge: moved this turn (8.25)")},
		legendRow{sample: unit(counter{style: heer, id: "116/60", strength: 4, entrenched: true}), text: pr.Sprintf("brown frame: entrenched (8.5)")},
		legendRow{sample: unit(counter{style: heer, id: "116/60", strength: 4, oos: true}), text: pr.Sprintf("red strength: out of supply (13.1)")},
		legendRow{sample: unit(counter{style: heer, id: "116/60", lost: true}), text: pr.Sprintf("crossed out: eliminated in the impulse just played (9.21)")},
		legendRow{heading: pr.Sprintf("Areas and zones (3.2)")},
		legendRow{sample: func(c *canvas, fs *faces, r image.Rectangle) {
			l := image.Rect(r.Min.X, r.Min.Y, r.Min.X+labelWidthOf(fs, 88, "Bastogne", "3"), r.Min.Y+labelH)
			drawLabelText(c, fs, l, 88, "Bastogne", "3")
		}, text: pr.Sprintf("area number and name (3.22); in gold its VP (3.26)")},
		legendRow{sample: func(c *canvas, fs *faces, r image.Rectangle) {
			for i, side := range []rules.Side{rules.German, rules.Allied, ""} {
				at := vec{float64(r.Min.X + 14 + i*34), float64(r.Min.Y + 10)}
				if t, ok := controlTint(side); ok {
					c.fillRect(image.Rect(int(at.X)-15, r.Min.Y-3, int(at.X)+15, r.Min.Y+23), t)
				}
				c.fill(ink, circle(at, dotR+1.3))
				c.fill(controlDot(side), circle(at, dotR))
			}
		}, text: pr.Sprintf("control (12.22): German (grey-blue), Allied (green), neither (white); the ground of a controlled area is tinted")},
		legendRow{sample: func(c *canvas, fs *faces, r image.Rectangle) {
			drawZoneDisc(c, fs, vec{float64(r.Min.X + 14), float64(r.Min.Y + 12)}, "B", rules.German)
			drawZoneDisc(c, fs, vec{float64(r.Min.X + 48), float64(r.Min.Y + 12)}, "G", rules.Allied)
		}, text: pr.Sprintf("perimeter zone, German or Allied (3.21); VP×n: a VP zone (3.28)")},
		legendRow{sample: func(c *canvas, fs *faces, r image.Rectangle) {
			at := vec{float64(r.Min.X + 8), float64(r.Min.Y + 22)}
			to := vec{float64(r.Min.X + 40), float64(r.Min.Y + 8)}
			c.line(white, 5, at, to)
			c.line(leaderInk, 2, at, to)
			c.fill(ink, circle(at, dotR+1.3))
			c.fill(controlDot(rules.Allied), circle(at, dotR))
			drawCounter(c, fs, image.Rect(int(to.X), r.Min.Y, int(to.X)+min(p.counterW, legendSampleW-40), r.Min.Y+counterH), counter{style: services[3].style, id: "28/110", strength: 3})
		}, text: pr.Sprintf("where the map is crowded, a line joins a town to its label or stack set aside")},
	)
	if !p.s.WholeMap {
		rows = append(rows, legendRow{sample: lineSample(func(c *canvas, a, b vec) { c.line(boundaryColour(p.s), 4, a, b) }), text: pr.Sprintf("scenario boundary: the scenario's map ends there")})
	}
	rows = append(rows,
		legendRow{heading: pr.Sprintf("Roads and rivers")},
		legendRow{sample: lineSample(func(c *canvas, a, b vec) { c.line(primary, 4, a, b) }), text: pr.Sprintf("primary road: 1 MP (8.33)")},
		legendRow{sample: lineSample(func(c *canvas, a, b vec) { c.line(secondary, 2.2, a, b) }), text: pr.Sprintf("secondary road: 2 MP (8.33)")},
		legendRow{sample: lineSample(func(c *canvas, a, b vec) { c.dashed(primary, 3, 9, 5, a, b) }), text: pr.Sprintf("primary road into a zone (11.13)")},
		legendRow{sample: lineSample(func(c *canvas, a, b vec) { c.line(riverBlue, 2.6, a, b) }), text: pr.Sprintf("river (3.23)")},
		legendRow{sample: lineSample(func(c *canvas, a, b vec) {
			c.line(secondary, 2.2, a, b)
			drawBridge(c, lerpVec(a, b, 0.5), vec{1, 0}, false)
		}), text: pr.Sprintf("bridge (3.23)")},
		legendRow{sample: lineSample(func(c *canvas, a, b vec) {
			c.line(primary, 4, a, b)
			drawBridge(c, lerpVec(a, b, 0.5), vec{1, 0}, true)
		}), text: pr.Sprintf("blown bridge (5.1, 10.0)")},
		legendRow{heading: pr.Sprintf("The impulse just played")},
		legendRow{sample: func(c *canvas, fs *faces, r image.Rectangle) {
			at := vec{float64(r.Min.X + 16), float64(r.Min.Y + 10)}
			c.fill(battleRed, annulus(at, 15, 10.5)...)
			c.fill(ink, circle(at, dotR+1.3))
			c.fill(controlDot(""), circle(at, dotR))
		}, text: pr.Sprintf("battle fought (9.3); its stack framed in red")},
		legendRow{sample: lineSample(func(c *canvas, a, b vec) { drawArrow(c, []vec{a, b.add(vec{8, 0})}) }), text: pr.Sprintf("units moved along this path (8.2)")},
	)
	return rows
}

func lineSample(f func(c *canvas, a, b vec)) func(c *canvas, fs *faces, r image.Rectangle) {
	return func(c *canvas, fs *faces, r image.Rectangle) {
		y := float64(r.Min.Y) + 8
		f(c, vec{float64(r.Min.X) + 4, y}, vec{float64(r.Min.X + legendSampleW - 14), y})
	}
}

// wrap breaks text into lines no wider than w: at spaces and, in Japanese
// text, between two phrases, by the rules of lang.Wrap (see lang.Phrases):
// never inside a word, between a word and its ending or particle, or a
// name and its number. A phrase wider than a line is broken as lang.Wrap
// breaks it, as a last resort: between its atoms, a run of kanji or kana
// between its characters; a Latin word wider than a line is left whole.
func wrap(f *face, text string, w int) []string {
	var lines []string
	line := ""
	put := func(sep, text string) {
		try := text
		if line != "" {
			try = line + sep + text
		}
		if line != "" && f.width(try) > w {
			lines = append(lines, line)
			line = text
			return
		}
		line = try
	}
	for gap, pc := range lang.Phrases(text) {
		sep := ""
		if gap > 0 {
			sep = " "
		}
		if f.width(pc) <= w {
			put(sep, pc)
			continue
		}
		for i, p := range wrapPieces(pc) {
			if i > 0 {
				sep = p.sep
			}
			put(sep, p.text)
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// A wrapPiece is what wrap keeps on one line of a phrase wider than a
// line: a word, or a Japanese character with the punctuation that may not
// be parted from it; sep is what stands between it and the piece before
// on the same line: a space, or nothing.
type wrapPiece struct{ sep, text string }

// wrapPieces splits a phrase wider than a line where lang.Wrap breaks
// one as a last resort: lang.Wrap, with lines a column wide, puts every
// piece on a line of its own; what stood between two pieces in the text is
// a space, or nothing.
func wrapPieces(text string) []wrapPiece {
	var out []wrapPiece
	rest := strings.TrimLeft(text, " ")
	for _, t := range lang.Wrap(text, "", "", 1) {
		if t == "" {
			continue
		}
		i := strings.Index(rest, t)
		if i < 0 {
			// Not as expected: the whole text as one piece is never wrong.
			return []wrapPiece{{text: strings.Join(strings.Fields(text), " ")}}
		}
		sep := ""
		if i > 0 && len(out) > 0 {
			sep = " "
		}
		out = append(out, wrapPiece{sep, t})
		rest = rest[i+len(t):]
	}
	return out
}
