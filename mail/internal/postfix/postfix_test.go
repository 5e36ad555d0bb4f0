//go:build unix

package postfix_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-smtp"

	"titm/internal/waitfor"
	"titm/mail/internal/postfix"
)

var users = map[string]string{"alice@pf.test": "alice-pass", "bob@pf.test": "bob-pass"}

func message(from, to, id string) []byte {
	return []byte("From: <" + from + ">\r\nTo: <" + to + ">\r\nSubject: hello\r\nMessage-ID: <" + id + ">\r\n" +
		"Date: Mon, 02 Jan 2006 15:04:05 +0000\r\n\r\nHello.\r\n")
}

// send submits a mail without TLS, as the loopback services allow.
func send(addr, from string, to []string, msg *bytes.Reader) error {
	c, err := smtp.Dial(addr)
	if err != nil {
		return err
	}
	defer c.Close()
	return c.SendMail(from, to, msg)
}

// waitMessages waits until user's INBOX holds n messages and returns them.
func waitMessages(t *testing.T, addr, user string, n int) []string {
	t.Helper()
	c, err := imapclient.DialInsecure(addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login(user, users[user]).Wait(); err != nil {
		t.Fatal(err)
	}
	var sel *imap.SelectData
	if !waitfor.Within(15*time.Second, func() bool {
		sel, err = c.Select("INBOX", &imap.SelectOptions{ReadOnly: true}).Wait()
		if err != nil {
			t.Fatal(err)
		}
		return int(sel.NumMessages) >= n
	}) {
		t.Fatalf("%s has %d messages after 15 s, want %d", user, sel.NumMessages, n)
	}
	section := &imap.FetchItemBodySection{Peek: true}
	var all imap.SeqSet
	all.AddRange(1, sel.NumMessages)
	got, err := c.Fetch(all, &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{section}}).Collect()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range got {
		out = append(out, string(m.FindBodySection(section)))
	}
	return out
}

// Mail submitted to Postfix reaches the recipient's Dovecot mailbox; mail
// to an unknown user of the domain is refused at RCPT on the SMTP port, and
// taken and bounced to the sender on the submission port.
func TestDeliverAndBounce(t *testing.T) {
	s := postfix.Start(t, postfix.Options{Domain: "pf.test", Users: users})
	if err := send(s.SubmissionAddr, "alice@pf.test", []string{"bob@pf.test"},
		bytes.NewReader(message("alice@pf.test", "bob@pf.test", "one@pf.test"))); err != nil {
		t.Fatal(err)
	}
	got := waitMessages(t, s.Dovecot.Addr, "bob@pf.test", 1)
	if !strings.Contains(got[0], "Message-ID: <one@pf.test>") || !strings.Contains(got[0], "Received: from ") {
		t.Errorf("bob's mail:\n%s", got[0])
	}

	err := send(s.SMTPAddr, "alice@pf.test", []string{"nobody@pf.test"},
		bytes.NewReader(message("alice@pf.test", "nobody@pf.test", "two@pf.test")))
	var se *smtp.SMTPError
	if !errors.As(err, &se) || se.Code != 550 {
		t.Errorf("mail to an unknown user on the SMTP port: %v, want a 550 at RCPT", err)
	}

	if err := send(s.SubmissionAddr, "alice@pf.test", []string{"nobody@pf.test"},
		bytes.NewReader(message("alice@pf.test", "nobody@pf.test", "three@pf.test"))); err != nil {
		t.Fatalf("the submission port refused mail to an unknown user: %v", err)
	}
	got = waitMessages(t, s.Dovecot.Addr, "alice@pf.test", 1)
	for _, want := range []string{"<MAILER-DAEMON@pf.test>", "Return-Path: <>", "Final-Recipient: rfc822; nobody@pf.test", "Message-ID: <three@pf.test>"} {
		if !strings.Contains(got[0], want) {
			t.Errorf("the bounce lacks %q:\n%s", want, got[0])
		}
	}
}
