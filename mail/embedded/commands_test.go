package embedded_test

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/emersion/go-imap/v2"

	"titm/mail/embedded"
)

// The IMAP commands beyond what the referee uses, on both backends: APPEND
// with flags and a date, COPY, STORE and EXPUNGE, UID SEARCH by flag and
// by header, SUBSCRIBE, RENAME (the subscription kept), LIST with STATUS. On the file, what they
// did is still there after a restart.
func TestIMAPCommands(t *testing.T) {
	for _, onDisk := range []bool{false, true} {
		name := map[bool]string{false: "memory", true: "file"}[onDisk]
		t.Run(name, func(t *testing.T) {
			path := ""
			if onDisk {
				path = filepath.Join(t.TempDir(), "mail.db")
			}
			s := start(t, func(o *embedded.Options) { o.Path = path })
			c := login(t, s, alice, alicePass)
			for i, subject := range []string{"one", "two", "three"} {
				var flags []imap.Flag
				if i == 1 {
					flags = []imap.Flag{imap.FlagFlagged}
				}
				msg := message(subject, "body "+subject+"\r\n")
				cmd := c.Append("INBOX", int64(len(msg)), &imap.AppendOptions{Flags: flags})
				cmd.Write([]byte(msg))
				cmd.Close()
				if data, err := cmd.Wait(); err != nil || data.UID != imap.UID(i+1) {
					t.Fatalf("APPEND %s: %+v, %v", subject, data, err)
				}
			}
			if _, err := c.Select("INBOX", nil).Wait(); err != nil {
				t.Fatal(err)
			}
			search := func(criteria *imap.SearchCriteria) []imap.UID {
				t.Helper()
				data, err := c.UIDSearch(criteria, nil).Wait()
				if err != nil {
					t.Fatalf("UID SEARCH %+v: %v", criteria, err)
				}
				return data.AllUIDs()
			}
			if got := search(&imap.SearchCriteria{Flag: []imap.Flag{imap.FlagFlagged}}); !slices.Equal(got, []imap.UID{2}) {
				t.Errorf("UID SEARCH FLAGGED: %v, want [2]", got)
			}
			if got := search(&imap.SearchCriteria{Header: []imap.SearchCriteriaHeaderField{{Key: "Subject", Value: "THREE"}}}); !slices.Equal(got, []imap.UID{3}) {
				t.Errorf("UID SEARCH SUBJECT three: %v, want [3]", got)
			}
			if got := search(&imap.SearchCriteria{Body: []string{"body t"}}); !slices.Equal(got, []imap.UID{2, 3}) {
				t.Errorf("UID SEARCH BODY: %v, want [2 3]", got)
			}
			if err := c.Create("archive", nil).Wait(); err != nil {
				t.Fatal(err)
			}
			if data, err := c.Copy(imap.UIDSetNum(1, 2), "archive").Wait(); err != nil || data.DestUIDs.String() != "1:2" {
				t.Fatalf("COPY: %+v, %v", data, err)
			}
			if err := c.Store(imap.UIDSetNum(1, 3), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{imap.FlagDeleted}, Silent: true}, nil).Close(); err != nil {
				t.Fatal(err)
			}
			if err := c.Expunge().Close(); err != nil {
				t.Fatal(err)
			}
			c.Unselect().Wait()
			if err := c.Subscribe("archive").Wait(); err != nil {
				t.Fatal(err)
			}
			if err := c.Rename("archive", "old", nil).Wait(); err != nil {
				t.Fatal(err)
			}

			check := func(when string) {
				t.Helper()
				c := login(t, s, alice, alicePass)
				if got := look(t, c, "INBOX"); len(got.msgs) != 1 || got.msgs[0].uid != 2 || got.next != 4 ||
					!slices.Equal(got.msgs[0].flags, []imap.Flag{imap.FlagFlagged}) {
					t.Errorf("%s: INBOX %+v, want message 2 alone, flagged", when, got)
				}
				if got := look(t, c, "old"); len(got.msgs) != 2 || got.msgs[1].body != message("two", "body two\r\n") {
					t.Errorf("%s: old %+v, want the two copies", when, got)
				}
				list, err := c.List("", "*", &imap.ListOptions{ReturnStatus: &imap.StatusOptions{NumMessages: true}}).Collect()
				if err != nil {
					t.Fatal(err)
				}
				var names []string
				for _, l := range list {
					names = append(names, l.Mailbox)
					if l.Mailbox == "old" && (!slices.Contains(l.Attrs, imap.MailboxAttrSubscribed) || l.Status == nil || *l.Status.NumMessages != 2) {
						t.Errorf("%s: LIST old: %+v", when, l)
					}
				}
				if !slices.Equal(names, []string{"INBOX", "old", "processed"}) {
					t.Errorf("%s: LIST: %q", when, names)
				}
			}
			check("at once")
			if onDisk {
				s.Close()
				s = start(t, func(o *embedded.Options) { o.Path = path })
				check("after a restart")
			}
		})
	}
}
