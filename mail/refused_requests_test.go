package mail_test

import (
	"fmt"
	"strings"
	"testing"

	"titm/adjudicator"
)

// A mail whose orders are refused still has its STATUS answered through
// the door: the errors first, the position below them, the map picture
// attached; the game is not changed and its log keeps no record.
func TestRefusedOrdersStatus(t *testing.T) {
	w := newWorld(t, &worldOptions{extra: "map_picture = true"})
	w.join()
	w.settle()
	before, records := w.gameNow(), len(w.log())
	n := len(w.inbox(german))
	w.send(german, "orders", fmt.Sprintf("GAME %s\nTOKEN %s\nIMPULSE 16-1\nENTRENCH nosuch\nSTATUS\n", w.game, w.tokens[german]))
	got := w.waitMail(german, n+1)
	w.settle()
	r := got[len(got)-1]
	at := 0
	for _, want := range []string{"1 error(s)", "line 4: ENTRENCH nosuch", "Nothing in your mail was applied", "The answers to your requests:",
		"Impulse G16-1: the German player is to move", "Your standing orders on file"} {
		i := strings.Index(r.Text[at:], want)
		if i < 0 {
			t.Fatalf("the reply lacks %q after byte %d:\n%s", want, at, r.Text)
		}
		at += i + len(want)
	}
	if len(r.Attachments) != 1 || !strings.HasSuffix(r.Attachments[0], ".png") {
		t.Errorf("the reply's attachments: %q, want STATUS's map picture", r.Attachments)
	}
	after := w.gameNow()
	if after.Head != before.Head || adjudicator.StateHash(after.State) != adjudicator.StateHash(before.State) || len(w.log()) != records {
		t.Errorf("the refused mail changed the game: head %s -> %s, %d -> %d records", before.Head, after.Head, records, len(w.log()))
	}
}
