package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"titm/adjudicator"
	"titm/internal/playtest"
	"titm/store"
)

// clocks holds the clock fixClock gave each test; runT runs the commands
// with it.
var clocks sync.Map // *testing.T → func() time.Time

// fixClock sets the game commands' clock for the test, one minute later at
// each reading.
func fixClock(t *testing.T) {
	t.Helper()
	at := time.Date(2026, 12, 16, 6, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	clocks.Store(t, func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		at = at.Add(time.Minute)
		return at
	})
	t.Cleanup(func() { clocks.Delete(t) })
}

// clockOf is the clock of a test: its fixed one, or the time.
func clockOf(t *testing.T) func() time.Time {
	if c, ok := clocks.Load(t); ok {
		return c.(func() time.Time)
	}
	return time.Now
}

func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	code, out, errs := runT(t, args...)
	if code != exitOK {
		t.Fatalf("titm %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errs)
	}
	return out
}

// newGame makes a game with `titm new --json` and returns its id and tokens.
func newGame(t *testing.T, db, scenario string) (string, map[string]string) {
	t.Helper()
	out := mustRun(t, "new", "--db", db, "--scenario", scenario, "--german", "German <G@Example.test>", "--allied", "a@example.test", "--deadline", "48h", "--json")
	var v struct {
		ID         string            `json:"id"`
		Commitment string            `json:"commitment"`
		Tokens     map[string]string `json:"tokens"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(v.Commitment) != 64 || len(v.Tokens["german"]) < 16 || v.Tokens["german"] == v.Tokens["allied"] {
		t.Fatalf("new --json: %s", out)
	}
	return v.ID, v.Tokens
}

// A game made, joined and played to its end from the command line; then
// exported and verified; games, show and dicelog tell about it.
func TestGameCommands(t *testing.T) {
	t.Parallel()
	fixClock(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "titm.db")
	id, tokens := newGame(t, db, "three-days")
	if id != "three-days-1" {
		t.Errorf("id %q", id)
	}
	out := mustRun(t, "games", "--db", db, "--json")
	if !strings.Contains(out, `: waiting for German and Allied to join"`) || !strings.Contains(out, `"german": "0 impulses, 0 missed, 0 extensions"`) {
		t.Errorf("games before JOIN:\n%s", out)
	}
	// Flags may come after the game's id.
	out = mustRun(t, "join", id, "--db", db, "--side", "german", "--seed", "dice of mine")
	if !strings.Contains(out, "waiting for the Allied player") {
		t.Errorf("join: %s", out)
	}
	out = mustRun(t, "join", "--side", "allied", "--db", db, id)
	if !strings.Contains(out, "the game begins; German impulse G16-1") {
		t.Errorf("join: %s", out)
	}
	// A wrong token is refused, nothing applied.
	orders := filepath.Join(dir, "orders.txt")
	os.WriteFile(orders, []byte("TOKEN "+tokens["allied"]+"\nIMPULSE 16-1\nENTRENCH 212/423\n"), 0o600)
	if code, _, errs := runT(t, "play", id, "--db", db, "--side", "german", "--orders", orders); code != exitProblems || !strings.Contains(errs, "had a TOKEN line that is not your token for") {
		t.Errorf("a wrong token: exit %d, %s", code, errs)
	}
	// Orders with errors: every error with its line, nothing applied.
	os.WriteFile(orders, []byte("IMPULSE 16-1\nMOVE 212/42 10\nENTRENCH nosuch\n"), 0o600)
	code, out, _ := runT(t, "play", id, "--db", db, "--side", "german", "--orders", orders)
	if code != exitProblems || !strings.Contains(out, "orders.txt:2:") || !strings.Contains(out, "orders.txt:3:") || !strings.Contains(out, "nothing applied") {
		t.Errorf("bad orders: exit %d\n%s", code, out)
	}
	// A line that does not read and a line the position refuses: both.
	os.WriteFile(orders, []byte("IMPULSE 16-1\nMOVE 352/914 23 24\nATACK 24\nMOVE 212/316 18 10\n"), 0o600)
	code, out, _ = runT(t, "play", id, "--db", db, "--side", "german", "--orders", orders)
	if code != exitProblems || !strings.Contains(out, "orders.txt:3:") || !strings.Contains(out, "orders.txt:4:") || !strings.Contains(out, "7.1 forbids") {
		t.Errorf("a parse error and a position's: exit %d\n%s", code, out)
	}
	// Standing orders from the side not to move are kept.
	os.WriteFile(orders, []byte("BLOW NONE\n"), 0o600)
	if out := mustRun(t, "play", id, "--db", db, "--side", "allied", "--orders", orders); !strings.Contains(out, "standing orders of the Allied player kept:\n  BLOW NONE") {
		t.Errorf("standing orders: %s", out)
	}
	// Impulse orders from the side not to move are refused.
	os.WriteFile(orders, []byte("IMPULSE 16-1\n"), 0o600)
	if code, _, errs := runT(t, "play", id, "--db", db, "--side", "allied", "--orders", orders); code != exitProblems || !strings.Contains(errs, "it is the German impulse G16-1") {
		t.Errorf("out of turn: exit %d, %s", code, errs)
	}
	// The director: pause, extend, resume, rollback.
	if code, _, errs := runT(t, "pause", id, "--db", db); code != exitUsage || !strings.Contains(errs, "--reason is required") {
		t.Errorf("pause without a reason: exit %d %s", code, errs)
	}
	mustRun(t, "pause", id, "--db", db, "--reason", "holiday")
	mustRun(t, "extend", id, "--db", db, "--reason", "holiday", "--by", "24h")
	if out := mustRun(t, "resume", id, "--db", db, "--reason", "back"); !strings.Contains(out, "playing; impulse G16-1") {
		t.Errorf("resume: %s", out)
	}
	// Play on to the end with legal orders for every impulse.
	var playedA16 bool
	for i := 0; i < 40; i++ {
		g := loadGame(t, db, id)
		if g.Status == adjudicator.Finished {
			break
		}
		s, _ := g.Rules()
		text, err := playtest.EveryAttack(s, g.State)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(orders, fmt.Appendf(nil, "GAME %s\nTOKEN %s\nIMPULSE %d-%d\n%s", id, tokens[string(g.ToMove())], g.State.Next.Day, g.State.Next.N, text), 0o600)
		mustRun(t, "play", "--db", db, "--side", string(g.ToMove()), "--orders", orders, id)
		if i == 4 {
			// B10: before the end, nothing a command prints shows the
			// game's seed.
			secret := fmt.Sprintf("%x", g.Secret())
			for _, args := range [][]string{{"show", id}, {"games", "--json"}, {"dicelog", id, "--csv"}, {"export", id}} {
				if out := mustRun(t, append(args, "--db", db)...); strings.Contains(out, secret) {
					t.Errorf("titm %s shows the seed before the end", args[0])
				}
			}
		}
		if g.State.Next.String() == "A16-1" && !playedA16 {
			playedA16 = true
			if out := mustRun(t, "rollback", id, "--db", db, "--to", "A16-1", "--reason", "a proven error"); !strings.Contains(out, "impulse A16-1") {
				t.Errorf("rollback: %s", out)
			}
		}
	}
	out = mustRun(t, "show", id, "--db", db)
	for _, want := range []string{"finished: ", "dice: seed ", "German g@example.test, joined", "log: "} {
		if !strings.Contains(out, want) {
			t.Errorf("show lacks %q:\n%s", want, out)
		}
	}
	// The reports, as the players received them.
	out = mustRun(t, "report", id, "--db", db)
	if !strings.Contains(out, "THE GAME IS OVER") || !strings.Contains(out, "The game's secret seed is revealed") {
		t.Errorf("the last report:\n%s", out)
	}
	out = mustRun(t, "report", id, "--db", db, "--impulse", "G16-2")
	if !strings.Contains(out, "Impulse G16-2, the German impulse 2 of 16 December") || strings.Contains(out, "THE GAME IS OVER") || !strings.Contains(out, "Next: the Allied impulse A16-2") {
		t.Errorf("the report of G16-2:\n%s", out)
	}
	export := filepath.Join(dir, "export.json")
	mustRun(t, "export", id, "--db", db, "-o", export)
	data, _ := os.ReadFile(export)
	for _, tok := range tokens {
		if strings.Contains(string(data), tok) || strings.Contains(string(data), adjudicator.HashToken(tok)) {
			t.Error("the export holds a token or its hash")
		}
	}
	out = mustRun(t, "verify", export)
	if !strings.HasPrefix(out, "verified: 19 impulses") || strings.HasPrefix(out, "verified: 19 impulses, 0 dice") || strings.Contains(out, "revealed when") {
		t.Errorf("verify: %s", out)
	}
	t.Log(strings.TrimSpace(out))
	// A receipt: the head of some report.
	var x adjudicator.Export
	json.Unmarshal(data, &x)
	if out := mustRun(t, "verify", "--head", x.Records[5].Hash, export); !strings.HasPrefix(out, "verified") {
		t.Errorf("verify with a receipt: %s", out)
	}
	if code, out, _ := runT(t, "verify", "--head", strings.Repeat("ab", 32), export); code != exitProblems || !strings.Contains(out, "not the one that receipt came from") {
		t.Errorf("verify with a foreign receipt: exit %d %s", code, out)
	}
	// One die changed: verify fails, naming it.
	for i, r := range x.Records {
		if len(r.Dice) > 0 {
			x.Records[i].Dice[0].Value = r.Dice[0].Value%10 + 1
			break
		}
	}
	bad, _ := json.Marshal(x)
	os.WriteFile(export, bad, 0o600)
	if code, out, _ := runT(t, "verify", export); code != exitProblems || !strings.Contains(out, "NOT verified") || !strings.Contains(out, "the dice stream gives") {
		t.Errorf("verify of a changed die: exit %d %s", code, out)
	}
	out = mustRun(t, "dicelog", id, "--db", db, "--csv")
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(rows) < 2 || strings.Join(rows[0], ",") != "record,impulse,die,purpose,roll,draw" {
		t.Errorf("dicelog --csv: %v\n%.300s", err, out)
	}
	out = mustRun(t, "games", "--db", db)
	if !strings.Contains(out, "three-days-1  three-days") || !strings.Contains(out, "finished: ") {
		t.Errorf("games:\n%s", out)
	}
}

func loadGame(t *testing.T, db, id string) *adjudicator.Game {
	t.Helper()
	s, err := store.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var g *adjudicator.Game
	if err := s.View(func(tx *store.Tx) error { g, err = tx.Game(id); return err }); err != nil {
		t.Fatal(err)
	}
	return g
}

// Bad command lines say what is wrong.
func TestGameCommandErrors(t *testing.T) {
	t.Parallel()
	fixClock(t)
	db := filepath.Join(t.TempDir(), "titm.db")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"new", "--db", db, "--scenario", "intro", "--german", "nobody", "--allied", "a@b.test"}, `--german "nobody" is not a mail address`},
		{[]string{"new", "--db", db, "--scenario", "intro", "--german", "a@b.test", "--allied", "A@b.test"}, "two addresses"},
		{[]string{"new", "--db", db, "--scenario", "nosuch", "--german", "g@b.test", "--allied", "a@b.test"}, "neither a shipped scenario"},
		{[]string{"new", "--db", db, "--scenario", "intro", "--german", "g@b.test", "--allied", "a@b.test", "--id", "a b"}, "letters, digits"},
		{[]string{"new", "--db", db, "--scenario", "intro", "--german", "g@b.test", "--allied", "a@b.test", "--language-allied", "fr"}, `--language-allied: unknown language "fr": want en (English) or ja (Japanese)`},
		{[]string{"new", "--db", db, "--scenario", "intro", "--german", "g@b.test", "--allied", "a@b.test", "--language-allied", "fr", "--language-german", "de"}, `--language-german: unknown language "de"`},
		{[]string{"games", "--db", db + ".missing"}, "no store at"},
		{[]string{"show", "--db", db}, "name one game"},
		{[]string{"join", "x-1", "--db", db, "--side", "red"}, "german or allied"},
		{[]string{"rollback", "x-1", "--db", db, "--reason", "r", "--to", "17-2"}, ""},
	} {
		code, out, errs := runT(t, tc.args...)
		if code == exitOK || !strings.Contains(out+errs, tc.want) {
			t.Errorf("titm %s: exit %d, %s%s; want %q", strings.Join(tc.args, " "), code, out, errs, tc.want)
		}
	}
	_, tokens := newGame(t, db, "intro")
	// Orders given with a TOKEN line must carry the side's own token.
	orders := filepath.Join(t.TempDir(), "orders.txt")
	os.WriteFile(orders, []byte("GAME intro-1\nTOKEN "+tokens["allied"]+"\nBLOW NONE\n"), 0o600)
	if code, out, errs := runT(t, "play", "intro-1", "--db", db, "--side", "german", "--orders", orders); code != exitProblems || !strings.Contains(out+errs, "had a TOKEN line that is not your token for") {
		t.Errorf("play with the other side's token: exit %d, %s%s", code, out, errs)
	}
	if code, _, errs := runT(t, "show", "intro-9", "--db", db); code != exitProblems || !strings.Contains(errs, "no such game") || !strings.Contains(errs, "titm games lists the games") {
		t.Errorf("show of a missing game: %d %s", code, errs)
	}
	// While another process holds the store, a command is refused at once.
	s, err := store.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if code, _, errs := runT(t, "join", "intro-1", "--db", db, "--side", "german"); code != exitProblems || !strings.Contains(errs, "in use by another titm process") {
		t.Errorf("join while the store is held: %d %s", code, errs)
	}
}

// The sides are named German and Allied in everything the commands print
// for a person to read, to the result of a conceded game; lower case is
// left to the values a command line, a configuration or JSON takes.
func TestSideNamesCapitalised(t *testing.T) {
	t.Parallel()
	fixClock(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "titm.db")
	orders := filepath.Join(dir, "orders.txt")
	var id string
	var tokens map[string]string
	// values are the lower-case names a person types or a program reads.
	values := regexp.MustCompile(`--side (german|allied)|--(german|allied)\b|"(german|allied)"|SIDE takes german or allied|german or allied`)
	lower := regexp.MustCompile(`\b(german|allied)\b`)
	for _, s := range []struct {
		args   []string
		orders string // written to orders.txt first, after GAME and TOKEN lines of --side
		fails  bool
	}{
		{args: []string{"new", "--scenario", "intro", "--german", "g@example.test", "--allied", "a@example.test", "--deadline", "48h"}},
		{args: []string{"games"}},
		{args: []string{"show", "intro-1"}},
		{args: []string{"join", "intro-1", "--side", "german", "--seed", "one"}},
		{args: []string{"join", "intro-1", "--side", "allied", "--seed", "two"}},
		{args: []string{"join", "intro-1", "--side", "red"}, fails: true},
		{args: []string{"play", "intro-1", "--side", "allied", "--orders", orders}, orders: "BLOW NONE\n"},
		{args: []string{"play", "intro-1", "--side", "allied", "--orders", orders}, orders: "IMPULSE 16-1\n", fails: true},
		{args: []string{"play", "intro-1", "--side", "german", "--orders", orders}, orders: "IMPULSE 16-1\nMOVE 212/42 10\n", fails: true},
		{args: []string{"play", "intro-1", "--side", "german", "--orders", orders}, orders: "IMPULSE 16-1\nENTRENCH 212/423\n"},
		{args: []string{"pause", "intro-1", "--reason", "a question"}},
		{args: []string{"resume", "intro-1", "--reason", "answered"}},
		{args: []string{"games"}},
		{args: []string{"show", "intro-1"}},
		{args: []string{"report", "intro-1"}},
		{args: []string{"play", "intro-1", "--side", "allied", "--orders", orders}, orders: "CONCEDE\n"},
		{args: []string{"games"}},
		{args: []string{"show", "intro-1"}},
		{args: []string{"report", "intro-1"}},
	} {
		if s.orders != "" {
			side := s.args[3]
			os.WriteFile(orders, []byte("GAME "+id+"\nTOKEN "+tokens[side]+"\n"+s.orders), 0o600)
		}
		code, out, errs := runT(t, append(s.args, "--db", db)...)
		if (code != exitOK) != s.fails {
			t.Errorf("titm %s: exit %d\n%s%s", strings.Join(s.args, " "), code, out, errs)
		}
		if s.args[0] == "new" {
			id, tokens = newTokens(t, out)
		}
		if l := lower.FindString(values.ReplaceAllString(out+errs, "")); l != "" {
			t.Errorf("titm %s names the side %q:\n%s%s", strings.Join(s.args, " "), l, out, errs)
		}
	}
	if out := mustRun(t, "games", "--db", db); !strings.Contains(out, "the Allied player conceded: German victory") {
		t.Errorf("the conceded game:\n%s", out)
	}
}

// newTokens reads the game's id and the tokens from titm new's text.
func newTokens(t *testing.T, out string) (string, map[string]string) {
	t.Helper()
	id := regexp.MustCompile(`^game (\S+) made`).FindStringSubmatch(out)
	toks := regexp.MustCompile(`(?m)^(German|Allied) token (\S+)`).FindAllStringSubmatch(out, -1)
	if id == nil || len(toks) != 2 {
		t.Fatalf("titm new:\n%s", out)
	}
	tokens := map[string]string{}
	for _, m := range toks {
		tokens[strings.ToLower(m[1])] = m[2]
	}
	return id[1], tokens
}
