//go:build unix

package mail_test

import (
	"bytes"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"
	acts "titm/adjudicator/referee"

	gomail "github.com/emersion/go-message/mail"
	"github.com/emersion/go-smtp"

	"titm/adjudicator"
	"titm/internal/waitfor"
	"titm/mail"
	"titm/mail/internal/postfix"
	"titm/store"
)

// nobody is an address of the players' domain that has no mailbox: Postfix
// takes mail for it on the submission port and bounces it.
const nobody = "nobody@test.example"

// postfixWorld is a daemon against a real mail system: the players submit
// through Postfix, which delivers by LMTP to Dovecot, where the referee
// reads by IMAP; the referee sends through Postfix, and the players' mail
// is read back from Dovecot. The game's observer has no mailbox, so every
// mail to him comes back as Postfix's own bounce.
func postfixWorld(t *testing.T) (*world, *postfix.System) {
	t.Helper()
	return postfixWorldOf(t, postfixOptions{observers: []string{nobody}})
}

// postfixOptions vary the world of postfixWorldOf.
type postfixOptions struct {
	extra     string       // goes into [referee], as worldOptions.extra
	observers []string     // of the game
	users     []string     // with a mailbox, beyond the referee and the players
	logger    *slog.Logger // the daemon's, when set
	maxBytes  int64        // referee.max_message_bytes, when set
}

// postfixWorldOf is postfixWorld with other observers, more mailboxes, a
// logger to read, more settings or another size limit.
func postfixWorldOf(t testing.TB, o postfixOptions) (*world, *postfix.System) {
	t.Helper()
	users := map[string]string{referee: "ref-pass", german: "g-pass", allied: "a-pass"}
	for _, u := range o.users {
		users[u] = passwords[u]
	}
	mta := postfix.Start(t, postfix.Options{Domain: "test.example", Folders: []string{"processed"}, Users: users})
	w := &world{t: t, tokens: map[string]string{}, db: filepath.Join(t.TempDir(), "titm.db"),
		security: `security = "none"`, imap: mta.Dovecot.Addr, smtp: mta.SubmissionAddr, logger: o.logger}
	w.cfg = w.config(o.extra)
	if o.maxBytes != 0 {
		w.cfg.Referee.MaxMessageBytes = o.maxBytes
	}
	var err error
	if w.st, err = store.Open(w.db, nil); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.st.Close() })
	err = w.st.Update(func(tx *store.Tx) error {
		id, tokens, err := mail.NewGame(tx, gomail.Address{Address: referee}, nil, acts.NewGame{Scenario: "intro",
			German: german, Allied: allied, Observers: o.observers, Deadline: 48 * time.Hour}, time.Now())
		w.game, w.tokens[german], w.tokens[allied] = id, tokens["german"], tokens["allied"]
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	w.start()
	return w, mta
}

// Orders submitted through Postfix are played, and both players find the
// report in their mailboxes on Dovecot; the same mail delivered twice is
// applied once; the report to an address without a mailbox comes back as
// Postfix's bounce, which the referee recognises: that mail is marked
// failed.
func TestPostfix(t *testing.T) {
	t.Parallel()
	w, mta := postfixWorld(t)
	w.join()
	nG, nA := len(w.inbox(german)), len(w.inbox(allied))
	raw, _ := message(german, "orders", fmt.Sprintf("GAME %s\nTOKEN %s\nIMPULSE 16-1\nENTRENCH 212/423\n", w.game, w.tokens[german]))
	for range 2 { // the same mail twice, as a retrying sender may
		if err := sendRaw(mta.SubmissionAddr, german, referee, raw); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []struct {
		addr string
		n    int
	}{{german, nG}, {allied, nA}} {
		got := w.waitMail(p.addr, p.n+1)
		if r := got[p.n]; !strings.Contains(r.Text, "Impulse G16-1, the German impulse 1 of 16 December") || !strings.Contains(r.Text, "212/423 entrenches") {
			t.Errorf("the report to %s:\n%s", p.addr, r.Text)
		}
	}
	w.settle()
	if g := w.gameNow(); g.Next.String() != "A16-1" {
		t.Errorf("after G16-1 the game is at %s", g.Next)
	}
	if got := len(w.inbox(german)); got != nG+1 {
		t.Errorf("the German player got %d mails for orders delivered twice, want 1", got-nG)
	}
	impulses := 0
	for _, r := range w.log() {
		if r.Kind == adjudicator.KindImpulse {
			impulses++
		}
	}
	if impulses != 1 {
		t.Errorf("%d impulses played from one mail delivered twice", impulses)
	}

	// The report to the observer bounced: Postfix's DSN reaches the
	// referee's INBOX, and the daemon marks the report failed.
	var failed []*store.Mail
	if !waitfor.Within(30*time.Second, func() bool {
		failed = failed[:0]
		w.st.View(func(tx *store.Tx) error {
			all, err := tx.Outbox(store.MailFailed)
			failed = append(failed, all...)
			return err
		})
		return len(failed) > 0
	}) {
		t.Fatalf("no mail marked failed 30 s after the report to %s; Postfix's log:\n%s", nobody, mta.Log())
	}
	for _, m := range failed {
		if len(m.To) != 1 || m.To[0] != nobody || !strings.Contains(m.Error, "bounced") {
			t.Errorf("mail %d to %q failed (%s); only mail to %s should bounce", m.ID, m.To, m.Error, nobody)
		}
	}
	w.settle()
}

// sendRaw submits a mail as it is, without TLS, as the loopback submission
// service allows.
func sendRaw(addr, from, to string, raw []byte) error {
	c, err := smtp.Dial(addr)
	if err != nil {
		return err
	}
	defer c.Close()
	return c.SendMail(from, []string{to}, bytes.NewReader(raw))
}
