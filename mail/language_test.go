package mail_test

import (
	"fmt"
	"strings"
	"testing"
	"unicode"

	"titm/adjudicator/lang"
	acts "titm/adjudicator/referee"
	"titm/mail"
	"titm/rules"
)

// hasJapanese reports whether s holds Japanese: kana or kanji.
func hasJapanese(s string) bool {
	for _, r := range s {
		if unicode.In(r, unicode.Hiragana, unicode.Katakana, unicode.Han) {
			return true
		}
	}
	return false
}

// ownLanguage is a text without its whitespace and without the lines of a
// welcome that are in the other language on purpose (acts.LanguageLine).
func ownLanguage(text string) string {
	squeeze := func(s string) string { return strings.Join(strings.Fields(s), "") }
	text = squeeze(text)
	for _, code := range lang.Codes {
		text = strings.ReplaceAll(text, squeeze(acts.LanguageLine(code, false)), "")
	}
	return text
}

// A game by mail through the embedded servers with a Japanese and an
// English player: each gets every mail in his own language — the welcome,
// the start, the impulse's report, the answers to his mails and their
// errors, with the subjects — and the observer gets the referee's
// (English); the impulse's picture is drawn once for each language read.
// A player's LANGUAGE by mail switches him, answered in the new language.
func TestLanguagesByMail(t *testing.T) {
	t.Parallel()
	w := newWorld(t, &worldOptions{extra: "map_picture = true", languages: map[rules.Side]string{rules.Allied: "ja"}, noStart: true})
	drawn := countDrawn(w)
	w.start()
	w.join()
	inLanguage := func(box string, want bool, from int) int {
		t.Helper()
		ms := w.inbox(box)
		for _, m := range ms[from:] {
			if got := hasJapanese(m.Subject); got != want {
				t.Errorf("%s: subject %q: Japanese %v, want %v", box, m.Subject, got, want)
			}
			if got := hasJapanese(ownLanguage(m.Text)); got != want {
				t.Errorf("%s: %q: Japanese text %v, want %v:\n%s", box, m.Subject, got, want, m.Text)
			}
		}
		return len(ms)
	}
	nA := inLanguage(allied, true, 0)
	nG := inLanguage(german, false, 0)
	nO := inLanguage(observer, false, 0)
	if nA < 3 {
		t.Fatalf("the Japanese player has %d mails, want the welcome, the start and the answer to JOIN", nA)
	}

	before := drawn.n.Load()
	w.send(german, "my orders", fmt.Sprintf("GAME %s\nTOKEN %s\nIMPULSE 16-1\nENTRENCH 212/423\n", w.game, w.tokens[german]))
	a := w.waitMail(allied, nA+1)
	g := w.waitMail(german, nG+1)
	o := w.waitMail(observer, nO+1)
	w.settle()
	if r := a[len(a)-1]; !strings.Contains(r.Text, "インパルス G16-1") || !strings.Contains(r.Text, "塹壕を構築") || len(r.Attachments) != 1 {
		t.Errorf("the Japanese report of G16-1 (%q, %d attachments):\n%s", r.Subject, len(r.Attachments), r.Text)
	}
	for _, r := range []*mail.Incoming{g[len(g)-1], o[len(o)-1]} {
		if !strings.Contains(r.Subject, "G16-1 played") || len(r.Attachments) != 1 {
			t.Errorf("the English report of G16-1: %q with %d attachments", r.Subject, len(r.Attachments))
		}
	}
	if n := drawn.n.Load() - before; n != 2 {
		t.Errorf("the map of G16-1 was drawn %d times, want twice: once in English, once in Japanese", n)
	}
	nA = inLanguage(allied, true, nA)
	nG = inLanguage(german, false, nG)
	inLanguage(observer, false, nO)

	// The Japanese player's orders with an error: the answer names the
	// line in Japanese, with the rule.
	w.send(allied, "命令", fmt.Sprintf("GAME %s\nTOKEN %s\nIMPULSE 16-1\nMOVE 4/12 11 99\n", w.game, w.tokens[allied]))
	a = w.waitMail(allied, nA+1)
	if r := a[len(a)-1]; !strings.Contains(r.Text, "4行目") {
		t.Errorf("the answer to orders with an error:\n%s", r.Text)
	}
	inLanguage(allied, true, nA)

	// The English player switches to Japanese.
	w.send(german, "language", fmt.Sprintf("GAME %s\nTOKEN %s\nLANGUAGE ja\n", w.game, w.tokens[german]))
	g = w.waitMail(german, nG+1)
	if r := g[len(g)-1]; !hasJapanese(r.Text) || !strings.Contains(r.Text, "LANGUAGE ja") {
		t.Errorf("the answer to LANGUAGE ja:\n%s", r.Text)
	}
	w.settle()
}
