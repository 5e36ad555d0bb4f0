package main

import (
	"image/png"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"titm/adjudicator"
	"titm/internal/golden"
	"titm/rules"
	"titm/rules/scenarios"
)

// englishLeft returns the words of a Japanese page's text that are
// English and not a name, an id or a keyword of any of the scenarios.
func englishLeft(t *testing.T, text string, quoted []string, names ...string) []string {
	t.Helper()
	// A hash or its start is an id, however many of its digits are
	// letters.
	text = regexp.MustCompile(`\b[0-9a-f]{12,64}\b`).ReplaceAllString(text, " ")
	var left []string
	for i, n := range names {
		s, err := scenarios.Load(n)
		if err != nil {
			t.Fatal(err)
		}
		words := golden.EnglishWords(text, s, quoted...)
		if i == 0 {
			left = words
			continue
		}
		left = slices.DeleteFunc(left, func(w string) bool { return !slices.Contains(words, w) })
	}
	return left
}

// A Japanese reader's browser, Accept-Language: ja, goes from the list of
// games to a game, its replay a step forward, a finished game, the
// tournaments, a tournament, a player of it and his game, and the
// director's view of its games: every page is in Japanese, its pictures
// load, and no English word is left in what it shows but names, ids and
// keywords. Each page's screenshot is saved, into $TITM_SCREENSHOTS when
// set, to be looked at.
func TestJournalInBrowserJapanese(t *testing.T) {
	// Short games, so that each page is a screenful or a few: one in
	// play, one forming, one conceded after two impulses.
	js := newJournalStore(t)
	js.newGame(t, "intro-1", "intro", true)
	js.play(t, "intro-1", 4)
	js.newGame(t, "intro-2", "intro", false)
	js.newGame(t, "intro-3", "intro", true)
	js.play(t, "intro-3", 2)
	js.change(t, "intro-3", func(g *adjudicator.Game, _ []adjudicator.Record) ([]adjudicator.Record, error) {
		return g.Concede(rules.German, js.now())
	})
	games := httptest.NewServer(js.journal(t, nil))
	defer games.Close()

	cup, cupPages := cupJournal(t)
	tours := httptest.NewServer(cupPages)
	defer tours.Close()

	b, ctx, shots, eval := startReader(t, "ja")
	// A command's line and a method's name first, before a name within them.
	quoted := append([]string{"titm tournament ratings", "Glicko-2"}, journalNames...)
	quoted = append(quoted, "Ardennes Cup", "Anna", "Bert", "Cleo", cup, "JSON")
	var visited int
	check := func(name string) {
		t.Helper()
		if lang := eval("document.documentElement.lang"); lang != "ja" {
			t.Errorf("%s: <html lang=%q>", name, lang)
		}
		var loaded bool
		if err := b.Eval(ctx, `Array.from(document.images).every(i => i.complete && i.naturalWidth > 0)`, &loaded); err != nil || !loaded {
			t.Errorf("%s: the pictures did not all load: %v", name, err)
		}
		text := eval("document.title + '\\n' + document.body.innerText")
		if left := englishLeft(t, text, quoted, "intro", "three-days", "campaign"); len(left) > 0 {
			t.Errorf("%s: English left: %q\n%s", name, left, text)
		}
		path := filepath.Join(shots, "ja-"+name+".png")
		if err := b.Screenshot(ctx, path); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if cfg, err := png.DecodeConfig(f); err != nil || cfg.Width == 0 {
			t.Errorf("the screenshot %s: %v", path, err)
		}
		t.Logf("screenshot %s", path)
		visited++
	}
	visit := func(url string) {
		t.Helper()
		if err := b.Navigate(ctx, url); err != nil {
			t.Fatalf("%s: %v", url, err)
		}
	}

	visit(games.URL + "/")
	if !strings.Contains(eval("document.body.innerText"), "ゲーム一覧") {
		t.Errorf("the list is not in Japanese:\n%s", eval("document.body.innerText"))
	}
	check("games")
	if err := b.ClickAndWait(ctx, `a[href="/games/intro-1"]`); err != nil {
		t.Fatal(err)
	}
	check("game")
	if err := b.ClickAndWait(ctx, `a[href="/games/intro-1/replay"]`); err != nil {
		t.Fatal(err)
	}
	check("replay-first")
	if err := b.ClickAndWait(ctx, "a[rel=next]"); err != nil {
		t.Fatal(err)
	}
	check("replay-second")
	visit(games.URL + "/games/intro-3")
	check("game-finished")
	visit(tours.URL + "/tournaments")
	check("tournaments")
	if err := b.ClickAndWait(ctx, `a[href="/tournaments/`+cup+`"]`); err != nil {
		t.Fatal(err)
	}
	check("tournament")
	// From the tournament to a player's page, to his game in it, and to
	// the director's view of the tournament's games.
	if err := b.ClickAndWait(ctx, `dd a[href="/players/Bert"]`); err != nil {
		t.Fatal(err)
	}
	check("player")
	want := 9
	if eval(`String(document.querySelectorAll("table.games th a").length)`) != "0" {
		if err := b.ClickAndWait(ctx, `table.games th a`); err != nil {
			t.Fatal(err)
		}
		check("tournament-game")
		want++
	}
	visit(tours.URL + "/tournaments/" + cup)
	if err := b.ClickAndWait(ctx, `a[href="/director?tournament=`+cup+`"]`); err != nil {
		t.Fatal(err)
	}
	check("director")
	// The director's view of every game: intro-1, begun a month ago, is
	// past its deadline, and so marked, in Japanese.
	visit(games.URL + "/director")
	if late := eval(`Array.from(document.querySelectorAll("tr.late th")).map(e => e.innerText).join(" ")`); late != "intro-1" || !strings.Contains(eval("document.body.innerText"), "超過") {
		t.Errorf("the director's view marks %q late:\n%s", late, eval("document.body.innerText"))
	}
	check("director-late")
	want++
	if visited != want {
		t.Errorf("%d pages checked, want %d", visited, want)
	}
}
