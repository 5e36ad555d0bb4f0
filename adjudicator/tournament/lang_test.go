package tournament

import (
	"errors"
	"strings"
	"testing"
	"time"

	"titm/adjudicator/lang"
	"titm/rules"
)

// The refusals of a tournament are messages: their English is as it was,
// and a Japanese player or director reads them in Japanese, with the side
// and the settings' words in it.
func TestRefusalsInJapanese(t *testing.T) {
	ja := lang.For(lang.Japanese)
	bids := newT(t, settings(Swiss, 2, 4, SidesBids))
	if _, err := bids.Pair(t0); err != nil {
		t.Fatal(err)
	}
	late := bids.Current().BidsDue
	if _, err := bids.Bid(0, Bid{Side: rules.German, VP: 1}, t0); err != nil {
		t.Fatal(err)
	}
	if _, err := bids.Bid(2, Bid{Side: rules.Allied}, t0); err != nil {
		t.Fatal(err)
	}
	alternate := newT(t, settings(RoundRobin, 1, 2, SidesAlternate))
	// Two players cannot play a second Swiss round without a rematch.
	rematch := newT(t, settings(Swiss, 2, 2, SidesAlternate))
	if _, err := rematch.Pair(t0); err != nil {
		t.Fatal(err)
	}
	play(t, rematch, t0, map[string]string{"A-B": "A"})
	over := newT(t, settings(RoundRobin, 1, 2, SidesAlternate))
	over.Status = Over
	for _, c := range []struct {
		name    string
		err     func() error
		en, ja  string
		bid, is bool // an *ErrBid; ErrNoPairing
	}{
		{"BID with three words", func() error { _, err := ParseBid([]string{"german", "2", "allied"}); return err },
			"one side only: a bid is a side and the VP you give up to play it, as BID german 3",
			"陣営は1つだけです: 入札には、陣営と、その陣営を担当するために譲るVPを書きます(例: BID german 3)", true, false},
		{"BID axis", func() error { _, err := ParseBid([]string{"axis", "2"}); return err },
			`"axis" is no side: a bid is a side and the VP you give up to play it, as BID german 3`,
			`"axis" は陣営ではありません: 入札には、陣営と、その陣営を担当するために譲るVPを書きます(例: BID german 3)`, true, false},
		{"BID german two", func() error { _, err := ParseBid([]string{"german", "two"}); return err },
			`"two" is not a whole number of VP: a bid is a side and the VP you give up to play it, as BID german 3`,
			`"two" はVPの整数ではありません: 入札には、陣営と、その陣営を担当するために譲るVPを書きます(例: BID german 3)`, true, false},
		{"BID german -2", func() error { _, err := ParseBid([]string{"german", "-2"}); return err },
			"a bid cannot be negative (-2): bid 0 to ask for the side and give nothing",
			"入札は負の数にできません (-2): 何も譲らずにその陣営を希望するなら0を入札してください", true, false},
		{"BID german 2000", func() error { _, err := ParseBid([]string{"german", "2000"}); return err },
			"a bid of 2000 VP is more than any game gives", "2000VPの入札は、どのゲームで得られるVPよりも大きすぎます", true, false},
		{"a bid in a tournament of alternate sides", func() error { _, err := alternate.Bid(0, Bid{Side: rules.German}, t0); return err },
			`tournament t-1 decides sides by the rule "alternate", not by bids`, `大会 t-1 の陣営は入札ではなく "交互" で決まります`, true, false},
		{"a bid once the sides are decided", func() error { _, err := bids.Bid(2, Bid{Side: rules.German}, t0); return err },
			"the sides of your round 1 game are decided already: you play the Allied side",
			"第1ラウンドのあなたのゲームの陣営はすでに決まっています: あなたは連合軍を担当します", true, false},
		{"a late bid", func() error { _, err := bids.Bid(1, Bid{Side: rules.German}, late); return err },
			"the bids of round 1 closed at 2026-12-16 07:00 UTC", "第1ラウンドの入札は 2026-12-16 07:00 UTC に締め切られました", true, false},
		{"no round to pair", func() error { _, err := rematch.Pair(t0); return err },
			"round 2 of tournament t-1: no pairing avoids a rematch", "大会 t-1 の第2ラウンド: 再戦を避ける組み合わせがありません", false, true},
		{"a round not over", func() error { _, err := bids.Pair(t0); return err },
			"round 1 of tournament t-1 is not over", "大会 t-1 の第1ラウンドはまだ終わっていません", false, false},
		{"a pause of a tournament over", func() error { _, err := over.Pause("why", t0); return err },
			"tournament t-1 is over", "大会 t-1 は終了しています", false, false},
		{"a resume of a tournament not paused", func() error { _, err := alternate.Resume("why", t0); return err },
			"tournament t-1 is not paused", "大会 t-1 は中断されていません", false, false},
		{"a player replaced by the director", func() error { _, err := alternate.Replace(0, "", "td@example.org", "x", "why", "", t0); return err },
			"td@example.org is the director's address: the director does not play", "td@example.org は運営者のアドレスです: 運営者はプレイしません", false, false},
	} {
		err := c.err()
		if err == nil {
			t.Errorf("%s: taken", c.name)
			continue
		}
		if err.Error() != c.en {
			t.Errorf("%s: %q, want %q", c.name, err, c.en)
		}
		if got := ja.Text(rules.MessageOf(err)); got != c.ja {
			t.Errorf("%s in Japanese: %q, want %q", c.name, got, c.ja)
		}
		var eb *ErrBid
		if errors.As(err, &eb) != c.bid {
			t.Errorf("%s: an *ErrBid %v, want %v", c.name, !c.bid, c.bid)
		}
		if errors.Is(err, ErrNoPairing) != c.is {
			t.Errorf("%s: ErrNoPairing %v, want %v", c.name, !c.is, c.is)
		}
	}
}

// The standings' table in Japanese: the headings and the statuses in
// Japanese, the columns laid out by display width, a name cut at 20
// columns, never within a character; in English the table is as it was.
func TestStandingsTableInJapanese(t *testing.T) {
	s := settings(Swiss, 2, 4, SidesAlternate, TieBuchholz, TieMargin)
	s.Players[0].Name = "山田太郎"
	s.Players[1].Name = "ハンス・フォン・ルックシュタイン" // 32 columns
	tr := newT(t, s)
	if _, err := tr.Pair(t0); err != nil {
		t.Fatal(err)
	}
	play(t, tr, t0, map[string]string{"山田太郎-C": "山田太郎", "ハンス・フォン・ルックシュタイン-D": "draw"})
	if _, err := tr.Withdraw(2, "ill", t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	var ja, en, en2 strings.Builder
	tr.WriteStandingsIn(lang.For(lang.Japanese), &ja)
	tr.WriteStandingsIn(lang.EN(), &en)
	tr.WriteStandings(&en2)
	want := strings.Join([]string{
		"順位 プレイヤー             点数   勝   分   敗 不戦勝         VP差 ブッフホルツ",
		"1    山田太郎                1.0    1    0    0      0           +3          0.0",
		"2    ハンス・フォン・ルッ    0.5    0    1    0      0           +0          0.5",
		"2    D                       0.5    0    1    0      0           +0          0.5",
		"4    C                       0.0    0    0    1      0 棄権      -3          1.0",
		""}, "\n")
	if ja.String() != want {
		t.Errorf("the Japanese table:\n%s\nwant\n%s", ja.String(), want)
	}
	for _, l := range strings.Split(strings.TrimSuffix(ja.String(), "\n"), "\n") {
		if w := lang.Width(l); w != 80 {
			t.Errorf("a line of %d columns, want 80: %q", w, l)
		}
	}
	wantEN := strings.Join([]string{
		"rank player               points  won drawn lost byes       margin buchholz",
		"1    山田太郎                1.0    1    0    0    0           +3      0.0",
		"2    ハンス・フォン・ルッ    0.5    0    1    0    0           +0      0.5",
		"2    D                       0.5    0    1    0    0           +0      0.5",
		"4    C                       0.0    0    0    1    0 left      -3      1.0",
		""}, "\n")
	if en.String() != wantEN || en2.String() != wantEN {
		t.Errorf("the English table:\n%s\nwant\n%s", en.String(), wantEN)
	}
	// The settings' words as a player reads them.
	jp := lang.For(lang.Japanese)
	if got := jp.Text(TieBreaksText(tr.TieBreaks)); got != "ブッフホルツ、VP差" {
		t.Errorf("the tie-breaks in Japanese: %q", got)
	}
	if got := TieBreaksText([]string{TieBuchholz, TieMargin, TieHeadToHead}).String(); got != "buchholz, margin, head-to-head" {
		t.Errorf("the tie-breaks in English: %q", got)
	}
	for _, c := range []struct {
		m      rules.Message
		en, ja string
	}{
		{FormatText(Swiss), "swiss", "スイス式"},
		{FormatText(RoundRobin), "round-robin", "総当たり"},
		{FormatText(Elimination), "elimination", "シングルエリミネーション"},
		{SidesText(SidesBids), "bids", "入札"},
		{SidesText(SidesRandom), "random", "ダイス"},
		{SidesText(SidesAlternate), "alternate", "交互"},
	} {
		if c.m.String() != c.en || jp.Text(c.m) != c.ja {
			t.Errorf("%q: %q and %q, want %q and %q", c.m.Key, c.m.String(), jp.Text(c.m), c.en, c.ja)
		}
	}
}
