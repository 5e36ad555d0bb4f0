package picture

import (
	"bytes"
	"testing"

	"titm/adjudicator/lang"
	"titm/rules"
)

// TestBlocksKept: the blocks a render keeps (the legend, the labels, the
// counters: see canvas.block) and copies into the next are the pixels it
// would draw, and so are the shapes it keeps (towns' dots, zones' discs,
// bridges: see canvas.kept). The crowded campaign and the intro, in
// English and Japanese, are drawn with nothing kept, then again in turn,
// with what the renders before kept; the bytes are the same, and the
// renders kept blocks and shapes.
func TestBlocksKept(t *testing.T) {
	s, st, ev := crowded(t)
	intro := load(t, "intro")
	ja := lang.For(lang.Japanese)
	type job struct {
		s   *rules.Scenario
		st  *rules.State
		opt *Options
	}
	jobs := []job{
		{s, st, &Options{Title: "Game campaign-3 — after impulse G18-2 — German VP 0", Highlights: HighlightsOf(ev)}},
		{s, st, &Options{Title: "Game campaign-3 — after impulse G18-2 — German VP 0", Highlights: HighlightsOf(ev), Lang: ja}},
		{intro, rules.NewState(intro), &Options{Lang: ja}},
		{intro, rules.NewState(intro), nil},
	}
	forget := func() {
		r := <-renderers
		r.c.blocks, r.c.shapes = blockCache{}, shapeCache{}
		renderers <- r
	}
	want := make([][]byte, len(jobs))
	for i, j := range jobs {
		forget()
		want[i] = render(t, j.s, j.st, j.opt)
	}
	forget()
	for round := range 2 {
		for i, j := range jobs {
			if got := render(t, j.s, j.st, j.opt); !bytes.Equal(got, want[i]) {
				t.Errorf("round %d, picture %d: drawn with the blocks kept, it differs from drawn with none", round, i)
			}
		}
	}
	copied, drawn := 0, 0
	r := <-renderers
	for _, kb := range r.c.blocks.kept {
		if kb.pix != nil {
			copied++
		} else {
			drawn++
		}
	}
	shapes := len(r.c.shapes.kept)
	renderers <- r
	// The campaign's towns and bridges alone are over 200, some cut by
	// the edges of bands of rows.
	if shapes < 200 {
		t.Errorf("the renders kept %d shapes; want the towns', the zones' and the bridges', over 200", shapes)
	}
	// The crowded campaign's labels and counters alone are over 400.
	if copied < 400 {
		t.Errorf("the renders kept %d blocks; want the legends', the labels' and the counters', over 400", copied)
	}
	t.Logf("%d blocks kept, %d drawn every time; %d shapes kept", copied, drawn, shapes)
}
