package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"titm/adjudicator"
	"titm/adjudicator/tournament"
	"titm/rules"
	"titm/store"
)

// A Japanese club's reader walks the journal in one go, as the journal is
// meant to be read: a browser that asks for Japanese (Accept-Language: ja)
// goes from the list of games to the tournaments, a tournament, a player
// of it, his game, and its replay, whose map zooms; then to the director's
// view, which lists that game late. Every page is in Japanese, with no
// English word left but names, ids and keywords, and its pictures load;
// the feeds the pages link to are Atom as RFC 4287 has it, in Japanese.
// Each page's screenshot is written into $TITM_SCREENSHOTS when set.
func TestJournalWalkJapanese(t *testing.T) {
	// The tournament was made a month ago, and round 1's game begun then:
	// its deadline is long past, whatever the machine's date.
	start := time.Now().UTC().Add(-30 * 24 * time.Hour).Truncate(time.Hour)
	var mu sync.Mutex
	at := start
	clocks.Store(t, func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		at = at.Add(time.Minute)
		return at
	})
	t.Cleanup(func() { clocks.Delete(t) })
	dir := t.TempDir()
	db := filepath.Join(dir, "titm.db")
	file := filepath.Join(dir, "cup.toml")
	os.WriteFile(file, []byte(cupFile), 0o600)
	m := regexp.MustCompile(`tournament (\S+) made`).FindStringSubmatch(mustRun(t, "tournament", "new", "--db", db, file))
	if m == nil {
		t.Fatal("no tournament made")
	}
	cup := m[1]
	var shown struct {
		Tournament *tournament.Tournament `json:"tournament"`
	}
	if err := json.Unmarshal([]byte(mustRun(t, "tournament", "show", "--db", db, cup, "--json")), &shown); err != nil {
		t.Fatal(err)
	}
	var game, player string
	for _, p := range shown.Tournament.Rounds[0].Pairings {
		if !p.Bye() {
			game, player = p.Game, shown.Tournament.Entrants[p.A].Name
		}
	}
	if game == "" {
		t.Fatal("round 1 has no game")
	}
	// Its players join and play three impulses, an hour apart.
	st, err := store.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	js := &journalStore{st: st, db: db, clock: start.Add(time.Hour), secrets: map[string]string{}}
	js.change(t, game, func(g *adjudicator.Game, _ []adjudicator.Record) ([]adjudicator.Record, error) {
		return g.Join(rules.German, "the German player's dice", js.now())
	})
	js.change(t, game, func(g *adjudicator.Game, _ []adjudicator.Record) ([]adjudicator.Record, error) {
		return g.Join(rules.Allied, "9f2c4e1a77b03d5c", js.now())
	})
	js.play(t, game, 3)
	srv := httptest.NewServer(js.journal(t, nil))
	defer srv.Close()

	b, ctx, shots, eval := startReader(t, "ja")
	click := func(selector string) {
		t.Helper()
		if err := b.ClickAndWait(ctx, selector); err != nil {
			t.Fatalf("%s: %v", selector, err)
		}
	}
	quoted := append([]string{"titm tournament ratings", "Glicko-2"}, journalNames...)
	quoted = append(quoted, "Ardennes Cup", "Anna", "Bert", "Cleo", cup, game)
	shot := func(name string) {
		t.Helper()
		path := filepath.Join(shots, name+".png")
		if err := b.Screenshot(ctx, path); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot %s", path)
	}
	var feeds []string
	var walked []string
	// check checks the page the browser shows, takes its screenshot and
	// keeps its feed.
	check := func(name, want string) {
		t.Helper()
		walked = append(walked, name)
		if lang := eval("document.documentElement.lang"); lang != "ja" {
			t.Errorf("%s: <html lang=%q>", name, lang)
		}
		var loaded bool
		if err := b.Eval(ctx, `Array.from(document.images).every(i => i.complete && i.naturalWidth > 0)`, &loaded); err != nil || !loaded {
			t.Errorf("%s: the pictures did not all load: %v", name, err)
		}
		text := eval("document.title + '\\n' + document.body.innerText")
		if !strings.Contains(text, want) {
			t.Errorf("%s: no %q:\n%s", name, want, text)
		}
		if left := englishLeft(t, text, quoted, "intro"); len(left) > 0 {
			t.Errorf("%s: English left: %q\n%s", name, left, text)
		}
		if f := eval(`(document.querySelector('link[rel=alternate][type="application/atom+xml"]') || {}).href || ""`); f != "" {
			feeds = append(feeds, f)
		}
		shot(fmt.Sprintf("%d-%s", len(walked), name))
	}

	if err := b.Navigate(ctx, srv.URL+"/"); err != nil {
		t.Fatal(err)
	}
	check("index", "ゲーム一覧")
	click(`nav a[href="/tournaments"]`)
	check("tournaments", "Ardennes Cup")
	click(`a[href="/tournaments/` + cup + `"]`)
	check("tournament", "進行中")
	click(`dd a[href="/players/` + player + `"]`)
	check("player", player)
	click(`table.games th a[href="/games/` + game + `"]`)
	check("game", "インパルス")
	click(`a[href="/games/` + game + `/replay"]`)
	check("replay", "インパルス")
	// The map zooms: + on the focused map, then the wheel.
	view := func() float64 {
		t.Helper()
		f, err := strconv.ParseFloat(eval(`document.querySelector(".mapview").dataset.scale || ""`), 64)
		if err != nil {
			t.Fatalf("the map has no scale: %v", err)
		}
		return f
	}
	s0 := view()
	eval(`(document.querySelector(".mapview").focus(), document.activeElement.className)`)
	for _, typ := range []string{"keyDown", "keyUp"} {
		if err := b.Call(ctx, "Input.dispatchKeyEvent", map[string]any{"type": typ, "key": "+", "text": "+"}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if s1 := view(); !(s1 > s0) {
		t.Errorf("+ on the map did not zoom in: scale %g -> %g", s0, s1)
	}
	shot(fmt.Sprintf("%d-replay-zoomed", len(walked)))
	click("a[rel=next]")
	check("replay-next", "インパルス")
	// From the tournament to the director's view of its games: round 1's
	// game is past its deadline, and marked so.
	if err := b.Navigate(ctx, srv.URL+"/tournaments/"+cup); err != nil {
		t.Fatal(err)
	}
	click(`a[href="/director?tournament=` + cup + `"]`)
	check("director", "超過")
	if late := eval(`Array.from(document.querySelectorAll("tr.late th")).map(e => e.innerText).join(" ")`); late != game {
		t.Errorf("the director's view marks %q late, want %s", late, game)
	}
	if want := []string{"index", "tournaments", "tournament", "player", "game", "replay", "replay-next", "director"}; strings.Join(walked, " ") != strings.Join(want, " ") {
		t.Errorf("walked %v, want %v", walked, want)
	}

	// The feeds the pages linked to, as the same reader's feed reader asks
	// for them.
	seen := map[string]bool{}
	for _, f := range feeds {
		if seen[f] {
			continue
		}
		seen[f] = true
		req, _ := http.NewRequest("GET", f, nil)
		req.Header.Set("Accept-Language", "ja")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if ct := resp.Header.Get("Content-Type"); resp.StatusCode != http.StatusOK || !strings.HasPrefix(ct, "application/atom+xml") {
			t.Errorf("%s: %d %s", f, resp.StatusCode, ct)
			continue
		}
		if x := checkAtom(t, f, string(body)); x.Lang != "ja" || len(x.Entries) == 0 {
			t.Errorf("%s: xml:lang %q, %d entries", f, x.Lang, len(x.Entries))
		}
		if !japaneseText.MatchString(string(body)) {
			t.Errorf("%s has no Japanese:\n%s", f, body)
		}
	}
	// The journal's, the tournament's and the game's.
	if len(seen) != 3 {
		t.Errorf("the pages linked %d feeds, want 3: %v", len(seen), feeds)
	}
}
