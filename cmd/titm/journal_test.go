package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"html"
	"image/png"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"titm/adjudicator"
	"titm/adjudicator/journal"
	"titm/internal/daemon"
	"titm/mail"
	"titm/rules"
	"titm/store"
)

// journalGames makes the store the journal's tests read: intro-1 in play,
// with standing orders given and a rollback; three-days-1 played to its
// end; intro-2 waiting for its players.
func journalGames(t *testing.T) *journalStore {
	t.Helper()
	js := newJournalStore(t)
	js.newGame(t, "intro-1", "intro", true)
	js.play(t, "intro-1", 4)
	js.rollback(t, "intro-1", "A16-2")
	js.play(t, "intro-1", 3)
	js.newGame(t, "three-days-1", "three-days", true)
	js.play(t, "three-days-1", -1)
	if g := js.game(t, "three-days-1"); g.Status != adjudicator.Finished {
		t.Fatalf("three-days-1 is %s after playing to its end", g.Status)
	}
	js.newGame(t, "intro-2", "intro", false)
	return js
}

// get asks a handler for a path, with headers as name, value pairs.
func get(h http.Handler, method, path string, headers ...string) *http.Response {
	r := httptest.NewRequest(method, path, nil)
	for i := 0; i+1 < len(headers); i += 2 {
		r.Header.Set(headers[i], headers[i+1])
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w.Result()
}

func readBody(t *testing.T, resp *http.Response) string {
	t.Helper()
	var r io.Reader = resp.Body
	if resp.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		r = zr
	}
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Every page and endpoint answers with its status, type and content.
func TestJournalPages(t *testing.T) {
	js := journalGames(t)
	h := js.journal(t, nil)
	html5, jsn, pngType := "text/html; charset=utf-8", "application/json", "image/png"
	tests := []struct {
		path   string
		status int
		ctype  string
		want   []string
		not    []string
	}{
		{"/", 200, html5, []string{`<html lang="en">`, `name="viewport"`, "<title>Games — Tigers in the Mist journal</title>", "<h1>Games</h1>",
			`<a href="/games/intro-1">intro-1</a>`, `<a href="/games/three-days-1">three-days-1</a>`, "gerhard.schmidt", "alice.jones",
			"waiting for German and Allied to join", "finished", "@media (max-width: 600px)"}, nil},
		{"/games/intro-1", 200, html5, []string{"<title>Game intro-1, ", "<h1>Game intro-1: ", `<img src="/games/intro-1/picture.png" alt="Map of game intro-1 after impulse`,
			`width="`, `height="`, "Every impulse's report", "<h2 id=\"dice\">Dice log</h2>", "(rolled back)", "log head after it: <span class=\"hash\">",
			"The game's seed stays secret until the game ends", "Promptness", "Impulse A16-2, the Allied impulse 2 of 16 December"},
			[]string{"Verified by the referee", "export.json"}},
		{"/games/three-days-1", 200, html5, []string{"The game is over", "Verified by the referee", "every die recomputed from the revealed seed",
			`href="/games/three-days-1/export.json"`, "titm verify three-days-1.json", "(revealed at the end)", "THE GAME IS OVER"}, nil},
		{"/games/intro-2", 200, html5, []string{"Waiting for the German and Allied player to join", "No impulse has been played yet", "before the first impulse"}, nil},
		{"/api/games/intro-2", 200, jsn, []string{`"status": "forming"`, `"waiting": "German and Allied"`, `"impulses": []`}, []string{"null"}},
		{"/games/intro-1/replay", 200, html5, []string{"<h1>Replay of game intro-1: impulse G16-1</h1>", "Step 1 of ", `rel="next"`, "This is the first impulse",
			`<img src="/games/intro-1/impulses/G16-1/picture.png"`}, []string{`rel="prev"`}},
		{"/games/intro-1/replay?impulse=A16-1", 200, html5, []string{"impulse A16-1</h1>", "Step 2 of ", `rel="prev"`, `href="/games/intro-1/replay?impulse=G16-1"`,
			`href="/games/intro-1/replay?impulse=G16-2"`}, nil},
		{"/games/intro-1/replay?impulse=g16-2", 200, html5, []string{"impulse G16-2</h1>"}, nil},
		{"/games/intro-1/picture.png", 200, pngType, nil, nil},
		{"/games/intro-2/picture.png", 200, pngType, nil, nil},
		{"/games/intro-1/impulses/A16-1/picture.png", 200, pngType, nil, nil},
		{"/games/three-days-1/export.json", 200, jsn, []string{`"format": "titm-export/2"`, `"address_commitments": [`, `"seed": "`}, []string{"watcher", "gerhard", `"address_salt"`, "@"}},
		{"/api/games", 200, jsn, []string{`"games": [`, `"id": "intro-1"`, `"name": "gerhard.schmidt"`, `"to_move": "`, `"url": "/games/intro-1"`}, nil},
		{"/api/games/intro-1", 200, jsn, []string{`"impulses": [`, `"rolled_back": true`, `"commitment": "`, `"picture": {`}, []string{`"seed": "` + js.secrets["intro-1"]}},
		{"/api/games/three-days-1", 200, jsn, []string{`"records": `, `"record": `, `"verified": {`, `"ok": true`, `"dice_checked": true`, `"export": "/games/three-days-1/export.json"`}, nil},
		{"/api/games/intro-1/impulses/G16-1", 200, jsn, []string{`"impulse": "G16-1"`, `"report": "Tigers in the Mist, game intro-1`, `"rolls": [`, `"next": "/api/games/intro-1/impulses/A16-1"`}, nil},
		// What does not exist: a page, whatever was asked.
		{"/nosuch", 404, html5, []string{"<h1>Page not found</h1>"}, nil},
		{"/games/", 404, html5, []string{"Page not found"}, nil},
		{"/games/nosuch-9", 404, html5, []string{"No such game", "There is no game nosuch-9 here"}, nil},
		{"/games/nosuch-9/picture.png", 404, html5, []string{"No such game"}, nil},
		{"/api/games/nosuch-9", 404, html5, []string{"No such game"}, nil},
		{"/games/intro-1/replay?impulse=Z99", 400, html5, []string{"Not an impulse"}, nil},
		{"/games/intro-1/replay?impulse=G21-3", 404, html5, []string{"No such impulse"}, nil},
		{"/games/intro-1/impulses/banana/picture.png", 400, html5, []string{"Not an impulse"}, nil},
		{"/api/games/intro-1/impulses/A20-1", 404, html5, []string{"No such impulse"}, nil},
		{"/games/intro-2/replay", 404, html5, []string{"Nothing to replay yet"}, nil},
		{"/games/intro-1/export.json", 404, html5, []string{"Not published yet"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			resp := get(h, "GET", tt.path)
			body := readBody(t, resp)
			if resp.StatusCode != tt.status || resp.Header.Get("Content-Type") != tt.ctype {
				t.Fatalf("status %d, %s; want %d, %s\n%.500s", resp.StatusCode, resp.Header.Get("Content-Type"), tt.status, tt.ctype, body)
			}
			for _, w := range tt.want {
				if !strings.Contains(body, w) {
					t.Errorf("no %q in the answer", w)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(body, n) {
					t.Errorf("%q in the answer", n)
				}
			}
			switch tt.ctype {
			case pngType:
				c, err := png.DecodeConfig(strings.NewReader(body))
				if err != nil || c.Width < 500 {
					t.Errorf("the picture: %v, %dx%d", err, c.Width, c.Height)
				}
			case jsn:
				if !json.Valid([]byte(body)) {
					t.Errorf("not JSON:\n%.500s", body)
				}
			}
			if tt.status == 200 && resp.Header.Get("ETag") == "" {
				t.Error("no ETag")
			}
		})
	}
	// The img element's size is the picture's.
	resp := get(h, "GET", "/games/intro-1/picture.png")
	c, _ := png.DecodeConfig(resp.Body)
	page := readBody(t, get(h, "GET", "/games/intro-1"))
	if want := `width="` + itoa(c.Width) + `" height="` + itoa(c.Height) + `"`; !strings.Contains(page, want) {
		t.Errorf("the game page's img lacks %s", want)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// The export the journal serves at the end verifies with titm verify.
func TestJournalExportVerifies(t *testing.T) {
	t.Parallel()
	js := newJournalStore(t)
	js.newGame(t, "three-days-1", "three-days", true)
	js.play(t, "three-days-1", -1)
	h := js.journal(t, nil)
	resp := get(h, "GET", "/games/three-days-1/export.json")
	if cd := resp.Header.Get("Content-Disposition"); cd != `attachment; filename="three-days-1.json"` {
		t.Errorf("Content-Disposition %q", cd)
	}
	file := filepath.Join(t.TempDir(), "three-days-1.json")
	if err := os.WriteFile(file, []byte(readBody(t, resp)), 0o600); err != nil {
		t.Fatal(err)
	}
	out := mustRun(t, "verify", file)
	if !strings.HasPrefix(out, "verified: ") || strings.Contains(out, "revealed when") {
		t.Errorf("titm verify of the journal's export: %s", out)
	}
	g := js.game(t, "three-days-1")
	if out := mustRun(t, "verify", "--head", g.Head, file); !strings.HasPrefix(out, "verified") {
		t.Errorf("titm verify --head: %s", out)
	}
}

// A page the client holds is answered 304, by ETag or by date, until the
// game changes.
func TestJournalNotModified(t *testing.T) {
	js := newJournalStore(t)
	js.newGame(t, "intro-1", "intro", true)
	js.play(t, "intro-1", 2)
	h := js.journal(t, nil)
	paths := []string{"/", "/games/intro-1", "/games/intro-1/replay?impulse=A16-1", "/games/intro-1/picture.png",
		"/games/intro-1/impulses/G16-1/picture.png", "/api/games", "/api/games/intro-1", "/api/games/intro-1/impulses/G16-1"}
	tags := map[string]string{}
	for _, p := range paths {
		for _, enc := range []string{"", "gzip"} {
			first := get(h, "GET", p, "Accept-Encoding", enc)
			tag, mod := first.Header.Get("ETag"), first.Header.Get("Last-Modified")
			if first.StatusCode != 200 || tag == "" || mod == "" {
				t.Fatalf("%s: status %d, ETag %q, Last-Modified %q", p, first.StatusCode, tag, mod)
			}
			tags[p] = tag
			for _, cond := range [][]string{{"If-None-Match", tag}, {"If-None-Match", `"x", ` + tag}, {"If-Modified-Since", mod}} {
				resp := get(h, "GET", p, "Accept-Encoding", enc, cond[0], cond[1])
				if resp.StatusCode != http.StatusNotModified || len(readBody(t, resp)) != 0 {
					t.Errorf("%s (%s) with %s: %d, want 304", p, enc, cond[0], resp.StatusCode)
				}
			}
			if resp := get(h, "GET", p, "Accept-Encoding", enc, "If-None-Match", `"j1-other"`); resp.StatusCode != 200 {
				t.Errorf("%s with another ETag: %d", p, resp.StatusCode)
			}
		}
	}
	// A client holding the page gzipped that asks without gzip has the
	// same page: 304, with nothing said of an encoding.
	gz := get(h, "GET", "/games/intro-1", "Accept-Encoding", "gzip").Header.Get("ETag")
	if resp := get(h, "GET", "/games/intro-1", "If-None-Match", gz); resp.StatusCode != http.StatusNotModified ||
		resp.Header.Get("Content-Encoding") != "" || resp.Header.Get("Content-Type") != "" {
		t.Errorf("the gzipped page's ETag asked without gzip: %d, %v", resp.StatusCode, resp.Header)
	}
	// An impulse later, the pages of the game change; the pictures of the
	// impulses played do not.
	js.play(t, "intro-1", 1)
	for _, p := range paths {
		resp := get(h, "GET", p, "If-None-Match", tags[p])
		unchanged := strings.HasSuffix(p, "/impulses/G16-1/picture.png")
		if got := resp.StatusCode == http.StatusNotModified; got != unchanged {
			t.Errorf("%s after an impulse: %d", p, resp.StatusCode)
		}
	}
}

// Text is gzipped when the client takes it; pictures never are.
func TestJournalGzip(t *testing.T) {
	js := newJournalStore(t)
	js.newGame(t, "intro-1", "intro", true)
	js.play(t, "intro-1", 2)
	h := js.journal(t, nil)
	tests := []struct {
		path, accept string
		gzipped      bool
	}{
		{"/", "gzip, deflate, br", true},
		{"/games/intro-1", "gzip", true},
		{"/games/intro-1", "br;q=1.0, gzip;q=0.8", true},
		{"/games/intro-1", "*", true},
		{"/api/games/intro-1", "gzip", true},
		{"/games/intro-1", "", false},
		{"/games/intro-1", "gzip;q=0", false},
		{"/games/intro-1", "br", false},
		{"/games/intro-1", "*;q=0", false},
		{"/games/intro-1/picture.png", "gzip", false},
	}
	for _, tt := range tests {
		resp := get(h, "GET", tt.path, "Accept-Encoding", tt.accept)
		got := resp.Header.Get("Content-Encoding") == "gzip"
		body := readBody(t, resp)
		if got != tt.gzipped || resp.StatusCode != 200 {
			t.Errorf("%s with Accept-Encoding %q: gzipped %v, status %d", tt.path, tt.accept, got, resp.StatusCode)
		}
		if plain := readBody(t, get(h, "GET", tt.path)); body != plain {
			t.Errorf("%s: the gzipped answer is not the page", tt.path)
		}
		if !strings.HasSuffix(tt.path, ".png") && !slices.Contains(resp.Header.Values("Vary"), "Accept-Encoding") {
			t.Errorf("%s: no Vary: Accept-Encoding", tt.path)
		}
	}
}

// Nothing can be written: every method but GET and HEAD is refused with a
// page, and HEAD answers as GET without the body.
func TestJournalReadOnly(t *testing.T) {
	js := newJournalStore(t)
	js.newGame(t, "intro-1", "intro", true)
	h := js.journal(t, nil)
	for _, m := range []string{"POST", "PUT", "DELETE", "PATCH", "OPTIONS"} {
		for _, p := range []string{"/", "/games/intro-1", "/api/games", "/nosuch"} {
			resp := get(h, m, p)
			if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != "GET, HEAD" ||
				resp.Header.Get("Content-Type") != "text/html; charset=utf-8" || !strings.Contains(readBody(t, resp), "read only") {
				t.Errorf("%s %s: %d, Allow %q", m, p, resp.StatusCode, resp.Header.Get("Allow"))
			}
		}
	}
	g, head := get(h, "GET", "/games/intro-1"), get(h, "HEAD", "/games/intro-1")
	if head.StatusCode != 200 || len(readBody(t, head)) != 0 || head.Header.Get("ETag") != g.Header.Get("ETag") ||
		head.Header.Get("Content-Length") != g.Header.Get("Content-Length") {
		t.Errorf("HEAD: %d, %v; GET: %v", head.StatusCode, head.Header, g.Header)
	}
}

// links are the journal's URLs a page or a JSON answer names.
var hrefs = regexp.MustCompile(`(?:href|src)="(/[^"#]*)"`)

func linksOf(ctype, body string) []string {
	var out []string
	switch {
	case strings.HasPrefix(ctype, "text/html"):
		for _, m := range hrefs.FindAllStringSubmatch(body, -1) {
			out = append(out, html.UnescapeString(m[1]))
		}
	case ctype == "application/json":
		var v any
		json.Unmarshal([]byte(body), &v)
		var walk func(any)
		walk = func(v any) {
			switch v := v.(type) {
			case string:
				if strings.HasPrefix(v, "/") && !strings.Contains(v, " ") {
					out = append(out, v)
				}
			case []any:
				for _, x := range v {
					walk(x)
				}
			case map[string]any:
				for _, x := range v {
					walk(x)
				}
			}
		}
		walk(v)
	}
	return out
}

// crawl follows every link and URL of the journal from its first page,
// and checks every answer: a 200, and none of the secrets in it (the
// export of a finished game aside for the standing orders, which the game's
// end makes public).
func crawl(t *testing.T, h http.Handler, secrets map[string]string) map[string]string {
	t.Helper()
	seen := map[string]string{}
	queue := []string{"/", "/api/games", "/director", "/api/director"}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if _, ok := seen[p]; ok {
			continue
		}
		resp := get(h, "GET", p, "Accept-Encoding", "gzip")
		body := readBody(t, resp)
		seen[p] = body
		if resp.StatusCode != 200 {
			t.Errorf("%s: %d", p, resp.StatusCode)
			continue
		}
		var headers strings.Builder
		resp.Header.Write(&headers)
		for name, s := range secrets {
			if strings.Contains(body, s) || strings.Contains(headers.String(), s) {
				if strings.HasSuffix(p, "/export.json") && strings.Contains(name, "standing orders") {
					continue
				}
				t.Errorf("%s shows %s (%q)", p, name, s)
			}
		}
		queue = append(queue, linksOf(resp.Header.Get("Content-Type"), body)...)
	}
	return seen
}

// A crawl of the whole journal, mid-game and after the end, finds no token
// or its hash, no address, no standing order and no seed before the end.
func TestJournalCrawlKeepsSecrets(t *testing.T) {
	js := newJournalStore(t)
	js.newGame(t, "intro-1", "intro", true)
	js.play(t, "intro-1", 5)
	js.newGame(t, "intro-2", "intro", false)
	// A player who joined a game still forming: his seed waits for the
	// other's.
	const waiting = "a seed kept until the other joins"
	js.change(t, "intro-2", func(g *adjudicator.Game, _ []adjudicator.Record) ([]adjudicator.Record, error) {
		return g.Join(rules.German, waiting, js.now())
	})
	h := js.journal(t, nil)
	// The secrets the crawl looks for are there to find: the log holds
	// both sides' standing orders.
	var log []adjudicator.Record
	js.st.View(func(tx *store.Tx) (err error) { log, err = tx.Log("intro-1"); return err })
	for side, text := range journalStanding {
		if !slices.ContainsFunc(log, func(r adjudicator.Record) bool { return strings.Contains(r.Text, text) }) {
			t.Fatalf("the log lacks the %s standing orders %q", side, text)
		}
	}

	secrets := js.secretsOf(t)
	secrets["a seed before the game begins"] = waiting
	seen := crawl(t, h, secrets)
	for _, want := range []string{"/games/intro-1", "/games/intro-1/replay?impulse=G16-3", "/games/intro-1/impulses/G16-3/picture.png",
		"/api/games/intro-1/impulses/G16-3", "/games/intro-2/picture.png"} {
		if _, ok := seen[want]; !ok {
			t.Errorf("the crawl did not reach %s", want)
		}
	}
	t.Logf("mid-game: %d URLs", len(seen))

	js.play(t, "intro-1", -1)
	seen = crawl(t, h, js.secretsOf(t))
	page := seen["/games/intro-1"]
	if !strings.Contains(page, js.secrets["intro-1"]) || !strings.Contains(page, "Verified by the referee") {
		t.Error("the finished game's page lacks its seed or the stamp")
	}
	if export, ok := seen["/games/intro-1/export.json"]; !ok || !strings.Contains(export, journalStanding[rules.Allied]) {
		t.Error("the crawl did not reach the export, or it lacks the standing orders")
	}
	t.Logf("finished: %d URLs", len(seen))
}

// With show_addresses, the addresses are shown.
func TestJournalShowAddresses(t *testing.T) {
	js := newJournalStore(t)
	js.newGame(t, "intro-1", "intro", true)
	js.play(t, "intro-1", 1)
	h := js.journal(t, &journal.Options{ShowAddresses: true})
	for _, p := range []string{"/", "/games/intro-1", "/api/games/intro-1"} {
		if body := readBody(t, get(h, "GET", p)); !strings.Contains(body, journalGerman) {
			t.Errorf("%s lacks the German player's address", p)
		}
	}
	if body := readBody(t, get(h, "GET", "/games/intro-1")); !strings.Contains(body, journalObserver) {
		t.Error("the game's page lacks its observer")
	}
}

// The daemon's listener serves the journal beside its health.
func TestWebServesJournal(t *testing.T) {
	js := newJournalStore(t)
	js.newGame(t, "intro-1", "intro", true)
	status := func() (*mail.Status, error) { return &mail.Status{Healthy: true}, nil }
	wb, err := daemon.StartWeb("127.0.0.1:0", status, js.journal(t, nil), slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer wb.Close()
	for p, want := range map[string]string{"/health": `"healthy": true`, "/": "intro-1", "/games/intro-1": "<h1>Game intro-1"} {
		resp, err := http.Get("http://" + wb.Addr() + p)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !bytes.Contains(body, []byte(want)) {
			t.Errorf("%s: %d\n%.300s", p, resp.StatusCode, body)
		}
	}
}

// Standing orders given out of turn change no page: not the ETags, the
// dates or the heads shown, which would tell the other player that some
// were given.
func TestJournalStandingOrdersUnseen(t *testing.T) {
	js := newJournalStore(t)
	js.newGame(t, "intro-1", "intro", true)
	js.play(t, "intro-1", 2)
	paths := []string{"/", "/api/games", "/games/intro-1", "/api/games/intro-1", "/games/intro-1/picture.png", "/api/games/intro-1/impulses/A16-1"}
	read := func(h http.Handler) map[string]string {
		out := map[string]string{}
		for _, p := range paths {
			resp := get(h, "GET", p)
			out[p] = resp.Header.Get("ETag") + " " + resp.Header.Get("Last-Modified") + "\n" + readBody(t, resp)
		}
		return out
	}
	h := js.journal(t, nil)
	before := read(h)
	if g := js.game(t, "intro-1"); g.ToMove() != rules.German {
		t.Fatalf("%s to move", g.ToMove())
	}
	js.change(t, "intro-1", func(g *adjudicator.Game, _ []adjudicator.Record) ([]adjudicator.Record, error) {
		recs, _, err := g.Submit(rules.Allied, "BLOW ALL\n", js.now())
		return recs, err
	})
	for name, h := range map[string]http.Handler{"the same journal": h, "a new journal": js.journal(t, nil)} {
		after := read(h)
		for _, p := range paths {
			if after[p] != before[p] {
				t.Errorf("%s: %s changed with the Allied standing orders", name, p)
			}
		}
	}
	js.play(t, "intro-1", 1)
	after := read(h)
	if strings.Contains(after["/api/games/intro-1"], `"record`) {
		t.Error("the game's JSON numbers its records before the end")
	}
	for _, p := range paths[:4] {
		if after[p] == before[p] {
			t.Errorf("%s did not change with an impulse", p)
		}
	}
}

// docs/journal.md documents every field of the JSON answers.
func TestJournalDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../docs/journal.md")
	if err != nil {
		t.Fatal(err)
	}
	js := journalGames(t)
	keys := map[string]bool{}
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case []any:
			for _, x := range v {
				walk(x)
			}
		case map[string]any:
			for k, x := range v {
				keys[k] = true
				walk(x)
			}
		}
	}
	h := js.journal(t, &journal.Options{ShowAddresses: true})
	for _, p := range []string{"/api/games", "/api/games/intro-1", "/api/games/three-days-1", "/api/games/intro-2", "/api/games/intro-1/impulses/A16-1",
		"/api/players", "/api/players/" + journalGerman, "/api/director"} {
		var v any
		if err := json.Unmarshal([]byte(readBody(t, get(h, "GET", p))), &v); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		walk(v)
	}
	for k := range keys {
		if k == "german" || k == "allied" {
			continue
		}
		if !strings.Contains(string(doc), "`"+k+"`") {
			t.Errorf("docs/journal.md does not document the field %s", k)
		}
	}
}

// Readers at once, while the game goes on: every answer is whole, and the
// cache builds each page once (go test -race checks the rest).
func TestJournalConcurrent(t *testing.T) {
	js := newJournalStore(t)
	js.newGame(t, "intro-1", "intro", true)
	js.play(t, "intro-1", 1)
	h := js.journal(t, nil)
	paths := []string{"/", "/api/games", "/games/intro-1", "/api/games/intro-1", "/games/intro-1/picture.png",
		"/games/intro-1/replay?impulse=G16-1", "/api/games/intro-1/impulses/G16-1", "/games/intro-1/impulses/G16-1/picture.png"}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			for n := 0; ; n++ {
				if n >= len(paths) {
					select {
					case <-stop:
						return
					default:
					}
				}
				p := paths[(i+n)%len(paths)]
				resp := get(h, "GET", p, "Accept-Encoding", "gzip")
				if body := readBody(t, resp); resp.StatusCode != 200 || len(body) == 0 {
					t.Errorf("%s: %d", p, resp.StatusCode)
				}
			}
		})
	}
	js.play(t, "intro-1", 3)
	close(stop)
	wg.Wait()
}

// Each impulse's report is the one the players and observers received,
// as titm report writes it again, to the letter.
func TestJournalReportsAsMailed(t *testing.T) {
	js := newJournalStore(t)
	js.newGame(t, "intro-1", "intro", true)
	js.play(t, "intro-1", -1)
	h := js.journal(t, nil)
	impulses := []string{"G16-1", "A16-2", "G17-2", "A18-3"}
	reports, pages := map[string]string{}, map[string]string{}
	for _, imp := range impulses {
		var got struct{ Report string }
		if err := json.Unmarshal([]byte(readBody(t, get(h, "GET", "/api/games/intro-1/impulses/"+imp))), &got); err != nil {
			t.Fatal(err)
		}
		reports[imp] = got.Report
		pages[imp] = readBody(t, get(h, "GET", "/games/intro-1/replay?impulse="+imp))
	}
	js.st.Close() // titm report opens the store itself
	for _, imp := range impulses {
		want := strings.TrimRight(mustRun(t, "report", "intro-1", "--db", js.db, "--impulse", imp), "\n")
		if strings.TrimRight(reports[imp], "\n") != want {
			t.Errorf("%s: the journal's report differs from titm report's:\n%s\n---\n%s", imp, reports[imp], want)
		}
		if !strings.Contains(pages[imp], html.EscapeString(want)) {
			t.Errorf("%s: the replay's page lacks the report", imp)
		}
	}
}
