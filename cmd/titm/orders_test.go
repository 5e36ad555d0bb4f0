package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"titm/internal/golden"
	"titm/rules/scenarios"
)

// titm orders check names the greeting and the sign-off it did not read, as
// the referee's reply does.
func TestOrdersCheckSignOff(t *testing.T) {
	f := filepath.Join(t.TempDir(), "mail.txt")
	if err := os.WriteFile(f, []byte("Hi Hans,\nGAME bulge-7\nMOVE 116/60 50 49\n\nCheers,\nTony\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runT(t, "orders", "check", "--scenario", "campaign", "--side", "german", f)
	if want := "GAME bulge-7\nMOVE 116/60 50 49\n# not read as orders: line 1, lines 5-6\n"; code != exitOK || out != want {
		t.Errorf("exit %d %s\n%s\nwant\n%s", code, errs, out, want)
	}
}

// In Japanese, titm orders check prints no English: neither the orders'
// errors, nor the count of them under, nor its TOKEN line. Only what the
// mail itself wrote may be in Latin letters.
func TestOrdersCheckJapanese(t *testing.T) {
	s, err := scenarios.Load("campaign")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		file string
		code int
		want []string
	}{
		{"../../testdata/orders/good.txt", exitOK, []string{"TOKEN (記載あり、表示しません)\n"}},
		{"../../testdata/orders/bad.txt", exitProblems, []string{"エラー6件: 何も適用されません\n"}},
	} {
		code, out, errs := runT(t, "orders", "check", "--scenario", "campaign", "--language", "ja", c.file)
		if code != c.code {
			t.Errorf("%s: exit %d, want %d: %s\n%s", c.file, code, c.code, errs, out)
		}
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: no %q in\n%s", c.file, w, out)
			}
		}
		mail, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		// The mail's own words, as it wrote them, and the game's id.
		quoted := append(strings.Fields(string(mail)), "bulge-7")
		if en := golden.EnglishWords(out, s, quoted...); len(en) > 0 {
			t.Errorf("%s: English left: %q\n%s", c.file, en, out)
		}
	}
}
