package mail_test

import (
	"bytes"
	"fmt"
	"image/png"
	"io"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	gomail "github.com/emersion/go-message/mail"
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
	// Put in base64 once for the three, it reads back as the same PNG in
	// each.
	var first []byte
	for _, box := range []string{german, allied, observer} {
		pic := lastPicture(t, w, box)
		if _, err := png.DecodeConfig(bytes.NewReader(pic)); err != nil {
			t.Errorf("%s: the map of %d bytes is no PNG: %v", box, len(pic), err)
		}
		if first == nil {
			first = pic
		} else if !bytes.Equal(pic, first) {
			t.Errorf("%s: the map differs from the German player's", box)
		}
	}
}

// lastPicture returns the attachment of the last mail in an address's
// INBOX, decoded.
func lastPicture(t *testing.T, w *world, addr string) []byte {
	t.Helper()
	c, err := imapclient.DialInsecure(w.imapAddr(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login(addr, passwords[addr]).Wait(); err != nil {
		t.Fatal(err)
	}
	sel, err := c.Select("INBOX", &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil || sel.NumMessages == 0 {
		t.Fatalf("%s: INBOX: %d messages, %v", addr, sel.NumMessages, err)
	}
	section := &imap.FetchItemBodySection{Peek: true}
	msgs, err := c.Fetch(imap.SeqSetNum(sel.NumMessages), &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{section}}).Collect()
	if err != nil || len(msgs) != 1 {
		t.Fatalf("%s: fetch: %v", addr, err)
	}
	r, err := gomail.CreateReader(bytes.NewReader(msgs[0].FindBodySection(section)))
	if err != nil {
		t.Fatal(err)
	}
	for {
		p, err := r.NextPart()
		if err != nil {
			t.Fatalf("%s: no attachment in the last mail: %v", addr, err)
		}
		if _, ok := p.Header.(*gomail.AttachmentHeader); ok {
			data, err := io.ReadAll(p.Body)
			if err != nil {
				t.Fatalf("%s: the attachment does not decode: %v", addr, err)
			}
			return data
		}
	}
}
