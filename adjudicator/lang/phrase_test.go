package lang

import (
	"regexp"
	"strings"
	"testing"

	"titm/internal/linebreaks"
)

// TestPhrases: a Japanese line breaks between phrases, never inside a
// word, a word with its ending or particle, a number with what it counts,
// or a name with its number; the cases are those the reports and texts
// broke before (進/入, 勝/利, 除/去, なりま/す, Betzdorf / (5)); and no
// space follows 。 or 、.
func TestPhrases(t *testing.T) {
	for _, tc := range []struct {
		s     string
		first string
		max   int
		want  []string
	}{
		// A word with its okurigana or particle: 進入します, 除去されます.
		{"他ユニットの存在するエリアへの進入には追加1移動力", "", 30, []string{"他ユニットの存在するエリアへの", "進入には追加1移動力"}},
		{"インパルス終了時に G/IN が 4 Eastbank から除去されます", "", 50, []string{"インパルス終了時に G/IN が 4 Eastbank から", "除去されます"}},
		{"出た目 2、4以下で成功: 【架橋成功】。", "", 24, []string{"出た目 2、4以下で成功:", "【架橋成功】。"}},
		{"最初のダイスまでは次のようになります。何も適用しておらず", "", 30, []string{"最初のダイスまでは", "次のようになります。何も", "適用しておらず"}},
		// A run of kanji: 決定的勝利, 担当地区.
		{"両方が継戦状態。連合軍戦術的勝利: 一方", "", 30, []string{"両方が継戦状態。", "連合軍戦術的勝利: 一方"}},
		{"第7軍の担当地区: Luxembourg", "", 14, []string{"第7軍の", "担当地区:", "Luxembourg"}},
		// A name and its number, an area's number and its name.
		{"エリア: Luxembourg (4)、Betzdorf (5)、Grevenmacher (6)", "", 40, []string{"エリア: Luxembourg (4)、Betzdorf (5)、", "Grevenmacher (6)"}},
		{"エリア: Luxembourg (4)、Betzdorf (5)", "", 34, []string{"エリア: Luxembourg (4)、", "Betzdorf (5)"}},
		{"連合軍支配2: 4 Luxembourg (連合軍)", "", 20, []string{"連合軍支配2:", "4 Luxembourg", "(連合軍)"}},
		// A number and what it counts or qualifies; an arrow between.
		{"出た目 5 9 9 -1 攻撃側に諸兵科連合効果なし", "", 20, []string{"出た目 5 9 9", "-1 攻撃側に", "諸兵科連合効果なし"}},
		{"1ヒット: 212/320 3 → 2戦力。", "", 20, []string{"1ヒット: 212/320", "3 → 2戦力。"}},
		// A Latin word keeps its particle; a katakana word with a kanji
		// is one word: ドイツ軍.
		{"ELSE の例はありません", "", 16, []string{"ELSE の", "例はありません"}},
		{"機械化・工兵ユニットはありません", "", 30, []string{"機械化・", "工兵ユニットはありません"}},
		// The okurigana inside a word: 見出し行; but the particle ends a
		// phrase: 軍の攻撃.
		{"見出し行の説明", "", 10, []string{"見出し行の", "説明"}},
		{"連合軍の攻撃", "", 10, []string{"連合軍の", "攻撃"}},
		// A word in 【】 is kept whole; an aside in parentheses with a
		// space in it among Japanese, not among English alone.
		{"ユニットは【一二三四五六七八九十】された", "", 24, []string{"ユニットは", "【一二三四五六七八九十】", "された"}},
		{"戦闘は(51-70 の範囲)で", "", 14, []string{"戦闘は", "(51-70 の範囲)", "で"}},
		{"戦闘は(as 51-70)で", "", 12, []string{"戦闘は(as", "51-70)で"}},
		// No space after 。 or 、, in a line that fits and in one that
		// does not.
		{"失敗。 次に、 成功。", "", 78, []string{"失敗。次に、成功。"}},
		{"失敗しました。 次に、 成功しました。 その後、 勝利しました。", "", 24, []string{"失敗しました。次に、", "成功しました。その後、", "勝利しました。"}},
		{"インパルスです。 次のインパルス", "", 18, []string{"インパルスです。", "次のインパルス"}},
		// A phrase wider than a line breaks between its atoms, a run of
		// kanji wider than a line between its characters.
		{"諸兵科連合効果なし", "", 8, []string{"諸兵科連", "合効果", "なし"}},
		{"ゲームの秘密シード", "  ", 10, []string{"  ゲームの", "  秘密", "  シード"}},
		{"ドイツ軍ユニットの", "", 10, []string{"ドイツ軍", "ユニットの"}},
	} {
		got := Wrap(tc.s, tc.first, tc.first, tc.max)
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("Wrap(%q, %d):\n got %q\nwant %q", tc.s, tc.max, got, tc.want)
		}
		for _, l := range got {
			if Width(l) > tc.max {
				t.Errorf("Wrap(%q, %d): %q is %d columns", tc.s, tc.max, l, Width(l))
			}
		}
	}
}

// verb is a verb of a catalog's text, as %s, %d or %[2]s.
var verb = regexp.MustCompile(`%(\[\d+\])?[-+# 0]*\d*(\.\d+)?[a-zA-Z%]`)

// TestCatalogsBreakBetweenPhrases wraps every Japanese text of the
// catalogs, its verbs filled with a place name and a number, at the
// widths of the mails and reports and narrower, after an indent, and
// reads every line break with linebreaks.InWords, which knows nothing of
// the wrapping: none falls inside a word.
func TestCatalogsBreakBetweenPhrases(t *testing.T) {
	cat, err := Load(Japanese)
	if err != nil {
		t.Fatal(err)
	}
	fill := func(s string) string {
		return verb.ReplaceAllStringFunc(s, func(v string) string {
			switch v[len(v)-1] {
			case '%':
				return "%"
			case 's', 'v', 'q':
				return "Bastogne"
			}
			return "12"
		})
	}
	texts, breaks := 0, 0
	for key, e := range cat {
		all := []string{e.text}
		for _, c := range e.cases {
			all = append(all, c)
		}
		for _, s := range all {
			if s == "" {
				continue
			}
			s = fill(s)
			texts++
			for _, max := range []int{78, 60, 44} {
				lines := Wrap(s, "  ", "      ", max)
				text := strings.Join(lines, "\n")
				if bare := strings.NewReplacer(" ", "", "\n", ""); bare.Replace(text) != bare.Replace(s) {
					t.Errorf("%q at %d columns: the text changed:\n%s", key, max, text)
				}
				for _, l := range lines {
					if Width(l) > max && strings.Contains(strings.TrimSpace(l), " ") {
						t.Errorf("%q at %d columns: %q is %d columns", key, max, l, Width(l))
					}
				}
				broken, n := linebreaks.InWords(text, max)
				breaks += n
				for _, b := range broken {
					t.Errorf("%q at %d columns: %s\n%s", key, max, b, text)
				}
			}
		}
	}
	t.Logf("%d texts of the catalogs, %d line breaks read", texts, breaks)
	if texts < 500 || breaks < 200 {
		t.Errorf("only %d texts and %d line breaks", texts, breaks)
	}
}
