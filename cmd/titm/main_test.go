package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"titm/internal/golden"
)

func runT(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = (&cli{out: &out, errOut: &errb, stdin: os.Stdin, now: clockOf(t)}).run(args)
	return code, out.String(), errb.String()
}

const tiny = "../../testdata/tiny/scenario.toml"

func TestHelp(t *testing.T) {
	code, out, _ := runT(t, "help")
	if code != exitOK {
		t.Fatalf("help exit %d", code)
	}
	for _, c := range commands {
		if !strings.Contains(out, "  "+c.name+" ") {
			t.Errorf("help does not list %s:\n%s", c.name, out)
		}
		code, cout, cerr := runT(t, c.name, "-h")
		if code != exitOK || !strings.Contains(cout, "Usage: titm "+c.name) {
			t.Errorf("%s -h: exit %d, out %q, err %q", c.name, code, cout, cerr)
		}
	}
	if code, _, errs := runT(t, "nosuch"); code != exitUsage || !strings.Contains(errs, `unknown command "nosuch"`) {
		t.Errorf("unknown command: exit %d, %q", code, errs)
	}
}

// -h, --help and help print the usage once, on the standard output, and
// exit 0, for titm itself and every command and subcommand.
func TestHelpOnceOnStdout(t *testing.T) {
	lines := [][]string{{"-h"}, {"--help"}, {"help"}}
	want := map[int]string{0: "Usage: titm <command>", 1: "Usage: titm <command>", 2: "Usage: titm <command>"}
	for _, c := range commands {
		for _, h := range []string{"-h", "--help"} {
			want[len(lines)] = "Usage: titm " + c.name + " "
			lines = append(lines, []string{c.name, h})
		}
		want[len(lines)] = "Usage: titm " + c.name + " "
		lines = append(lines, []string{"help", c.name})
		for _, sub := range c.subs {
			for _, h := range []string{"-h", "--help"} {
				want[len(lines)] = "Usage: titm " + sub.name + " "
				lines = append(lines, append(strings.Fields(sub.name), h))
			}
		}
	}
	for i, args := range lines {
		code, out, errs := runT(t, args...)
		if code != exitOK || errs != "" || strings.Count(out, "Usage: ") != 1 || !strings.Contains(out, want[i]) {
			t.Errorf("titm %s: exit %d, stdout %q, stderr %q; want %q once on stdout", strings.Join(args, " "), code, out, errs, want[i])
		}
	}
	// A wrong flag is an error: it and the usage, once, on the standard error.
	code, out, errs := runT(t, "new", "--nosuch")
	if code != exitUsage || out != "" || strings.Count(errs, "Usage: titm new") != 1 || !strings.Contains(errs, "-nosuch") {
		t.Errorf("titm new --nosuch: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

func TestValidate(t *testing.T) {
	code, out, errs := runT(t, "validate", "../../testdata/bad/zone-letter.toml", "../../testdata/bad/unit-strength-5.toml")
	if code != exitProblems {
		t.Errorf("exit %d, want %d; %s", code, exitProblems, errs)
	}
	for _, want := range []string{
		`../../testdata/bad/zone-letter.toml:52: zone id "Q": a zone is one capital letter from A to P (3.21)`,
		"../../testdata/bad/unit-strength-5.toml:16: unit 1/10: strength = 5; a unit has 1 to 4 SP at full strength (4.16)",
		"2 problem(s)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if code, out, _ := runT(t, "validate", tiny); code != exitOK || !strings.Contains(out, "no problems") {
		t.Errorf("tiny scenario: exit %d\n%s", code, out)
	}
	if code, out, _ := runT(t, "validate", "../../testdata/bad/README.md"); code != exitProblems || !strings.Contains(out, "cannot read the file") {
		t.Errorf("missing file: exit %d\n%s", code, out)
	}
}

func TestMapJSON(t *testing.T) {
	code, out, errs := runT(t, "map", "--scenario", tiny, "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got struct {
		Areas []struct {
			ID        int     `json:"id"`
			Name      string  `json:"name"`
			Lat       float64 `json:"lat"`
			VP        int     `json:"vp"`
			Frontline bool    `json:"frontline"`
			Release   bool    `json:"release"`
		} `json:"areas"`
		Zones []struct {
			ID           string `json:"id"`
			Side         string `json:"side"`
			VPMultiplier int    `json:"vp_multiplier"`
			Areas        []int  `json:"areas"`
		} `json:"zones"`
		Roads []struct {
			A      int    `json:"a"`
			B      any    `json:"b"`
			Class  string `json:"class"`
			Bridge bool   `json:"bridge"`
			Blown  bool   `json:"blown"`
		} `json:"roads"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Areas) != 5 || len(got.Zones) != 2 || len(got.Roads) != 7 {
		t.Fatalf("areas %d zones %d roads %d, want 5, 2, 7 (5 roads and 2 into zones)", len(got.Areas), len(got.Zones), len(got.Roads))
	}
	if a := got.Areas[0]; a.ID != 1 || a.Name != "Westdorf" || a.VP != 2 || !a.Release || a.Lat != 50 {
		t.Errorf("area 1: %+v", a)
	}
	if z := got.Zones[1]; z.ID != "D" || z.Side != "allied" || z.VPMultiplier != 2 || len(z.Areas) != 1 || z.Areas[0] != 1 {
		t.Errorf("zone D: %+v", z)
	}
	var blown, zoneRoads int
	for _, r := range got.Roads {
		if r.Blown {
			blown++
			if r.A != 2 || r.B != 3.0 || !r.Bridge {
				t.Errorf("blown road %+v, want 2-3", r)
			}
		}
		if s, ok := r.B.(string); ok {
			zoneRoads++
			if r.Class != "primary" || (s != "A" && s != "D") {
				t.Errorf("zone road %+v: 11.13 zones are joined by primary roads", r)
			}
		}
	}
	if blown != 1 || zoneRoads != 2 {
		t.Errorf("blown %d zone roads %d", blown, zoneRoads)
	}
}

func TestUnitsJSON(t *testing.T) {
	code, out, errs := runT(t, "units", "--scenario", tiny, "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got struct {
		Units []map[string]any `json:"units"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Units) != 4 {
		t.Fatalf("%d units, want 4", len(got.Units))
	}
	byID := map[string]map[string]any{}
	for _, u := range got.Units {
		byID[u["id"].(string)] = u
	}
	if u := byID["1/10"]; u["area"] != 4.0 || u["arrives"] != nil || u["type"] != "armor" || u["strength"] != 4.0 {
		t.Errorf("1/10: %v", u)
	}
	if u := byID["9E"]; u["area"] != nil || u["arrives"] != nil || !strings.Contains(strings.Join(toStrings(u["flags"]), " "), "reserve:reserve") {
		t.Errorf("9E: %v", u)
	}
	if u := byID["7/2"]; u["area"] != nil || u["arrives"] != "16-2" || strings.Join(toStrings(u["zones"]), "") != "D" ||
		strings.Join(toStrings(u["flags"]), " ") != "green-triangle" {
		t.Errorf("7/2: %v", u)
	}
	if u := byID["7/1"]; strings.Join(toStrings(u["flags"]), " ") != "entrenched" {
		t.Errorf("7/1: %v", u)
	}
	if code, _, errs := runT(t, "units"); code != exitUsage || !strings.Contains(errs, "--scenario is required") {
		t.Errorf("no scenario: exit %d %q", code, errs)
	}
	if code, _, errs := runT(t, "units", "--scenario", "nosuch"); code != exitProblems || !strings.Contains(errs, "neither a shipped scenario") {
		t.Errorf("unknown scenario: exit %d %q", code, errs)
	}
}

func toStrings(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}

func TestTextOutput(t *testing.T) {
	code, out, errs := runT(t, "map", "--scenario", tiny)
	if code != exitOK {
		t.Fatalf("map: exit %d %s", code, errs)
	}
	for _, want := range []string{
		"The Tiny Bridge: 5 areas, 2 zones, 7 roads",
		"   2  Brückdorf  front line                    -> 1 3=x 5s",
		"  D Westland (allied, VP x2) -> [1]",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("map output lacks %q:\n%s", want, out)
		}
	}
	code, out, errs = runT(t, "units", "--scenario", tiny, "--side", "allied")
	if code != exitOK {
		t.Fatalf("units: exit %d %s", code, errs)
	}
	if !strings.Contains(out, "7/2  allied  mot       2   arrives 16-2 in D") || strings.Contains(out, "german") {
		t.Errorf("units --side allied:\n%s", out)
	}
	code, out, _ = runT(t, "scenarios", "--json")
	var got struct {
		Scenarios []struct{ Name, Title, Start, End string } `json:"scenarios"`
	}
	if err := json.Unmarshal([]byte(out), &got); code != exitOK || err != nil || len(got.Scenarios) != 4 ||
		got.Scenarios[3].Name != "campaign" || got.Scenarios[3].End != "A22-1" || got.Scenarios[1].End != "G22-1" {
		t.Errorf("scenarios --json: exit %d, %v, %+v", code, err, got)
	}
}

func TestOrders(t *testing.T) {
	code, out, errs := runT(t, "orders", "check", "--scenario", "campaign", "--side", "german", "../../testdata/orders/good.txt")
	want := "GAME bulge-7\nTOKEN (given, not shown)\nIMPULSE 16-2\nMOVE 116/16 116/156 52 51 70 ELSE 51 50\nFOOT 2/304 51 70\nREPAIR 51-70 BY 600E\nBATTLES 70\n"
	if code != exitOK || out != want {
		t.Errorf("good mail: exit %d %s\n%s\nwant\n%s", code, errs, out, want)
	}
	if strings.Contains(out, "k7f3") {
		t.Errorf("the token is printed")
	}
	code, out, _ = runT(t, "orders", "check", "--scenario", "campaign", "../../testdata/orders/bad.txt")
	if code != exitProblems {
		t.Errorf("bad mail: exit %d", code)
	}
	for _, w := range []string{
		`line 2: "IMPULSE 16-4": impulse "16-4": 16 December has impulses 1 to 3`,
		`line 3: "MOVE 116/06 52 51": unknown unit 116/06; closest: 116/60, 116/16`,
		`line 4: "ENTRENCH 116/16": 116/16 is armour, which never entrenches (8.54)`,
		`line 5:`, `line 6:`,
		`line 7: "MOVE 116/60 Bastogn": unknown unit Bastogn; closest: Bastogne (88) (areas are written by number)`,
		"6 error(s): nothing would be applied",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("bad mail output lacks %q:\n%s", w, out)
		}
	}
	code, out, _ = runT(t, "orders", "check", "--scenario", "campaign", "../../testdata/orders/html.html")
	if code != exitOK || out != "GAME bulge-7\nMOVE 116/60 50 49\nENTRENCH 116/156\n" {
		t.Errorf("html mail: exit %d\n%s", code, out)
	}
	code, out, _ = runT(t, "orders", "help", "--scenario", "intro", "--side", "allied")
	if code != exitOK || !strings.HasPrefix(out, "HOW TO WRITE ORDERS (The 7th Army Attacks, Allied player)") || strings.Contains(out, "SF area") {
		t.Errorf("orders help: exit %d\n%s", code, out)
	}
	for _, sub := range []string{"check", "help"} {
		if code, out, _ := runT(t, "orders", sub, "-h"); code != exitOK || !strings.Contains(out, "Usage: titm orders "+sub) {
			t.Errorf("orders %s -h: exit %d %s", sub, code, out)
		}
	}
	if code, _, errs := runT(t, "orders", "nosuch"); code != exitUsage || !strings.Contains(errs, `unknown subcommand "nosuch"`) {
		t.Errorf("orders nosuch: exit %d %s", code, errs)
	}
}

// TestAdjudicateIntro plays the introductory scenario through all its
// impulses with fixed orders and dice and compares what happened and the
// final position with the golden files: once without a battle, once with
// battles (entered areas and ATTACK orders, artillery, fire and hits, 9.x).
func TestAdjudicateIntro(t *testing.T) {
	for _, c := range []struct {
		dir  string
		dice []string
	}{
		{"intro", []string{"--dice", "1"}},
		{"intro-battles", []string{"--seed", "7469746d2d696e74726f"}},
	} {
		files, err := filepath.Glob("../../testdata/adjudicate/" + c.dir + "/*.txt")
		if err != nil || len(files) != 18 {
			t.Fatalf("%s: %d order files, %v", c.dir, len(files), err)
		}
		args := append([]string{"adjudicate", "--scenario", "intro", "--json"}, c.dice...)
		for _, f := range files {
			args = append(args, "--orders", f)
		}
		code, out, errs := runT(t, args...)
		if code != exitOK {
			t.Fatalf("%s: exit %d: %s\n%s", c.dir, code, errs, out)
		}
		var got struct {
			Impulses []struct {
				Impulse, Side string
				Events        []struct{ Type, Text string }
			} `json:"impulses"`
			State struct {
				Over   bool   `json:"over"`
				Result string `json:"result"`
			} `json:"state"`
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatal(err)
		}
		if len(got.Impulses) != 18 || got.Impulses[17].Impulse != "18-3" || !got.State.Over || got.State.Result == "" {
			t.Errorf("%s: played %d impulses, over %v, result %q", c.dir, len(got.Impulses), got.State.Over, got.State.Result)
		}
		battles := 0
		for _, im := range got.Impulses {
			for _, e := range im.Events {
				if e.Type == "BattleBegins" {
					battles++
				}
			}
		}
		if (battles > 0) != (c.dir == "intro-battles") {
			t.Errorf("%s: %d battles", c.dir, battles)
		}
		golden.Check(t, "../../testdata/golden/adjudicate-"+c.dir+".json", out)
	}
}

func TestAdjudicateErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := filepath.Join(dir, "g1.txt")
	os.WriteFile(bad, []byte("MOVE 352/914 23 24\nMOVE 212/316 18 10\nSIDE axis\n"), 0o644)
	code, out, _ := runT(t, "adjudicate", "--scenario", "intro", "--orders", bad, "--dice", "1")
	if code != exitProblems || !strings.Contains(out, bad+`:3: "SIDE axis": SIDE takes german or allied`) {
		t.Errorf("exit %d\n%s", code, out)
	}
	os.WriteFile(bad, []byte("MOVE 352/914 23 24\nMOVE 212/316 18 10\n"), 0o644)
	code, out, _ = runT(t, "adjudicate", "--scenario", "intro", "--orders", bad, "--dice", "1")
	if code != exitProblems || !strings.Contains(out, bad+`:2: "MOVE 212/316 18 10": the move would make a German stack over 4 units or 10 SP in Irrel (10), which 7.1 forbids on 16 December`) ||
		!strings.Contains(out, "1 error(s) in the orders for G16-1: nothing applied") {
		t.Errorf("exit %d\n%s", code, out)
	}
	// A line that does not read and one the position refuses: both, in
	// line order, in one answer.
	os.WriteFile(bad, []byte("IMPULSE 16-1\nMOVE 352/914 23 24\nATACK 24\nMOVE 212/316 18 10\n"), 0o644)
	code, out, _ = runT(t, "adjudicate", "--scenario", "intro", "--orders", bad, "--dice", "1")
	if i, j := strings.Index(out, bad+`:3: "ATACK 24": unknown order "ATACK"`), strings.Index(out, bad+`:4: "MOVE 212/316 18 10": the move would make a German stack`); code != exitProblems || i < 0 || j < i ||
		!strings.Contains(out, "2 error(s) in the orders for G16-1: nothing applied") {
		t.Errorf("a parse error and a position's: exit %d\n%s", code, out)
	}
	if code, _, errs := runT(t, "adjudicate", "--scenario", "intro", "--orders", bad); code != exitUsage || !strings.Contains(errs, "exactly one of --dice, --dice-file or --seed") {
		t.Errorf("no dice: exit %d %s", code, errs)
	}
	// The saved position plays on as if never saved.
	st := filepath.Join(dir, "state.json")
	good := filepath.Join(dir, "g.txt")
	os.WriteFile(good, []byte("MOVE 352/914 23 24\n"), 0o644)
	if code, _, errs := runT(t, "adjudicate", "--scenario", "intro", "--orders", good, "--seed", "0a0b", "--out", st); code != exitOK {
		t.Fatalf("exit %d %s", code, errs)
	}
	code, out, _ = runT(t, "adjudicate", "--scenario", "intro", "--state", st, "--orders", good, "--seed", "0a0b")
	if code != exitProblems || !strings.Contains(out, "352/914 is a German unit: you command the Allied units") || !strings.Contains(out, "orders for A16-1") {
		t.Errorf("orders for the wrong side after reload: exit %d\n%s", code, out)
	}
}

// adjudicate --report prints each impulse's report, battles roll by roll.
func TestAdjudicateReport(t *testing.T) {
	dir := "../../testdata/adjudicate/intro-battles"
	args := []string{"adjudicate", "--scenario", "intro", "--seed", "7469746d2d696e74726f", "--report"}
	for _, f := range []string{"01-G16-1.txt", "02-A16-1.txt", "03-G16-2.txt"} {
		args = append(args, "--orders", filepath.Join(dir, f))
	}
	code, out, errs := runT(t, args...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"Impulse G16-1, the German impulse 1 of 16 December", "Impulse G16-2", "Battle at 11 Echternach", "Every die, in the order rolled", "Next: the Allied impulse A16-2"} {
		if !strings.Contains(out, want) {
			t.Errorf("the reports lack %q:\n%s", want, out)
		}
	}
	if code, _, _ := runT(t, "adjudicate", "--scenario", "intro", "--dice", "1", "--report", "--json"); code != exitUsage {
		t.Errorf("--report with --json: exit %d", code)
	}
}

// adjudicate --state reads a position written by hand, and refuses a bad one
// with its line.
func TestAdjudicateWrittenPosition(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	pos := filepath.Join(dir, "pos.toml")
	os.WriteFile(pos, []byte("next = \"G16-2\"\n\n[[unit]]\nid = \"G/AR\"\nat = 3\nturn_start = 4\nmoved = true\n"), 0o644)
	orders := filepath.Join(dir, "o.txt")
	os.WriteFile(orders, []byte("MOVE G/AR 2\n"), 0o644)
	scen := "../../testdata/move/scenario.toml"
	code, out, errs := runT(t, "adjudicate", "--scenario", scen, "--state", pos, "--orders", orders, "--dice", "1")
	if code != exitProblems || !strings.Contains(out, "8.25") {
		t.Errorf("a unit written as moved moved again: exit %d\n%s%s", code, out, errs)
	}
	os.WriteFile(pos, []byte("next = \"G16-2\"\n\n[[unit]]\nid = \"G/AR\"\nstrength = 7\n"), 0o644)
	code, out, errs = runT(t, "adjudicate", "--scenario", scen, "--state", pos, "--orders", orders, "--dice", "1")
	if code != exitProblems || !strings.Contains(out+errs, "pos.toml:3: G/AR has 7 SP: its full strength is 4") {
		t.Errorf("a strength above full: exit %d\n%s%s", code, out, errs)
	}
}

// titm conformance plays case files: ok for a case that holds, each
// difference and exit 1 for one that does not.
func TestConformanceCommand(t *testing.T) {
	t.Parallel()
	good := "../../testdata/conformance/8-movement/8.37-entering-occupied-area.toml"
	code, out, errs := runT(t, "conformance", good)
	if code != exitOK || !strings.Contains(out, "ok   "+good) || !strings.Contains(out, "1 case(s) passed") {
		t.Errorf("exit %d\n%s%s", code, out, errs)
	}
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(t.TempDir(), "bad.toml")
	scen, err := filepath.Abs("../../testdata/move/scenario.toml")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(data), "(3 MP)", "(2 MP)", 1)
	text = strings.Replace(text, `"../../move/scenario.toml"`, strconv.Quote(scen), 1)
	os.WriteFile(bad, []byte(text), 0o644)
	code, out, _ = runT(t, "conformance", good, bad)
	if code != exitProblems || !strings.Contains(out, "FAIL "+bad) || !strings.Contains(out, `no event "G/AR moves 4-5 (2 MP)"`) || !strings.Contains(out, "1 of 2 case(s) failed") {
		t.Errorf("a wrong case: exit %d\n%s", code, out)
	}
}
