package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"titm/adjudicator"
	"titm/adjudicator/tournament"
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
	mustRun(t, "tournament", "replace", "--db", db, id, "Cleo", "dora@example.test", "--name", "Dora", "--reason", "moved away")
	concede := filepath.Join(dir, "concede.txt")
	os.WriteFile(concede, []byte("CONCEDE\n"), 0o600)
	var shown struct {
		Tournament *tournament.Tournament `json:"tournament"`
	}
	var games []string
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

	full := filepath.Join(dir, "full.json")
	mustRun(t, "tournament", "export", "--db", db, id, "-o", full)
	data, _ := os.ReadFile(full)
	for _, a := range publicAddresses {
		if !strings.Contains(string(data), a) {
			t.Errorf("the full export lacks %s", a)
		}
	}
	out = mustRun(t, "verify", full)
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

	// An address changed in the full export, in the tournament's table or
	// in a game's header, with everything else as it was: verify names it.
	x, err := tournament.ReadExport(strings.NewReader(string(mustRead(t, full))))
	if err != nil {
		t.Fatal(err)
	}
	for c, a := range x.Addresses {
		if a == "bert@example.test" {
			x.Addresses[c] = "bart@example.test"
		}
	}
	forged, _ := json.Marshal(x)
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
