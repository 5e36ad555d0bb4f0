package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// japaneseText matches kana or kanji.
var japaneseText = regexp.MustCompile(`[\p{Hiragana}\p{Katakana}\p{Han}]`)

// The commands that print a player's texts print them in the language
// --language names: HELP, the orders' errors, a stored game's report and
// adjudicate's reports. A stored game's report is by default in the
// language of the player who played its impulse, the others in English.
// A language that is none is refused, naming the flag and the choices,
// by these and by titm demo.
func TestLanguageFlag(t *testing.T) {
	fixClock(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "titm.db")
	out := mustRun(t, "new", "--db", db, "--scenario", "intro", "--german", "g@example.test", "--allied", "a@example.test", "--language-german", "ja", "--json")
	id := regexp.MustCompile(`"id": "([^"]+)"`).FindStringSubmatch(out)[1]
	mustRun(t, "join", id, "--db", db, "--side", "german")
	mustRun(t, "join", id, "--db", db, "--side", "allied")
	orders := filepath.Join(dir, "g16-1.txt")
	os.WriteFile(orders, []byte("IMPULSE 16-1\nENTRENCH 212/423\n"), 0o600)
	mustRun(t, "play", id, "--db", db, "--side", "german", "--orders", orders)
	pass := filepath.Join(dir, "a16-1.txt")
	os.WriteFile(pass, []byte("IMPULSE 16-1\n"), 0o600)
	mustRun(t, "play", id, "--db", db, "--side", "allied", "--orders", pass)
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(bad, []byte("MOVE 212/42 10\n"), 0o600)
	battles := "../../testdata/adjudicate/intro-battles/01-G16-1.txt"
	adjudicate := []string{"adjudicate", "--scenario", "intro", "--seed", "7469746d2d696e74726f", "--orders", battles}

	for _, c := range []struct {
		args     []string
		code     int
		ja       bool   // the output is in Japanese
		want     string // in the output (stderr for a usage error)
		dontWant string
	}{
		{[]string{"orders", "help", "--scenario", "intro"}, exitOK, false, "this text", ""},
		{[]string{"orders", "help", "--scenario", "intro", "--language", "ja"}, exitOK, true, "この説明", "this text"},
		{[]string{"orders", "help", "--scenario", "intro", "--language", "en"}, exitOK, false, "this text", ""},
		{[]string{"orders", "check", "--scenario", "intro", bad}, exitProblems, false, "line 1: ", ""},
		{[]string{"orders", "check", "--scenario", "intro", "--language", "ja", bad}, exitProblems, true, "1行目: ", "line 1"},
		{[]string{"report", id, "--db", db, "--impulse", "G16-1"}, exitOK, true, "インパルス G16-1", "Impulse G16-1"},
		{[]string{"report", id, "--db", db, "--impulse", "G16-1", "--language", "en"}, exitOK, false, "Impulse G16-1", ""},
		{[]string{"report", id, "--db", db}, exitOK, false, "Impulse A16-1", ""},
		{[]string{"report", id, "--db", db, "--impulse", "A16-1", "--language", "ja"}, exitOK, true, "インパルス A16-1", "Impulse A16-1"},
		{append(adjudicate, "--report"), exitOK, false, "Impulse G16-1", ""},
		{append(adjudicate, "--report", "--language", "ja"), exitOK, true, "インパルス G16-1", "Impulse G16-1"},
		{append(adjudicate, "--language", "ja"), exitUsage, false, "--language is the language of the reports: give it with --report", ""},
		{[]string{"orders", "help", "--scenario", "intro", "--language", "fr"}, exitUsage, false, `--language "fr": the languages are en (English) and ja (Japanese)`, ""},
		{[]string{"orders", "check", "--scenario", "intro", "--language", "de", bad}, exitUsage, false, `--language "de"`, ""},
		{[]string{"report", id, "--db", db, "--language", "japan"}, exitUsage, false, `--language "japan": the languages are en (English) and ja (Japanese)`, ""},
		{append(adjudicate, "--report", "--language", ""), exitOK, false, "Impulse G16-1", ""},
		{[]string{"demo", "--language", "fr", "--db", filepath.Join(dir, "demo.db")}, exitUsage, false, `--language "fr": the languages are en (English) and ja (Japanese)`, ""},
	} {
		code, out, errs := runT(t, c.args...)
		got := out
		if c.code == exitUsage {
			got = errs
		}
		if code != c.code || !strings.Contains(got, c.want) || c.dontWant != "" && strings.Contains(got, c.dontWant) {
			t.Errorf("titm %s: exit %d, want %d with %q:\n%s%s", strings.Join(c.args, " "), code, c.code, c.want, out, errs)
		}
		if ja := japaneseText.MatchString(out); ja != c.ja {
			t.Errorf("titm %s: Japanese %v, want %v:\n%s", strings.Join(c.args, " "), ja, c.ja, out)
		}
	}
}
