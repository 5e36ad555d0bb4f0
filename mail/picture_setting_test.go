package mail_test

import (
	"fmt"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
)

// drawCount counts the map pictures a daemon drew, from its log's "map
// picture drawn" records.
type drawCount struct{ n atomic.Int64 }

// countDrawn has the world's daemon log to a drawCount, which it returns.
func countDrawn(w *world) *drawCount {
	c := &drawCount{}
	w.logger = logOn("map picture drawn", func(slog.Record) { c.n.Add(1) })
	return c
}

// PICTURE OFF by mail: the answer confirms it, and from then on the
// player's reports come as text alone while the other player's and the
// observer's carry the map; PICTURE ON brings it back.
func TestPictureOffByMail(t *testing.T) {
	t.Parallel()
	w := newWorld(t, &worldOptions{extra: "map_picture = true"})
	w.join()
	for _, box := range []string{german, allied, observer} {
		ms := w.inbox(box)
		var start bool
		for _, m := range ms {
			if strings.Contains(m.Subject, "begins") {
				start = strings.Contains(m.Text, "Scenario brief: The 7th Army Attacks") && len(m.Attachments) == 1 && m.Attachments[0] == "intro-1-start.png"
			}
		}
		if !start {
			t.Errorf("%s has no start mail with the brief and the start picture", box)
		}
	}
	nA := len(w.inbox(allied))
	w.send(allied, "no pictures", fmt.Sprintf("GAME %s\nTOKEN %s\nPICTURE OFF\n", w.game, w.tokens[allied]))
	got := w.waitMail(allied, nA+1)
	if r := got[len(got)-1]; !strings.Contains(r.Text, "PICTURE OFF is kept for game intro-1") {
		t.Fatalf("the answer to PICTURE OFF:\n%s", r.Text)
	}
	w.settle()
	nG, nA, nO := len(w.inbox(german)), len(w.inbox(allied)), len(w.inbox(observer))
	w.send(german, "my orders", fmt.Sprintf("GAME %s\nTOKEN %s\nIMPULSE 16-1\nENTRENCH 212/423\n", w.game, w.tokens[german]))
	for _, c := range []struct {
		box         string
		n           int
		attachments int
	}{{german, nG, 1}, {allied, nA, 0}, {observer, nO, 1}} {
		ms := w.waitMail(c.box, c.n+1)
		r := ms[len(ms)-1]
		if !strings.Contains(r.Subject, "G16-1 played") || len(r.Attachments) != c.attachments {
			t.Errorf("%s: %q with %d attachment(s), want %d", c.box, r.Subject, len(r.Attachments), c.attachments)
		}
	}
	w.settle()
}

// One picture per impulse: the report of an impulse to both players and the
// observer carries the map drawn once.
func TestOnePicturePerImpulse(t *testing.T) {
	t.Parallel()
	w := newWorld(t, &worldOptions{extra: "map_picture = true", noStart: true})
	drawn := countDrawn(w)
	w.start()
	w.join()
	w.settle()
	nG, nA, nO := len(w.inbox(german)), len(w.inbox(allied)), len(w.inbox(observer))
	before := drawn.n.Load()
	w.send(german, "my orders", fmt.Sprintf("GAME %s\nTOKEN %s\nIMPULSE 16-1\nENTRENCH 212/423\n", w.game, w.tokens[german]))
	for _, c := range []struct {
		box string
		n   int
	}{{german, nG}, {allied, nA}, {observer, nO}} {
		ms := w.waitMail(c.box, c.n+1)
		if r := ms[len(ms)-1]; !strings.Contains(r.Subject, "G16-1 played") || len(r.Attachments) != 1 {
			t.Errorf("%s: %q with %d attachment(s), want the report with its map", c.box, r.Subject, len(r.Attachments))
		}
	}
	w.settle()
	if n := drawn.n.Load() - before; n != 1 {
		t.Errorf("the map of G16-1 was drawn %d times for its three reports, want once", n)
	}
}
