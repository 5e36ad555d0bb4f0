package linebreaks

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInWords: the breaks the reports and texts made inside words are
// found, with what was wrong; breaks between phrases, and line ends with
// room left (a heading), are not.
func TestInWords(t *testing.T) {
	full := strings.Repeat("あ", 37) // 74 columns: a line with no room left for a word
	for _, tc := range []struct {
		a, b string
		want string // what InWords says, "" for nothing
	}{
		{full + "進", "入します", "a kanji or katakana word"},
		{full + "勝", "利: ドイツ", "a kanji or katakana word"},
		{full + "除", "去されます", "a kanji or katakana word"},
		{full + "ユニ", "ットは", "a kanji or katakana word"},
		{full + "ドイツ", "軍の", "a kanji or katakana word"},
		{full + "なりま", "す。", "a word's ending or particle"},
		{full + "除去", "されます", "a word's ending or particle"},
		{full + " Bastogne", "で攻撃", "a word's ending or particle"},
		{full + "見出し", "行", "okurigana"},
		{full + " 3", "戦力", "a number and what it counts"},
		{full + " -1", "攻撃側", "a number and what it counts"},
		{full + " Betzdorf", "(5)、", "a name and its number"},
		{full + " 4", "Luxembourg", "an area's number and its name"},
		{full + "を", "除去します", ""},
		{full + "軍の", "攻撃", ""},
		{full + "、", "ありません", ""},
		{full + " Betzdorf (5)、", "Irrel (10)", ""},
		{full + " EXTEND 24h", "(1ゲームあたり)", ""},
		{"移動", "ドイツ軍: 212/320", ""},                      // a heading, with room left
		{"  G17-1  614JP      装甲", "  G18-1  653JP", ""}, // a table
	} {
		got, n := InWords(tc.a+"\n"+tc.b+"\n", 78)
		if tc.want == "" && len(got) > 0 || tc.want != "" && (len(got) != 1 || !strings.Contains(got[0], tc.want)) {
			t.Errorf("%q | %q: %q, want %q", tail(tc.a, 6), tc.b, got, tc.want)
		}
		if tc.want != "" && n != 1 {
			t.Errorf("%q | %q: %d breaks read, want 1", tail(tc.a, 6), tc.b, n)
		}
	}
	if got, _ := InWords("失敗。 次に", 78); len(got) != 1 || !strings.Contains(got[0], "a space after") {
		t.Errorf("a space after 。: %q", got)
	}
}

// TestGoldensUnbroken reads every Japanese golden file of the repository
// (a report, CHECK, HELP, a brief: the files named -ja.txt under a
// testdata directory) and finds no line break inside a word: the golden
// files are what the tests compare the texts with, so a wrapping that
// splits a word fails here once its golden files are made again.
func TestGoldensUnbroken(t *testing.T) {
	files, lines, breaks := 0, 0, 0
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "-ja.txt") || !strings.Contains(path, "testdata") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files++
		lines += strings.Count(string(b), "\n")
		broken, n := InWords(string(b), 78)
		breaks += n
		for _, w := range broken {
			t.Errorf("%s: %s", path, w)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d Japanese golden files, %d lines, %d line breaks read", files, lines, breaks)
	if files < 6 || breaks < 50 {
		t.Errorf("only %d golden files and %d line breaks", files, breaks)
	}
}
