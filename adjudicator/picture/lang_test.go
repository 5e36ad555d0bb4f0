package picture

import (
	"bytes"
	"fmt"
	"image"
	"slices"
	"strings"
	"testing"
	"titm/adjudicator/picture/internal/jatexts"
	"unicode/utf8"

	"titm/adjudicator/lang"
	"titm/rules"
)

// japaneseTexts returns every text the Japanese picture may draw in the
// reader's language, as genglyphs gathers them (jatexts.Texts).
func japaneseTexts(t *testing.T) []string {
	t.Helper()
	texts, err := jatexts.Texts("../lang/catalog/ja/picture.toml")
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(texts)
	return texts
}

// TestJapaneseGlyphs: every character of a Japanese text of the picture
// is drawn by the faces that draw those texts, from the Go fonts or from
// the Japanese glyphs. When it fails, run go generate ./adjudicator/picture
// (docs/fonts.md).
func TestJapaneseGlyphs(t *testing.T) {
	fs, err := newFaces()
	if err != nil {
		t.Fatal(err)
	}
	if err := lang.Err(); err != nil {
		t.Fatal(err)
	}
	texts := japaneseTexts(t)
	wide := 0
	for _, f := range []struct {
		name string
		f    *face
	}{{"legend", fs.small}, {"legend heading", fs.smallBold}, {"title", fs.title}, {"subtitle", fs.subtitle}} {
		if len(f.f.ja) == 0 {
			t.Errorf("the %s face has no Japanese glyphs", f.name)
		}
		missing := map[rune]bool{}
		for _, s := range texts {
			for _, r := range s {
				if _, ok := f.f.f.GlyphAdvance(r); !ok && f.f.ja[r] == nil {
					missing[r] = true
				}
				if lang.RuneWidth(r) == 2 {
					wide++
				}
			}
		}
		if len(missing) > 0 {
			var rs []string
			for r := range missing {
				rs = append(rs, string(r))
			}
			slices.Sort(rs)
			t.Errorf("the %s face lacks %d characters of the Japanese texts: %s (go generate ./adjudicator/picture)", f.name, len(rs), strings.Join(rs, ""))
		}
	}
	if wide == 0 {
		t.Error("no Japanese character in the Japanese texts")
	}
}

// A Japanese glyph is a glyph: full-width, inked, on the baseline as the
// Latin letters beside it.
func TestJapaneseGlyphShapes(t *testing.T) {
	fs, err := newFaces()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []*face{fs.small, fs.smallBold, fs.title, fs.subtitle} {
		g := f.glyph('軍')
		if g.own || g.missing {
			t.Fatalf("軍: own %v, missing %v", g.own, g.missing)
		}
		size := f.f.Metrics().Height.Ceil()
		if adv := g.advance.Round(); adv < size*3/4 || adv > size*3/2 {
			t.Errorf("軍 advances %d pixels in a face %d high", adv, size)
		}
		ink := 0
		for _, a := range g.mask.Pix {
			if a > 128 {
				ink++
			}
		}
		if ink < 10 {
			t.Errorf("軍 has %d inked pixels", ink)
		}
		// Its top near the top of a capital, its bottom near the baseline.
		capTop := f.glyph('E').rect.Min.Y
		if g.rect.Min.Y > capTop || g.rect.Max.Y < 0 || g.rect.Max.Y > 4 {
			t.Errorf("軍 spans %v, the E starts at %d", g.rect, capTop)
		}
	}
}

// A character no font has is drawn as '?', and noted: a test fails on it.
func TestMissingGlyphNoted(t *testing.T) {
	fs, err := newFaces()
	if err != nil {
		t.Fatal(err)
	}
	const absent = '鬱' // in no text of the picture
	resetMissing()
	if w, q := fs.small.width(string(absent)), fs.small.width("?"); w != q {
		t.Errorf("the missing character is %d pixels wide, a '?' %d", w, q)
	}
	if got := takeMissing(); !slices.Equal(got, []rune{absent}) {
		t.Errorf("missing: %q, want %q", got, []rune{absent})
	}
	fs.small.width(string(absent)) // kept, and noted again
	if got := takeMissing(); len(got) != 1 {
		t.Errorf("a second use: missing %q", got)
	}
}

func resetMissing() {
	missingGlyphs.Lock()
	missingGlyphs.runes = nil
	missingGlyphs.Unlock()
}

func takeMissing() []rune {
	missingGlyphs.Lock()
	defer missingGlyphs.Unlock()
	var rs []rune
	for r := range missingGlyphs.runes {
		rs = append(rs, r)
	}
	missingGlyphs.runes = nil
	slices.Sort(rs)
	return rs
}

// TestJapanesePicture draws the introductory scenario at its start and
// the crowded campaign in Japanese: the title and the legend are in
// Japanese, every character has its glyph, the legend's lines fit its
// width, and the map itself (places, units) is drawn as in English.
// TITM_PICTURES=DIR keeps them for a look.
func TestJapanesePicture(t *testing.T) {
	ja := lang.For(lang.Japanese)
	s, st, ev := crowded(t)
	intro := load(t, "intro")
	for _, c := range []struct {
		name string
		s    *rules.Scenario
		st   *rules.State
		opt  Options
	}{
		{"intro-start", intro, rules.NewState(intro), Options{Title: TitleBefore(ja, "intro-1", rules.NewState(intro).Next, 0)}},
		{"crowded", s, st, Options{Title: TitleAfter(ja, "campaign-3", "G18-2", st.VP), Highlights: HighlightsOf(ev)}},
	} {
		jopt := c.opt
		jopt.Lang = ja
		resetMissing()
		data := render(t, c.s, c.st, &jopt)
		if m := takeMissing(); len(m) > 0 {
			t.Errorf("%s: no glyph for %q", c.name, m)
		}
		writePicture(t, "ja-"+c.name+".png", data)
		if lim := maxPNG[c.s.Name]; len(data) > lim {
			t.Errorf("%s: the Japanese picture is %d KB, over %d KB", c.name, len(data)>>10, lim>>10)
		}
		t.Logf("%s: %d KB", c.name, len(data)>>10)

		// Drawn before the PNG's palette: the map is the same in both
		// languages, the legend and the title band are not.
		en := c.opt
		en.Title = TitleAfter(lang.EN(), "x", "G18-2", 0)
		jp, jImg := drawn(c.s, c.st, &jopt)
		ep, eImg := drawn(c.s, c.st, &en)
		if jp.Map != ep.Map || !slices.EqualFunc(jp.Stacks, ep.Stacks, sameBox) || !slices.EqualFunc(jp.Labels, ep.Labels, sameBox) {
			t.Errorf("%s: the map is laid out differently in Japanese", c.name)
		}
		if n := diff(jImg, eImg, jp.Map); n != 0 {
			t.Errorf("%s: the map is drawn differently in Japanese, %d pixels", c.name, n)
		}
		legend := image.Rect(jp.Legend.Min.X, jp.Legend.Min.Y, jp.Legend.Max.X, jp.Legend.Min.Y+200)
		if n := diff(jImg, eImg, legend); n < 1000 {
			t.Errorf("%s: the top of the legend differs in %d pixels from the English one", c.name, n)
		}
		if n := diff(jImg, eImg, jp.Title); n < 1000 {
			t.Errorf("%s: the title band differs in %d pixels from the English one", c.name, n)
		}

		// The legend's texts are Japanese, and each line fits.
		fs, err := getFaces()
		if err != nil {
			t.Fatal(err)
		}
		textW := legendW - 2*legendPad - legendSampleW - 8
		japanese := 0
		for _, row := range jp.legendRowsKept {
			if row.heading != "" {
				if fs.smallBold.width(row.heading) > legendW-2*legendPad {
					t.Errorf("%s: the heading %q is wider than the legend", c.name, row.heading)
				}
				continue
			}
			for _, l := range row.lines {
				if w := fs.small.width(l); w > textW {
					t.Errorf("%s: the legend's line %q is %d pixels, over %d", c.name, l, w, textW)
				}
			}
			if strings.ReplaceAll(strings.Join(row.lines, ""), " ", "") != strings.ReplaceAll(row.text, " ", "") {
				t.Errorf("%s: %q wrapped as %q", c.name, row.text, row.lines)
			}
			if utf8.RuneCountInString(row.text) < len(row.text) {
				japanese++
			}
		}
		if japanese < 20 {
			t.Errorf("%s: %d of the legend's texts are Japanese", c.name, japanese)
		}
		if w := fs.title.width(c.opt.Title); w > jp.Width-28 {
			t.Errorf("%s: the title is %d pixels, the picture %d", c.name, w, jp.Width)
		}
		faceSets.Put(fs)
	}
}

// drawn lays out and draws the picture as Render does, on one canvas the
// size of the picture, before the PNG's palette.
func drawn(s *rules.Scenario, st *rules.State, opt *Options) (*Plan, *image.RGBA) {
	fs, err := getFaces()
	if err != nil {
		panic(err)
	}
	defer faceSets.Put(fs)
	pr := opt.Lang
	if pr == nil {
		pr = lang.EN()
	}
	p := layout(s, st, fs, opt.Highlights.Lost, pr)
	c := newCanvas(0, 0)
	c.reset(p.Width, 0, p.Height)
	p.ground = p.groundOf()
	p.draw(c, fs, opt)
	return p, c.img
}

func sameBox(a, b Box) bool { return a.Place == b.Place && a.Rect == b.Rect }

// diff counts the pixels of r that differ between a and b.
func diff(a, b *image.RGBA, r image.Rectangle) int {
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if a.RGBAAt(x, y) != b.RGBAAt(x, y) {
				n++
			}
		}
	}
	return n
}

// TestJapaneseTitleLine: the line under the title names the scenario, the
// next impulse and the German VP in Japanese, and an English one is as it
// always was.
func TestJapaneseTitleLine(t *testing.T) {
	s := load(t, "intro")
	st := rules.NewState(s)
	ja := lang.For(lang.Japanese)
	got := subtitle(ja, s, st)
	if !strings.Contains(got, "次: ドイツ軍インパルス 16-1 — ドイツ軍VP 0") || !strings.Contains(got, "(intro)") {
		t.Errorf("Japanese: %q", got)
	}
	// A game that ended by the referee's result (a concession), which the
	// glyphs must draw too (TestJapaneseGlyphs).
	over := st.Clone()
	over.Over, over.Result = true, rules.ConcededResult(rules.German)
	if got, want := subtitle(ja, s, over), "ドイツ軍プレイヤーの投了により連合軍の勝利"; !strings.HasSuffix(got, want) {
		t.Errorf("Japanese, conceded: %q, want it to end in %q", got, want)
	}
	if got, want := subtitle(lang.EN(), s, over), "— the game is over — German VP 0 — the German player conceded: Allied victory"; !strings.HasSuffix(got, want) {
		t.Errorf("English, conceded: %q, want it to end in %q", got, want)
	}
	en := subtitle(lang.EN(), s, st)
	if want := fmt.Sprintf("%s (%s) — next: %s impulse %d-%d — German VP %d", s.Title, s.Name, st.Next.Side.Title(), st.Next.Day, st.Next.N, st.VP); en != want {
		t.Errorf("English: %q, want %q", en, want)
	}
	// The titles the callers give, as they were in English.
	for _, c := range []struct{ got, want string }{
		{TitleAfter(lang.EN(), "campaign-3", "G17-2", 14), "Game campaign-3 — after impulse G17-2 — German VP 14"},
		{TitleBefore(lang.EN(), "intro-1", st.Next, 0), "Game intro-1 — position before G16-1 — German VP 0"},
		{TitleOver(lang.EN(), "intro-1", 7), "Game intro-1 — the game is over — German VP 7"},
		{TitleAfter(ja, "campaign-3", "G17-2", 14), "ゲーム campaign-3 — インパルス G17-2 終了後 — ドイツ軍VP 14"},
	} {
		if c.got != c.want {
			t.Errorf("%q, want %q", c.got, c.want)
		}
	}
}

// TestWrapJapanese: Japanese text breaks between its phrases, one wider
// than the line between its characters, never before 、 or 。, and keeps
// its spaces; English text breaks at its spaces alone.
func TestWrapJapanese(t *testing.T) {
	fs, err := newFaces()
	if err != nil {
		t.Fatal(err)
	}
	text := "支配 (12.22): ドイツ軍(青灰色)、連合軍(緑)、どちらでもない(白)。支配下のエリアは地も淡く色付け"
	for _, w := range []int{60, 100, 150, 214} {
		lines := wrap(fs.small, text, w)
		if len(lines) < 2 {
			t.Errorf("%d px: %q", w, lines)
		}
		for _, l := range lines {
			if fs.small.width(l) > w && strings.Contains(l, " ") {
				t.Errorf("%d px: %q is %d wide", w, l, fs.small.width(l))
			}
			if strings.HasPrefix(l, "、") || strings.HasPrefix(l, "。") || strings.HasPrefix(l, " ") {
				t.Errorf("%d px: a line begins %q", w, l)
			}
		}
		joined := strings.Join(lines, "")
		if strings.ReplaceAll(joined, " ", "") != strings.ReplaceAll(text, " ", "") {
			t.Errorf("%d px: %q lost text", w, lines)
		}
	}
	en := "where the map is crowded, a line joins a town to its label or stack set aside"
	lines := wrap(fs.small, en, 150)
	if strings.Join(lines, " ") != en {
		t.Errorf("English: %q", lines)
	}
	for _, l := range lines {
		if fs.small.width(l) > 150 {
			t.Errorf("English: %q is wider than 150", l)
		}
	}
	if got := wrap(fs.small, "", 100); len(got) != 0 {
		t.Errorf("empty: %q", got)
	}
}

// The Japanese picture is as deterministic as the English one.
func TestJapaneseDeterministic(t *testing.T) {
	s := load(t, "intro")
	st := rules.NewState(s)
	opt := &Options{Title: TitleOver(lang.For(lang.Japanese), "intro-1", 0), Lang: lang.For(lang.Japanese)}
	if !bytes.Equal(render(t, s, st, opt), render(t, s, st, opt)) {
		t.Error("two renders differ")
	}
}

// BenchmarkRenderCrowdedJapanese is BenchmarkRenderCrowded in Japanese:
// the Japanese glyphs are read once, and cost a render no more than the
// Go fonts' glyphs.
func BenchmarkRenderCrowdedJapanese(b *testing.B) {
	s, st, ev := crowded(b)
	ja := lang.For(lang.Japanese)
	opt := &Options{Title: TitleAfter(ja, "campaign-3", "G18-2", 0), Highlights: HighlightsOf(ev), Lang: ja}
	render(b, s, st, opt)
	b.ReportAllocs()
	defer cpuMeter(b)()
	for b.Loop() {
		if _, err := Render(s, st, opt); err != nil {
			b.Fatal(err)
		}
	}
}
