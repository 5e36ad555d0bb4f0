package main

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"titm/adjudicator"
	"titm/adjudicator/journal"
	"titm/adjudicator/tournament"
	"titm/store"
)

// The addresses of publicCup and its replacement: a public export holds
// none of them.
var publicAddresses = []string{"anna@example.test", "bert@example.test", "cleo@example.test", "td@example.test", "dora@example.test"}

// noAddress fails the test when data holds an address of the cup's, or
// an @ at all: the scenario's files hold none, so an @ is an address.
func noAddress(t *testing.T, what string, data []byte) {
	t.Helper()
	for _, a := range publicAddresses {
		if strings.Contains(string(data), a) {
			t.Errorf("%s holds %s", what, a)
		}
	}
	if i := strings.IndexByte(string(data), '@'); i >= 0 {
		t.Errorf("%s holds an @: %q", what, data[max(0, i-40):min(len(data), i+40)])
	}
}

// A tournament with a replacement, played out by the commands: its public
// export holds no address and verifies completely; its full export
// verifies and checks every address; a game's public export as well; and
// an address changed in a full export fails, naming it.
func TestPublicExports(t *testing.T) {
	t.Parallel()
	fixClock(t)
	dir := t.TempDir()
	db, id, games := playPublicCup(t, dir)

	full := filepath.Join(dir, "full.json")

	mustRun(t, "tournament", "export", "--db", db, id, "-o", full)
	data, _ := os.ReadFile(full)
	for _, a := range publicAddresses {
		if !strings.Contains(string(data), a) {
			t.Errorf("the full export lacks %s", a)
		}
	}
	out := mustRun(t, "verify", full)
	// Cleo was replaced in his game of round 1: its export gives the
	// address its log commits to, his, while Dora plays it.
	x, err := tournament.ReadExport(strings.NewReader(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	if g := x.Games[0]; g.German != "cleo@example.test" && g.Allied != "cleo@example.test" {
		t.Errorf("game %s's full export gives %s and %s, want Cleo's address, which its log commits to", g.ID, g.German, g.Allied)
	}
	if out := mustRun(t, "show", "--db", db, games[0]); !strings.Contains(out, "dora@example.test") || strings.Contains(out, "cleo@") {
		t.Errorf("game %s after the replacement:\n%s", games[0], out)
	}
	// 5 addresses of the tournament's log (the director, 3 players, the
	// replacement), and 2 of each of the 3 games' logs.
	if !strings.Contains(out, "verified: tournament "+id+": ") || !strings.Contains(out, "addresses: 11 checked against the log's commitments") {
		t.Errorf("verify of the full export:\n%s", out)
	}

	public := filepath.Join(dir, "public.json")
	mustRun(t, "tournament", "export", "--db", db, id, "--public", "-o", public)
	data, _ = os.ReadFile(public)
	noAddress(t, "the tournament's public export", data)
	out = mustRun(t, "verify", public)
	if !strings.Contains(out, "verified: tournament "+id+": 1") || !strings.Contains(out, "3 games") || !strings.Contains(out, "a public export: the log commits to 11 addresses") {
		t.Errorf("verify of the public export:\n%s", out)
	}

	// A game's players swapped in its public log, its chain hashed again:
	// the game verifies alone (its commitments are opaque), but not in
	// the tournament, whose pairing gives the sides the other way round.
	px, err := tournament.ReadExport(strings.NewReader(string(mustRead(t, public))))
	if err != nil {
		t.Fatal(err)
	}
	gx := px.Games[1]
	cs := gx.Records[0].AddressCommitments
	cs[0], cs[1] = cs[1], cs[0]
	prev := ""
	for i := range gx.Records {
		gx.Records[i].Prev = prev
		gx.Records[i].Hash = adjudicator.RecordHash(gx.Records[i])
		prev = gx.Records[i].Hash
	}
	gx.Head = prev
	if _, err := adjudicator.Verify(gx); err != nil {
		t.Errorf("the game with its players swapped, alone: %v", err)
	}
	forged, _ := json.Marshal(px)
	os.WriteFile(full, forged, 0o600)
	if code, out, _ := runT(t, "verify", full); code != exitProblems || !strings.Contains(out, "game "+gx.ID+"'s log does not commit to the address of") {
		t.Errorf("verify of a game whose players were swapped: exit %d\n%s", code, out)
	}

	// An address changed in the full export, in the tournament's table or
	// in a game's header, with everything else as it was: verify names it.
	for c, a := range x.Addresses {
		if a == "bert@example.test" {
			x.Addresses[c] = "bart@example.test"
		}
	}
	forged, _ = json.Marshal(x)
	os.WriteFile(full, forged, 0o600)
	if code, out, _ := runT(t, "verify", full); code != exitProblems || !strings.Contains(out, `"bart@example.test" as the address committed to as`) {
		t.Errorf("verify of a changed address: exit %d\n%s", code, out)
	}
	forged = []byte(strings.Replace(string(mustRead(t, public)), `"id": "`+games[1]+`",`, `"id": "`+games[1]+`", "german": "bart@example.test", "address_salt": "`+strings.Repeat("00", adjudicator.AddressSaltSize)+`",`, 1))
	os.WriteFile(full, forged, 0o600)
	if code, out, _ := runT(t, "verify", full); code != exitProblems || !strings.Contains(out, "game "+games[1]+": record 0 (created): the export gives the German player's address as \"bart@example.test\"") {
		t.Errorf("verify of an address added to a game: exit %d\n%s", code, out)
	}

	// A game's exports: the public one with no address, both verified.
	gameFull, gamePublic := filepath.Join(dir, "game.json"), filepath.Join(dir, "game-public.json")
	mustRun(t, "export", "--db", db, games[0], "-o", gameFull)
	mustRun(t, "export", "--db", db, games[0], "--public", "-o", gamePublic)
	data, _ = os.ReadFile(gamePublic)
	noAddress(t, "the game's public export", data)
	if out := mustRun(t, "verify", gameFull); !strings.Contains(out, "verified: ") || !strings.Contains(out, "addresses: 2 checked") {
		t.Errorf("verify of the game's full export:\n%s", out)
	}
	if out := mustRun(t, "verify", gamePublic); !strings.Contains(out, "verified: ") || !strings.Contains(out, "a public export: the log commits to 2 addresses") {
		t.Errorf("verify of the game's public export:\n%s", out)
	}
}

// playPublicCup plays out cupFile's tournament by the commands in dir,
// with Cleo replaced by Dora before his first game and every game
// conceded by the Allied side, and returns the store, the tournament's id
// and its games.
func playPublicCup(t *testing.T, dir string) (db, id string, games []string) {
	t.Helper()
	db = filepath.Join(dir, "titm.db")
	file := filepath.Join(dir, "cup.toml")
	os.WriteFile(file, []byte(cupFile), 0o600)
	out := mustRun(t, "tournament", "new", "--db", db, file)
	m := regexp.MustCompile(`tournament (\S+) made`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("tournament new:\n%s", out)
	}
	id = m[1]
	mustRun(t, "tournament", "replace", "--db", db, id, "Cleo", "dora@example.test", "--name", "Dora", "--reason", "moved away")
	concede := filepath.Join(dir, "concede.txt")
	os.WriteFile(concede, []byte("CONCEDE\n"), 0o600)
	var shown struct {
		Tournament *tournament.Tournament `json:"tournament"`
	}
	for n := 0; n < 3; n++ {
		json.Unmarshal([]byte(mustRun(t, "tournament", "show", "--db", db, id, "--json")), &shown)
		if len(shown.Tournament.Rounds) != n+1 {
			t.Fatalf("round %d: %d rounds paired", n+1, len(shown.Tournament.Rounds))
		}
		for _, p := range shown.Tournament.Rounds[n].Pairings {
			if p.Bye() {
				continue
			}
			mustRun(t, "join", "--db", db, p.Game, "--side", "german")
			mustRun(t, "join", "--db", db, p.Game, "--side", "allied")
			mustRun(t, "play", "--db", db, p.Game, "--side", "allied", "--orders", concede)
			games = append(games, p.Game)
		}
	}
	if len(games) != 3 {
		t.Fatalf("%d games played, want 3", len(games))
	}
	return db, id, games
}

func mustRead(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// The exports titm wrote before logs committed to addresses verify as
// they did, and say nothing of addresses.
func TestOldExportsVerify(t *testing.T) {
	for _, c := range []struct{ file, want string }{
		{"game-v1.json", "verified: 1 impulses, 0 dice\n"},
		{"tournament-v1.json", "verified: tournament test-cup-1: 18 records, 3 side decisions, 3 games with 1 impulses, 3 dice\n"},
	} {
		if out := mustRun(t, "verify", filepath.Join("..", "..", "testdata", "export", c.file)); out != c.want {
			t.Errorf("verify %s: %q, want %q", c.file, out, c.want)
		}
	}
	// A tournament whose log holds the addresses has no public export.
	x, err := tournament.ReadExport(strings.NewReader(string(mustRead(t, filepath.Join("..", "..", "testdata", "export", "tournament-v1.json")))))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := x.Public(); err == nil || !strings.Contains(err.Error(), "no public export") {
		t.Errorf("the public export of a tournament of before: %v", err)
	}
}

// The journal offers the public export of a finished tournament and of
// each of its games for download: no address is in them, and they verify
// with tournament.Verify, adjudicator.Verify and titm verify. Before the
// end, and for a tournament whose log holds its players' addresses, it has
// none.
func TestJournalPublicExports(t *testing.T) {
	t.Parallel()
	fixClock(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "titm.db")
	file := filepath.Join(dir, "cup.toml")
	os.WriteFile(file, []byte(cupFile), 0o600)
	m := regexp.MustCompile(`tournament (\S+) made`).FindStringSubmatch(mustRun(t, "tournament", "new", "--db", db, file))
	if m == nil {
		t.Fatal("no tournament made")
	}
	showAddresses := false
	serve := func() (*httptest.Server, func()) {
		st, err := store.Open(db, &store.Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(journal.New(storeJournal{st: st, log: slog.New(slog.DiscardHandler)}, &journal.Options{ShowAddresses: showAddresses}))
		return srv, func() { srv.Close(); st.Close() }
	}
	fetch := func(srv *httptest.Server, path string) (int, http.Header, []byte) {
		t.Helper()
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header, b
	}
	srv, done := serve()
	if code, _, body := fetch(srv, "/tournaments/"+m[1]+"/export.json"); code != http.StatusNotFound || !strings.Contains(string(body), "when the tournament is over") {
		t.Errorf("the export of a tournament in play: %d\n%s", code, body)
	}
	done()

	db, id, games := playPublicCup(t, t.TempDir())
	srv, done = serve()
	defer done()
	_, _, page := fetch(srv, "/tournaments/"+id)
	if !strings.Contains(string(page), `<a href="/tournaments/`+id+`/export.json" download>`) {
		t.Errorf("the tournament's page has no link to its export:\n%s", page)
	}
	if _, _, api := fetch(srv, "/api/tournaments/"+id); !strings.Contains(string(api), `"export": "/tournaments/`+id+`/export.json"`) {
		t.Errorf("the tournament's JSON has no export:\n%s", api)
	}
	code, h, data := fetch(srv, "/tournaments/"+id+"/export.json")
	if code != http.StatusOK || h.Get("Content-Type") != "application/json" || h.Get("Content-Disposition") != `attachment; filename="`+id+`.json"` {
		t.Fatalf("the tournament's export: %d %v", code, h)
	}
	noAddress(t, "the journal's tournament export", data)
	x, err := tournament.ReadExport(strings.NewReader(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	v, err := tournament.Verify(x)
	if err != nil || v.Games != 3 || !v.DiceChecked || v.Addresses != 0 || v.Committed != 11 {
		t.Errorf("tournament.Verify of the journal's export: %+v, %v", v, err)
	}
	saved := filepath.Join(t.TempDir(), id+".json")
	os.WriteFile(saved, data, 0o600)
	if out := mustRun(t, "verify", saved); !strings.Contains(out, "verified: tournament "+id+": ") || !strings.Contains(out, "a public export: the log commits to 11 addresses") {
		t.Errorf("titm verify of the journal's export:\n%s", out)
	}
	for _, g := range games {
		code, _, data := fetch(srv, "/games/"+g+"/export.json")
		if code != http.StatusOK {
			t.Fatalf("game %s's export: %d", g, code)
		}
		noAddress(t, "the journal's export of game "+g, data)
		gx, err := adjudicator.ReadExport(strings.NewReader(string(data)))
		if err != nil {
			t.Fatal(err)
		}
		if v, err := adjudicator.Verify(gx); err != nil || v.Committed == 0 || v.Addresses != 0 || !v.DiceChecked {
			t.Errorf("adjudicator.Verify of game %s's export: %+v, %v", g, v, err)
		}
		saved := filepath.Join(t.TempDir(), g+".json")
		os.WriteFile(saved, data, 0o600)
		if out := mustRun(t, "verify", saved); !strings.HasPrefix(out, "verified: ") {
			t.Errorf("titm verify of game %s's export:\n%s", g, out)
		}
	}
	done()

	// With the addresses shown on its pages, the journal's exports are
	// the public ones all the same.
	showAddresses = true
	srv, done = serve()
	if _, _, page := fetch(srv, "/games/"+games[0]); !strings.Contains(string(page), "@example.test") {
		t.Error("show_addresses shows no address on the game's page")
	}
	for _, path := range []string{"/games/" + games[0] + "/export.json", "/tournaments/" + id + "/export.json"} {
		code, _, data := fetch(srv, path)
		if code != http.StatusOK {
			t.Errorf("%s with show_addresses: %d", path, code)
		}
		noAddress(t, path+" with show_addresses", data)
	}
	done()
	showAddresses = false

	// A tournament made before logs committed to addresses: its settings
	// have no commitment (its log, then, holds the addresses).
	st, err := store.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = st.Update(func(tx *store.Tx) error {
		tr, err := tx.Tournament(id)
		if err != nil {
			return err
		}
		tr.Salt, tr.DirectorCommitment = "", ""
		return tx.SaveTournament(tr)
	})
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	srv, done = serve()
	defer done()
	if code, _, body := fetch(srv, "/tournaments/"+id+"/export.json"); code != http.StatusNotFound || !strings.Contains(string(body), "before its log committed") {
		t.Errorf("the export of a tournament whose log holds the addresses: %d\n%s", code, body)
	}
	if _, _, page := fetch(srv, "/tournaments/"+id); strings.Contains(string(page), "export.json") || !strings.Contains(string(page), "is not published here") {
		t.Errorf("the page of a tournament whose log holds the addresses:\n%s", page)
	}
}
