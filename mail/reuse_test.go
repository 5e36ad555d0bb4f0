package mail_test

import (
	"bytes"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"titm/store"
)

// syncBuffer is a log the daemon writes from its goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// A server that gives a UID again under the same UIDVALIDITY (as one that
// lost its mailboxes and starts them anew at UIDVALIDITY 1 does) puts a new
// mail under a key the referee has handled: the referee knows it by its
// content for another, handles it and says so in its log, and drops
// nothing.
func TestUIDReusedForAnotherMail(t *testing.T) {
	t.Parallel()
	w := newWorld(t, &worldOptions{noStart: true})
	var logs syncBuffer
	w.logger = slog.New(slog.NewTextHandler(&logs, nil))
	if err := w.st.Update(func(tx *store.Tx) error { return joinAll(tx, w.game) }); err != nil {
		t.Fatal(err)
	}
	c, err := imapclient.DialInsecure(w.srv.IMAPAddr(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Login(referee, "ref-pass").Wait(); err != nil {
		t.Fatal(err)
	}
	st, err := c.Status("INBOX", &imap.StatusOptions{UIDValidity: true, UIDNext: true}).Wait()
	c.Close()
	if err != nil {
		t.Fatal(err)
	}
	// The key the next mail gets was handled before, for another mail.
	err = w.st.Update(func(tx *store.Tx) error {
		return tx.MarkProcessed(store.Processed{Mailbox: "INBOX", UIDValidity: st.UIDValidity, UID: uint32(st.UIDNext),
			MessageID: "earlier@test.example", Digest: "the digest of an earlier mail", Time: time.Now(), Outcome: "an earlier mail's"})
	})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := message(german, "orders", fmt.Sprintf("GAME %s\nTOKEN %s\nIMPULSE 16-1\nENTRENCH 212/423\n", w.game, w.tokens[german]))
	if err := w.srv.Deliver(referee, raw); err != nil {
		t.Fatal(err)
	}
	w.start()
	got := w.waitMail(german, 2) // the welcome, then the report of the impulse ordered
	w.settle()
	if !strings.Contains(got[1].Subject, "G16-1 played") {
		t.Errorf("the German player's second mail is %q, not the report of his orders", got[1].Subject)
	}
	if n := impulses(w.log()); n != 1 {
		t.Errorf("the log has %d impulses, want the 1 ordered", n)
	}
	if !strings.Contains(logs.String(), "reused a UID") {
		t.Errorf("the log does not tell of the UID given again:\n%s", logs.String())
	}
}
