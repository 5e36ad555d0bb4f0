package main

import (
	"bytes"
	"encoding/json"
	"html"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"titm/adjudicator/journal"
	"titm/internal/golden"
	"titm/rules/scenarios"
)

// The language of a page: ?lang= first, kept in every link; else the
// browser's Accept-Language; else the referee's default. A lang the
// journal has not is refused, naming the two.
func TestJournalLanguage(t *testing.T) {
	js := journalGames(t)
	en, ja := js.journal(t, nil), js.journal(t, &journal.Options{Language: "ja"})
	htmlLang := regexp.MustCompile(`<html lang="(\w+)">`)
	for _, c := range []struct {
		name    string
		h       http.Handler
		path    string
		accept  string
		want    string
		keepsQ  bool
		contain string
	}{
		{"default English", en, "/games/intro-1", "", "en", false, "Every impulse's report"},
		{"default Japanese", ja, "/games/intro-1", "", "ja", false, "全インパルスの報告"},
		{"Accept-Language ja", en, "/games/intro-1", "ja", "ja", false, "全インパルスの報告"},
		{"Accept-Language ja-JP with a quality", en, "/", "fr-FR, ja-JP;q=0.8, en;q=0.5", "ja", false, "ゲーム一覧"},
		{"Accept-Language English", ja, "/", "en-GB,en;q=0.9", "en", false, "Games"},
		{"Accept-Language of neither", ja, "/", "de-DE", "ja", false, "ゲーム一覧"},
		{"?lang=en over Accept-Language", en, "/games/intro-1?lang=en", "ja", "en", true, "Every impulse's report"},
		{"?lang=ja over the default", en, "/games/intro-1/replay?lang=ja", "", "ja", true, "このインパルス後のログヘッド"},
		{"?lang=japanese", en, "/tournaments?lang=japanese", "", "ja", true, "まだ大会はありません"},
	} {
		resp := get(c.h, "GET", c.path, "Accept-Language", c.accept)
		body := readBody(t, resp)
		m := htmlLang.FindStringSubmatch(body)
		if resp.StatusCode != 200 || m == nil || m[1] != c.want || !strings.Contains(body, c.contain) {
			t.Errorf("%s: %d, lang %v, want %s and %q", c.name, resp.StatusCode, m, c.want, c.contain)
			continue
		}
		if !strings.Contains(strings.Join(resp.Header.Values("Vary"), ","), "Accept-Language") {
			t.Errorf("%s: Vary %v", c.name, resp.Header.Values("Vary"))
		}
		// Every link to a journal's page keeps ?lang= when it chose the
		// language, and none when it did not.
		// One link leads to the same page in the other language.
		var links, kept, other int
		for _, l := range hrefs.FindAllStringSubmatch(body, -1) {
			u := html.UnescapeString(l[1])
			switch {
			case strings.HasPrefix(u, "/verify/"):
				continue // the verifier's scripts, in no language
			case strings.Contains(u, "lang=") && !strings.Contains(u, "lang="+c.want):
				other++
				continue
			}
			links++
			if strings.Contains(u, "lang="+c.want) {
				kept++
			}
		}
		if want := map[bool]int{true: links, false: 0}[c.keepsQ]; links == 0 || kept != want || other != 1 {
			t.Errorf("%s: %d of %d links keep lang=%s, want %d; %d to the other language, want 1", c.name, kept, links, c.want, want, other)
		}
	}
	// The link to the other language leads to the same page: the same
	// step of a replay.
	if body := readBody(t, get(en, "GET", "/games/intro-1/replay?impulse=A16-1&lang=ja")); !strings.Contains(body, `href="/games/intro-1/replay?impulse=A16-1&amp;lang=en" hreflang="en"`) {
		t.Errorf("the replay's link to English does not keep its step")
	}
	resp := get(en, "GET", "/games/intro-1?lang=fr")
	if body := readBody(t, resp); resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, "lang=ja") {
		t.Errorf("?lang=fr: %d\n%s", resp.StatusCode, body)
	}

	// The JSON gives its language, and its texts in it.
	for _, lang := range []string{"en", "ja"} {
		var g struct {
			Lang       string `json:"lang"`
			ResultText string `json:"result_text"`
		}
		var imp struct{ Lang, Report string }
		json.Unmarshal([]byte(readBody(t, get(en, "GET", "/api/games/three-days-1", "Accept-Language", lang))), &g)
		json.Unmarshal([]byte(readBody(t, get(en, "GET", "/api/games/intro-1/impulses/G16-1?lang="+lang))), &imp)
		if g.Lang != lang || imp.Lang != lang || strings.Contains(imp.Report, "インパルス") != (lang == "ja") || g.ResultText == "" ||
			(strings.IndexFunc(g.ResultText, func(r rune) bool { return r > 0x3000 }) >= 0) != (lang == "ja") {
			t.Errorf("JSON in %s: game %q, result %q, impulse %q, report:\n%s", lang, g.Lang, g.ResultText, imp.Lang, imp.Report)
		}
	}
	// The pictures are drawn in the page's language.
	pic := func(path, accept string) []byte {
		resp := get(en, "GET", path, "Accept-Language", accept)
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/png" {
			t.Fatalf("%s: %d", path, resp.StatusCode)
		}
		return b
	}
	for _, p := range []string{"/games/intro-1/picture.png", "/games/intro-1/impulses/G16-1/picture.png", "/games/intro-2/picture.png"} {
		if a, b := pic(p, "en"), pic(p, "ja"); bytes.Equal(a, b) || !bytes.Equal(b, pic(p+"?lang=ja", "en")) {
			t.Errorf("%s: the same picture in English and Japanese, or ?lang=ja another", p)
		}
	}
}

// pageText is a page's text as a reader sees it: without its style,
// scripts and tags, its entities read.
func pageText(page string) string {
	page = regexp.MustCompile(`(?s)<(style|script)[^>]*>.*?</(style|script)>`).ReplaceAllString(page, " ")
	page = regexp.MustCompile(`(?s)<[^>]*>`).ReplaceAllString(page, " ")
	return html.UnescapeString(page)
}

// A Japanese game page, golden: a game of the intro scenario four impulses
// in, its reports, dice and map as a Japanese reader has them. No English
// is left in its text but names, ids and keywords.
func TestJournalJapaneseGamePage(t *testing.T) {
	js := newJournalStore(t)
	js.fixed = true
	js.newGame(t, "intro-1", "intro", true)
	js.play(t, "intro-1", 4)
	h := js.journal(t, nil)
	page := readBody(t, get(h, "GET", "/games/intro-1", "Accept-Language", "ja"))
	golden.Check(t, "testdata/journal/game-ja.html", page)
	s, err := scenarios.Load("intro")
	if err != nil {
		t.Fatal(err)
	}
	if words := golden.EnglishWords(pageText(page), s, journalNames...); len(words) > 0 {
		t.Errorf("English left in the Japanese game page: %q", words)
	}
}

// journalNames are what the journal's pages name that is nobody's language:
// the players as the journal names them, the games' ids and scenarios,
// the programs' words (titm verify, json, the scenario's file name).
var journalNames = []string{"gerhard.schmidt", "alice.jones", "intro-1", "intro-2", "intro-3", "three-days-1", "three-days", "(intro)", "intro", ".json",
	"Tigers in the Mist", "titm verify --head HASH", "verified: N impulses, M dice", "titm verify", "titm export", "titm tournament export", "titm", "WebAssembly", "JavaScript", "JSON", "Atom", "HTTP",
	"the German player's dice"} // the German player's seed, as he chose it
