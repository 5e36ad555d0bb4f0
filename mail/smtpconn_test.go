//go:build unix

package mail_test

import (
	"crypto/rand"
	"fmt"
	"net"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	gomail "github.com/emersion/go-message/mail"

	"titm/internal/daemon"
	"titm/mail"
	"titm/mail/internal/postfix"
)

// countConn counts the writes that reach a connection's socket.
type countConn struct {
	net.Conn
	writes atomic.Int64
}

func (c *countConn) Write(p []byte) (int, error) {
	c.writes.Add(1)
	return c.Conn.Write(p)
}

// bigMail is a mail to the German player with an attachment of 768 KB: 1
// MB in base64.
func bigMail(t *testing.T, name string) []byte {
	t.Helper()
	data := make([]byte, 768<<10)
	rand.Read(data)
	msg, _, err := mail.Compose(gomail.Address{Address: referee}, &mail.Outgoing{To: []string{german}, Subject: "big " + name,
		Text: "A mail of 1 MB.", Attachments: []mail.Attachment{{Name: name + ".bin", Type: "application/octet-stream", Data: data}}}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return msg
}

// sendCounted sends a mail of 1 MB as the sender does, over a connection
// whose writes it counts, and checks that it arrived whole in the German
// player's INBOX, read by w.inbox. The commands must be answered: a command
// left in the sender's buffer while its answer is awaited would hold the
// send until go-smtp's timeout of five minutes, and the test fails after
// 30 s. The 1 MB must go out in far fewer writes than the 4 KB ones of
// go-smtp's own buffer, some 260.
func sendCounted(t *testing.T, w *world, cfg *mail.SMTPConfig, name string) {
	t.Helper()
	before := len(w.inbox(german))
	raw, err := net.Dial("tcp", cfg.Address)
	if err != nil {
		t.Fatal(err)
	}
	conn := &countConn{Conn: raw}
	msg := bigMail(t, name)
	done := make(chan error, 1)
	go func() { done <- mail.SendOver(cfg, conn, referee, []string{german}, msg) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	case <-time.After(30 * time.Second):
		conn.Close()
		t.Fatalf("%s: the send had no answer after 30 s (%d writes made): a command waits in the buffer", name, conn.writes.Load())
	}
	if n := conn.writes.Load(); n > 60 || n == 0 {
		t.Errorf("%s: 1 MB sent in %d writes, want at most 60", name, n)
	} else {
		t.Logf("%s: 1 MB sent in %d writes", name, n)
	}
	got := w.waitMail(german, before+1)
	if m := got[len(got)-1]; m.Subject != "big "+name || !slices.Equal(m.Attachments, []string{name + ".bin"}) {
		t.Errorf("%s: the mail arrived as %q with %q", name, m.Subject, m.Attachments)
	}
}

// The sender gathers its writes (64 KB at a time) and still gets every
// command answered, in the clear and with STARTTLS, against the embedded
// server.
func TestSenderGathersWrites(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		tls  bool
	}{{"none", false}, {"starttls", true}} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t, &worldOptions{tls: tt.tls, noStart: true})
			sendCounted(t, w, &w.cfg.SMTP, tt.name)
		})
	}
}

// So it does against Postfix, in the clear and with TLS from the start.
func TestSenderGathersWritesPostfix(t *testing.T) {
	t.Parallel()
	ca, cert, key := throwawayCA(t, t.TempDir())
	mta := postfix.Start(t, postfix.Options{Domain: "test.example", Users: map[string]string{referee: "ref-pass", german: "g-pass"},
		CertFile: cert, KeyFile: key})
	w := &world{t: t, imap: mta.Dovecot.Addr}
	for _, tt := range []struct{ name, addr, security string }{
		{"none", mta.SubmissionAddr, `security = "none"`},
		{"tls", mta.SubmissionTLSAddr, fmt.Sprintf("security = \"tls\"\nca_file = %q", ca)},
	} {
		cfg, err := daemon.ParseConfig("test", []byte(fmt.Sprintf("[referee]\naddress = %q\n[imap]\naddress = %q\nusername = %q\npassword = \"ref-pass\"\n[smtp]\naddress = %q\n%s\n",
			referee, mta.Dovecot.Addr, referee, tt.addr, tt.security)), func(string) string { return "" })
		if err != nil {
			t.Fatal(err)
		}
		sendCounted(t, w, &cfg.SMTP, tt.name)
	}
}
