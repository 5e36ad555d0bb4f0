package main

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"titm/adjudicator"
	"titm/adjudicator/journal"
	"titm/adjudicator/tournament"
	"titm/rules"
	"titm/store"
)

// The journal shows the tournaments of the store: the list, each one's
// settings, rounds and pairings with links to their games, and standings,
// in HTML and JSON; never a player's address or token hash; an unknown
// tournament is a page saying so.
func TestJournalTournaments(t *testing.T) {
	t.Parallel()
	fixClock(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "titm.db")
	file := filepath.Join(dir, "cup.toml")
	os.WriteFile(file, []byte(cupFile), 0o600)
	out := mustRun(t, "tournament", "new", "--db", db, file)
	m := regexp.MustCompile(`tournament (\S+) made`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("tournament new:\n%s", out)
	}
	id := m[1]
	st, err := store.Open(db, &store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv := httptest.NewServer(journal.New(storeJournal{st: st, log: slog.New(slog.DiscardHandler)}, nil))
	defer srv.Close()
	get := func(path string) (int, string, string) {
		t.Helper()
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header.Get("Content-Type"), string(b)
	}
	for _, c := range []struct {
		path, ctype string
		want        []string
	}{
		{"/tournaments", "text/html; charset=utf-8", []string{"<h1>Tournaments</h1>", "Ardennes Cup", `href="/tournaments/` + id + `"`, "round robin, 3 rounds"}},
		{"/tournaments/" + id, "text/html; charset=utf-8", []string{"<title>Tournament Ardennes Cup", "Anna", "Bert", "Cleo", "Round 1: intro", "a bye", "(German) against", `href="/games/`, "Standings", "Head to head", "is left out"}},
		{"/api/tournaments", "application/json", []string{`"tournaments"`, `"name": "Ardennes Cup"`}},
		{"/api/tournaments/" + id, "application/json", []string{`"standings"`, `"round_list"`, `"a": "`}},
	} {
		code, ctype, body := get(c.path)
		if code != http.StatusOK || ctype != c.ctype {
			t.Errorf("%s: %d %s", c.path, code, ctype)
		}
		for _, w := range c.want {
			if !strings.Contains(body, w) {
				t.Errorf("%s lacks %q:\n%s", c.path, w, body)
			}
		}
		for _, secret := range []string{"@example.test", "token_hash", "TokenHash"} {
			if strings.Contains(body, secret) {
				t.Errorf("%s shows %q", c.path, secret)
			}
		}
	}
	// The game a pairing links to is a page of the journal.
	_, _, body := get("/tournaments/" + id)
	// A round robin breaks ties by margin and head to head: no Buchholz
	// column.
	if strings.Contains(body, "Buchholz") {
		t.Errorf("a round robin without the Buchholz tie-break shows its column:\n%s", body)
	}
	game := regexp.MustCompile(`href="(/games/[^"]+)"`).FindStringSubmatch(body)
	if game == nil {
		t.Fatal("no game linked")
	}
	if code, _, _ := get(game[1]); code != http.StatusOK {
		t.Errorf("%s: %d", game[1], code)
	}
	var v struct {
		Standings []struct{ Name string } `json:"standings"`
	}
	_, _, js := get("/api/tournaments/" + id)
	if err := json.Unmarshal([]byte(js), &v); err != nil || len(v.Standings) != 3 {
		t.Errorf("the JSON's standings: %v %+v", err, v)
	}
	if code, ctype, body := get("/tournaments/no-such-cup"); code != http.StatusNotFound || ctype != "text/html; charset=utf-8" || !strings.Contains(body, "not found") {
		t.Errorf("an unknown tournament: %d %s\n%s", code, ctype, body)
	}
}

// The list of games comes a hundred to a page, with links from page to
// page; a page past the last, or not a number, is a page saying so.
func TestJournalListPages(t *testing.T) {
	t.Parallel()
	js := newJournalStore(t)
	const n = 230
	for i := range n {
		js.newGame(t, fmt.Sprintf("intro-%03d", i+1), "intro", false)
	}
	h := js.journal(t, nil)
	for _, c := range []struct {
		path        string
		first, last string
		prev, next  string
	}{
		{"/", "intro-001", "intro-100", "", "/?page=2"},
		{"/?page=2", "intro-101", "intro-200", "/", "/?page=3"},
		{"/?page=3", "intro-201", "intro-230", "/?page=2", ""},
	} {
		body := readBody(t, get(h, "GET", c.path))
		rows := regexp.MustCompile(`<th scope="row"><a href="/games/(intro-\d+)">`).FindAllStringSubmatch(body, -1)
		if len(rows) == 0 || rows[0][1] != c.first || rows[len(rows)-1][1] != c.last {
			t.Errorf("%s: %d rows, want %s to %s", c.path, len(rows), c.first, c.last)
		}
		if !strings.Contains(body, fmt.Sprintf("%d games, by id", n)) {
			t.Errorf("%s does not count every game", c.path)
		}
		for _, l := range []struct{ rel, url string }{{"prev", c.prev}, {"next", c.next}} {
			link := fmt.Sprintf(`href="%s" rel="%s"`, l.url, l.rel)
			if has := strings.Contains(body, `rel="`+l.rel+`"`); has != (l.url != "") || l.url != "" && !strings.Contains(body, link) {
				t.Errorf("%s: the %s link, want %q", c.path, l.rel, l.url)
			}
		}
	}
	for _, bad := range []string{"/?page=4", "/?page=0", "/?page=two"} {
		if resp := get(h, "GET", bad); resp.StatusCode != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", bad, resp.StatusCode)
		}
	}
}

// A pairing's line tells where its game stands: waiting for its players,
// in play, then its result, in English and in Japanese, in HTML and JSON.
// The game's players join without a record of the tournament: the page's
// ETag changes all the same, so that a copy kept while the game waited is
// not taken as current, nor is one dated by its Last-Modified.
func TestJournalTournamentGameStatus(t *testing.T) {
	t.Parallel()
	fixClock(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "titm.db")
	file := filepath.Join(dir, "cup.toml")
	os.WriteFile(file, []byte(cupFile), 0o600)
	m := regexp.MustCompile(`tournament (\S+) made`).FindStringSubmatch(mustRun(t, "tournament", "new", "--db", db, file))
	if m == nil {
		t.Fatal("tournament new made no tournament")
	}
	id := m[1]
	var shown struct {
		Tournament *tournament.Tournament `json:"tournament"`
	}
	if err := json.Unmarshal([]byte(mustRun(t, "tournament", "show", "--db", db, id, "--json")), &shown); err != nil {
		t.Fatal(err)
	}
	var game string
	for _, p := range shown.Tournament.Rounds[0].Pairings {
		if !p.Bye() {
			game = p.Game
		}
	}
	if game == "" {
		t.Fatal("round 1 has no game")
	}
	open := func() (*journalStore, http.Handler) {
		st, err := store.Open(db, nil)
		if err != nil {
			t.Fatal(err)
		}
		js := &journalStore{st: st, db: db, secrets: map[string]string{}}
		return js, js.journal(t, nil)
	}
	pages := []struct{ path, lang string }{
		{"/tournaments/" + id, "en"}, {"/tournaments/" + id + "?lang=ja", "ja"}, {"/api/tournaments/" + id, "en"}, {"/api/tournaments/" + id + "?lang=ja", "ja"},
	}
	etags, dates := map[string]string{}, map[string]string{}
	// lineOf is what a page tells of round 1's game: the end of its line
	// in HTML, its result in JSON.
	lineOf := func(body string) string {
		if strings.HasPrefix(body, "{") {
			var v struct {
				Rounds []struct {
					Pairings []struct{ Game, Result string }
				} `json:"round_list"`
			}
			json.Unmarshal([]byte(body), &v)
			for _, r := range v.Rounds {
				for _, p := range r.Pairings {
					if p.Game == game {
						return p.Result
					}
				}
			}
			return ""
		}
		m := regexp.MustCompile(`href="/games/` + game + `[^"]*">[^<]*</a> — ([^<]*)</li>`).FindStringSubmatch(body)
		if m == nil {
			return ""
		}
		return m[1]
	}
	// check asks for each page with the ETag of its last copy: it must
	// come anew, and tell the line wanted in its language.
	check := func(h http.Handler, stage string, want map[string]string) {
		t.Helper()
		for _, pg := range pages {
			if dates[pg.path] != "" {
				// A client that keeps the date alone is sent the page too.
				if resp := get(h, "GET", pg.path, "If-Modified-Since", dates[pg.path]); resp.StatusCode != http.StatusOK {
					t.Errorf("%s: %s modified since the copy before: %d, want 200", stage, pg.path, resp.StatusCode)
				}
			}
			resp := get(h, "GET", pg.path, "If-None-Match", etags[pg.path])
			body := readBody(t, resp)
			if resp.StatusCode != http.StatusOK {
				t.Errorf("%s: %s with the ETag of the copy before: %d, want 200 with the page as it is now", stage, pg.path, resp.StatusCode)
			}
			if line := lineOf(body); !strings.HasPrefix(line, want[pg.lang]) {
				t.Errorf("%s: %s tells the game %s as %q, want %q", stage, pg.path, game, line, want[pg.lang])
			}
			etags[pg.path], dates[pg.path] = resp.Header.Get("ETag"), resp.Header.Get("Last-Modified")
			// The copy just read is current: asked again, it is not sent.
			if resp := get(h, "GET", pg.path, "If-None-Match", etags[pg.path]); resp.StatusCode != http.StatusNotModified {
				t.Errorf("%s: %s asked again with its ETag: %d, want 304", stage, pg.path, resp.StatusCode)
			}
		}
	}
	// The players join at the commands' clock, which fixClock moves on.
	clock, _ := clocks.Load(t)
	now := clock.(func() time.Time)
	js, h := open()
	check(h, "waiting", map[string]string{"en": "waiting for both players to join", "ja": "両プレイヤーの参加待ち"})
	js.change(t, game, func(g *adjudicator.Game, _ []adjudicator.Record) ([]adjudicator.Record, error) {
		return g.Join(rules.German, "a seed", now())
	})
	check(h, "the German player joined", map[string]string{"en": "waiting for the Allied player to join", "ja": "連合軍プレイヤーの参加待ち"})
	js.change(t, game, func(g *adjudicator.Game, _ []adjudicator.Record) ([]adjudicator.Record, error) {
		return g.Join(rules.Allied, "another seed", now())
	})
	// The same journal, which read the page while the game waited.
	check(h, "in play", map[string]string{"en": "in play", "ja": "進行中"})
	js.st.Close()
	mustRun(t, "tournament", "adjudicate", "--db", db, id, game, "draw", "--reason", "neither player answers")
	_, h = open()
	check(h, "decided", map[string]string{"en": "adjudicated by the director: ", "ja": "運営者の裁定: "})
	if body := readBody(t, get(h, "GET", "/api/tournaments/"+id)); !strings.Contains(body, `"done": true`) {
		t.Errorf("the JSON after the director's decision:\n%s", body)
	}
}
