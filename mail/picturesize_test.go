package mail_test

import (
	"fmt"
	"testing"
)

// maxReportMail is the greatest report mail with its map picture a player
// downloads, for the introductory scenario's game.
const maxReportMail = 200 << 10

// TestReportMailSize: a report with its map picture, as the player's
// client downloads it, stays under maxReportMail.
func TestReportMailSize(t *testing.T) {
	t.Parallel()
	w := newWorld(t, &worldOptions{extra: "map_picture = true"})
	w.join()
	n := len(w.inbox(german))
	w.send(german, "my orders", fmt.Sprintf("GAME %s\nTOKEN %s\nIMPULSE 16-1\nENTRENCH 212/423\n", w.game, w.tokens[german]))
	box := w.waitMail(german, n+1)
	if r := box[len(box)-1]; len(r.Attachments) != 1 {
		t.Fatalf("the report carries %q, want the map", r.Attachments)
	}
	w.settle()
	size := w.lastSize(german)
	t.Logf("the report with its picture: %d KB", size>>10)
	if size > maxReportMail {
		t.Errorf("the report with its picture is %d KB, over %d KB", size>>10, maxReportMail>>10)
	}
}
