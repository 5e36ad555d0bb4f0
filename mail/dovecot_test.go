//go:build unix

package mail_test

import (
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"
	acts "titm/adjudicator/referee"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	gomail "github.com/emersion/go-message/mail"

	"titm/internal/daemon"
	"titm/internal/waitfor"
	"titm/mail"
	"titm/mail/embedded"
	"titm/mail/internal/dovecot"
	"titm/store"
)

// The daemon against Dovecot: the referee's mailbox is on a real Dovecot,
// the players' on the embedded servers. The poll interval is an hour, so
// only IDLE can tell the daemon of new mail; the test restarts Dovecot
// under the daemon, which reconnects; handled mails are moved.
func TestDovecot(t *testing.T) {
	t.Parallel()
	dc := dovecot.Start(t, map[string]string{referee: "ref-pass"}, "processed")
	srv, err := embedded.Start(&embedded.Options{IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0",
		Users: map[string]string{german: "g-pass", allied: "a-pass"}, Logger: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	w := &world{t: t, srv: srv, tokens: map[string]string{}, db: filepath.Join(t.TempDir(), "titm.db")}
	cfg, err := daemon.ParseConfig("test", []byte(fmt.Sprintf(`[store]
path = %q
[referee]
address = %q
[imap]
address = %q
security = "none"
username = %q
password = "ref-pass"
poll_interval = "1h"
[smtp]
address = %q
security = "none"
retry_min = "1s"
`, w.db, referee, dc.Addr, referee, srv.SMTPAddr())), func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	w.cfg = &cfg.Config
	if w.st, err = store.Open(w.db, nil); err != nil {
		t.Fatal(err)
	}
	defer w.st.Close()
	err = w.st.Update(func(tx *store.Tx) error {
		id, tokens, err := mail.NewGame(tx, gomail.Address{Address: referee}, nil, acts.NewGame{Scenario: "intro",
			German: german, Allied: allied, Deadline: 48 * time.Hour}, time.Now())
		if err != nil {
			return err
		}
		w.game, w.tokens[german], w.tokens[allied] = id, tokens["german"], tokens["allied"]
		return joinAll(tx, id)
	})
	if err != nil {
		t.Fatal(err)
	}
	// IDLE is what is tested: the orders are delivered once the daemon
	// waits in it, so that only IDLE can bring them.
	idling := make(chan struct{}, 1)
	w.logger = logOn("imap: idling", func(slog.Record) {
		select {
		case idling <- struct{}{}:
		default:
		}
	})
	w.start()
	w.waitMail(german, 1) // the welcome: the daemon runs
	select {
	case <-idling:
	case <-time.After(15 * time.Second):
		t.Fatal("the daemon did not enter IDLE in 15 s")
	}

	orders := func(impulse, from string) {
		raw, _ := message(from, "orders", fmt.Sprintf("GAME %s\nTOKEN %s\nIMPULSE %s\n", w.game, w.tokens[from], impulse))
		dc.Deliver(t, referee, raw)
	}
	start := time.Now()
	orders("16-1", german)
	w.waitMail(allied, 2)
	t.Logf("IDLE: the report came %s after the delivery", time.Since(start).Round(time.Millisecond))

	// Dovecot restarts under the daemon; it reconnects and goes on.
	dc.Restart(t)
	orders("16-1", allied)
	w.waitMail(german, 3)
	if g := w.gameNow(); g.Next.String() != "G16-2" {
		t.Errorf("after two impulses the game is at %s", g.Next)
	}
	// The report is sent once the mail's handling is committed, before the
	// daemon moves the mail: wait for the move.
	waitfor.Until(t, 15*time.Second, func() bool { return dovecotCount(t, dc.Addr, "INBOX") == 0 }, "Dovecot's INBOX to be empty")
	if n := dovecotCount(t, dc.Addr, "processed"); n != 2 {
		t.Errorf("Dovecot's processed folder has %d mails, want 2", n)
	}
	// A mail over the limit, delivered twice: the daemon fetches its
	// header alone, and the player is told once.
	big, _ := message(german, "big", strings.Repeat("orders and more orders\n", 14000))
	dc.Deliver(t, referee, big)
	dc.Deliver(t, referee, big)
	waitfor.Until(t, 15*time.Second, func() bool { return dovecotCount(t, dc.Addr, "processed") >= 4 }, "the mails over the limit to be handled")
	w.waitMail(german, 4)
	waitfor.Until(t, 15*time.Second, func() bool {
		var queued int
		w.st.View(func(tx *store.Tx) error { q, err := tx.Outbox(store.MailQueued); queued = len(q); return err })
		return queued == 0
	}, "every answer to be sent")
	if got := w.inbox(german); len(got) != 4 || !strings.Contains(got[3].Text, "over the referee's limit of 262144 bytes") {
		t.Errorf("%d mails to the German player after two mails over the limit, want one answer more", len(got)-3)
	}
	w.cancel()
	<-w.done
	w.cancel = nil
}

func dovecotCount(t *testing.T, addr, folder string) int {
	t.Helper()
	c, err := imapclient.DialInsecure(addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login(referee, "ref-pass").Wait(); err != nil {
		t.Fatal(err)
	}
	d, err := c.Status(folder, &imap.StatusOptions{NumMessages: true}).Wait()
	if err != nil {
		t.Fatal(err)
	}
	return int(*d.NumMessages)
}
