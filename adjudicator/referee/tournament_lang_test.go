package referee_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"titm/adjudicator/lang"
	"titm/adjudicator/referee"
	"titm/store"
)

// kana or kanji: a text in Japanese.
var jaText = regexp.MustCompile(`[\p{Hiragana}\p{Katakana}\p{Han}]`)

// jaName is the Japanese player's name, which the English player reads
// too: the texts are checked without it.
const jaName = "山田太郎"

// A Swiss tournament by sealed bids with a Japanese and an English player
// paired together: each reads his round's notice, his refused bids, the
// director's notice, STANDINGS and the standings of the round's end in his
// language; the Japanese standings' table keeps its columns by display
// width.
func TestTournamentSwissLanguages(t *testing.T) {
	ref := referee.New(&referee.Options{Address: "referee@example.org", Deadline: 24 * time.Hour})
	file := tournamentFile("swiss", "bids", 4, "rounds = 2\nbid_deadline = \"12h\"")
	file = strings.Replace(file, "name = \"P1\"\naddress = \"p1@example.org\"\n", "name = \""+jaName+"\"\naddress = \"p1@example.org\"\nlanguage = \"ja\"\n", 1)
	st, res := newTournament(t, ref, file)
	id := res.Tournament.ID
	tokenRE := regexp.MustCompile(`(?m)^    ([a-z0-9]{4}(?:-[a-z0-9]{4}){4})$`)
	tokens := map[string]string{}
	for _, m := range res.Mails {
		if k := tokenRE.FindStringSubmatch(m.Text); k != nil && m.Kind == referee.KindWelcome {
			tokens[m.To[0]] = k[1]
		}
	}
	// Swiss round 1 of 4 players equal on points: P1-P3, P2-P4.
	if p := current(t, st, id).Current().Pairings[0]; p.A != 0 || p.B != 2 {
		t.Fatalf("round 1 pairs %d-%d first, want P1-P3", p.A+1, p.B+1)
	}
	players := []struct {
		addr string
		ja   bool
		// what each text says, in order: the round's notice (subject and
		// text), a bid that names no side, a second bid once the sides are
		// decided, the director's pause, STANDINGS.
		notice, noSide, decided, paused, standings []string
	}{
		{
			addr:   "p1@example.org",
			ja:     true,
			notice: []string{"第1ラウンド: 対戦相手は P3、入札を送ってください", "Test Cup の第1ラウンドで、あなたの対戦相手は P3 <p3@example.org>", "陣営は封印入札で決めます。"},
			noSide: []string{`BID: "axis" は陣営ではありません: 入札には、陣営と、その陣営を担当するために譲るVPを書きます(例: BID german 3)。`, "何も変更されていません。"},
			decided: []string{"BID: 第1ラウンドのあなたのゲームの陣営はすでに決まっています: あなたはドイツ軍を担当します。",
				"何も変更されていません。"},
			paused: []string{"運営者が Test Cup を中断しました: 会場の都合。"},
			standings: []string{"Test Cup (" + id + ") の順位表(全2ラウンド中0ラウンド終了時点)",
				"順位 プレイヤー             点数   勝   分   敗 不戦勝         VP差 ブッフホルツ",
				"1    " + jaName + "                0.0    0    0    0      0           +0          0.0",
				"同点時の順位決定: ブッフホルツ、VP差、直接対決。"},
		},
		{
			addr:   "p3@example.org",
			notice: []string{"round 1: your opponent is " + jaName + "; send your bid", "Round 1 of Test Cup pairs you with " + jaName + " <p1@example.org>", "The sides go by sealed bids."},
			noSide: []string{`BID: "axis" is no side: a bid is a side and the VP you give up to play it, as BID german 3.`, "Nothing was changed."},
			decided: []string{"BID: the sides of your round 1 game are decided already: you play the Allied side.",
				"Nothing was changed."},
			paused: []string{"The director has paused Test Cup: 会場の都合."},
			standings: []string{"Standings of Test Cup (" + id + ") after 0 of 2 rounds",
				"rank player               points  won drawn lost byes       margin buchholz",
				"1    " + jaName + "                0.0    0    0    0    0           +0      0.0",
				"Tie-breaks: buchholz, margin, head-to-head."},
		},
	}
	// check finds want in text in order, and no Japanese in an English
	// player's text but the Japanese player's name and the director's words.
	check := func(what, addr string, ja bool, text string, want []string) {
		t.Helper()
		rest := text
		for _, w := range want {
			i := strings.Index(rest, w)
			if i < 0 {
				t.Errorf("%s to %s: no %q in\n%s", what, addr, w, text)
				return
			}
			rest = rest[i+len(w):]
		}
		bare := strings.NewReplacer(jaName, "", "会場の都合", "").Replace(text)
		if jaText.MatchString(bare) != ja {
			t.Errorf("%s to %s: Japanese %v, want %v:\n%s", what, addr, !ja, ja, text)
		}
	}
	bid := func(addr, words string, at time.Duration) *referee.Result {
		return act(t, st, func(tx *store.Tx) (*referee.Result, error) {
			return ref.Tournament(tx, id, addr, tokens[addr], referee.TournamentRequest{Bid: strings.Fields(words)}, start.Add(at))
		})
	}
	for _, pl := range players {
		found := false
		for _, m := range res.Mails {
			if m.Kind == referee.KindTournament && m.To[0] == pl.addr {
				check("the round's notice", pl.addr, pl.ja, m.Subject+"\n"+m.Text, pl.notice)
				found = true
			}
		}
		if !found {
			t.Errorf("no round notice to %s", pl.addr)
		}
		if r := bid(pl.addr, "axis 2", time.Hour); !r.Refused {
			t.Errorf("BID axis 2 from %s was taken", pl.addr)
		} else {
			check("BID axis 2", pl.addr, pl.ja, r.Reply, pl.noSide)
		}
	}
	// Different sides: each has his own, and a second bid is refused.
	if r := bid("p1@example.org", "german 1", time.Hour); r.Refused || !strings.Contains(r.Reply, "あなたの入札 german 1 を受け付け、封印しました。") {
		t.Errorf("the Japanese player's bid: %q", r.Reply)
	}
	if r := bid("p3@example.org", "allied 0", time.Hour); r.Refused || !strings.Contains(r.Reply, "Your bid, allied 0, is in and sealed.") {
		t.Errorf("the English player's bid: %q", r.Reply)
	}
	for _, pl := range players {
		if r := bid(pl.addr, "german 3", 2*time.Hour); !r.Refused {
			t.Errorf("a second bid from %s was taken", pl.addr)
		} else {
			check("a second bid", pl.addr, pl.ja, r.Reply, pl.decided)
		}
	}
	// The director's acts as the players read them.
	paused := act(t, st, func(tx *store.Tx) (*referee.Result, error) {
		return ref.TournamentPause(tx, id, "会場の都合", start.Add(2*time.Hour))
	})
	act(t, st, func(tx *store.Tx) (*referee.Result, error) {
		return ref.TournamentResume(tx, id, "again", start.Add(3*time.Hour))
	})
	for _, pl := range players {
		m := mailTo(t, paused, pl.addr)
		check("the director's pause", pl.addr, pl.ja, m.Subject+"\n"+m.Text, pl.paused)
		r := act(t, st, func(tx *store.Tx) (*referee.Result, error) {
			return ref.Tournament(tx, id, pl.addr, tokens[pl.addr], referee.TournamentRequest{Standings: true}, start.Add(3*time.Hour))
		})
		check("STANDINGS", pl.addr, pl.ja, r.Reply, pl.standings)
		if pl.ja {
			checkTable(t, r.Reply, 80)
		}
	}
	// P2 and P4 sent no bids: the dice decide when the bids close. Once
	// both games are over, the standings go to everyone in his language.
	act(t, st, func(tx *store.Tx) (*referee.Result, error) { return ref.TournamentTick(tx, start.Add(12*time.Hour)) })
	now := start.Add(13 * time.Hour)
	var last *referee.Result
	for _, p := range current(t, st, id).Current().Pairings {
		joinGame(t, st, ref, p.Game, now)
		last = finish(t, st, ref, p.Game, "german", now)
	}
	for _, c := range []struct {
		addr      string
		ja        bool
		standings []string
	}{
		{"p1@example.org", true, []string{"[" + id + "] 第1ラウンド終了時の順位表", "Test Cup (" + id + ") の順位表(全2ラウンド中1ラウンド終了時点)",
			"順位 プレイヤー             点数   勝   分   敗 不戦勝         VP差 ブッフホルツ", "1    " + jaName, "点数: 勝ちと不戦勝は1点、引き分けは1/2点。"}},
		{"p3@example.org", false, []string{"[" + id + "] standings after round 1", "Standings of Test Cup (" + id + ") after 1 of 2 rounds",
			"rank player               points  won drawn lost byes       margin buchholz", "1    " + jaName, "Points: 1 a win or a bye, 1/2 a draw."}},
		{"td@example.org", false, []string{"[" + id + "] standings after round 1", "rank player"}},
	} {
		var m *referee.Mail
		for i := range last.Mails {
			if x := &last.Mails[i]; x.Kind == referee.KindTournament && x.To[0] == c.addr && (strings.Contains(x.Subject, "standings") || strings.Contains(x.Subject, "順位表")) {
				m = x
			}
		}
		if m == nil {
			t.Errorf("no standings to %s", c.addr)
			continue
		}
		check("the standings", c.addr, c.ja, m.Subject+"\n"+m.Text, c.standings)
		if c.ja {
			checkTable(t, m.Text, 80)
		}
	}
}

// checkTable checks a Japanese standings' table in a text: its lines, from
// the heading (順位) to the first empty line, are all as wide, at most
// max columns, and each column's gap between two columns is a space on
// every line, never the half of a wide character.
func checkTable(t *testing.T, text string, max int) {
	t.Helper()
	_, table, ok := strings.Cut(text, "\n順位")
	if !ok {
		t.Errorf("no table in\n%s", text)
		return
	}
	table, _, _ = strings.Cut("順位"+table, "\n\n")
	lines := strings.Split(table, "\n")
	// The columns' widths in Japanese: the English ones, or a wider
	// heading's (不戦勝 6, ブッフホルツ 12).
	widths := []int{4, 20, 6, 4, 4, 4, 6, 4, 7, 12}
	var gaps []int
	col := 0
	for _, w := range widths[:len(widths)-1] {
		col += w
		gaps = append(gaps, col)
		col++
	}
	want := col + widths[len(widths)-1]
	for _, l := range lines {
		if w := lang.Width(l); w != want || w > max {
			t.Errorf("a line of %d columns, want %d (at most %d): %q", w, want, max, l)
			continue
		}
		// cells[i] is the rune at column i, or 0 for the right half of a
		// wide one.
		var cells []rune
		for _, r := range l {
			cells = append(cells, r)
			if lang.RuneWidth(r) == 2 {
				cells = append(cells, 0)
			}
		}
		for _, g := range gaps {
			if cells[g] != ' ' {
				t.Errorf("column %d is not a gap between columns: %q", g, l)
			}
		}
	}
	if len(lines) < 2 {
		t.Errorf("a table of %d lines:\n%s", len(lines), table)
	}
}
