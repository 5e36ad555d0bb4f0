// Package picture draws the map of a game of Tigers in the Mist with the
// position on it, as the PNG mailed to both players after every impulse.
//
// The picture is an area map of the scenario's part of the map: each area a
// region round its town, with its number, name and VP (3.22, 3.26), tinted
// by the side that controls it (12.22); over them the roads by class and
// the rivers and bridges, blown ones marked (3.23, 5.1, 10.0); the
// perimeter zones on the map's edge beside the areas they join (3.21,
// 3.28); every stack with its units' ids and strengths in their service's
// colours (4.12), the units that moved this day (8.25), are entrenched
// (8.5) or are out of supply (13.1); and what the impulse just played did:
// its battles, its moves and the units it eliminated. A legend explains it
// all. The title line and the legend are in the reader's language
// (Options.Lang), English or Japanese; place names, unit ids and numbers
// are drawn in Latin letters in both, as the Japanese rulebook writes
// them. The Japanese characters come from glyphs made for the picture
// (see jaGlyphs, docs/fonts.md).
//
// Everything is placed by Layout from the data alone, and drawn in a fixed
// order with fixed colours: the same position always gives the same bytes.
package picture

import (
	"fmt"
	"io"
	"slices"

	"titm/adjudicator/lang"
	"titm/rules"
)

// Highlights are what the impulse just played did, drawn stronger than the
// rest.
type Highlights struct {
	Battles []int           // areas where a battle was fought (9.3)
	Moves   [][]rules.Place // the paths units moved along (8.2), each from start to end
	Lost    []Lost          `json:",omitempty"` // the units eliminated (9.21) or removed (7.2)
}

// Lost is a unit the impulse eliminated, and where: drawn there crossed
// out, in the picture of that impulse only.
type Lost struct {
	Unit string
	Area int
}

// HighlightsOf reads the highlights from an impulse's events: the areas of
// its battles (rules.BattleBegins), the paths of its moves (rules.Moved),
// each once, and the units it eliminated (rules.Eliminated) or removed for
// over-stacking (rules.StackRemoved), in the order they happened.
func HighlightsOf(events []rules.Event) Highlights {
	var h Highlights
	seen := map[string]bool{}
	for _, e := range events {
		switch e := e.(type) {
		case rules.BattleBegins:
			if !slices.Contains(h.Battles, e.Area) {
				h.Battles = append(h.Battles, e.Area)
			}
		case rules.Moved:
			// A stack's units move together and are told as one event, but
			// the same path may also be moved twice by different orders.
			key := fmt.Sprint(e.Path)
			if len(e.Path) > 1 && !seen[key] {
				seen[key] = true
				h.Moves = append(h.Moves, slices.Clone(e.Path))
			}
		case rules.Eliminated:
			h.Lost = append(h.Lost, Lost{e.Unit, e.Area})
		case rules.StackRemoved:
			h.Lost = append(h.Lost, Lost{e.Unit, e.Area})
		}
	}
	return h
}

// Options change what Render draws. A nil *Options draws no title,
// highlights nothing and is in English.
type Options struct {
	// Title heads the picture, as "Game campaign-3 — after impulse G17-2 —
	// German VP 14" (see TitleAfter). Under it a line always names the
	// scenario, the impulse to play next and the German VP.
	Title      string
	Highlights Highlights
	// Lang is the reader's language, of the line under the title and the
	// legend; nil is English. Place names, unit ids and numbers are drawn
	// as they are, in Latin letters, as the Japanese rulebook writes them.
	Lang *lang.Printer
}

// TitleAfter is the title of the picture of game after an impulse, in the
// language of p: "Game campaign-3 — after impulse G17-2 — German VP 14".
func TitleAfter(p *lang.Printer, game, impulse string, vp int) string {
	return p.Sprintf("Game %s — after impulse %s — German VP %d", game, impulse, vp)
}

// TitleBefore is the title of the picture of game as it stands, before
// the impulse next (8.1).
func TitleBefore(p *lang.Printer, game string, next rules.Impulse, vp int) string {
	return p.Sprintf("Game %s — position before %s — German VP %d", game, next.String(), vp)
}

// TitleOver is the title of the picture of a game that is over.
func TitleOver(p *lang.Printer, game string, vp int) string {
	return p.Sprintf("Game %s — the game is over — German VP %d", game, vp)
}

// Render draws the map with the position as a PNG. The same inputs always
// give the same bytes. Render is safe for concurrent use (renders lay out
// at once, and take turns to draw: see renderers), and the bytes it
// returns are the caller's; the scenario must not change once drawn, as
// what of its map does not depend on the position is kept for the next
// render (see ground), and its palette in each language (see
// fixedPalette).
func Render(s *rules.Scenario, st *rules.State, opt *Options) ([]byte, error) {
	var png []byte
	err := renderWith(s, st, opt, func(e *encoder) error {
		png = e.png()
		return nil
	})
	return png, err
}

// RenderTo draws the map with the position as Render does, and writes the
// PNG to w as it is put together, from the encoder's own bands: a caller
// that turns the picture into something else at once (a mail's base64)
// needs no copy of the PNG of its own. Render's bytes and RenderTo's are
// the same. Writes to w are made while the render holds the one renderer
// (see renderers), so w should not wait on anything but memory.
func RenderTo(w io.Writer, s *rules.Scenario, st *rules.State, opt *Options) error {
	return renderWith(s, st, opt, func(e *encoder) error { return e.writePNG(w) })
}

// renderWith draws the picture and hands the encoder, holding its bands, to
// out before the renderer is given back.
func renderWith(s *rules.Scenario, st *rules.State, opt *Options, out func(*encoder) error) error {
	if opt == nil {
		opt = &Options{}
	}
	if st.Scenario != s.Name {
		return fmt.Errorf("drawing the map: the position is of scenario %q, not %q", st.Scenario, s.Name)
	}
	for _, u := range st.Units {
		if s.OOB.Unit(u.ID) == nil {
			return fmt.Errorf("drawing the map: unit %q of the position is not in scenario %s", u.ID, s.Name)
		}
		if u.OnMap() && !s.Map.Has(u.Place) {
			return fmt.Errorf("drawing the map: unit %s is in %s, which is not on the map", u.ID, u.Place)
		}
	}
	fs, err := getFaces()
	if err != nil {
		return err
	}
	defer faceSets.Put(fs)
	pr := opt.Lang
	if pr == nil {
		pr = lang.EN()
	}
	p := layout(s, st, fs, opt.Highlights.Lost, pr)
	fp := paletteFor(s, pr, fs)
	r := <-renderers
	defer func() { renderers <- r }()
	// The picture is drawn a band of rows at a time, on a canvas of a few
	// megabytes, in the entries of the palette of its scenario and
	// language (see fixedPalette), each band compressed as drawn.
	c, e := r.c, &r.enc
	p.ground = p.groundOf()
	c.shapes.sweep()
	c.blocks.sweep()
	e.beginIndexed(fp, p.Width, p.Height)
	rows := stripRowsIndexed(p.Width)
	for i := range (p.Height + rows - 1) / rows {
		c.resetIndexed(fp, p.Width, i*rows, min(p.Height, (i+1)*rows))
		p.draw(c, fs, opt)
		e.compressIndexed(c.ix)
	}
	return out(e)
}

// stripRows is the height of the bands of rows a picture w pixels wide is
// drawn in RGBA at a time (see countColours, newGround): whole bands of
// the encoder's, some 2 MB of canvas.
func stripRows(w int) int {
	z := zRows(w)
	return max(1, (2<<20)/(4*w)/z) * z
}

// renderer is the scratch space of a render, kept for the next: the
// canvas, a band of the picture's rows, in palette entries (and in RGBA
// while a palette is worked out), and the encoder's buffers.
type renderer struct {
	c   *canvas
	enc encoder
}

// renderers holds the one renderer: renders take turns with it. A render
// already draws and encodes on every core (see parallel), so that two at
// once would gain little, for twice the memory. It is not a sync.Pool
// either: a pool is emptied at every garbage collection, which under a
// memory limit comes every render or two, and each render would then
// allocate and clear its canvas afresh.
var renderers = func() chan *renderer {
	ch := make(chan *renderer, 1)
	ch <- &renderer{c: newCanvas(0, 0)}
	return ch
}()
