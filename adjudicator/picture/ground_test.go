package picture

import (
	"bytes"
	"hash/adler32"
	"image"
	"runtime"
	"sync"
	"testing"

	"titm/rules"
	"titm/rules/scenarios"
)

// TestGround checks the ground kept for a scenario against the ground
// drawn afresh, shape by shape: on the tints of the start, of
// the crowded position, and with every area's control turned over.
func TestGround(t *testing.T) {
	s, crowdedSt, _ := crowded(t)
	flipped := crowdedSt.Clone()
	for _, a := range s.Map.Areas {
		switch flipped.Control[a.ID] {
		case rules.German:
			flipped.Control[a.ID] = rules.Allied
		case rules.Allied:
			flipped.Control[a.ID] = ""
		default:
			flipped.Control[a.ID] = rules.German
		}
	}
	for _, c := range []struct {
		name string
		st   *rules.State
	}{{"start", rules.NewState(s)}, {"crowded", crowdedSt}, {"turned over", flipped}} {
		p := Layout(s, c.st)
		kept := newCanvas(p.Width, p.Height)
		p.groundOf().draw(kept, c.st)

		fresh := newCanvas(p.Width, p.Height)
		fresh.fillRect(fresh.img.Bounds(), offMap)
		ids, r, own := p.tintCells()
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				switch n := own[(y-r.Min.Y)*r.Dx()+x-r.Min.X]; {
				case n == edgeCell:
					fresh.img.SetRGBA(x, y, areaEdge)
				case n >= 0:
					tint, ok := controlTint(c.st.Control[ids[n]])
					if !ok {
						tint = paper
					}
					fresh.img.SetRGBA(x, y, tint)
				}
			}
		}
		// The lines a band of rows at a time, as the ground is kept (see
		// newGround): a shape's pieces are grouped by the band they fall
		// in.
		for y0 := p.Map.Min.Y; y0 < p.Map.Max.Y; y0 += stripRows(p.Width) {
			fresh.clip = image.Rect(p.Map.Min.X, y0, p.Map.Max.X, min(p.Map.Max.Y, y0+stripRows(p.Width)))
			p.drawLines(fresh)
		}

		// The lines kept as a layer and laid over the ground make each
		// channel the same as drawn on it but for rounding: the layer holds
		// a faint edge's colour premultiplied, in few levels.
		n := 0
		for i := range kept.img.Pix {
			if d := int(kept.img.Pix[i]) - int(fresh.img.Pix[i]); d < -maxLayerError || d > maxLayerError {
				n++
			}
		}
		if n > 0 {
			t.Errorf("%s: the ground kept differs from the ground drawn in %d bytes", c.name, n)
		}
	}
}

// maxLayerError is how far a channel of the ground kept may be from the
// ground drawn shape by shape.
const maxLayerError = 6

// TestGoroutines: the bytes depend on neither the number of goroutines a
// render uses nor on renders running at the same time.
func TestGoroutines(t *testing.T) {
	s, st, ev := crowded(t)
	intro := load(t, "intro")
	opt := &Options{Title: "Game campaign-3 — after impulse G18-2", Highlights: HighlightsOf(ev)}
	want := [2][]byte{render(t, s, st, opt), render(t, intro, rules.NewState(intro), nil)}

	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	if !bytes.Equal(render(t, s, st, opt), want[0]) {
		t.Error("a render on one goroutine differs")
	}
	tiny, err := scenarios.Load("../../testdata/tiny/scenario.toml")
	if err != nil {
		t.Fatal(err)
	}
	tinyWant := render(t, tiny, rules.NewState(tiny), nil)
	runtime.GOMAXPROCS(7)
	if !bytes.Equal(render(t, s, st, opt), want[0]) {
		t.Error("a render on seven goroutines differs")
	}
	// A narrow picture: fewer bands to compress than to count colours in.
	if !bytes.Equal(render(t, tiny, rules.NewState(tiny), nil), tinyWant) {
		t.Error("the tiny map on seven goroutines differs from on one")
	}

	var wg sync.WaitGroup
	got := make([][]byte, 6)
	for i := range got {
		wg.Go(func() {
			if i%2 == 0 {
				got[i], _ = Render(s, st, opt)
			} else {
				got[i], _ = Render(intro, rules.NewState(intro), nil)
			}
		})
	}
	wg.Wait()
	for i, g := range got {
		if !bytes.Equal(g, want[i%2]) {
			t.Errorf("render %d of several at once differs", i)
		}
	}
}

func TestAdler32Combine(t *testing.T) {
	data := bytes.Repeat([]byte("Tigers in the Mist \xff\x00"), 20000)
	for _, cut := range []int{0, 1, 65520, 65521, 65522, 200000, len(data)} {
		a, b := data[:cut], data[cut:]
		if got, want := adler32Combine(adler32.Checksum(a), adler32.Checksum(b), len(b)), adler32.Checksum(data); got != want {
			t.Errorf("cut at %d: %08x, want %08x", cut, got, want)
		}
	}
}

// TestPaletted: the picture is a paletted PNG, as image/png reads it.
func TestPaletted(t *testing.T) {
	intro := load(t, "intro")
	img := decode(t, render(t, intro, rules.NewState(intro), nil))
	p, ok := img.(*image.Paletted)
	if !ok {
		t.Fatalf("the picture decodes as a %T", img)
	}
	if len(p.Palette) > 256 || len(p.Palette) < len(stylePalette) {
		t.Errorf("%d colours in the palette", len(p.Palette))
	}
}

// tintCells returns which area's ground each pixel of the map is: the
// areas drawn, by id, and for each pixel of r, the map inset by a pixel,
// row by row, the index of its area among them, offCell or edgeCell. Which
// areas a position controls changes only their tints: the cells are worked
// out once for the scenario (see ground), a band of rows at a time.
func (p *Plan) tintCells() (ids []int, r image.Rectangle, own []int16) {
	cm := p.cellMap()
	r = p.Map.Inset(1)
	return cm.ids, r, cm.cells(r, nil)
}
