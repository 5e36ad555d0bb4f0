package lang

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/message/catalog"

	"titm/rules"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"en", English}, {"EN", English}, {" English ", English},
		{"ja", Japanese}, {"JP", Japanese}, {"japanese", Japanese}, {"日本語", Japanese},
		{"fr", ""}, {"", ""},
	} {
		got, err := Parse(tc.in)
		if got != tc.want || (err != nil) != (tc.want == "") {
			t.Errorf("Parse(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

// TestPrinter: a key is given in the printer's language, an unknown code
// prints English, and messages and sides among the arguments follow the
// language (2.0: the sides' names, ドイツ軍 and 連合軍, as the rulebook
// writes them).
func TestPrinter(t *testing.T) {
	e := rules.OrderError{Line: 3, Text: "MOVE 1/2 3", Msg: "German", Why: rules.M("%s", rules.German)}
	for _, tc := range []struct {
		code string
		got  func(p *Printer) string
		want string
	}{
		{"en", func(p *Printer) string { return p.Sprintf("line %d: %s", 3, rules.German) }, "line 3: German"},
		{"ja", func(p *Printer) string { return p.Sprintf("line %d: %s", 3, rules.German) }, "3行目: ドイツ軍"},
		{"fr", func(p *Printer) string { return p.Side(rules.Allied) }, "Allied"},
		{"ja", func(p *Printer) string { return p.Side(rules.Allied) }, "連合軍"},
		{"ja", func(p *Printer) string { return p.Text(rules.M("%s", rules.M("Allied"))) }, "連合軍"},
		{"ja", func(p *Printer) string { return p.Error(e) }, `3行目: "MOVE 1/2 3": ドイツ軍`},
		{"en", func(p *Printer) string { return p.Error(e) }, `line 3: "MOVE 1/2 3": German`},
		// Whole numbers keep their digits ungrouped in every language.
		{"en", func(p *Printer) string { return p.Sprintf("line %d: %s", 262144, "x") }, "line 262144: x"},
		{"ja", func(p *Printer) string { return p.Sprintf("line %d: %s", int64(1944), "x") }, "1944行目: x"},
		{"en", func(p *Printer) string { return p.Sprintf("no key %5d|%-3d|", 42, 7) }, "no key    42|7  |"},
	} {
		if got := tc.got(For(tc.code)); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.code, got, tc.want)
		}
	}
	if For("ja").Code() != Japanese || For("xx").Code() != English {
		t.Error("For gives the wrong printers")
	}
}

// TestPlural: a plural table is chosen by each language's rules.
func TestPlural(t *testing.T) {
	b := catalog.NewBuilder(catalog.Fallback(language.English))
	key := "%d hits"
	if err := set(b, language.English, key, entry{cases: map[string]string{"one": "%d hit", "other": "%d hits"}}); err != nil {
		t.Fatal(err)
	}
	if err := set(b, language.Japanese, key, entry{text: "%dヒット"}); err != nil {
		t.Fatal(err)
	}
	en := &Printer{code: English, p: message.NewPrinter(language.English, message.Catalog(b)), msgs: map[string]msg{key: {plural: true}}}
	ja := &Printer{code: Japanese, p: message.NewPrinter(language.Japanese, message.Catalog(b)), msgs: map[string]msg{key: {text: "%dヒット"}}}
	for _, tc := range []struct {
		p    *Printer
		n    int
		want string
	}{{en, 1, "1 hit"}, {en, 2, "2 hits"}, {en, 0, "0 hits"}, {en, 1001, "1001 hits"}, {ja, 1, "1ヒット"}, {ja, 3, "3ヒット"}} {
		if got := tc.p.Sprintf(key, tc.n); got != tc.want {
			t.Errorf("%s %d: %q, want %q", tc.p.code, tc.n, got, tc.want)
		}
	}
}

func TestWidth(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want int
	}{{"", 0}, {"MOVE 116/60 62", 14}, {"インパルス", 10}, {"ＭＯＶＥ", 8}, {"ｶﾅ", 2}, {"Körperich", 9}, {"3戦力", 5}, {"e\u0301", 1}} {
		if got := Width(tc.s); got != tc.want {
			t.Errorf("Width(%q) = %d, want %d", tc.s, got, tc.want)
		}
	}
	if got := Pad("戦力", 6) + "|"; got != "戦力  |" {
		t.Errorf("Pad: %q", got)
	}
	if got := PadLeft("3", 3); got != "  3" {
		t.Errorf("PadLeft: %q", got)
	}
}

// TestWidthQuick: Width's quick reading of kana and kanji gives what
// decoding each character and RuneWidth give, for every character of the
// first planes, and for bytes that are not UTF-8 (one column each, as
// utf8.DecodeRuneInString reads them).
func TestWidthQuick(t *testing.T) {
	slow := func(s string) int {
		n := 0
		for _, r := range s {
			n += RuneWidth(r)
		}
		return n
	}
	for r := rune(0); r < 0x20000; r++ {
		if s := "a" + string(r) + "b"; Width(s) != slow(s) {
			t.Errorf("Width(%U) = %d, want %d", r, Width(s)-2, slow(s)-2)
		}
	}
	for _, s := range []string{"\xe3\x81", "\xe4\x80\x41", "\xed\xa0\x80", "\xe0\x80\x80", "戦\x80闘", "\xe9\xbf", "ユ\xe3"} {
		if Width(s) != slow(s) {
			t.Errorf("Width(%q) = %d, want %d", s, Width(s), slow(s))
		}
	}
}

// TestWrap: lines keep to the width counted in columns, a Japanese
// character two; no character is split; no line begins with closing
// punctuation or ends with opening; English wraps at spaces alone.
func TestWrap(t *testing.T) {
	ja := "9AD/60 は 8.38 により Rocherath (38) に進入できません。進入には 2MP が必要ですが、残りは 1MP だけです。「移動力」を確認してください。"
	for _, tc := range []struct {
		s, first, rest string
		max            int
		want           []string
	}{
		{"one two three", "", "", 80, []string{"one two three"}},
		{"one two three four", "- ", "  ", 10, []string{"- one two", "  three", "  four"}},
		{"averyveryverylongword x", "", "", 8, []string{"averyveryverylongword", "x"}},
		{"あいうえおかきくけこ", "", "", 8, []string{"あいうえ", "おかきく", "けこ"}},
		{"あいうえ。かきくけこ", "", "", 8, []string{"あいう", "え。かき", "くけこ"}},
		{"あいう「かきくけこ", "", "", 8, []string{"あいう", "「かきく", "けこ"}},
		{"GAME intro-1 のインパルス", "", "", 16, []string{"GAME intro-1 の", "インパルス"}},
		// A number keeps its counting word; a katakana word stays whole.
		{"あいう3戦力です", "", "", 8, []string{"あいう", "3戦力", "です"}},
		{"あいユニット", "", "", 6, []string{"あい", "ユニット"}},
		// A short aside in parentheses stays whole; one with a space may
		// break at it.
		{"射撃する (3個中1個目)", "", "", 16, []string{"射撃する", "(3個中1個目)"}},
		{"射撃する (2回中1回目、目標 4/12)", "", "", 28, []string{"射撃する (2回中1回目、目標", "4/12)"}},
		{"連合軍の（ドイツ軍）", "", "", 12, []string{"連合軍の", "（ドイツ軍）"}},
		// No space after 。 nor 、, in a text longer than the line in
		// bytes though not in columns, and in one wrapped.
		{"出た目 2、 4以下で成功: 外れ", "", "", 30, []string{"出た目 2、4以下で成功: 外れ"}},
		{"出た目 2。 4以下で成功: 外れ", "", "", 30, []string{"出た目 2。4以下で成功: 外れ"}},
		{"出た目 2、 4以下で成功: 外れ", "", "", 14, []string{"出た目 2、", "4以下で成功:", "外れ"}},
	} {
		got := Wrap(tc.s, tc.first, tc.rest, tc.max)
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("Wrap(%q, %d) = %q, want %q", tc.s, tc.max, got, tc.want)
		}
		var b strings.Builder
		WrapTo(&b, tc.s, tc.first, tc.rest, tc.max)
		if want := strings.Join(tc.want, "\n") + "\n"; b.String() != want {
			t.Errorf("WrapTo(%q, %d) = %q, want %q", tc.s, tc.max, b.String(), want)
		}
	}
	for _, max := range []int{20, 37, 78} {
		lines := Wrap(ja, "  ", "    ", max)
		for _, l := range lines {
			if !utf8.ValidString(l) {
				t.Errorf("a line splits a character: %q", l)
			}
			if Width(l) > max && !strings.Contains(strings.TrimSpace(l), " ") {
				continue // one piece wider than the line
			}
			if Width(l) > max {
				t.Errorf("width %d: %q is %d columns", max, l, Width(l))
			}
			if r, _ := utf8.DecodeRuneInString(strings.TrimSpace(l)); noBreakBefore(r) {
				t.Errorf("width %d: %q begins with %q", max, l, r)
			}
			if r, _ := utf8.DecodeLastRuneInString(l); noBreakAfter(r) {
				t.Errorf("width %d: %q ends with %q", max, l, r)
			}
		}
		joined := strings.ReplaceAll(strings.Join(lines, ""), " ", "")
		if joined != strings.ReplaceAll(ja, " ", "") {
			t.Errorf("width %d: the text changed:\n%s", max, strings.Join(lines, "\n"))
		}
	}
}

// TestFill: Fill gives what Sprintf gives for a key of %s verbs,
// taken in order or by index, and hands any other verb to Sprintf.
func TestFill(t *testing.T) {
	ja := For(Japanese)
	for _, c := range []struct {
		p    *Printer
		key  string
		args []string
	}{
		{ja, "line %d: %s", []string{"3", "x"}},
		{ja, "%s battle %s: %s fire %s at %s, die %s of %s", []string{"G16-1", "11", "ドイツ軍", "1/2", "3/4", "1", "3"}},
		{ja, "%s repair %s by %s", []string{"G16-1", "51-70", "600E"}},
		{EN(), "%s repair %s by %s", []string{"G16-1", "51-70", "600E"}},
		{EN(), "no such key: %s and %[1]s, 100%%", []string{"a"}},
		{EN(), "too few: %s %s", []string{"a"}},
		{EN(), "swapped: %[2]s, %[1]s; %s", []string{"a", "b"}},
		{EN(), "bad index %[x]s", []string{"a"}},
		{EN(), "a lone %", []string{"a"}},
		{EN(), "%d is not %s", []string{"a", "b"}},
	} {
		anys := make([]any, len(c.args))
		for i, a := range c.args {
			anys[i] = a
		}
		if got, want := c.p.Fill(c.key, c.args...), c.p.Sprintf(c.key, anys...); got != want {
			t.Errorf("%s %q: Fill %q, Sprintf %q", c.p.Code(), c.key, got, want)
		}
	}
}

// TestFillIn: a message written in another's place reads as Fill of the
// outer message with the inner one's text, in both languages, whether
// both are all %s or one is not (Fill's way), and with an index beyond
// the arguments.
func TestFillIn(t *testing.T) {
	ja := For(Japanese)
	fire := []string{"G16-1", "11", "ドイツ軍", "1/2", "3/4", "1", "3"}
	for _, c := range []struct {
		p      *Printer
		format string
		at     int
		key    string
		keyArg []string
		args   []string
	}{
		{ja, "%s  (draw %s)", 0, "%s battle %s: %s fire %s at %s, die %s of %s", fire, []string{"", "12"}},
		{EN(), "%s  (draw %s)", 0, "%s battle %s: %s fire %s at %s, die %s of %s", fire, []string{"", "12"}},
		{ja, "%s  (draw %s)", 1, "%s repair %s by %s", []string{"G16-1", "51-70", "600E"}, []string{"x", ""}},
		{ja, "swapped: %[2]s, %[1]s; %[2]s", 1, "%s repair %s by %s", []string{"G16-1", "51-70", "600E"}, []string{"a", ""}},
		{ja, "%s  (draw %s)", 0, "line %d: %s", []string{"3", "x"}, []string{"", "12"}},
		{ja, "%s  (draw %s)", 0, "too few: %s %s", []string{"a"}, []string{"", "12"}},
		{ja, "%d is not %s", 1, "%s repair %s by %s", []string{"G16-1", "51-70", "600E"}, []string{"a", ""}},
		{ja, "%s  (draw %s)", 2, "%s repair %s by %s", []string{"G16-1", "51-70", "600E"}, []string{"a", "b"}},
		{ja, "too few: %s %s %s", 0, "%s repair %s by %s", []string{"G16-1", "51-70", "600E"}, []string{"", "b"}},
	} {
		want := c.p.Fill(c.format, c.args...)
		if c.at < len(c.args) {
			outer := slices.Clone(c.args)
			outer[c.at] = c.p.Fill(c.key, c.keyArg...)
			want = c.p.Fill(c.format, outer...)
		}
		if got := c.p.FillIn(c.format, c.at, c.key, c.keyArg, c.args...); got != want {
			t.Errorf("%s %q in %q: %q, want %q", c.p.Code(), c.key, c.format, got, want)
		}
	}
}

// TestPluralExact: a plural table of numbers (=1, =2 ... and other) is
// chosen and formatted by the printer itself as the catalog's printer does
// it, for every such table of the catalogs and numbers in and out of its
// cases.
func TestPluralExact(t *testing.T) {
	tables := 0
	for _, code := range Codes {
		p := For(code)
		for key, m := range p.msgs {
			if m.exact == nil {
				continue
			}
			tables++
			verbs := regexp.MustCompile(`%[a-z]`).FindAllString(strings.ReplaceAll(key, "%%", ""), -1)
			for _, v := range []int{-1, 0, 1, 2, 3, 4, 16, 1001} {
				args := make([]any, len(verbs))
				for i, verb := range verbs {
					args[i] = v
					if verb == "%s" {
						args[i] = "G16-1"
					}
				}
				if got, want := p.Sprintf(key, args...), p.p.Sprintf(key, p.args(args)...); got != want {
					t.Errorf("%s %q %d: %q, want %q", code, key, v, got, want)
				}
			}
		}
	}
	if tables == 0 {
		t.Error("no plural table of numbers in the catalogs")
	}
}
