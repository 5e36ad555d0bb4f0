package rules_test

import (
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"

	"titm/rules"
)

// TestPosition_Written lays a written position over the tiny scenario's
// start: a unit moved, reduced and entrenched, a bridge repaired after a
// failure, control left behind, a reinforcement due earlier waiting in its
// zone (11.15).
func TestPosition_Written(t *testing.T) {
	s, _ := loadGame(t, "../testdata/tiny/scenario.toml")
	doc := `
next = "G17-2"
vp = 2
released = ["reserve"]
[control]
german = [3]

[[unit]]
id = "1/10"
at = 2
strength = 3
moved = true
turn_start = 4

[[unit]]
id = "7/1"
at = 1
entrenched = false
out_of_supply = true

[[bridge]]
a = 3
b = 2
blown = false
repair_failures = 1
`
	st, err := rules.ReadState(s, "pos.toml", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	pz, inf, mot := st.Unit("1/10"), st.Unit("7/1"), st.Unit("7/2")
	if pz.Place != rules.AreaPlace(2) || pz.Strength != 3 || !pz.Moved || pz.TurnStart != rules.AreaPlace(4) {
		t.Errorf("1/10: %+v", *pz)
	}
	if inf.Place != rules.AreaPlace(1) || inf.Entrenched || inf.InSupply || inf.Strength != 3 {
		t.Errorf("7/1: %+v", *inf)
	}
	if !mot.Arrived || mot.Place != rules.ZonePlace("D") {
		t.Errorf("7/2, due on 16-2, should wait in zone D (11.15): %+v", *mot)
	}
	if b := st.Bridge(2, 3); b.Blown || b.RepairFailures != 1 {
		t.Errorf("bridge 2-3: %+v", *b)
	}
	// 12.22: 2 is held by the Germans alone, 1 by the Allies alone; 3 was
	// left German.
	for area, want := range map[int]rules.Side{1: rules.Allied, 2: rules.German, 3: rules.German} {
		if st.Control[area] != want {
			t.Errorf("control of %d = %q, want %q", area, st.Control[area], want)
		}
	}
	if st.Next.String() != "G17-2" || st.VP != 2 || len(st.Released) != 1 {
		t.Errorf("next %s, vp %d, released %v", st.Next, st.VP, st.Released)
	}
	// The written position plays like any other.
	if _, _, err := play(t, s, st, "MOVE 1/10 1"); err == nil || !strings.Contains(err.Error(), "8.25") {
		t.Errorf("a unit marked moved moved again: %v", err)
	}
}

// TestPosition_Refused: a position no game could reach is refused with the
// line of each problem (4.16, 7.1, 8.54, 11.23, 12.22, 14.12).
func TestPosition_Refused(t *testing.T) {
	tiny, _ := loadGame(t, "../testdata/tiny/scenario.toml")
	campaign := scenario(t, "campaign")
	tests := []struct {
		name string
		s    *rules.Scenario
		doc  string
		want []string
	}{
		{"strength above full", tiny, "\n[[unit]]\nid = \"7/1\"\nstrength = 4\n",
			[]string{"pos.toml:2: 7/1 has 4 SP: its full strength is 3"}},
		{"unknown unit", tiny, "[[unit]]\nid = \"9/9\"\nat = 2\n",
			[]string{`pos.toml:1: unit "9/9" is not in scenario tiny`}},
		{"unknown area", tiny, "[[unit]]\nid = \"7/1\"\nat = 77\n",
			[]string{"pos.toml:1: 7/1 is at 77, which is not on the map"}},
		{"listed twice", tiny, "[[unit]]\nid = \"7/1\"\n[[unit]]\nid = \"7/1\"\n",
			[]string{"pos.toml:3: unit 7/1 is listed twice (first on line 1)"}},
		{"unknown key", tiny, "[[unit]]\nid = \"7/1\"\nplace = 3\n",
			[]string{`pos.toml:3: unknown key "place" in [unit]`}},
		{"closed zone", tiny, "[[unit]]\nid = \"7/1\"\nat = \"A\"\n",
			[]string{"pos.toml:1: 7/1 is in zone A, which allied units may never enter (11.22, 11.23)"}},
		{"entrenched armour", tiny, "[[unit]]\nid = \"1/10\"\nentrenched = true\n",
			[]string{"pos.toml:1: 1/10 is armour and cannot be entrenched (8.54)"}},
		{"control against a holder", tiny, "[control]\ngerman = [2]\n",
			[]string{"pos.toml:1: control: Allied holds Brückdorf (2) alone"}},
		{"impulse out of the scenario", tiny, "next = \"G19-1\"\n",
			[]string{`pos.toml:1: next = "G19-1": the scenario is played from G16-1 to A17-3`}},
		{"special forces in a VP area", campaign, "next = \"G17-1\"\nclear = [\"german\"]\n[special_forces]\narea = 47\neffect = \"DELAY\"\nplaced = \"G17-1\"\n",
			[]string{"pos.toml:3: special_forces: St. Vith (47) is a VP area, where no counter is placed (14.12)"}},
		{"German set-up stacks after G16-3", campaign, "next = \"A16-3\"\n",
			[]string{"6 German units with 19 SP in Losheim (33): over the limit"}},
		{"over-stacked", campaign, "next = \"A17-1\"\nclear = [\"german\"]\n" + stack("38Cav", "99/395", "99/393", "99/394", "2ID/9"),
			[]string{"over the limit of 4 units and 10 SP between impulses (7.1, 7.2)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := rules.ReadState(tt.s, "pos.toml", []byte(tt.doc))
			if err == nil {
				t.Fatalf("accepted:\n%s", tt.doc)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("got\n%v\nwant it to contain\n%s", err, w)
				}
			}
		})
	}
}

// stack writes the units into area 30, each on its own [[unit]].
func stack(ids ...string) string {
	var b strings.Builder
	for _, id := range ids {
		b.WriteString("[[unit]]\nid = \"" + id + "\"\nat = 30\n")
	}
	return b.String()
}

// TestPosition_SixteenthDecember: on 16 December the Germans may stand over
// the stacking limit (7.1); the Allies may not.
func TestPosition_SixteenthDecember(t *testing.T) {
	s := scenario(t, "campaign")
	if _, err := rules.ReadState(s, "start.json", []byte(mustJSON(t, rules.NewState(s)))); err != nil {
		t.Fatalf("the campaign's start, German stacks over the limit on 16 December: %v", err)
	}
}

// TestLoadState_Lines: a saved state edited by hand is refused with the line
// of the unit concerned.
func TestLoadState_Lines(t *testing.T) {
	s, st := loadGame(t, "../testdata/tiny/scenario.toml")
	st.Unit("7/1").Strength = 5
	data, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	_, err = rules.ReadState(s, "s.json", data)
	line := 0
	for i, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, `"7/1"`) {
			line = i + 1
		}
	}
	want := "s.json:" + strconv.Itoa(line) + ": 7/1 has 5 SP: its full strength is 3"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want %q", err, want)
	}
	if _, err := rules.ReadState(s, "s.json", []byte("{\n\"scenario\": \"tiny\",\n\"units\": [1,\n")); err == nil || !strings.HasPrefix(err.Error(), "s.json:") {
		t.Errorf("broken JSON: %v", err)
	}
}

// TestScenario_StartsFromPosition: a scenario's [position] is where its
// games start, and a bad one stops the scenario from loading, with the line.
func TestScenario_StartsFromPosition(t *testing.T) {
	files := map[string]string{
		"s.toml": `name = "tiny-later"
title = "Later"
map = "../testdata/tiny/map.toml"
oob = "../testdata/tiny/oob.toml"
start = "G16-1"
end = "A17-3"
whole_map = true
[supply]
german = ["A"]
allied = ["D"]
[[units]]
formation = "1 Pz"
[[units]]
formation = "7 Inf"
[victory]
kind = "vp"
map_vp = true
[[victory.level]]
result = "Nobody"
[position]
next = "A16-2"
[[position.unit]]
id = "1/10"
at = 3
`,
	}
	read := func(name string) ([]byte, error) {
		if d, ok := files[name]; ok {
			return []byte(d), nil
		}
		return readOS(name)
	}
	s, err := rules.LoadScenario(read, "s.toml")
	if err != nil {
		t.Fatal(err)
	}
	st := rules.NewState(s)
	if st.Next.String() != "A16-2" || st.Unit("1/10").Place != rules.AreaPlace(3) {
		t.Errorf("start: next %s, 1/10 at %s", st.Next, st.Unit("1/10").Place)
	}
	files["s.toml"] += "strength = 9\n"
	if _, err := rules.LoadScenario(read, "s.toml"); err == nil || !strings.Contains(err.Error(), "s.toml:22: 1/10 has 9 SP") {
		t.Errorf("bad position: %v", err)
	}
}

// TestPosition_DocKeys: the written position in docs/data-format.md uses
// only keys a position has, so the page and the reader never drift apart;
// what it shows is refused only for the one unit given both a place and
// elimination, as the page says.
func TestPosition_DocKeys(t *testing.T) {
	doc, err := os.ReadFile("../docs/data-format.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "## Positions")
	_, rest, ok2 := strings.Cut(rest, "```toml\n")
	block, _, ok3 := strings.Cut(rest, "```\n")
	if !ok || !ok2 || !ok3 {
		t.Fatal("docs/data-format.md has no position block")
	}
	_, err = rules.ReadState(scenario(t, "campaign"), "doc.toml", []byte(block))
	ps, _ := err.(rules.Problems)
	if len(ps) != 1 || !strings.Contains(ps[0].Msg, "2ID/9 is eliminated and at 38") {
		t.Errorf("the page's position: %v", err)
	}
}

// TestPosition_ClearedSide: the units of a cleared side are out of play from
// the start: no reinforcement of theirs arrives later, and the control their
// set-up gave is gone where none of them stands.
func TestPosition_ClearedSide(t *testing.T) {
	s, _ := loadGame(t, "../testdata/tiny/scenario.toml")
	st, err := rules.ReadState(s, "pos.toml", []byte("clear = [\"allied\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if side, ok := st.Control[2]; ok {
		t.Errorf("Brückdorf (2), empty, is controlled by %s", side)
	}
	st, ev := mustPlay(t, s, st, "")  // G16-1
	st, ev2 := mustPlay(t, s, st, "") // A16-1
	_, ev3 := mustPlay(t, s, st, "")  // G16-2: 7/2 is due
	for _, e := range append(append(ev, ev2...), ev3...) {
		if strings.Contains(e.String(), "arrives") {
			t.Errorf("a cleared unit arrived: %s", e)
		}
	}
}

// TestPosition_11_3_Released: a written position that releases a panzer
// reserve group (11.3) puts its units where it says, on the map or in a
// zone, and the rest in their entry zone (11.11, 11.15); they play as
// reinforcements released at the end of the last Allied impulse before next
// (11.14). What no game reaches is refused: a reserve unit placed while its
// group is held back, a group unknown or listed twice, a release before any
// Allied impulse.
func TestPosition_11_3_Released(t *testing.T) {
	s, _ := loadGame(t, "../testdata/tiny/scenario.toml")
	placed := []struct {
		name, doc string
		want      rules.Place
	}{
		{"not listed", "", rules.ZonePlace("A")},
		{"listed without a place", "[[unit]]\nid = \"9E\"\nstrength = 1\n", rules.ZonePlace("A")},
		{"in its zone", "[[unit]]\nid = \"9E\"\nat = \"A\"\n", rules.ZonePlace("A")},
		{"on the map", "[[unit]]\nid = \"9E\"\nat = 3\nmoved = true\n", rules.AreaPlace(3)},
	}
	for _, c := range placed {
		t.Run(c.name, func(t *testing.T) {
			doc := "next = \"G17-1\"\nreleased = [\"reserve\"]\n" + c.doc
			st, err := rules.ReadState(s, "pos.toml", []byte(doc))
			if err != nil {
				t.Fatalf("refused:\n%s\n%v", doc, err)
			}
			u := st.Unit("9E")
			if !u.Arrived || u.Eliminated || u.Place != c.want {
				t.Fatalf("9E: %+v, want arrived at %s", *u, c.want)
			}
			if got := st.ReleasedAt["reserve"].String(); got != "A16-3" {
				t.Errorf("released at %s, want A16-3, the last Allied impulse before G17-1", got)
			}
			if c.want.IsZone() {
				// 11.12: a released unit moves onto the map from its zone.
				next, _ := mustPlay(t, s, st, "MOVE 9E 4")
				if next.Unit("9E").Place != rules.AreaPlace(4) {
					t.Errorf("9E did not enter area 4: %+v", *next.Unit("9E"))
				}
			}
		})
	}
	refusedDocs := []struct{ name, doc, want string }{
		{"placed, group not released", "next = \"G17-1\"\n[[unit]]\nid = \"9E\"\nat = 3\n",
			`pos.toml:2: unit 9E is at 3, but it belongs to the panzer reserve group "reserve", which has not been released: add "reserve" to ` + "`released`" + ` (11.3)`},
		{"in its zone, group not released", "next = \"G17-1\"\n[[unit]]\nid = \"9E\"\nat = \"A\"\n",
			`pos.toml:2: unit 9E is at A, but it belongs to the panzer reserve group "reserve"`},
		{"unknown group", "next = \"G17-1\"\nreleased = [\"okw\"]\n",
			`pos.toml:2: released: "okw" is not a group of the order of battle; its groups are "reserve" (11.31)`},
		{"twice", "next = \"G17-1\"\nreleased = [\"reserve\", \"reserve\"]\n",
			`pos.toml:2: released: "reserve" is listed twice`},
		{"before any Allied impulse", "released = [\"reserve\"]\n",
			`pos.toml:1: released: "reserve": a group is released at the end of an Allied impulse (11.3), and none is played before G16-1`},
	}
	for _, c := range refusedDocs {
		t.Run(c.name, func(t *testing.T) {
			_, err := rules.ReadState(s, "pos.toml", []byte(c.doc))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got\n%v\nwant it to contain\n%s", err, c.want)
			}
		})
	}
}

// TestPosition_11_3_ReleasedCampaign: the campaign's OKW reserve written as
// released stands in its zone and moves onto the map in the next German
// impulse (11.3, 11.12); one of its units written on the map stays there.
// The German side is cleared, so its set-up stacks are out of play, and the
// group's units are listed.
func TestPosition_11_3_ReleasedCampaign(t *testing.T) {
	s := scenario(t, "campaign")
	var ids []string
	for _, u := range s.Units {
		if u.Group == "okw" {
			ids = append(ids, u.ID)
		}
	}
	if len(ids) < 2 {
		t.Fatalf("the campaign's OKW reserve has %d units", len(ids))
	}
	doc := "next = \"G18-1\"\nclear = [\"german\"]\nreleased = [\"okw\"]\n[[unit]]\nid = \"" + ids[0] + "\"\nat = 33\nmoved = true\n"
	for _, id := range ids[1:] {
		doc += "[[unit]]\nid = \"" + id + "\"\n"
	}
	st, err := rules.ReadState(s, "pos.toml", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if got := st.Unit(ids[0]).Place; got != rules.AreaPlace(33) {
		t.Errorf("%s at %s, want 33", ids[0], got)
	}
	for _, id := range ids[1:] {
		u := st.Unit(id)
		if !u.Arrived || !u.Place.IsZone() {
			t.Errorf("%s, released, is not waiting in a zone: %+v", id, *u)
		}
	}
	// Released at the end of A17-3, they arrive in G18-1: a unit may leave
	// by another of its own zones then (B7), but a shift to a zone that is
	// not its own waits one impulse (11.14).
	if st.Unit("10SS/10").Place != rules.ZonePlace("B") {
		t.Fatalf("10SS/10 waits at %s, want B, its first zone", st.Unit("10SS/10").Place)
	}
	next, _ := mustPlay(t, s, st, "MOVE 10SS/10 A 33")
	if next.Unit("10SS/10").Place != rules.AreaPlace(33) {
		t.Errorf("10SS/10 did not enter 33 by zone A: %+v", *next.Unit("10SS/10"))
	}
	refused(t, s, st, "MOVE FBB/Gr A 33", "FBB/Gr cannot enter by zone A: a reinforcement may enter by a zone next to its own one impulse later, for 2 MP a zone (11.14)")
}
