package rules_test

import (
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"titm/rules"
)

func TestTOMLLines(t *testing.T) {
	doc := strings.Join([]string{
		`title = "x" # a comment`, // 1
		`a.b = 1`,                 // 2
		`text = """`,              // 3
		`[not_a_table]`,           // 4
		`fake = "key" \"""`,       // 5
		`"""`,                     // 6
		`lit = '''`,               // 7
		`[also_not]'''`,           // 8
		`list = [`,                // 9
		`  { inner = 1 },`,        // 10
		`  "]", # ]`,              // 11
		`]`,                       // 12
		`[server]`,                // 13
		`host = "h"`,              // 14
		`inline = { port = 25, "quoted key" = 'v' }`, // 15
		`[[unit]]`,                    // 16
		`id = "1"`,                    // 17
		`[[unit]]`,                    // 18
		`strength = 2`,                // 19
		`[ deep . "x.y" . z ]`,        // 20
		`k = 1`,                       // 21
		`[deep]`,                      // 22
		`when = 1979-05-27 07:32:00Z`, // 23
		`after = true`,                // 24
	}, "\n")
	l := rules.NewTOMLLines([]byte(doc))
	for _, tt := range []struct {
		key  []string
		want int
	}{
		{[]string{"title"}, 1},
		{[]string{"a", "b"}, 2},
		{[]string{"a"}, 2}, // implied by a.b
		{[]string{"a", "c"}, 2},
		{[]string{"text"}, 3},
		{[]string{"not_a_table"}, 0},
		{[]string{"fake"}, 0},
		{[]string{"also_not"}, 0},
		{[]string{"list"}, 9},
		{[]string{"inner"}, 0},
		{[]string{"server"}, 13},
		{[]string{"server", "host"}, 14},
		{[]string{"server", "inline", "port"}, 15},
		{[]string{"server", "inline", "quoted key"}, 15},
		{[]string{"server", "missing"}, 13},
		{[]string{"unit"}, 16},
		{[]string{"unit", "id"}, 17},
		{[]string{"unit", "strength"}, 19},
		{[]string{"deep", "x.y", "z", "k"}, 21},
		{[]string{"deep"}, 22}, // its header, though [deep."x.y".z] comes first
		{[]string{"deep", "x.y"}, 20},
		{[]string{"deep", "after"}, 24},
		{[]string{"nowhere", "at", "all"}, 0},
		{nil, 0},
	} {
		if got := l.Line(tt.key...); got != tt.want {
			t.Errorf("Line(%q) = %d, want %d", tt.key, got, tt.want)
		}
	}
}

// TestTOMLLinesNotTOML checks that text that is not TOML is read to its end.
func TestTOMLLinesNotTOML(t *testing.T) {
	for _, doc := range []string{"", "[", "[[", "= =", `a = "`, `a = """`, "a = {", "a = [", "a.", "\"\\", "[a\nb = 1", "a = { b = [ { c"} {
		rules.NewTOMLLines([]byte(doc)).Line("a", "b")
	}
}

func TestTOMLError(t *testing.T) {
	type doc struct {
		Name   string `toml:"name"`
		Rounds int    `toml:"rounds"`
	}
	for _, tc := range []struct {
		text string
		line int
		msg  string
	}{
		{"name = \"a\"\nrounds = \"three\"\n", 2, "wrong kind of value: "},
		{"name = \"a\"\n\nrounds = 3 3\n", 3, "not valid TOML: "},
		{"name = \"a\nrounds = 3\n", 1, "not valid TOML: "},
	} {
		var d doc
		_, err := toml.Decode(tc.text, &d)
		if err == nil {
			t.Fatalf("%q decoded", tc.text)
		}
		line, msg := rules.TOMLError(err)
		if line != tc.line || !strings.HasPrefix(msg, tc.msg) || strings.Contains(msg, "line ") {
			t.Errorf("%q: line %d, %q; want line %d, %q...", tc.text, line, msg, tc.line, tc.msg)
		}
	}
}
