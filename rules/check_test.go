package rules_test

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"titm/rules"
)

// TestBrokenFiles loads one broken fixture per kind of mistake and checks that
// the problem names the file, the line and what is wrong.
func TestBrokenFiles(t *testing.T) {
	tests := []struct {
		file string
		kind string // map, oob, scenario
		line int
		want string
	}{
		{"road-unknown-area.toml", "map", 72, "road 3-44: area 44 is not on the map; nearest: Mühle (5)"},
		{"area-duplicate-id.toml", "map", 37, "duplicate area id 3 (first at line 24)"},
		{"road-to-itself.toml", "map", 77, "road 2-2 joins area 2 to itself"},
		{"zone-letter.toml", "map", 52, `zone id "Q": a zone is one capital letter from A to P (3.21)`},
		{"consecutive-not-joined.toml", "map", 24, "areas 3 Ostdorf and 4 Hügel are consecutive, so adjacent (3.22), but no road joins them"},
		{"not-toml.toml", "map", 28, `not valid TOML: Invalid float value: "6.20.1"`},
		{"unknown-key.toml", "map", 14, `unknown key "victory_points"`},
		{"unit-strength-0.toml", "oob", 16, "unit 1/10: strength = 0; a unit has 1 to 4 SP at full strength (4.16)"},
		{"unit-strength-5.toml", "oob", 16, "unit 1/10: strength = 5; a unit has 1 to 4 SP at full strength (4.16)"},
		{"scenario-unknown-unit.toml", "scenario", 22, `unit "9X" is not in the order of battle ../testdata/bad/oob.toml; did you mean "9E"?`},
		{"scenario-unknown-unit.toml", "scenario", 16, `formation "1 SS" is not in the order of battle ../testdata/bad/oob.toml; did you mean "1 Pz"?`},
		{"scenario-boundary.toml", "scenario", 9, `boundary = "blue": the colour of the scenario's boundary is "green" or "red"`},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			name := "../testdata/bad/" + tt.file
			var err error
			switch tt.kind {
			case "map":
				_, err = rules.LoadMap(readOS, name)
			case "oob":
				m, merr := rules.LoadMap(readOS, "../testdata/bad/map.toml")
				if merr != nil {
					t.Fatal(merr)
				}
				_, err = rules.LoadOOB(readOS, name, m)
			case "scenario":
				_, err = rules.LoadScenario(readOS, name)
			}
			var ps rules.Problems
			if !errors.As(err, &ps) {
				t.Fatalf("error %v, want Problems", err)
			}
			want := fmt.Sprintf("%s:%d: %s", name, tt.line, tt.want)
			if !strings.Contains(ps.Error(), want) {
				t.Errorf("problems:\n%v\nwant a line containing:\n%s", ps, want)
			}
		})
	}
}

// TestEveryProblemReported checks that a file with several mistakes gets all
// of them, not only the first.
func TestEveryProblemReported(t *testing.T) {
	data, err := os.ReadFile("../testdata/bad/map.toml")
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	s = strings.Replace(s, `id = "D"`, `id = "Q"`, 1)
	s = strings.Replace(s, "a = 2\nb = 5", "a = 2\nb = 2", 1)
	s = strings.Replace(s, `class = "secondary"`, `class = "dirt"`, 1)
	s = strings.Replace(s, "lat = 50.00\nlon = 6.20", "lat = 0\nlon = 0", 1)
	read := func(string) ([]byte, error) { return []byte(s), nil }
	_, err = rules.LoadMap(read, "m.toml")
	var ps rules.Problems
	if !errors.As(err, &ps) {
		t.Fatalf("error %v, want Problems", err)
	}
	for _, want := range []string{`zone id "Q"`, "joins area 2 to itself", `class = "dirt"`, "area 3: position lat = 0"} {
		if !strings.Contains(ps.Error(), want) {
			t.Errorf("missing %q in\n%v", want, ps)
		}
	}
	for _, p := range ps {
		if p.Line == 0 {
			t.Errorf("problem without a line: %v", p)
		}
	}
}

func TestParseImpulse(t *testing.T) {
	tests := []struct {
		in, want, err string
	}{
		{in: "G16-1", want: "G16-1"},
		{in: "A18-3", want: "A18-3"},
		{in: "G22-1", want: "G22-1"},
		{in: "A22-2", err: "22 December has impulses 1 to 1"}, // 6.0: one impulse each on 22 December
		{in: "G15-1", err: "the day must be 16 to 22"},
		{in: "X16-1", err: "must start with G (German) or A (Allied)"},
		{in: "G16", err: "not of the form day-impulse"},
	}
	for _, tt := range tests {
		i, err := rules.ParseImpulse(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseImpulse(%q) error %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || i.String() != tt.want {
			t.Errorf("ParseImpulse(%q) = %v, %v", tt.in, i, err)
		}
	}
	// 8.1: the German impulse comes first each time.
	g, _ := rules.ParseImpulse("G17-2")
	a, _ := rules.ParseImpulse("A17-1")
	if !a.Before(g) || g.Before(a) {
		t.Errorf("A17-1 must come before G17-2")
	}
}

func TestUnitTypeValues(t *testing.T) {
	// 4.17: attack-defence-movement by type; 9.51: quality order.
	tests := []struct {
		t            rules.UnitType
		att, def, mp int
		infantryType bool
	}{
		{rules.Armor, 4, 5, 8, false},
		{rules.Engineer, 3, 4, 8, true},
		{rules.Mech, 3, 4, 8, true},
		{rules.Mot, 3, 4, 8, true},
		{rules.Infantry, 3, 4, 5, true},
	}
	for _, tt := range tests {
		v, ok := tt.t.Values()
		if !ok || v.Attack != tt.att || v.Defence != tt.def || v.MP != tt.mp || tt.t.InfantryType() != tt.infantryType {
			t.Errorf("%s: %+v", tt.t, v)
		}
	}
	q := func(u rules.UnitType) int { v, _ := u.Values(); return v.Quality }
	if !(q(rules.Engineer) > q(rules.Armor) && q(rules.Armor) > q(rules.Mech) && q(rules.Mech) > q(rules.Mot) && q(rules.Mot) > q(rules.Infantry)) {
		t.Errorf("9.51 quality order broken")
	}
}
