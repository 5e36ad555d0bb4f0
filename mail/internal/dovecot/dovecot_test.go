//go:build unix

package dovecot_test

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"titm/mail/internal/dovecot"
)

// waitTimeout bounds every wait for the server to tell a client something.
const waitTimeout = 10 * time.Second

var users = map[string]string{
	"referee": "referee-secret",
	"player":  "player secret with spaces",
}

// message returns a small RFC 5322 message with CRLF line ends, so that what
// IMAP serves back must equal it byte for byte.
func message(subject string) []byte {
	return []byte("From: Player <player@example.org>\r\n" +
		"To: Referee <referee@example.org>\r\n" +
		"Subject: " + subject + "\r\n" +
		"Message-ID: <" + subject + "@example.org>\r\n" +
		"Date: Mon, 02 Jan 2006 15:04:05 +0000\r\n" +
		"MIME-Version: 1.0\r\n" +
		"Content-Type: text/plain; charset=utf-8\r\n" +
		"\r\n" +
		"F Lon - Eng\r\n" +
		"A Par - Bur\r\n" +
		"Ümlaut, and a line that is not \"short\".\r\n")
}

// login dials the server and logs in; the connection is closed when the test
// ends.
func login(t *testing.T, s *dovecot.Server, user string, opts *imapclient.Options) *imapclient.Client {
	t.Helper()
	c, err := imapclient.DialInsecure(s.Addr, opts)
	if err != nil {
		t.Fatalf("dial %s: %v", s.Addr, err)
	}
	t.Cleanup(func() { c.Close() })
	if err := c.Login(user, users[user]).Wait(); err != nil {
		t.Fatalf("login as %s: %v", user, err)
	}
	return c
}

// selectBox selects a mailbox and returns how many messages it holds.
func selectBox(t *testing.T, c *imapclient.Client, mailbox string) uint32 {
	t.Helper()
	data, err := c.Select(mailbox, nil).Wait()
	if err != nil {
		t.Fatalf("select %s: %v", mailbox, err)
	}
	return data.NumMessages
}

// fetchAll returns the UIDs and full raw bytes of every message in the
// selected mailbox, without marking them \Seen.
func fetchAll(t *testing.T, c *imapclient.Client) ([]imap.UID, [][]byte) {
	t.Helper()
	search, err := c.UIDSearch(&imap.SearchCriteria{}, nil).Wait()
	if err != nil {
		t.Fatalf("uid search: %v", err)
	}
	uids := search.AllUIDs()
	if len(uids) == 0 {
		return nil, nil
	}
	section := &imap.FetchItemBodySection{Peek: true}
	msgs, err := c.Fetch(imap.UIDSetNum(uids...), &imap.FetchOptions{
		UID:         true,
		BodySection: []*imap.FetchItemBodySection{section},
	}).Collect()
	if err != nil {
		t.Fatalf("fetch: %v", err)
	}
	byUID := make(map[imap.UID][]byte, len(msgs))
	for _, m := range msgs {
		byUID[m.UID] = m.FindBodySection(section)
	}
	bodies := make([][]byte, len(uids))
	for i, uid := range uids {
		body, ok := byUID[uid]
		if !ok {
			t.Fatalf("fetch: no data for UID %d", uid)
		}
		bodies[i] = body
	}
	return uids, bodies
}

// wantMessages checks that a mailbox holds exactly the messages given, in
// order.
func wantMessages(t *testing.T, c *imapclient.Client, mailbox string, want ...[]byte) []imap.UID {
	t.Helper()
	if n := selectBox(t, c, mailbox); n != uint32(len(want)) {
		t.Fatalf("%s holds %d messages, want %d", mailbox, n, len(want))
	}
	uids, got := fetchAll(t, c)
	if len(got) != len(want) {
		t.Fatalf("%s: fetched %d messages, want %d", mailbox, len(got), len(want))
	}
	for i := range want {
		if !bytes.Equal(got[i], want[i]) {
			t.Fatalf("%s message %d:\ngot  %q\nwant %q", mailbox, i+1, got[i], want[i])
		}
	}
	return uids
}

func TestDeliverFetchMove(t *testing.T) {
	t.Parallel()
	s := dovecot.Start(t, users, "processed", "archive/2024")

	msg := message("orders-spring-1901")
	s.Deliver(t, "referee", msg)

	c := login(t, s, "referee", nil)
	if !c.Caps().Has(imap.CapMove) || !c.Caps().Has(imap.CapIdle) {
		t.Fatalf("server lacks MOVE or IDLE: %v", c.Caps())
	}
	uids := wantMessages(t, c, "INBOX", msg)
	if _, err := c.Move(imap.UIDSetNum(uids...), "processed").Wait(); err != nil {
		t.Fatalf("move to processed: %v", err)
	}
	wantMessages(t, c, "INBOX")
	wantMessages(t, c, "processed", msg)
	wantMessages(t, c, "archive/2024")

	// Each user has a mailbox of their own.
	other := login(t, s, "player", nil)
	wantMessages(t, other, "INBOX")
	wantMessages(t, other, "processed")

	// The passwords are checked.
	bad, err := imapclient.DialInsecure(s.Addr, nil)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	defer bad.Close()
	if err := bad.Login("referee", "wrong").Wait(); err == nil {
		t.Errorf("login with a wrong password succeeded")
	}
}

func TestIdleSeesDelivery(t *testing.T) {
	t.Parallel()
	s := dovecot.Start(t, users, "processed")

	first := message("first")
	s.Deliver(t, "referee", first)

	// The handler runs on the client's reader goroutine: it must not block,
	// so the channel is buffered and extra updates are dropped.
	exists := make(chan uint32, 16)
	c := login(t, s, "referee", &imapclient.Options{
		UnilateralDataHandler: &imapclient.UnilateralDataHandler{
			Mailbox: func(data *imapclient.UnilateralDataMailbox) {
				if data.NumMessages != nil {
					select {
					case exists <- *data.NumMessages:
					default:
					}
				}
			},
		},
	})
	if n := selectBox(t, c, "INBOX"); n != 1 {
		t.Fatalf("INBOX holds %d messages, want 1", n)
	}
	idle, err := c.Idle()
	if err != nil {
		t.Fatalf("idle: %v", err)
	}

	second := message("second")
	s.Deliver(t, "referee", second)

	deadline := time.After(waitTimeout)
	for n := uint32(0); n != 2; {
		select {
		case n = <-exists:
		case <-deadline:
			t.Fatalf("no EXISTS 2 within %v of the delivery (last %d)", waitTimeout, n)
		}
	}
	if err := idle.Close(); err != nil {
		t.Fatalf("ending idle: %v", err)
	}
	if err := idle.Wait(); err != nil {
		t.Fatalf("idle: %v", err)
	}
	wantMessages(t, c, "INBOX", first, second)
}

func TestRestartKeepsMail(t *testing.T) {
	t.Parallel()
	s := dovecot.Start(t, users, "processed")
	addr := s.Addr

	kept, inbox := message("kept"), message("waiting")
	s.Deliver(t, "referee", kept)
	s.Deliver(t, "referee", inbox)

	before := login(t, s, "referee", nil)
	uids := wantMessages(t, before, "INBOX", kept, inbox)
	if _, err := before.Move(imap.UIDSetNum(uids[0]), "processed").Wait(); err != nil {
		t.Fatalf("move to processed: %v", err)
	}

	s.Restart(t)

	if s.Addr != addr {
		t.Fatalf("Restart moved the server from %s to %s", addr, s.Addr)
	}
	// The old connection is cut, which is what a client must notice to
	// reconnect.
	select {
	case <-before.Closed():
	case <-time.After(waitTimeout):
		t.Fatalf("the connection from before the restart is still open after %v", waitTimeout)
	}

	after := login(t, s, "referee", nil)
	wantMessages(t, after, "INBOX", inbox)
	wantMessages(t, after, "processed", kept)

	// Delivery works after a restart too.
	late := message("late")
	s.Deliver(t, "referee", late)
	wantMessages(t, after, "INBOX", inbox, late)
}

func TestStopIsIdempotent(t *testing.T) {
	t.Parallel()
	s := dovecot.Start(t, map[string]string{"solo": "pw"})
	s.Stop(t)
	s.Stop(t) // and once more by Cleanup

	if c, err := imapclient.DialInsecure(s.Addr, nil); err == nil {
		c.Close()
		t.Fatalf("%s still accepts connections after Stop", s.Addr)
	}

	// Restart also brings a stopped server back.
	s.Restart(t)
	c, err := imapclient.DialInsecure(s.Addr, nil)
	if err != nil {
		t.Fatalf("dial after restart: %v", err)
	}
	defer c.Close()
	if err := c.Login("solo", "pw").Wait(); err != nil {
		t.Fatalf("login after restart: %v", err)
	}
}

// TestTwoServers checks that two servers run side by side without sharing
// anything: each has its own port and mail.
func TestTwoServers(t *testing.T) {
	t.Parallel()
	a := dovecot.Start(t, users)
	b := dovecot.Start(t, users)
	if a.Addr == b.Addr {
		t.Fatalf("both servers on %s", a.Addr)
	}
	msg := message("only-in-a")
	a.Deliver(t, "player", msg)
	for i, s := range []*dovecot.Server{a, b} {
		t.Run(fmt.Sprint("server", i), func(t *testing.T) {
			c := login(t, s, "player", nil)
			if i == 0 {
				wantMessages(t, c, "INBOX", msg)
			} else {
				wantMessages(t, c, "INBOX")
			}
		})
	}
}
