package embedded_test

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"titm/internal/waitfor"
	"titm/mail/embedded"
)

// box is what a client sees of a mailbox: its UIDVALIDITY and UIDNEXT, and
// each message's UID, flags and bytes.
type box struct {
	validity uint32
	next     imap.UID
	msgs     []stored
}

type stored struct {
	uid   imap.UID
	flags []imap.Flag
	body  string
}

func look(t *testing.T, c *imapclient.Client, name string) box {
	t.Helper()
	sel, err := c.Select(name, nil).Wait()
	if err != nil {
		t.Fatalf("selecting %s: %v", name, err)
	}
	b := box{validity: sel.UIDValidity, next: sel.UIDNext}
	if sel.NumMessages > 0 {
		section := &imap.FetchItemBodySection{Peek: true}
		ms, err := c.Fetch(all(sel.NumMessages), &imap.FetchOptions{UID: true, Flags: true,
			BodySection: []*imap.FetchItemBodySection{section}}).Collect()
		if err != nil {
			t.Fatalf("fetching %s: %v", name, err)
		}
		for _, m := range ms {
			flags := slices.Clone(m.Flags)
			slices.Sort(flags)
			b.msgs = append(b.msgs, stored{m.UID, flags, string(m.FindBodySection(section))})
		}
	}
	if err := c.Unselect().Wait(); err != nil {
		t.Fatalf("closing %s: %v", name, err)
	}
	return b
}

// all is the set of every message of a mailbox of n.
func all(n uint32) imap.SeqSet {
	var s imap.SeqSet
	s.AddRange(1, n)
	return s
}

func restart(t *testing.T, path string) *embedded.Servers {
	t.Helper()
	return start(t, func(o *embedded.Options) { o.Path = path })
}

// The mailboxes live in their file: stopped and started again, the servers
// serve the same messages, flags, UIDs and UIDVALIDITY, and carry on from
// the same UIDNEXT, so that a client that remembers what it has read (the
// referee's inbox) reads every new message. A mailbox made again, and a
// mail file made anew, get a greater UIDVALIDITY (RFC 9051, 2.3.1.1).
func TestMailSurvivesRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mail.db")
	s := restart(t, path)
	for i, subject := range []string{"one", "two", "three"} {
		var err error
		if i == 0 {
			err = send(t, s, nil, referee, []string{alice}, message(subject, "by SMTP\r\n"))
		} else {
			err = s.Deliver(alice, []byte(message(subject, "delivered\r\n")))
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	c := login(t, s, alice, alicePass)
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	if err := c.Store(imap.UIDSetNum(1), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{imap.FlagSeen}, Silent: true}, nil).Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Move(imap.UIDSetNum(1), "processed").Wait(); err != nil {
		t.Fatal(err)
	}
	if err := c.Store(imap.UIDSetNum(3), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{imap.FlagFlagged}, Silent: true}, nil).Close(); err != nil {
		t.Fatal(err)
	}
	c.Unselect().Wait()
	if err := c.Create("later", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	inbox, processed := look(t, c, "INBOX"), look(t, c, "processed")
	if len(inbox.msgs) != 2 || len(processed.msgs) != 1 || inbox.next != 4 {
		t.Fatalf("before the restart: INBOX %+v, processed %+v", inbox, processed)
	}
	s.Close()

	s = restart(t, path)
	c = login(t, s, alice, alicePass)
	for _, b := range []struct {
		name string
		want box
	}{{"INBOX", inbox}, {"processed", processed}} {
		if got := look(t, c, b.name); !equalBox(got, b.want) {
			t.Errorf("%s after the restart:\n got %+v\nwant %+v", b.name, got, b.want)
		}
	}
	if _, err := c.Status("later", &imap.StatusOptions{UIDValidity: true}).Wait(); err != nil {
		t.Errorf("a mailbox made by a client is lost in the restart: %v", err)
	}
	if err := s.Deliver(alice, []byte(message("four", "after the restart\r\n"))); err != nil {
		t.Fatal(err)
	}
	if got := look(t, c, "INBOX"); got.validity != inbox.validity || got.msgs[len(got.msgs)-1].uid != 4 || got.next != 5 {
		t.Errorf("a message delivered after the restart: %+v, want UID 4 under UIDVALIDITY %d", got, inbox.validity)
	}

	// processed made again: a greater UIDVALIDITY, no messages, and so it
	// stays through the next restart.
	if err := c.Delete("processed").Wait(); err != nil {
		t.Fatal(err)
	}
	if err := c.Create("processed", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	again := look(t, c, "processed")
	if again.validity <= processed.validity || len(again.msgs) != 0 || again.next != 1 {
		t.Errorf("processed made again: %+v, the first was UIDVALIDITY %d", again, processed.validity)
	}
	s.Close()
	s = restart(t, path)
	c = login(t, s, alice, alicePass)
	if got := look(t, c, "processed"); !equalBox(got, again) {
		t.Errorf("processed made again, after a restart: %+v, want %+v", got, again)
	}
	s.Close()

	// A new file: its UIDVALIDITY is the time in seconds, so once the
	// clock has passed the old file's, every mailbox starts above it.
	waitClockPast(t, inbox.validity)
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	s = restart(t, path)
	c = login(t, s, alice, alicePass)
	if got := look(t, c, "INBOX"); got.validity <= inbox.validity || len(got.msgs) != 0 {
		t.Errorf("INBOX of a new mail file: %+v, the old file's had UIDVALIDITY %d", got, inbox.validity)
	}
}

func equalBox(a, b box) bool {
	return a.validity == b.validity && a.next == b.next && slices.EqualFunc(a.msgs, b.msgs, func(x, y stored) bool {
		return x.uid == y.uid && x.body == y.body && slices.Equal(x.flags, y.flags)
	})
}

// waitClockPast waits until the clock, in seconds, is past v: a second at
// most, as v was given from it.
func waitClockPast(t *testing.T, v uint32) {
	t.Helper()
	waitfor.Until(t, 5*time.Second, func() bool { return uint32(time.Now().Unix()) > v }, fmt.Sprintf("the clock to pass %d", v))
}

// A mail file is one process's: a second Start on it fails at once, naming
// it, rather than waiting; and a file that is not a mail file is named.
func TestMailFileRefused(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "mail.db")
	restart(t, path)
	_, err := embedded.Start(&embedded.Options{IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0",
		Users: map[string]string{alice: alicePass}, Path: path})
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "in use") {
		t.Errorf("a mail file in use: %v", err)
	}

	junk := filepath.Join(dir, "junk.db")
	if err := os.WriteFile(junk, bytes.Repeat([]byte("not a mail file\n"), 1024), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = embedded.Start(&embedded.Options{IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0",
		Users: map[string]string{alice: alicePass}, Path: junk})
	if err == nil || !strings.Contains(err.Error(), junk) {
		t.Errorf("a file that is not a mail file: %v", err)
	}
}

// A damaged mail file (here every page's type spoilt, which makes bbolt
// panic as it reads one) stops Start with an error naming the file, never
// a crash.
func TestMailFileDamaged(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mail.db")
	s := restart(t, path)
	for i := range 20 {
		if err := s.Deliver(alice, []byte(message(fmt.Sprint("mail ", i), strings.Repeat("text\r\n", 200)))); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const pageSize = 4096 // bbolt's, on the machines the tests run on
	spoilt := 0
	for off := 2 * pageSize; off+pageSize <= len(data); off += pageSize { // the meta pages are checked by bbolt
		data[off+8], data[off+9] = 0xff, 0x7f // the page's flags
		spoilt++
	}
	if spoilt == 0 {
		t.Fatalf("a mail file of %d bytes has no page beyond its meta pages", len(data))
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = embedded.Start(&embedded.Options{IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0",
		Users: map[string]string{alice: alicePass}, Path: path})
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "damaged") {
		t.Errorf("a damaged mail file: %v", err)
	}
	t.Logf("%d pages spoilt: %v", spoilt, err)
}

// Each delivery to the mail file is a bbolt transaction, synced to the
// disk before SMTP says it is accepted: this gives its cost beside the
// memory's.
func BenchmarkDeliver(b *testing.B) {
	for _, name := range []string{"memory", "file"} {
		b.Run(name, func(b *testing.B) {
			opt := &embedded.Options{IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0",
				Users: map[string]string{alice: alicePass}, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
			if name == "file" {
				opt.Path = filepath.Join(b.TempDir(), "mail.db")
			}
			s, err := embedded.Start(opt)
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			msg := []byte(message("bench", strings.Repeat("A report line of some length.\r\n", 100)))
			b.ReportAllocs()
			for b.Loop() {
				if err := s.Deliver(alice, msg); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
