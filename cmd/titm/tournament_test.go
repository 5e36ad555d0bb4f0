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
	"strconv"
	"strings"
	"testing"
	"time"

	"titm/adjudicator/journal"
	"titm/adjudicator/tournament"
	"titm/mail"
	"titm/store"
)

const cupFile = `name = "Ardennes Cup"
director = "td@example.test"
scenario = "intro"
format = "round-robin"
sides = "random"
deadline = "48h"

[[player]]
name = "Anna"
address = "anna@example.test"

[[player]]
name = "Bert"
address = "bert@example.test"

[[player]]
name = "Cleo"
address = "cleo@example.test"
`

// The tournament commands on a store: new, show, adjudicate, withdraw,
// export and verify, ratings; a file with problems gives each with its
// line.
func TestTournamentCommands(t *testing.T) {
	t.Parallel()
	fixClock(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "titm.db")
	bad := filepath.Join(dir, "bad.toml")
	os.WriteFile(bad, []byte(strings.Replace(strings.Replace(cupFile, `"intro"`, `"atlantis"`, 1), "cleo@", "bert@", 1)), 0o600)
	code, out, errs := runT(t, "tournament", "new", "--db", db, bad)
	if code == exitOK || !strings.Contains(out+errs, `bad.toml:3: unknown scenario "atlantis"`) || !strings.Contains(out+errs, `bad.toml:16: player "Cleo" repeats the address of the player at line 12`) {
		t.Errorf("a bad file: exit %d\n%s%s", code, out, errs)
	}
	file := filepath.Join(dir, "cup.toml")
	os.WriteFile(file, []byte(cupFile), 0o600)
	out = mustRun(t, "tournament", "new", "--db", db, file)
	m := regexp.MustCompile(`tournament (\S+) made: 3 players, round-robin, 3 rounds`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("tournament new:\n%s", out)
	}
	id := m[1]
	out = mustRun(t, "tournament", "show", "--db", db, id)
	for _, want := range []string{"Ardennes Cup (" + id + "): round-robin, 3 rounds, sides random, running", "Round 1 (intro):", ": a bye", "(German) v ", "rank player"} {
		if !strings.Contains(out, want) {
			t.Errorf("show lacks %q:\n%s", want, out)
		}
	}
	var shown struct {
		Tournament *tournament.Tournament `json:"tournament"`
		Standings  []tournament.Standing  `json:"standings"`
	}
	if err := json.Unmarshal([]byte(mustRun(t, "tournament", "show", "--db", db, id, "--json")), &shown); err != nil {
		t.Fatal(err)
	}
	if len(shown.Standings) != 3 || shown.Tournament.Entrants[0].TokenHash != "" {
		t.Errorf("show --json: %d standings, token hash %q (want none shown)", len(shown.Standings), shown.Tournament.Entrants[0].TokenHash)
	}
	// The one game of round 1 stalls: the director makes it a draw.
	var game string
	for _, p := range shown.Tournament.Rounds[0].Pairings {
		if !p.Bye() {
			game = p.Game
		}
	}
	if code, out, errs := runT(t, "tournament", "adjudicate", "--db", db, id, game, "draw"); code != exitUsage {
		t.Errorf("adjudicate without a reason: exit %d %s%s", code, out, errs)
	}
	mustRun(t, "tournament", "adjudicate", "--db", db, id, game, "draw", "--reason", "neither player answers")
	// Round 2 is paired; Cleo withdraws, and his game is his forfeit.
	mustRun(t, "tournament", "withdraw", "--db", db, id, "Cleo", "--reason", "ill")
	json.Unmarshal([]byte(mustRun(t, "tournament", "show", "--db", db, id, "--json")), &shown)
	if n := len(shown.Tournament.Rounds); n != 3 {
		t.Fatalf("%d rounds paired after the draw and the withdrawal, want 3", n)
	}
	// Round 3: Anna and Bert; Bert's side concedes.
	var p3 *tournament.Pairing
	for _, p := range shown.Tournament.Rounds[2].Pairings {
		if !p.Bye() {
			p3 = p
		}
	}
	if p3 == nil {
		t.Fatalf("round 3: %+v", shown.Tournament.Rounds[2].Pairings)
	}
	bert := p3.A
	if shown.Tournament.Entrants[bert].Name != "Bert" {
		bert = p3.B
	}
	mustRun(t, "join", "--db", db, p3.Game, "--side", "german")
	mustRun(t, "join", "--db", db, p3.Game, "--side", "allied")
	concede := filepath.Join(dir, "concede.txt")
	os.WriteFile(concede, []byte("CONCEDE\n"), 0o600)
	mustRun(t, "play", "--db", db, p3.Game, "--side", string(p3.SideOf(bert)), "--orders", concede)
	out = mustRun(t, "tournament", "show", "--db", db, id)
	if !strings.Contains(out, "finished") || !strings.Contains(out, "after 3 of 3 rounds: final") {
		t.Errorf("after the last game:\n%s", out)
	}
	x := filepath.Join(dir, "cup.json")
	mustRun(t, "tournament", "export", "--db", db, id, "-o", x)
	if out := mustRun(t, "verify", x); !strings.Contains(out, "verified: tournament "+id+": ") || !strings.Contains(out, "3 side decisions, 3 games") {
		t.Errorf("verify:\n%s", out)
	}
	checkForgedCLI(t, x)
	// A changed side decision fails.
	data, _ := os.ReadFile(x)
	// The first side decision's die: every tournament of random sides has
	// one, whichever way it fell.
	text := string(data)
	at := strings.Index(text, `"kind": "sides"`)
	var roll []int
	if at >= 0 {
		roll = regexp.MustCompile(`"roll": (\d+)`).FindStringSubmatchIndex(text[at:])
	}
	if roll == nil {
		t.Fatalf("no side decision's die in the export:\n%s", text)
	}
	n, _ := strconv.Atoi(text[at+roll[2] : at+roll[3]])
	text = text[:at+roll[2]] + strconv.Itoa(n%10+1) + text[at+roll[3]:]
	os.WriteFile(x, []byte(text), 0o600)
	if code, out, _ := runT(t, "verify", x); code != exitProblems || !strings.Contains(out, "NOT verified") {
		t.Errorf("a changed export: exit %d\n%s", code, out)
	}
	var rs []tournament.Rating
	if err := json.Unmarshal([]byte(mustRun(t, "ratings", "--db", db, "--json")), &rs); err != nil {
		t.Fatal(err)
	}
	// Cleo's games were not played out on the board (the director's draw
	// and his withdrawal): the ratings leave them out, and him with them.
	if len(rs) != 2 || rs[0].Player == "cleo@example.test" || rs[1].Player == "cleo@example.test" {
		t.Errorf("ratings of %d players, want Anna and Bert: %+v", len(rs), rs)
	}
	if out := mustRun(t, "ratings", "--db", db); !strings.Contains(out, "rating") {
		t.Errorf("ratings:\n%s", out)
	}
}

// A tournament's acts tell the players the same by mail as by the command
// line: made, paused, a player withdrawn.
func TestTournamentDoorsAlike(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	prepare := func(name string) string {
		p := filepath.Join(dir, name+".db")
		st, err := store.Open(p, nil)
		if err != nil {
			t.Fatal(err)
		}
		st.Update(func(tx *store.Tx) error { return mail.StoreReferee(tx, doorsConfig(t, p, "")) })
		st.Close()
		return p
	}
	file := strings.Replace(cupFile, `"random"`, `"alternate"`, 1)
	path := filepath.Join(dir, "cup.toml")
	os.WriteFile(path, []byte(file), 0o600)
	const id = "ardennes-cup-1"
	steps := []step{
		{name: "new", from: dDirector, mail: "TOKEN " + dDirToken + "\nNEW TOURNAMENT\n" + file + "END", cmd: []string{"tournament", "new", path}},
		{name: "pause", from: dDirector, mail: "TOKEN " + dDirToken + "\nTOURNAMENT PAUSE " + id + " a player is ill", cmd: []string{"tournament", "pause", id, "--reason", "a player is ill"}},
		{name: "withdraw", from: dDirector, mail: "TOKEN " + dDirToken + "\nTOURNAMENT WITHDRAW " + id + " cleo@example.test ill", cmd: []string{"tournament", "withdraw", id, "cleo@example.test", "--reason", "ill"}},
	}
	mdb, cdb := prepare("mail"), prepare("cli")
	mst, err := store.Open(mdb, nil)
	if err != nil {
		t.Fatal(err)
	}
	md := &mailDoor{st: mst, h: mail.NewHandler(doorsConfig(t, mdb, ""), quiet)}
	var cnow time.Time
	cd := &cliDoor{db: cdb, now: &cnow, dir: t.TempDir()}
	secrets := regexp.MustCompile(`[0-9a-f]{64}|[a-z0-9]{4}(-[a-z0-9]{4}){4}`)
	var mrecs, mbox, crecs, cbox int
	now := time.Date(2026, 12, 16, 6, 0, 0, 0, time.UTC)
	for _, s := range steps {
		now = now.Add(time.Hour)
		md.act(t, s, now)
		byMail := observe(t, mst, "", &mrecs, &mbox)
		cd.act(t, s, now)
		cst, err := store.Open(cdb, &store.Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		byCmd := observe(t, cst, "", &crecs, &cbox)
		cst.Close()
		a := secrets.ReplaceAllString(strings.Join(byMail.Mails, "\n----\n"), "(secret)")
		b := secrets.ReplaceAllString(strings.Join(byCmd.Mails, "\n----\n"), "(secret)")
		if a != b || len(byMail.Mails) == 0 {
			t.Errorf("%s: the mails by the command differ from those by mail:\n%s\nby mail:\n%s", s.name, b, a)
		}
	}
	mst.Close()
}

// show lists a sealed bid as in, without its side or VP, until the sides
// are decided.
func TestTournamentShowSealedBid(t *testing.T) {
	tr := &tournament.Tournament{Entrants: []*tournament.Entrant{{Name: "Anna"}, {Name: "Bert"}}}
	p := &tournament.Pairing{A: 0, B: 1, German: -1, Sealed: [2]bool{false, true}}
	if got, want := pairingLine(tr, 1, p), "Anna v Bert: waiting for the bids, Bert's is in"; got != want {
		t.Errorf("pairing line %q, want %q", got, want)
	}
}

// A pairing a withdrawal ended before its game was made shows no sides
// and no game: whose forfeit it is, and its points.
func TestTournamentShowUnmade(t *testing.T) {
	tr := &tournament.Tournament{Entrants: []*tournament.Entrant{{Name: "Anna"}, {Name: "Bert"}}}
	p := &tournament.Pairing{A: 0, B: 1, German: -1, Points: [2]float64{0, 1}, How: "forfeit", Done: true}
	if got, want := pairingLine(tr, 1, p), "Anna v Bert: no game, Anna withdrew: forfeit, 0-1"; got != want {
		t.Errorf("pairing line %q, want %q", got, want)
	}
}

// After a replacement, show, its JSON and the journal name the player
// replaced in the rounds he played, the new one in his, and tell the
// replacement under the standings.
func TestTournamentShowReplaced(t *testing.T) {
	t.Parallel()
	fixClock(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "titm.db")
	file := filepath.Join(dir, "cup.toml")
	os.WriteFile(file, []byte(cupFile), 0o600)
	out := mustRun(t, "tournament", "new", "--db", db, file)
	id := regexp.MustCompile(`tournament (\S+) made`).FindStringSubmatch(out)[1]
	var shown struct {
		Tournament *tournament.Tournament `json:"tournament"`
		Standings  []tournament.Standing  `json:"standings"`
	}
	json.Unmarshal([]byte(mustRun(t, "tournament", "show", "--db", db, id, "--json")), &shown)
	var p1 *tournament.Pairing
	for _, p := range shown.Tournament.Rounds[0].Pairings {
		if !p.Bye() {
			p1 = p
		}
	}
	old := shown.Tournament.Entrants[p1.A].Name
	mustRun(t, "tournament", "adjudicate", "--db", db, id, p1.Game, "draw", "--reason", "neither player answers")
	mustRun(t, "tournament", "replace", "--db", db, id, old, "hanna@example.test", "--name", "Hanna Ries", "--reason", "moved away")
	out = mustRun(t, "tournament", "show", "--db", db, id)
	round1, _, _ := strings.Cut(strings.SplitN(out, "Round 1 (intro):", 2)[1], "Round 2 (intro):")
	if !strings.Contains(round1, old) || strings.Contains(round1, "Hanna Ries") {
		t.Errorf("round 1 does not name %s, who played it:\n%s", old, out)
	}
	json.Unmarshal([]byte(mustRun(t, "tournament", "show", "--db", db, id, "--json")), &shown)
	// He plays from round 2, unless his round 2 is a bye, which is over
	// as soon as it is paired: then from round 3.
	from := 2
	for _, p := range shown.Tournament.Rounds[1].Pairings {
		if p.Bye() && p.Players[0][0].Name == old {
			from = 3
		}
	}
	want := fmt.Sprintf("Hanna Ries took the place of %s from round %d: moved away.", old, from)
	if !strings.Contains(out, want) {
		t.Errorf("show lacks %q:\n%s", want, out)
	}
	json.Unmarshal([]byte(mustRun(t, "tournament", "show", "--db", db, id, "--json")), &shown)
	q := shown.Tournament.Rounds[0].Pairings
	found := false
	for _, p := range q {
		for _, hs := range p.Players {
			for _, h := range hs {
				found = found || h.Name == old
			}
		}
	}
	if !found || len(shown.Tournament.Replacements) != 1 || shown.Tournament.Replacements[0].Old != old {
		t.Errorf("show --json: round 1 %+v, replacements %+v", q, shown.Tournament.Replacements)
	}
	before := false
	for _, s := range shown.Standings {
		before = before || len(s.Before) == 1 && s.Before[0] == old && s.Name == "Hanna Ries"
	}
	if !before {
		t.Errorf("show --json: the standings do not say whose place Hanna Ries took: %+v", shown.Standings)
	}
	st, err := store.Open(db, &store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv := httptest.NewServer(journal.New(storeJournal{st: st, log: slog.New(slog.DiscardHandler)}, nil))
	defer srv.Close()
	for _, path := range []string{"/tournaments/" + id, "/api/tournaments/" + id} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		page := string(b)
		var first string
		if path == "/tournaments/"+id {
			at := strings.Index(page, "Round 1:")
			if at < 0 {
				t.Fatalf("%s has no round 1:\n%s", path, page)
			}
			first = page[at:]
		} else {
			var v struct {
				Rounds []struct {
					Pairings []struct{ A, B string } `json:"pairings"`
				} `json:"round_list"`
			}
			if err := json.Unmarshal(b, &v); err != nil || len(v.Rounds) == 0 {
				t.Fatalf("%s: %v\n%s", path, err, page)
			}
			first = fmt.Sprint(v.Rounds[0].Pairings)
		}
		if !strings.Contains(first, old) || !strings.Contains(page, want) || strings.Contains(page, "hanna@") {
			t.Errorf("%s does not name %s in round 1, or lacks %q:\n%s", path, old, want, page)
		}
	}
}

// The VP given by the bids are told as the side that gives them: the
// Allied side giving 1 VP is not "German gives -1 VP".
func TestTournamentShowBidsGive(t *testing.T) {
	tr := &tournament.Tournament{Entrants: []*tournament.Entrant{{Name: "Anna"}, {Name: "Bert"}}}
	for _, c := range []struct {
		give int
		want string
	}{
		{-1, "Anna (German) v Bert (Allied), bids: the Allied side gives 1 VP"},
		{2, "Anna (German) v Bert (Allied), bids: the German side gives 2 VP"},
		{0, "Anna (German) v Bert (Allied)"},
	} {
		p := &tournament.Pairing{A: 0, B: 1, German: 0, Give: c.give}
		if got := pairingLine(tr, 1, p); got != c.want {
			t.Errorf("give %d: %q, want %q", c.give, got, c.want)
		}
	}
}

// checkForgedCLI forges the export file x as an auditor would, each
// forgery with the hash chain rebuilt after it (each record's hash, each
// prev, the head): round 2 pairs a player with himself; round 2 repeats
// round 1's pairing; a side decision's die is changed, with the side it
// decides. titm verify refuses each, naming the record forged.
func checkForgedCLI(t *testing.T, x string) {
	t.Helper()
	data, err := os.ReadFile(x)
	if err != nil {
		t.Fatal(err)
	}
	paired := func(y *tournament.Export, n int) int {
		for i, r := range y.Records {
			if r.Kind == tournament.KindPaired && r.Round == n {
				return i
			}
		}
		t.Fatalf("no round %d", n)
		return -1
	}
	for _, f := range []struct {
		name  string
		forge func(y *tournament.Export) int
	}{
		{"self-pairing", func(y *tournament.Export) int {
			i := paired(y, 2)
			y.Records[i].Pairs[0][1] = y.Records[i].Pairs[0][0]
			return i
		}},
		{"rematch", func(y *tournament.Export) int {
			i := paired(y, 2)
			y.Records[i].Pairs = y.Records[paired(y, 1)].Pairs
			return i
		}},
		{"changed die", func(y *tournament.Export) int {
			for i, r := range y.Records {
				if r.Kind == tournament.KindSides && len(r.Dice) == 1 {
					pr := y.Records[paired(y, r.Round)].Pairs[r.Pairing-1]
					y.Records[i].Dice[0].Value = 11 - r.Dice[0].Value
					y.Records[i].German = pr[0] + pr[1] + 2 - r.German
					return i
				}
			}
			t.Fatal("no side decision by a die")
			return -1
		}},
	} {
		y, err := tournament.ReadExport(strings.NewReader(string(data)))
		if err != nil {
			t.Fatal(err)
		}
		at := f.forge(y)
		prev := ""
		for i := range y.Records {
			y.Records[i].Prev = prev
			y.Records[i].Hash = tournament.RecordHash(y.Records[i])
			prev = y.Records[i].Hash
		}
		y.Head = prev
		forged := filepath.Join(filepath.Dir(x), f.name+".json")
		out, _ := json.Marshal(y)
		if err := os.WriteFile(forged, out, 0o600); err != nil {
			t.Fatal(err)
		}
		code, text, _ := runT(t, "verify", forged)
		if want := fmt.Sprintf("record %d", at); code != exitProblems || !strings.Contains(text, "NOT verified") || !strings.Contains(text, want) {
			t.Errorf("%s: exit %d, want %d and %q:\n%s", f.name, code, exitProblems, want, text)
		}
	}
}
