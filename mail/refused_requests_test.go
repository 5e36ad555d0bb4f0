package mail_test

import (
	"fmt"
	"strings"
	"testing"

	"titm/adjudicator"
)

// A mail whose orders are refused still has its STATUS answered through
// the door, in the player's language: the errors first, the position
// below them, the map picture attached; the game is not changed and its
// log keeps no record.
func TestRefusedOrdersStatus(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		language string   // sent with LANGUAGE first, "" none
		want     []string // in the reply, in this order
	}{
		{"", []string{"1 error(s)", "line 4: ENTRENCH nosuch", "Nothing in your mail was applied", "The answers to your requests:",
			"Impulse G16-1: the German player is to move", "Your standing orders on file"}},
		{"ja", []string{"1件のエラー", "4行目: ENTRENCH nosuch", "このメールの内容は何も適用されていません", "問い合わせへの回答:",
			"インパルス G16-1: ドイツ軍プレイヤーの手番です", "登録済みの常時命令"}},
	} {
		w := newWorld(t, &worldOptions{extra: "map_picture = true"})
		w.join()
		w.settle()
		if c.language != "" {
			n := len(w.inbox(german))
			w.send(german, "language", fmt.Sprintf("GAME %s\nTOKEN %s\nLANGUAGE %s\n", w.game, w.tokens[german], c.language))
			w.waitMail(german, n+1)
			w.settle()
		}
		before, records := w.gameNow(), len(w.log())
		n := len(w.inbox(german))
		w.send(german, "orders", fmt.Sprintf("GAME %s\nTOKEN %s\nIMPULSE 16-1\nENTRENCH nosuch\nSTATUS\n", w.game, w.tokens[german]))
		got := w.waitMail(german, n+1)
		w.settle()
		r := got[len(got)-1]
		at := 0
		for _, want := range c.want {
			i := strings.Index(r.Text[at:], want)
			if i < 0 {
				t.Fatalf("%q: the reply lacks %q after byte %d:\n%s", c.language, want, at, r.Text)
			}
			at += i + len(want)
		}
		if len(r.Attachments) != 1 || !strings.HasSuffix(r.Attachments[0], ".png") {
			t.Errorf("%q: the reply's attachments: %q, want STATUS's map picture", c.language, r.Attachments)
		}
		after := w.gameNow()
		if after.Head != before.Head || adjudicator.StateHash(after.State) != adjudicator.StateHash(before.State) || len(w.log()) != records {
			t.Errorf("%q: the refused mail changed the game: head %s -> %s, %d -> %d records", c.language, before.Head, after.Head, records, len(w.log()))
		}
	}
}
