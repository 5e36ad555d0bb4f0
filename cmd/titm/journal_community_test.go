package main

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"titm/adjudicator"
	"titm/adjudicator/journal"
	"titm/adjudicator/tournament"
	"titm/store"
)

// communityCup is a tournament on a store, its director's acts done by
// the commands: a pause and its resumption, round 1's game joined, then
// decided by the director, a replacement and a withdrawal.
type communityCup struct {
	db, id string
	game   string   // round 1's game
	sides  []string // its players' names
	old    string   // the player replaced, by Hanna Ries
	gone   string   // the player who withdrew
}

func newCommunityCup(t *testing.T) *communityCup {
	t.Helper()
	fixClock(t)
	dir := t.TempDir()
	c := &communityCup{db: filepath.Join(dir, "titm.db")}
	file := filepath.Join(dir, "cup.toml")
	os.WriteFile(file, []byte(strings.Replace(cupFile, `deadline = "48h"`, "deadline = \"48h\"\nforfeit_after = 3", 1)), 0o600)
	m := regexp.MustCompile(`tournament (\S+) made`).FindStringSubmatch(mustRun(t, "tournament", "new", "--db", c.db, file))
	if m == nil {
		t.Fatal("tournament new made no tournament")
	}
	c.id = m[1]
	var shown struct {
		Tournament *tournament.Tournament `json:"tournament"`
	}
	json.Unmarshal([]byte(mustRun(t, "tournament", "show", "--db", c.db, c.id, "--json")), &shown)
	for _, p := range shown.Tournament.Rounds[0].Pairings {
		if !p.Bye() {
			c.game, c.old = p.Game, shown.Tournament.Entrants[p.A].Name
			c.sides = []string{c.old, shown.Tournament.Entrants[p.B].Name}
		}
	}
	for _, e := range shown.Tournament.Entrants {
		if e.Name != c.old {
			c.gone = e.Name
		}
	}
	mustRun(t, "join", "--db", c.db, c.game, "--side", "german")
	mustRun(t, "join", "--db", c.db, c.game, "--side", "allied")
	return c
}

// acts has the director act on the tournament.
func (c *communityCup) acts(t *testing.T) {
	t.Helper()
	mustRun(t, "tournament", "pause", "--db", c.db, c.id, "--reason", "the server moves")
	mustRun(t, "tournament", "resume", "--db", c.db, c.id, "--reason", "the server has moved")
	mustRun(t, "tournament", "adjudicate", "--db", c.db, c.id, c.game, "draw", "--reason", "neither player answers")
	mustRun(t, "tournament", "replace", "--db", c.db, c.id, c.old, "hanna@example.test", "--name", "Hanna Ries", "--reason", "moved away")
	mustRun(t, "tournament", "withdraw", "--db", c.db, c.id, c.gone, "--reason", "ill")
}

// journal is the journal of the store, and the function that closes it,
// which a command needs before it opens the store.
func (c *communityCup) journal(t *testing.T, opt *journal.Options) (http.Handler, func()) {
	t.Helper()
	st, err := store.Open(c.db, &store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return journal.New(storeJournal{st: st, log: slog.New(slog.DiscardHandler)}, opt), func() { st.Close() }
}

// A tournament's game names its players as the tournament does and links
// back to it; the tournament's page links to its games and players, and
// lists every act of the director with its time and reason; each player
// has a page of his games and tournaments; the director's view lists the
// games in play. No page shows an address.
func TestJournalCommunity(t *testing.T) {
	c := newCommunityCup(t)
	h, done := c.journal(t, nil)
	// Before the director acts: the game is in play, and the director's
	// view lists it, its players by name.
	for _, p := range []string{"/director", "/director?tournament=" + c.id, "/director?sort=forfeit", "/api/director"} {
		body := readBody(t, get(h, "GET", p))
		for _, want := range []string{c.game, "Ardennes Cup", "0 of 3 missed"} {
			if strings.HasPrefix(p, "/api/") && want == "0 of 3 missed" {
				want = `"forfeit_after": 3`
			}
			if !strings.Contains(body, want) {
				t.Errorf("%s lacks %q:\n%s", p, want, body)
			}
		}
		if !strings.Contains(body, `">`+c.sides[0]+`</a>`) && !strings.Contains(body, `">`+c.sides[1]+`</a>`) && !strings.HasPrefix(p, "/api/") {
			t.Errorf("%s names neither %s nor %s", p, c.sides[0], c.sides[1])
		}
	}
	// In Japanese, chosen by ?lang=, which its links keep.
	if body := readBody(t, get(h, "GET", "/director?lang=ja")); !strings.Contains(body, "締切超過0回 (3回で不戦敗)") ||
		!strings.Contains(body, `href="/games/`+c.game+`?lang=ja"`) || !strings.Contains(body, "<h1>運営者ビュー</h1>") {
		t.Errorf("the director's view in Japanese:\n%s", body)
	}
	if body := readBody(t, get(h, "GET", "/director?tournament=no-such-cup")); strings.Contains(body, c.game) {
		t.Errorf("the director's view of another tournament lists %s", c.game)
	}
	if resp := get(h, "GET", "/director?sort=colour"); resp.StatusCode != http.StatusBadRequest || !strings.Contains(readBody(t, resp), "sorts by deadline, since, forfeit, game, tournament") {
		t.Errorf("an unknown order: %d", resp.StatusCode)
	}
	done()
	c.acts(t)
	h, _ = c.journal(t, nil)

	tour := readBody(t, get(h, "GET", "/tournaments/"+c.id))
	for _, want := range []string{
		`<h2 id="acts">The director's acts</h2>`,
		"The director paused the tournament", "the server moves",
		"The director resumed the tournament.", "the server has moved",
		"The director decided game " + c.game + " of round 1", "neither player answers", `<a href="/games/` + c.game + `">Game ` + c.game + `</a>`,
		"The director gave " + c.old + "&#39;s place to Hanna Ries", "moved away",
		c.gone + " withdrew from the tournament.", "ill",
		`href="/players/Hanna%20Ries"`, `href="/players/` + url.PathEscape(c.old) + `"`,
		`href="/director?tournament=` + c.id + `"`,
	} {
		if !strings.Contains(tour, want) {
			t.Errorf("the tournament's page lacks %q", want)
		}
	}
	// The acts in Japanese, the reasons as the director gave them.
	tourJa := readBody(t, get(h, "GET", "/tournaments/"+c.id, "Accept-Language", "ja"))
	for _, want := range []string{`<h2 id="acts">運営者の処置</h2>`, "運営者が大会を中断しました", "the server moves", "運営者が大会を再開しました。",
		"のゲーム " + c.game + " を裁定しました。", "運営者が " + c.old + " の枠を Hanna Ries に交代させました", c.gone + " が大会を棄権しました。"} {
		if !strings.Contains(tourJa, want) {
			t.Errorf("the tournament's page in Japanese lacks %q", want)
		}
	}
	// The acts in the order of the log, each with its time.
	acts := regexp.MustCompile(`<tr><td><time datetime="[^"]+">[^<]+</time></td><td>(The director \w+|\w+ withdrew)`).FindAllStringSubmatch(tour, -1)
	var order []string
	for _, a := range acts {
		order = append(order, a[1])
	}
	if got := strings.Join(order, ","); got != "The director paused,The director resumed,The director decided,The director gave,"+c.gone+" withdrew" {
		t.Errorf("the acts: %s", got)
	}
	var tj struct {
		Acts []struct{ Kind, Reason string } `json:"acts"`
	}
	json.Unmarshal([]byte(readBody(t, get(h, "GET", "/api/tournaments/"+c.id))), &tj)
	if len(tj.Acts) != 5 || tj.Acts[0].Kind != "paused" || tj.Acts[4].Reason != "ill" {
		t.Errorf("the tournament's JSON acts: %+v", tj.Acts)
	}

	// The game names its players as the tournament does and links back.
	game := readBody(t, get(h, "GET", "/games/"+c.game))
	for _, want := range []string{`<dt>Tournament</dt><dd><a href="/tournaments/` + c.id + `">Ardennes Cup</a>, round 1</dd>`,
		`<a href="/players/` + url.PathEscape(c.old) + `">` + c.old + `</a>`} {
		if !strings.Contains(game, want) {
			t.Errorf("the game's page lacks %q", want)
		}
	}
	local := strings.ToLower(c.old)
	if strings.Contains(game, ">"+local+"<") {
		t.Errorf("the game's page names %s by his address's %q", c.old, local)
	}
	api := readBody(t, get(h, "GET", "/api/games/"+c.game))
	if !strings.Contains(api, `"name": "`+c.old+`"`) || !strings.Contains(api, `"tournament": {`) {
		t.Errorf("the game's JSON lacks the tournament or its name %s:\n%s", c.old, api)
	}

	// The players' pages.
	old := readBody(t, get(h, "GET", "/players/"+url.PathEscape(c.old)))
	for _, want := range []string{"<h1>" + c.old + "</h1>", `href="/games/` + c.game + `"`, "drawn", `href="/tournaments/` + c.id + `"`,
		"his place was taken over by Hanna Ries from round ", "No rated game yet"} {
		if !strings.Contains(old, want) {
			t.Errorf("%s's page lacks %q:\n%s", c.old, want, old)
		}
	}
	if hanna := readBody(t, get(h, "GET", "/players/Hanna%20Ries")); !strings.Contains(hanna, "took over "+c.old+"&#39;s place from round ") {
		t.Errorf("Hanna Ries's page:\n%s", hanna)
	}
	if hanna := readBody(t, get(h, "GET", "/players/Hanna%20Ries", "Accept-Language", "ja")); !strings.Contains(hanna, " "+c.old+" の枠を引き継ぎ") ||
		!strings.Contains(hanna, "<th scope=\"col\">対戦相手</th>") {
		t.Errorf("Hanna Ries's page in Japanese:\n%s", hanna)
	}
	list := readBody(t, get(h, "GET", "/players"))
	for _, want := range []string{"Anna", "Bert", "Cleo", "Hanna Ries"} {
		if !strings.Contains(list, `">`+want+`</a>`) {
			t.Errorf("the players' list lacks %s", want)
		}
	}
	if resp := get(h, "GET", "/players/Nobody"); resp.StatusCode != http.StatusNotFound || !strings.Contains(readBody(t, resp), "Nobody has played here under the name") {
		t.Errorf("an unknown player: %d", resp.StatusCode)
	}
	// No page or answer the crawl reaches shows an address.
	seen := crawl(t, h, map[string]string{"an address": "@example.test", "Anna's address": "anna@", "the domain": "example.test"})
	// The Japanese pages (each page links itself in the other language,
	// and their links keep ?lang=) and the feeds are crawled too.
	for _, want := range []string{"/players/Hanna%20Ries", "/director?tournament=" + c.id, "/api/players/" + c.old, "/tournaments/" + c.id,
		"/players/Hanna%20Ries?lang=ja", "/director?tournament=" + c.id + "&lang=ja", "/tournaments/" + c.id + "?lang=ja",
		"/tournaments/" + c.id + "/feed.atom", "/feed.atom?lang=ja"} {
		if _, ok := seen[want]; !ok {
			t.Errorf("the crawl did not reach %s", want)
		}
	}
	t.Logf("crawled %d URLs", len(seen))
}

// A player's page has his results and rating history: the finished game,
// played out, rated as titm tournament ratings rates it.
func TestJournalPlayerRating(t *testing.T) {
	js := journalGames(t)
	h := js.journal(t, nil)
	body := readBody(t, get(h, "GET", "/api/players/gerhard.schmidt"))
	var v struct {
		Name             string
		Won, Drawn, Lost int
		InPlay           int `json:"in_play"`
		Games            []struct{ ID, Outcome string }
		Ratings          []struct {
			Rating, RD float64
			Games      int
			History    []struct {
				End    time.Time
				Games  int
				Rating float64
			}
		}
	}
	if err := json.Unmarshal([]byte(body), &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Games) != 3 || v.InPlay != 1 || v.Won+v.Drawn+v.Lost != 1 {
		t.Errorf("gerhard.schmidt's games: %+v", v)
	}
	if len(v.Ratings) != 1 || v.Ratings[0].Games != 1 || len(v.Ratings[0].History) != 1 || v.Ratings[0].History[0].Rating != v.Ratings[0].Rating || !(v.Ratings[0].RD < 350) {
		t.Fatalf("gerhard.schmidt's rating: %+v", v.Ratings)
	}
	page := readBody(t, get(h, "GET", "/players/gerhard.schmidt"))
	for _, want := range []string{"<h1>gerhard.schmidt</h1>", "Period ending", "after 1 rated game", `href="/games/three-days-1"`, `href="/players/alice.jones"`} {
		if !strings.Contains(page, want) {
			t.Errorf("gerhard.schmidt's page lacks %q", want)
		}
	}
	for _, secret := range []string{journalGerman, journalAllied, "players.test"} {
		if strings.Contains(page+body, secret) {
			t.Errorf("gerhard.schmidt's page shows %q", secret)
		}
	}
}

// swapStore is the journal's source over a store the test closes, for a
// command to change it, and opens again: the same journal reads it
// before and after.
type swapStore struct {
	mu sync.Mutex
	storeJournal
}

func (s *swapStore) src() storeJournal {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.storeJournal
}

func (s *swapStore) open(t *testing.T, db string) {
	t.Helper()
	st, err := store.Open(db, &store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	s.mu.Lock()
	s.storeJournal = storeJournal{st: st, log: slog.New(slog.DiscardHandler)}
	s.mu.Unlock()
}

func (s *swapStore) Games() ([]*adjudicator.Game, error)              { return s.src().Games() }
func (s *swapStore) Summary(id string) (*adjudicator.Game, error)     { return s.src().Summary(id) }
func (s *swapStore) LastRecord(id string) (adjudicator.Record, error) { return s.src().LastRecord(id) }
func (s *swapStore) Game(id string) (*adjudicator.Game, []adjudicator.Record, error) {
	return s.src().Game(id)
}
func (s *swapStore) Version() (string, error) { return s.src().Version() }
func (s *swapStore) Tournaments() ([]*tournament.Tournament, error) {
	return s.src().Tournaments()
}
func (s *swapStore) Tournament(id string) (*tournament.Tournament, error) {
	return s.src().Tournament(id)
}

// A player replaced in a game in play, which its log does not record, is
// named on the game's page, in the list and in their answers' ETags from
// then on: the journal does not serve the page it kept.
func TestJournalReplacementRenames(t *testing.T) {
	c := newCommunityCup(t)
	src := &swapStore{}
	src.open(t, c.db)
	h := journal.New(src, nil)
	page := get(h, "GET", "/games/"+c.game)
	tag := page.Header.Get("ETag")
	if body := readBody(t, page); !strings.Contains(body, ">"+c.old+"</a>") {
		t.Fatalf("the game's page does not name %s", c.old)
	}
	readBody(t, get(h, "GET", "/"))
	head := src.src()
	head.st.Close()
	mustRun(t, "tournament", "replace", "--db", c.db, c.id, c.old, "hanna@example.test", "--name", "Hanna Ries", "--reason", "moved away")
	src.open(t, c.db)
	page = get(h, "GET", "/games/"+c.game, "If-None-Match", tag)
	if page.StatusCode != http.StatusOK || page.Header.Get("ETag") == tag {
		t.Errorf("after the replacement the game's page is %d, ETag %s as before %s", page.StatusCode, page.Header.Get("ETag"), tag)
	}
	if body := readBody(t, page); !strings.Contains(body, ">Hanna Ries</a>") {
		t.Errorf("the game's page does not name Hanna Ries, who took it over")
	}
	if body := readBody(t, get(h, "GET", "/")); !strings.Contains(body, "Hanna Ries") {
		t.Errorf("the list does not name Hanna Ries")
	}
}
