package mail_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"titm/adjudicator"
	"titm/adjudicator/lang"
	acts "titm/adjudicator/referee"
	"titm/mail"
	"titm/store"
)

// handle runs one raw mail through the handler, as the inbox does, at a
// given time, and returns the outcome.
func (w *world) handle(h *mail.Handler, uid uint32, raw []byte, now time.Time) string {
	w.t.Helper()
	var outcome string
	err := w.st.Update(func(tx *store.Tx) error {
		var err error
		outcome, err = h.Handle(tx, mail.MessageKey{Mailbox: "INBOX", UIDValidity: 1, UID: uid}, raw, int64(len(raw)), now)
		return err
	})
	if err != nil {
		w.t.Fatal(err)
	}
	return outcome
}

// queued returns the texts of the queued mails to an address, and marks
// them sent, so that each call sees only the new ones.
func (w *world) queued(addr string) []string {
	w.t.Helper()
	var out []string
	w.st.Update(func(tx *store.Tx) error {
		q, err := tx.Outbox(store.MailQueued)
		for _, m := range q {
			if m.To[0] != addr {
				continue
			}
			if m.Deferred {
				// Composed when sent, with its picture: the text is kept
				// as what to compose.
				var d struct {
					Out struct{ Subject, Text string } `json:"out"`
				}
				if err := json.Unmarshal(tx.MailData(m.ID), &d); err != nil {
					w.t.Fatal(err)
				}
				out = append(out, d.Out.Subject+"\n"+d.Out.Text)
			} else {
				in, err := mail.ParseIncoming(tx.MailData(m.ID))
				if err != nil {
					w.t.Fatal(err)
				}
				out = append(out, in.Subject+"\n"+in.Text)
			}
			m.Status = store.MailSent
			tx.PutMail(m)
		}
		return err
	})
	return out
}

func (w *world) joinDirect(h *mail.Handler, now time.Time) {
	w.t.Helper()
	for i, p := range []string{german, allied} {
		raw, _ := message(p, "join", fmt.Sprintf("GAME %s\nTOKEN %s\nJOIN\n", w.game, w.tokens[p]))
		w.handle(h, uint32(100+i), raw, now)
	}
	w.queued(german)
	w.queued(allied)
}

// B8: when an impulse's deadline passes it is played as a pass and both
// players are told; before it, the player to move is reminded once.
func TestDeadlines(t *testing.T) {
	t.Parallel()
	w := newWorld(t, &worldOptions{noStart: true, extra: `reminder = "12h"`})
	d := mail.NewDaemon(w.cfg, w.st, quiet(), time.Now)
	t0 := time.Now()
	w.joinDirect(d.Handler, t0)
	g := w.gameNow()
	at := func(t time.Time) *mail.Daemon {
		return mail.NewDaemon(w.cfg, w.st, quiet(), func() time.Time { return t })
	}
	if n, err := at(g.Due.Add(-13 * time.Hour)).Tick(); err != nil || n != 0 {
		t.Errorf("13 h before the deadline: %d mails, %v", n, err)
	}
	if n, _ := at(g.Due.Add(-11 * time.Hour)).Tick(); n != 1 {
		t.Errorf("11 h before the deadline: %d mails, want the reminder", n)
	}
	if r := w.queued(german); len(r) != 1 || !strings.Contains(r[0], "reminder: impulse G16-1 is due") || !strings.Contains(r[0], "EXTEND 24h") {
		t.Errorf("reminder: %q", r)
	}
	if n, _ := at(g.Due.Add(-10 * time.Hour)).Tick(); n != 0 {
		t.Errorf("a second reminder: %d mails", n)
	}
	if n, _ := at(g.Due.Add(time.Minute)).Tick(); n != 3 {
		t.Errorf("after the deadline: %d mails, want a report to each player and the observer", n)
	}
	r := w.queued(allied)
	if len(r) != 1 || !strings.Contains(r[0], "sent no valid orders for impulse G16-1 before its deadline") || !strings.Contains(r[0], "(B8)") {
		t.Errorf("the deadline's report: %q", r)
	}
	after := w.gameNow()
	if after.Next.String() != "A16-1" || after.Players["german"].Missed != 1 {
		t.Errorf("after the deadline: next %s, missed %d", after.Next, after.Players["german"].Missed)
	}
}

// EXTEND from the player to move, as often as the configuration allows;
// both players are told.
func TestExtendByMail(t *testing.T) {
	t.Parallel()
	w := newWorld(t, &worldOptions{noStart: true, extra: "max_extensions = 1\nmax_extension = \"48h\""})
	h := mail.NewHandler(w.cfg, quiet())
	now := time.Now()
	w.joinDirect(h, now)
	due := w.gameNow().Due
	raw, _ := message(german, "more time", fmt.Sprintf("GAME %s\nTOKEN %s\nEXTEND 24h\n", w.game, w.tokens[german]))
	if out := w.handle(h, 1, raw, now); !strings.Contains(out, "extended") {
		t.Errorf("outcome %q", out)
	}
	if got := w.gameNow().Due; !got.Equal(due.Add(24 * time.Hour)) {
		t.Errorf("due %s, want a day after %s", got, due)
	}
	if r := w.queued(allied); len(r) != 1 || !strings.Contains(r[0], "The German player extended impulse G16-1 by 24h") {
		t.Errorf("the Allied player was told: %q", r)
	}
	w.queued(german)
	raw, _ = message(german, "more time", fmt.Sprintf("GAME %s\nTOKEN %s\nEXTEND 24h\n", w.game, w.tokens[german]))
	w.handle(h, 2, raw, now)
	if r := w.queued(german); len(r) != 1 || !strings.Contains(r[0], "you have had the 1 extensions") {
		t.Errorf("a second extension: %q", r)
	}
	raw, _ = message(allied, "more time", fmt.Sprintf("GAME %s\nTOKEN %s\nEXTEND 24h\n", w.game, w.tokens[allied]))
	w.handle(h, 3, raw, now)
	if r := w.queued(allied); len(r) != 1 || !strings.Contains(r[0], "it is the German impulse") {
		t.Errorf("an extension from the side not to move: %q", r)
	}
}

// The director by mail: NEW welcomes two players; PAUSE needs the token
// and a reason; both players are told of each act.
func TestDirectorByMail(t *testing.T) {
	t.Parallel()
	const director = "director@test.example"
	const token = "director-token-0123456789"
	w := newWorld(t, &worldOptions{noStart: true, extra: fmt.Sprintf("director = %q\ndirector_token = %q", director, token)})
	h := mail.NewHandler(w.cfg, quiet())
	now := time.Now()
	w.joinDirect(h, now)
	raw, _ := message(director, "orders", fmt.Sprintf("TOKEN wrong\nPAUSE %s a player is ill\n", w.game))
	if out := w.handle(h, 1, raw, now); !strings.Contains(out, "refused") {
		t.Errorf("a wrong director's token: %q", out)
	}
	if w.gameNow().Paused {
		t.Error("paused without the director's token")
	}
	w.queued(director)
	raw, _ = message(director, "orders", fmt.Sprintf("TOKEN %s\nPAUSE %s a player is ill\nNEW three-days g2@test.example a2@test.example\nRESUME nosuch-1 x\n", token, w.game))
	w.handle(h, 2, raw, now)
	if !w.gameNow().Paused {
		t.Error("PAUSE did not pause")
	}
	ack := w.queued(director)
	if len(ack) != 1 || !strings.Contains(ack[0], "line 2: PAUSE") || !strings.Contains(ack[0], "game three-days-2 made") || !strings.Contains(ack[0], "no game nosuch-1") {
		t.Errorf("the director's acknowledgement: %q", ack)
	}
	if r := w.queued(german); len(r) != 1 || !strings.Contains(r[0], "The director has paused game intro-1: a player is ill") {
		t.Errorf("the German player was told: %q", r)
	}
	if r := w.queued("g2@test.example"); len(r) != 1 || !strings.Contains(r[0], "Your secret token") {
		t.Errorf("the new game's welcome: %q", r)
	}
}

// Mails the referee cannot read: too large, or without text. Registered
// senders are told; others get nothing.
func TestUnreadableMails(t *testing.T) {
	t.Parallel()
	w := newWorld(t, &worldOptions{noStart: true})
	h := mail.NewHandler(w.cfg, quiet())
	now := time.Now()
	w.queued(german) // the welcome
	big, _ := message(german, "big", strings.Repeat("x", 30000))
	if out := w.handle(h, 1, big, now); !strings.Contains(out, "over the limit") {
		t.Errorf("a large mail: %q", out)
	}
	if r := w.queued(german); len(r) != 1 || !strings.Contains(r[0], "over the referee's limit of 20000 bytes") {
		t.Errorf("the answer to a large mail: %q", r)
	}
	big, _ = message(stranger, "big", strings.Repeat("x", 30000))
	w.handle(h, 2, big, now)
	if r := w.queued(stranger); len(r) != 0 {
		t.Errorf("an unregistered sender was answered: %q", r)
	}
	html := []byte("From: " + german + "\r\nTo: " + referee + "\r\nSubject: pic\r\nMessage-ID: <pic@x>\r\nContent-Type: image/png\r\nContent-Transfer-Encoding: base64\r\n\r\niVBORw0KGgo=\r\n")
	if out := w.handle(h, 3, html, now); out != "refused: no text part" {
		t.Errorf("a mail without text: %q", out)
	}
	// The same Message-ID again, under another UID: not handled twice.
	if out := w.handle(h, 4, html, now); !strings.HasPrefix(out, "already processed") {
		t.Errorf("a mail seen before: %q", out)
	}
}

// CHECK validates without applying; CONCEDE ends the game and reveals the
// seed to both.
func TestCheckAndConcede(t *testing.T) {
	t.Parallel()
	w := newWorld(t, &worldOptions{noStart: true})
	h := mail.NewHandler(w.cfg, quiet())
	now := time.Now()
	w.joinDirect(h, now)
	head := w.gameNow().Head
	raw, _ := message(german, "check", fmt.Sprintf("GAME %s\nTOKEN %s\nCHECK\nIMPULSE 16-1\nENTRENCH 212/423\n", w.game, w.tokens[german]))
	w.handle(h, 1, raw, now)
	if r := w.queued(german); len(r) != 1 || !strings.Contains(r[0], "CHECK: the orders are legal") || !strings.Contains(r[0], "212/423 entrenches") {
		t.Errorf("CHECK: %q", r)
	}
	if w.gameNow().Head != head {
		t.Error("CHECK changed the game")
	}
	raw, _ = message(allied, "I give up", fmt.Sprintf("GAME %s\nTOKEN %s\nCONCEDE\n", w.game, w.tokens[allied]))
	w.handle(h, 2, raw, now)
	g := w.gameNow()
	if g.Status != adjudicator.Finished {
		t.Fatalf("after CONCEDE the game is %s", g.Status)
	}
	r := w.queued(german)
	if len(r) != 1 || !strings.Contains(r[0], "The Allied player concedes") || !strings.Contains(r[0], "secret seed is revealed:\n  "+g.Seed) || !strings.Contains(r[0], "Promptness:") {
		t.Errorf("the end: %q", r)
	}
}

// A welcome's text, which holds the token, is dropped from the store once
// the welcome is sent.
func TestWelcomeDroppedOnceSent(t *testing.T) {
	t.Parallel()
	w := newWorld(t, nil)
	w.waitMail(german, 1)
	w.settle()
	w.st.View(func(tx *store.Tx) error {
		all, _ := tx.Outbox("")
		for _, m := range all {
			if m.Kind == acts.KindWelcome && (m.Status != store.MailSent || len(tx.MailData(m.ID)) != 0) {
				t.Errorf("welcome %d: %s, %d bytes kept", m.ID, m.Status, len(tx.MailData(m.ID)))
			}
		}
		return nil
	})
}

// A text in a character set the referee does not know, or whose bytes are
// not the character set it declares, is refused with an answer that
// names the character set, and nothing of its orders is applied; a known
// one still reads.
func TestCharsets(t *testing.T) {
	w := newWorld(t, &worldOptions{noStart: true})
	w.cfg.Referee.MaxMessageBytes = 1 << 20
	h := mail.NewHandler(w.cfg, quiet())
	now := time.Now()
	w.joinDirect(h, now)
	orders := fmt.Sprintf("GAME %s\r\nTOKEN %s\r\nIMPULSE 16-1\r\nENTRENCH 212/423\r\n", w.game, w.tokens[german])
	raw := func(n int, charset, body string) []byte {
		return []byte(fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: orders\r\nMessage-ID: <cs%d@test.example>\r\n"+
			"Content-Type: text/plain; charset=%s\r\nContent-Transfer-Encoding: 8bit\r\n\r\n%s", german, referee, n, charset, body))
	}
	cases := []struct {
		name, charset, body string
		want                string // in the answer; "" for none: the orders are played
	}{
		{"an unknown character set", "x-klingon", orders, `the character set "x-klingon"`},
		{"UTF-8 that is not", "utf-8", orders + "\xff\xfe\r\n", `the character set "utf-8"`},
		{"no character set, 8-bit bytes", `""`, orders + "caf\xe9\r\n", `the character set "us-ascii"`},
		{"ISO-8859-1", "iso-8859-1", orders + "caf\xe9\r\n", ""},
	}
	w.queued(german)
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := w.gameNow().Head
			out := w.handle(h, uint32(100+i), raw(i, c.charset, c.body), now)
			got := w.queued(german)
			after := w.gameNow().Head
			if c.want == "" {
				if after == before {
					t.Errorf("the orders were not played: %q", out)
				}
				return
			}
			if after != before || !strings.HasPrefix(out, "refused: unreadable") {
				t.Errorf("outcome %q; the game changed: %v", out, after != before)
			}
			if len(got) != 1 || !strings.Contains(strings.Join(strings.Fields(got[0]), " "), c.want) || strings.Contains(got[0], "ENTRENCH") {
				t.Fatalf("the answer: %q; want one naming %s", got, c.want)
			}
			for _, l := range strings.Split(got[0], "\n") {
				if lang.Width(l) > 78 {
					t.Errorf("a line of %d columns: %q", lang.Width(l), l)
				}
			}
		})
	}
}

// NewGame makes a game with the referee's settings: a player whose address
// the configuration gives Japanese is welcomed in Japanese, the other in
// the referee's language.
func TestNewGameLanguages(t *testing.T) {
	w := newWorld(t, &worldOptions{noStart: true})
	const g2, a2 = "g2@test.example", "a2@test.example"
	for _, c := range []struct {
		name string
		opt  *acts.Options
		want map[string]string
	}{
		{"the configured languages", &acts.Options{Languages: map[string]string{g2: "ja"}},
			map[string]string{g2: "へようこそ", a2: "Welcome to game"}},
		{"the referee's language", &acts.Options{Language: "ja"},
			map[string]string{g2: "へようこそ", a2: "へようこそ"}},
		{"no settings", nil, map[string]string{g2: "Welcome to game", a2: "Welcome to game"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := w.st.Update(func(tx *store.Tx) error {
				_, _, err := mail.NewGame(tx, w.cfg.From(), c.opt, acts.NewGame{Scenario: "intro", German: g2, Allied: a2, Deadline: 48 * time.Hour}, time.Now())
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			for addr, want := range c.want {
				got := w.queued(addr)
				if len(got) != 1 || !strings.Contains(got[0], want) {
					t.Errorf("the welcome to %s: %q; want %q", addr, got, want)
				}
			}
		})
	}
}
