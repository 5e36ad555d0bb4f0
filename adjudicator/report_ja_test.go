package adjudicator

import (
	"errors"
	"strings"
	"testing"
	"time"

	"titm/adjudicator/lang"
	"titm/internal/golden"
	"titm/rules"
)

// introAttack are German orders for the first impulse of the
// introductory scenario (The 7th Army Attacks) that fight two battles:
// across the blown bridges 10-11 and 19-20, on foot (8.33-8.35).
const introAttack = "MOVE 212/320 212/423 10 11\nMOVE 276/986 276/987 19 20\nFOOT 605E 19 20\n"

// introBattle plays the first impulse of the introductory scenario with
// introAttack, and returns the game after it, its records and events.
func introBattle(t testing.TB) (*Game, []Record, []rules.Event) {
	t.Helper()
	g, _ := newGame(t, "intro")
	recs, events := submit(t, g, introAttack, t0.Add(2*time.Hour))
	for _, e := range events {
		if _, ok := e.(rules.BattleBegins); ok {
			return g, recs, events
		}
	}
	t.Fatalf("no battle: %v", events)
	return nil, nil, nil
}

// The report of a battle impulse of the introductory scenario in Japanese:
// the rulebook's words, 80 columns by display width, and the orders and the
// dice's purposes as the log keeps them.
func TestReportJapanese(t *testing.T) {
	g, recs, events := introBattle(t)
	ja, err := ReportIn(lang.For(lang.Japanese), g, recs, events)
	if err != nil {
		t.Fatal(err)
	}
	goldenReport(t, "report-intro-battle-ja.txt", ja)
	noEnglish(t, g, "the report", ja)
	en, err := ReportIn(lang.EN(), g, recs, events)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"インパルス G", "での戦闘: ", "ドイツ軍VP: ", "全ダイス(振った順", "受理した命令"} {
		if !strings.Contains(ja, want) {
			t.Errorf("the Japanese report lacks %q", want)
		}
	}
	// The orders as accepted are the same in both; each die's purpose is
	// as the log keeps it in English, and translated in Japanese (which a
	// line may wrap).
	flat := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	for _, r := range recs {
		for _, d := range r.Dice {
			tr := PurposeText(lang.For(lang.Japanese), d.Purpose)
			bare := func(s string) string { return strings.Join(strings.Fields(s), "") }
			if !strings.Contains(flat(en), d.Purpose) || !strings.Contains(bare(ja), bare(tr)) || strings.Contains(flat(ja), d.Purpose) {
				t.Errorf("the die %q is not in the English report as stored and in the Japanese one as %q", d.Purpose, tr)
			}
		}
		for _, l := range strings.Split(strings.TrimSpace(PublicOrders(r.Text)), "\n") {
			if l != "" && !strings.Contains(ja, l) {
				t.Errorf("the order %q is not in the Japanese report", l)
			}
		}
	}
}

// The report of the movement fixture's impulse of battle, demolition and
// repair in Japanese, as TestReportBattles writes it in English.
func TestReportBattlesJapanese(t *testing.T) {
	g, recs, events := battlesImpulse(t)
	r, err := ReportIn(lang.For(lang.Japanese), g, recs, events)
	if err != nil {
		t.Fatal(err)
	}
	goldenReport(t, "report-battles-ja.txt", r)
	noEnglish(t, g, "the report", r, "Movement tests", "Allied victory") // the fixture's own title and result, which no catalog has
}

// The answer to CHECK in Japanese: for the German orders of the
// introductory scenario's first impulse that fight its battles, and for the movement fixture's orders of TestCheckReply.
func TestCheckReplyJapanese(t *testing.T) {
	ja := lang.For(lang.Japanese)
	g, _ := newGame(t, "intro")
	s, _ := g.Rules()
	rh, err := rules.Rehearse(s, g.State, mustParse(t, s, rules.German, "IMPULSE 16-1\n"+introAttack))
	if err != nil {
		t.Fatal(err)
	}
	goldenReport(t, "check-intro-ja.txt", WriteRehearsalIn(ja, s, rh))
	noEnglish(t, g, "CHECK", WriteRehearsalIn(ja, s, rh))

	g, s, orders := checkFixture(t)
	rh, err = rules.Rehearse(s, g.State, orders)
	if err != nil {
		t.Fatal(err)
	}
	goldenReport(t, "check-reply-ja.txt", WriteRehearsalIn(ja, s, rh))
	noEnglish(t, g, "CHECK", WriteRehearsalIn(ja, s, rh))
}

// noEnglish fails the test if a Japanese text of game g has a word of
// English in it (golden.EnglishWords); quoted are its fixtures' own words.
func noEnglish(t *testing.T, g *Game, what, text string, quoted ...string) {
	t.Helper()
	s, err := g.Rules()
	if err != nil {
		t.Fatal(err)
	}
	if ws := golden.EnglishWords(text, s, append(quoted, g.ID)...); len(ws) > 0 {
		t.Errorf("%s in Japanese has English words %q", what, ws)
	}
}

// The results a game may end with, in Japanese: the scenarios', and the
// referee's own, with the sides' names.
func TestResultMessage(t *testing.T) {
	ja := lang.For(lang.Japanese)
	for result, want := range map[string]string{
		"Allied decisive victory":                    "連合軍決定的勝利",
		rules.ConcededResult(rules.German):           "ドイツ軍プレイヤーの投了により連合軍の勝利",
		rules.ConcededResultV1(rules.Allied):         "連合軍プレイヤーの投了によりドイツ軍の勝利",
		rules.ForfeitedResult(rules.Allied):          "連合軍プレイヤーの不戦敗によりドイツ軍の勝利",
		"drawn by agreement":                         "合意による引き分け",
		"no result: something the rules did not say": "no result: something the rules did not say",
	} {
		if got := ja.Text(rules.ResultMessage(result)); got != want {
			t.Errorf("%q: %q, want %q", result, got, want)
		}
		if got := lang.EN().Text(rules.ResultMessage(result)); got != result {
			t.Errorf("%q in English: %q", result, got)
		}
	}
}

// The reason an impulse was played without orders is the log's, which
// the report gives as a message of its own.
func TestReasonDeadlineMessage(t *testing.T) {
	g, _ := newGame(t, "intro")
	s, _ := g.Rules()
	d := &ReportData{Scenario: s, Impulse: g.Next, Reason: ReasonDeadline, After: g.State}
	if got := WriteReportIn(lang.EN(), d); !strings.Contains(got, "Played without orders: "+ReasonDeadline+"\n") {
		t.Errorf("the reason is not written as the log keeps it:\n%s", got)
	}
}

// BenchmarkReport writes the report of a battle impulse of the
// introductory scenario in English and in Japanese. Target: the Japanese
// costs at most 20% more than the English.
func BenchmarkReport(b *testing.B) {
	g, recs, events := introBattle(b)
	for _, code := range []string{lang.English, lang.Japanese} {
		p := lang.For(code)
		b.Run(code, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ReportIn(p, g, recs, events); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// The heading lines' errors, and the game's own about a mail's orders, are
// messages: a Japanese player reads them in Japanese.
func TestOrderErrorsJapanese(t *testing.T) {
	ja := lang.For(lang.Japanese)
	g, _ := newGame(t, "intro")
	s, _ := g.Rules()
	_, err := ParseOrders("GAME\nIMPULSE 16-1\n", s, rules.German)
	var es rules.OrderErrors
	if !errors.As(err, &es) || len(es) != 1 {
		t.Fatalf("GAME without an id: %v", err)
	}
	if got, want := ja.Error(es[0]), "1行目: \"GAME\": ゲームIDがありません: 案内メールのとおり GAME ゲームID と書いてください"; got != want {
		t.Errorf("GAME without an id:\n got %s\nwant %s", got, want)
	}
	_, _, err = g.Submit(rules.German, "GAME other-1\nIMPULSE 16-1\n", t0.Add(time.Hour))
	if !errors.As(err, &es) || len(es) == 0 {
		t.Fatalf("orders for another game: %v", err)
	}
	if got, want := ja.Error(es[0]), "1行目: \"GAME other-1\": この命令はゲーム other-1 のもので、intro-1 のものではありません"; got != want {
		t.Errorf("orders for another game:\n got %s\nwant %s", got, want)
	}
}
