package main

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	gomail "github.com/emersion/go-message/mail"
	"github.com/emersion/go-smtp"

	"titm/internal/browser"
	"titm/internal/waitfor"
)

// mailAs sends a mail from a player to the referee through the embedded
// SMTP server, as his mail program would.
func (w *opsWorld) mailAs(from, subject, body string) {
	w.t.Helper()
	var b bytes.Buffer
	var h gomail.Header
	h.SetAddressList("From", []*gomail.Address{{Address: from}})
	h.SetAddressList("To", []*gomail.Address{{Address: "referee@ops.test"}})
	h.SetSubject(subject)
	h.SetDate(time.Now())
	h.GenerateMessageID()
	mw, err := gomail.CreateSingleInlineWriter(&b, h)
	if err != nil {
		w.t.Fatal(err)
	}
	io.WriteString(mw, body)
	mw.Close()
	c, err := smtp.Dial(w.srv.SMTPAddr())
	if err != nil {
		w.t.Fatal(err)
	}
	defer c.Close()
	if err := c.SendMail(from, []string{"referee@ops.test"}, &b); err != nil {
		w.t.Fatal(err)
	}
}

// The journal in a real browser: titm serve with [web] on, two games
// played by scripted players by mail, one of them over by a concession.
// The games list shows both; a game's page shows its map (the image
// loaded), its reports and its dice; the replay steps forward and back;
// the finished game shows its revealed seed and the referee's stamp, and
// its export verifies in the browser to the game's head; on a
// phone's width the page is one column. Each page's screenshot is saved,
// into $TITM_SCREENSHOTS when set, to be looked at.
func TestJournalInBrowser(t *testing.T) {
	t.Parallel()
	web := "127.0.0.1:" + freePort(t)
	w := newOpsWorld(t, fmt.Sprintf("[web]\nlisten = %q\n", web))
	w.start()
	ids, tokens := w.newGames(2)
	for i, id := range ids {
		for range 3 {
			at := w.game(id).State.Next.String()
			w.order(id, tokens[i])
			w.waitPast(id, at)
		}
	}
	// The second game ends: the player to move concedes.
	over := ids[1]
	side := string(w.game(over).State.Next.Side)
	w.mailAs(side+"@ops.test", "I concede", fmt.Sprintf("GAME %s\nTOKEN %s\nCONCEDE\n", over, tokens[1][side]))
	waitfor.Until(t, 20*time.Second, func() bool { return w.game(over).Status == "finished" }, fmt.Sprintf("game %s to finish after the concession", over))

	shots := os.Getenv("TITM_SCREENSHOTS")
	if shots == "" {
		shots = t.TempDir()
	} else if err := os.MkdirAll(shots, 0o755); err != nil {
		t.Fatal(err)
	}
	b := browser.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	base := "http://" + web
	if err := b.SetViewport(ctx, 1280, 900); err != nil {
		t.Fatal(err)
	}
	text := func() string {
		var s string
		if err := b.Eval(ctx, "document.body.innerText", &s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	title := func() string {
		var s string
		if err := b.Eval(ctx, "document.title", &s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	// imagesLoaded reports how many images the page has and whether each
	// has loaded with a size.
	imagesLoaded := func() (n int, ok bool) {
		var r struct {
			N  int
			OK bool
		}
		err := b.Eval(ctx, `new Promise(done => {
			const imgs = Array.from(document.images);
			const check = () => imgs.every(i => i.complete);
			const finish = () => done({N: imgs.length, OK: imgs.length > 0 && imgs.every(i => i.complete && i.naturalWidth > 0 && i.naturalHeight > 0)});
			if (check()) { finish(); return; }
			imgs.forEach(i => i.addEventListener('load', () => check() && finish()));
			imgs.forEach(i => i.addEventListener('error', () => check() && finish()));
			setTimeout(finish, 20000);
		})`, &r)
		if err != nil {
			t.Fatal(err)
		}
		return r.N, r.OK
	}
	shot := func(name string) {
		path := filepath.Join(shots, name+".png")
		if err := b.Screenshot(ctx, path); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		cfg, err := png.DecodeConfig(f)
		if err != nil || cfg.Width == 0 || cfg.Height == 0 {
			t.Errorf("the screenshot %s: %v %+v", path, err, cfg)
		}
		t.Logf("screenshot %s: %dx%d", path, cfg.Width, cfg.Height)
	}
	visit := func(url string) {
		t.Helper()
		if err := b.Navigate(ctx, base+url); err != nil {
			t.Fatalf("%s: %v", url, err)
		}
	}

	// The games list.
	visit("/")
	list := text()
	for _, id := range ids {
		if !strings.Contains(list, id) {
			t.Errorf("the games list lacks %s:\n%s", id, list)
		}
	}
	if strings.Contains(list, "@ops.test") {
		t.Errorf("the games list shows a mail address:\n%s", list)
	}
	shot("games")

	// A game in play: its map, its reports, its dice.
	visit("/games/" + ids[0])
	if got := title(); !strings.Contains(got, ids[0]) {
		t.Errorf("the game page's title %q does not name the game", got)
	}
	if n, ok := imagesLoaded(); !ok {
		t.Errorf("the game page's %d image(s) are not all loaded with a size", n)
	}
	page := text()
	for _, want := range []string{"G16-1", "A16-1", "G16-2", "Dice"} {
		if !strings.Contains(page, want) {
			t.Errorf("the game page lacks %q", want)
		}
	}
	shot("game")

	// The replay, forward and back.
	visit("/games/" + ids[0] + "/replay")
	first := title()
	if n, ok := imagesLoaded(); !ok {
		t.Errorf("the replay's %d image(s) are not all loaded", n)
	}
	shot("replay-first")
	if err := b.ClickAndWait(ctx, "a[rel=next]"); err != nil {
		t.Fatalf("replay, next: %v", err)
	}
	second := title()
	if second == first {
		t.Errorf("the replay did not step forward: %q", second)
	}
	if n, ok := imagesLoaded(); !ok {
		t.Errorf("the replay's second step: %d image(s) not all loaded", n)
	}
	shot("replay-second")
	if err := b.ClickAndWait(ctx, "a[rel=prev]"); err != nil {
		t.Fatalf("replay, previous: %v", err)
	}
	if got := title(); got != first {
		t.Errorf("the replay stepped back to %q, want %q", got, first)
	}

	// The finished game: its seed revealed and the referee's stamp.
	visit("/games/" + over)
	page = text()
	for _, want := range []string{"Verified by the referee", "revealed at the end", "titm verify"} {
		if !strings.Contains(page, want) {
			t.Errorf("the finished game's page lacks %q:\n%s", want, page)
		}
	}
	if n, ok := imagesLoaded(); !ok {
		t.Errorf("the finished game's %d image(s) are not all loaded", n)
	}
	shot("game-finished")

	// The finished game verified in the browser: the verifier the daemon
	// serves, run on the export the journal serves, computes the game's
	// head.
	var verdict struct{ OK, Head, Text string }
	if err := b.Eval(ctx, `(async () => {
		document.querySelector("[data-verifier] button[name=fetch]").click();
		const out = document.querySelector("[data-verifier] .verdict");
		for (const end = Date.now() + 25000; !out.dataset.ok && Date.now() < end; ) {
			await new Promise(r => setTimeout(r, 20));
		}
		return {OK: out.dataset.ok || "", Head: out.dataset.head || "", Text: out.innerText};
	})()`, &verdict); err != nil {
		t.Fatal(err)
	}
	if head := w.game(over).Head; verdict.OK != "true" || verdict.Head != head || !strings.Contains(verdict.Text, "Verified in your browser") {
		t.Errorf("the finished game verified in the browser: %+v, want its head %s", verdict, head)
	}
	shot("game-verified-in-browser")

	// On a phone: one column, nothing wider than the screen.
	if err := b.SetViewport(ctx, 390, 844); err != nil {
		t.Fatal(err)
	}
	visit("/games/" + ids[0])
	var wide struct{ Scroll, Inner int }
	if err := b.Eval(ctx, `({Scroll: document.documentElement.scrollWidth, Inner: window.innerWidth})`, &wide); err != nil {
		t.Fatal(err)
	}
	if wide.Scroll > wide.Inner {
		t.Errorf("on a phone the game page is %d px wide on a screen of %d", wide.Scroll, wide.Inner)
	}
	shot("game-phone")

	// An unknown game: a page saying so.
	visit("/games/no-such-game")
	if page := text(); !strings.Contains(strings.ToLower(page), "no such game") && !strings.Contains(strings.ToLower(page), "not found") {
		t.Errorf("an unknown game's page:\n%s", page)
	}
}
