package lang

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// verbs are a catalog text's placeholders, filled for TestPlacedAtOnce
// with the kinds of values reports give them.
var verbs = regexp.MustCompile(`%(\[\d+\])?[sdv]`)

// A wrapped Japanese line places what comes before the last place near
// its end where a phrase surely begins at once (marks.reach): the lines
// are the same as when every phrase of the line is read, for every
// Japanese catalog text, as it is and filled with names with their
// numbers, numbers and asides, and for the texts where a place only looks sure (a
// parenthesis opened before it, a line's forbidden first character after
// 。, a number with its counting word or a name with its number across a
// space), at every width from 8 to 78 columns, with and without prefixes.
func TestPlacedAtOnce(t *testing.T) {
	ja, err := Load(Japanese)
	if err != nil {
		t.Fatal(err)
	}
	values := []string{"Luxembourg (4)", "3", "工兵 (2戦力)", "G16-1", "第116装甲師団"}
	texts := []string{
		"The (工兵, 2戦力) は移動できません。次のインパルスで移動します。",
		"12, G16-1 missed, (工兵, 2戦力) の攻撃は失敗しました、守備側は退却します。",
		"戦闘の結果。%d番目の部隊が除去されました。次に、3 → 2戦力 へ減少します。",
		"損害は戦力の半分。%を超えると除去、」となり、）の後、。。の後でも行は始まりません、ーー。",
		"支配下のエリア 4 Luxembourg と 5 Betzdorf は、連合軍の勝利得点 となります。",
		"【補給切れ】 第116装甲師団 は、攻撃も移動もできません。 理由: 補給線が切れています。",
	}
	keys := make([]string, 0, len(ja))
	for k := range ja {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for i, k := range keys {
		n := 0
		// Each text as the catalog has it, and filled.
		texts = append(texts, ja[k].text, verbs.ReplaceAllStringFunc(ja[k].text, func(string) string {
			n++
			return values[(i+n)%len(values)]
		}))
	}
	prefixes := [][2]string{{"", ""}, {"  ", "  "}, {"・", "  "}}
	compared, placed := 0, 0
	for _, s := range texts {
		if !japanese(s) {
			continue
		}
		for max := 8; max <= 78; max++ {
			for _, p := range prefixes {
				want := wrapLines(s, p[0], p[1], max, false)
				got := Wrap(s, p[0], p[1], max)
				compared++
				if len(want) > 1 {
					placed++
				}
				if !slices.Equal(got, want) {
					t.Fatalf("%q at %d columns, prefixes %q:\nplaced at once:\n%s\nread phrase by phrase:\n%s",
						s, max, p, strings.Join(got, "\n"), strings.Join(want, "\n"))
				}
			}
		}
	}
	if compared < 10000 || placed < 5000 {
		t.Fatalf("%d wraps compared, %d of them of more than one line: too few to tell", compared, placed)
	}
	t.Logf("%d wraps compared, %d of more than one line", compared, placed)
}
