package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"titm/adjudicator/lang"
	"titm/adjudicator/referee"
	"titm/internal/golden"
	"titm/mail"
	"titm/rules/scenarios"
)

// A mail's subject as a part of a file name keeps its letters of any
// script, Japanese as much as English, and leaves out only what a file
// system or a shell cannot take; it is cut at a character's boundary. Each
// name is written to a real directory.
func TestNameOf(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		in   string
		max  int
		want string
	}{
		{"[intro-1] welcome: you play the German side", 120, "intro-1-welcome-you-play-the-German-side"},
		{"[intro-1] 案内: あなたはドイツ軍を担当します", 120, "intro-1-案内-あなたはドイツ軍を担当します"},
		{"[intro-1] G16-1 実行、次は A16-1、締切 2026-12-19 06:05 UTC", 120, "intro-1-G16-1-実行、次は-A16-1、締切-2026-12-19-06-05-UTC"},
		{"../../etc/passwd", 120, "etc-passwd"},
		{".hidden", 120, "hidden"},
		{"-rf *", 120, "rf"},
		{"a\x00b\tc\nd\x7fe", 120, "a-b-c-d-e"},
		{"$(rm -rf ~); `x` 'q' \"w\" a|b&c<d>e", 120, "rm-rf-x-q-w-a-b-c-d-e"},
		{"Ärger über Köln", 120, "Ärger-über-Köln"},
		{"Смоленск ロシア", 120, "Смоленск-ロシア"},
		{"あいうえお", 7, "あい"}, // 3 bytes each: 6 of 7 bytes
		{"ab-あい", 5, "ab"}, // the cut falls inside あ; the hyphen then goes
		{"abc\xffdef", 120, "abc-def"},
		{"", 120, ""},
	} {
		got := nameOf(c.in, c.max)
		if got != c.want {
			t.Errorf("nameOf(%q, %d) = %q, want %q", c.in, c.max, got, c.want)
		}
		if len(got) > c.max || !utf8.ValidString(got) {
			t.Errorf("nameOf(%q, %d) = %q: %d bytes, valid UTF-8 %v", c.in, c.max, got, len(got), utf8.ValidString(got))
		}
		if got == "" {
			continue
		}
		name := filepath.Join(dir, "001-"+got+".eml")
		if err := os.WriteFile(name, []byte("x"), 0o600); err != nil {
			t.Errorf("nameOf(%q): %v", c.in, err)
		}
		if filepath.Dir(name) != dir {
			t.Errorf("nameOf(%q) = %q leaves the directory", c.in, got)
		}
	}
}

// titm demo --language ja: the referee writes to both scripted players in
// Japanese, from the welcome on, and they write their own words in
// Japanese; every mail they receive has no English but the order language,
// names, ids and the welcome's line that says how to have English; the
// mails' files keep their subjects' Japanese.
func TestDemoJapanese(t *testing.T) {
	text := runDemo(t, "--temporary", "--language", "ja")
	m := regexp.MustCompile(`written to\n  (\S+)\n`).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("the demo does not name its mail directory:\n%s", text)
	}
	files, err := filepath.Glob(filepath.Join(m[1], "*.eml"))
	if err != nil || len(files) < 8 {
		t.Fatalf("%d mails in %s (%v)", len(files), m[1], err)
	}
	s, err := scenarios.Load("intro")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		in, err := mail.ParseIncoming(raw)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if !japaneseText.MatchString(in.Subject) || !japaneseText.MatchString(in.Text) {
			t.Errorf("%s is not in Japanese: %q\n%s", filepath.Base(f), in.Subject, in.Text)
		}
		if !japaneseText.MatchString(filepath.Base(f)) {
			t.Errorf("the file of %q has lost its Japanese: %s", in.Subject, filepath.Base(f))
		}
		// "Re: " before an answer's subject is the mails' convention, in
		// Japanese mail as well.
		if ws := golden.EnglishWords(strings.TrimPrefix(in.Subject, "Re: ")+"\n"+in.Text, s, "intro-1", "(intro)", referee.LanguageLine(lang.English, false)); len(ws) > 0 {
			t.Errorf("%s: English words %q in\n%s", filepath.Base(f), ws, in.Text)
		}
		for _, what := range []string{"TOKEN", "インパルス G16-1", "インパルス A16-1", "デモ用のシード"} {
			seen[what] = seen[what] || strings.Contains(in.Text, what)
		}
	}
	for what, ok := range seen {
		if !ok {
			t.Errorf("no mail holds %q", what)
		}
	}
}
