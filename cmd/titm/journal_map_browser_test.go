package main

import (
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The map and the director's view in a real browser. The replay's map is
// drawn at full resolution in its frame: a key press and the mouse wheel
// zoom it, an arrow pans it without stepping the replay, and the next step
// keeps the view. The director's view lists a game past its deadline as
// late, and one within it as not. Screenshots go to $TITM_SCREENSHOTS when
// set.
func TestJournalMapInBrowser(t *testing.T) {
	js := newJournalStore(t)
	// intro-1 was made weeks ago on the store's clock: its deadline has
	// passed. intro-3 is made now: its deadline is days away.
	js.newGame(t, "intro-1", "intro", true)
	js.play(t, "intro-1", 3)
	js.clock = time.Now().UTC().Add(-12 * time.Hour)
	js.newGame(t, "intro-3", "intro", true)
	js.play(t, "intro-3", 1)
	srv := httptest.NewServer(js.journal(t, nil))
	defer srv.Close()

	b, ctx, shots, eval := startReader(t, "")
	// view is the map's scale and transform as the page shows them.
	view := func() (float64, string) {
		t.Helper()
		s := eval(`(() => { const m = document.querySelector(".mapview"); return (m.dataset.scale || "") + " " + m.querySelector("img").style.transform; })()`)
		scale, transform, _ := strings.Cut(s, " ")
		f, err := strconv.ParseFloat(scale, 64)
		if err != nil {
			t.Fatalf("the map has no scale: %q", s)
		}
		return f, transform
	}
	key := func(k string) {
		t.Helper()
		for _, typ := range []string{"keyDown", "keyUp"} {
			p := map[string]any{"type": typ, "key": k}
			if len(k) == 1 {
				p["text"] = k
			} else {
				p["code"] = k
				p["windowsVirtualKeyCode"] = map[string]int{"ArrowLeft": 37, "ArrowRight": 39}[k]
			}
			if err := b.Call(ctx, "Input.dispatchKeyEvent", p, nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	shot := func(name string) {
		if err := b.Screenshot(ctx, filepath.Join(shots, name+".png")); err != nil {
			t.Fatal(err)
		}
	}

	if err := b.Navigate(ctx, srv.URL+"/games/intro-1/replay?impulse=A16-1"); err != nil {
		t.Fatal(err)
	}
	title := eval("document.title")
	s0, t0 := view()
	if w := eval(`String(document.querySelector(".mapview img").naturalWidth)`); w == "0" || s0 <= 0 || s0 > 1 {
		t.Fatalf("the map: natural width %s, scale %g", w, s0)
	}
	eval(`(document.querySelector(".mapview").focus(), document.activeElement.className)`)
	key("+")
	s1, t1 := view()
	if !(s1 > s0) || t1 == t0 {
		t.Errorf("+ did not zoom in: scale %g -> %g, %q -> %q", s0, s1, t0, t1)
	}
	// The wheel, over the map's middle, zooms in further.
	var box struct{ X, Y float64 }
	if err := b.Eval(ctx, `(() => { const r = document.querySelector(".mapview").getBoundingClientRect(); return {X: r.left + r.width / 2, Y: r.top + r.height / 2}; })()`, &box); err != nil {
		t.Fatal(err)
	}
	if err := b.Call(ctx, "Input.dispatchMouseEvent", map[string]any{"type": "mouseWheel", "x": box.X, "y": box.Y, "deltaX": 0, "deltaY": -400}, nil); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	s2, _ := view()
	if !(s2 > s1) {
		t.Errorf("the wheel did not zoom in: scale %g -> %g", s1, s2)
	}
	// An arrow pans the focused map, and does not step the replay.
	_, before := view()
	key("ArrowLeft")
	s3, after := view()
	if after == before || s3 != s2 {
		t.Errorf("← did not pan the map: %q -> %q", before, after)
	}
	if got := eval("document.title"); got != title {
		t.Errorf("← on the map stepped the replay: %q", got)
	}
	shot("map-zoomed")
	// The next step shows its impulse's picture at the same scale.
	if err := b.ClickAndWait(ctx, "a[rel=next]"); err != nil {
		t.Fatal(err)
	}
	if s4, _ := view(); s4 != s3 || !strings.Contains(eval(`document.querySelector(".mapview img").src`), "/impulses/G16-2/") {
		t.Errorf("the next step's map: scale %g, want %g kept", s4, s3)
	}

	// The director's view: intro-1 is late, intro-3 is not.
	if err := b.Navigate(ctx, srv.URL+"/director"); err != nil {
		t.Fatal(err)
	}
	var rows []struct {
		Game, Left string
		Late       bool
	}
	if err := b.Eval(ctx, `Array.from(document.querySelectorAll("table.director tbody tr")).map(r => ({Game: r.querySelector("th").innerText, Left: r.querySelector("td[data-label=Deadline]").innerText, Late: r.classList.contains("late")}))`, &rows); err != nil {
		t.Fatal(err)
	}
	late := map[string]bool{}
	for _, r := range rows {
		late[r.Game] = r.Late
		if r.Late != strings.Contains(r.Left, "overdue by") {
			t.Errorf("%s: late %v, but %q", r.Game, r.Late, r.Left)
		}
	}
	if len(rows) != 2 || !late["intro-1"] || late["intro-3"] {
		t.Errorf("the director's view: %+v", rows)
	}
	if text := eval("document.body.innerText"); !strings.Contains(text, "1 past the deadline") || strings.Contains(text, "players.test") {
		t.Errorf("the director's view:\n%s", text)
	}
	shot("director")
}
