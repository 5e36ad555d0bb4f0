package embedded_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/textproto"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"titm/internal/waitfor"
	"titm/mail/embedded"
)

const (
	alice     = "alice@example.test"
	alicePass = "alice-secret-1"
	bob       = "bob@example.test"
	bobPass   = "bob-secret-2"
	referee   = "referee@example.test"

	// How long a test waits for something the servers should do at once.
	patience = 10 * time.Second
)

// logSink keeps everything the servers log, so a test can check that no
// password ever reaches the log, and echoes it to the test's output.
type logSink struct {
	mu  sync.Mutex
	buf bytes.Buffer
	out io.Writer
}

func (s *logSink) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.buf.Write(p)
	return s.out.Write(p)
}

func (s *logSink) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}

// start runs servers with alice and bob on free loopback ports, their
// mailboxes in a file of the test's own; edit may
// change the options first. The servers are closed when the test ends, and
// the log is then checked for passwords.
func start(t *testing.T, edit func(*embedded.Options)) *embedded.Servers {
	t.Helper()
	sink := &logSink{out: t.Output()}
	opt := &embedded.Options{
		IMAPAddr: "127.0.0.1:0",
		SMTPAddr: "127.0.0.1:0",
		Users:    map[string]string{alice: alicePass, bob: bobPass},
		Folders:  []string{"processed"},
		// On disk, as serve keeps them: the tests below then check the
		// file's backend; the tests started otherwise, the memory's.
		Path:   filepath.Join(t.TempDir(), "mail.db"),
		Logger: slog.New(slog.NewTextHandler(sink, &slog.HandlerOptions{Level: slog.LevelDebug})),
	}
	if edit != nil {
		edit(opt)
	}
	s, err := embedded.Start(opt)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
		logs := sink.String()
		for _, pw := range opt.Users {
			if strings.Contains(logs, pw) {
				t.Errorf("the log contains a password:\n%s", logs)
			}
		}
	})
	return s
}

// send delivers msg over SMTP, authenticating first when auth is set.
func send(t *testing.T, s *embedded.Servers, auth sasl.Client, from string, to []string, msg string) error {
	t.Helper()
	c, err := smtp.Dial(s.SMTPAddr())
	if err != nil {
		t.Fatalf("dialing SMTP: %v", err)
	}
	defer c.Close()
	if auth != nil {
		if err := c.Auth(auth); err != nil {
			return err
		}
	}
	if err := c.SendMail(from, to, strings.NewReader(msg)); err != nil {
		return err
	}
	return c.Quit()
}

func dialIMAP(t *testing.T, s *embedded.Servers, opt *imapclient.Options) *imapclient.Client {
	t.Helper()
	c, err := imapclient.DialInsecure(s.IMAPAddr(), opt)
	if err != nil {
		t.Fatalf("dialing IMAP: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func login(t *testing.T, s *embedded.Servers, user, pass string) *imapclient.Client {
	t.Helper()
	c := dialIMAP(t, s, nil)
	if err := c.Login(user, pass).Wait(); err != nil {
		t.Fatalf("IMAP login as %s: %v", user, err)
	}
	return c
}

type fetched struct {
	uid  imap.UID
	body []byte
}

// messages selects mailbox and returns every message in it, read with
// BODY.PEEK[] so that the exact stored bytes come back.
func messages(t *testing.T, c *imapclient.Client, mailbox string) []fetched {
	t.Helper()
	sel, err := c.Select(mailbox, nil).Wait()
	if err != nil {
		t.Fatalf("selecting %s: %v", mailbox, err)
	}
	if sel.NumMessages == 0 {
		return nil
	}
	section := &imap.FetchItemBodySection{Peek: true}
	var seq imap.SeqSet
	seq.AddRange(1, sel.NumMessages)
	bufs, err := c.Fetch(seq, &imap.FetchOptions{UID: true, BodySection: []*imap.FetchItemBodySection{section}}).Collect()
	if err != nil {
		t.Fatalf("fetching %s: %v", mailbox, err)
	}
	var out []fetched
	for _, b := range bufs {
		out = append(out, fetched{uid: b.UID, body: b.FindBodySection(section)})
	}
	return out
}

func message(subject, body string) string {
	return "From: " + referee + "\r\nTo: " + alice + "\r\nSubject: " + subject + "\r\n\r\n" + body
}

func smtpCode(err error) int {
	var se *smtp.SMTPError
	if errors.As(err, &se) {
		return se.Code
	}
	return 0
}

func TestSendAndFetch(t *testing.T) {
	tests := []struct {
		name string
		to   string
		auth sasl.Client
		msg  string
	}{
		{name: "plain", to: alice, msg: message("Turn 1", "Your move.\r\n")},
		{name: "dot-stuffed lines", to: alice, msg: message("Dots", ".\r\n..two\r\n.x\r\nend\r\n")},
		{name: "8-bit body", to: alice, msg: message("Umlaut", "Übergang über die Maas — 1944\r\n")},
		{name: "recipient case ignored", to: "Alice@Example.TEST", msg: message("Case", "hello\r\n")},
		{name: "authenticated sender", to: alice, auth: sasl.NewPlainClient("", bob, bobPass), msg: message("Auth", "signed in\r\n")},
		{name: "login case ignored", to: alice, auth: sasl.NewPlainClient("", "BOB@example.test", bobPass), msg: message("Auth", "signed in\r\n")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := start(t, nil)
			if err := send(t, s, tc.auth, referee, []string{tc.to}, tc.msg); err != nil {
				t.Fatalf("sending: %v", err)
			}
			got := messages(t, login(t, s, alice, alicePass), "INBOX")
			if len(got) != 1 {
				t.Fatalf("INBOX holds %d messages, want 1", len(got))
			}
			if !bytes.Equal(got[0].body, []byte(tc.msg)) {
				t.Errorf("message changed in transit:\ngot  %q\nwant %q", got[0].body, tc.msg)
			}
		})
	}
}

func TestSMTPRefusals(t *testing.T) {
	tests := []struct {
		name     string
		auth     sasl.Client
		to       []string
		msg      string
		wantCode int
	}{
		{name: "unknown recipient", to: []string{"mallory@example.test"}, msg: message("x", "x\r\n"), wantCode: 550},
		{name: "unknown among known", to: []string{alice, "mallory@example.test"}, msg: message("x", "x\r\n"), wantCode: 550},
		{name: "wrong SMTP password", auth: sasl.NewPlainClient("", alice, "wrong"), to: []string{bob}, msg: message("x", "x\r\n"), wantCode: 535},
		{name: "unknown SMTP user", auth: sasl.NewPlainClient("", "mallory@example.test", alicePass), to: []string{bob}, msg: message("x", "x\r\n"), wantCode: 535},
		{name: "identity of another user", auth: sasl.NewPlainClient(bob, alice, alicePass), to: []string{bob}, msg: message("x", "x\r\n"), wantCode: 535},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := start(t, nil)
			err := send(t, s, tc.auth, referee, tc.to, tc.msg)
			if got := smtpCode(err); got != tc.wantCode {
				t.Fatalf("send: %v (code %d), want code %d", err, got, tc.wantCode)
			}
			for _, u := range []struct{ addr, pass string }{{alice, alicePass}, {bob, bobPass}} {
				if got := messages(t, login(t, s, u.addr, u.pass), "INBOX"); len(got) != 0 {
					t.Errorf("%s's INBOX holds %d messages after a refusal, want 0", u.addr, len(got))
				}
			}
		})
	}
}

// go-smtp counts the message after dot-unstuffing, with its final CRLF,
// and refuses one that reaches the limit exactly.
func TestMessageSizeLimit(t *testing.T) {
	const limit = 200
	msgOf := func(size int) string {
		m := message("size", "")
		return m + strings.Repeat("x", size-len(m)-2) + "\r\n"
	}
	tests := []struct {
		size     int
		wantCode int
	}{
		{size: limit - 1, wantCode: 0},
		{size: limit, wantCode: 552},
		{size: 3 * limit, wantCode: 552},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprint(tc.size), func(t *testing.T) {
			s := start(t, func(o *embedded.Options) { o.MaxMessageBytes = limit })
			msg := msgOf(tc.size)
			if len(msg) != tc.size {
				t.Fatalf("test message has %d bytes, want %d", len(msg), tc.size)
			}
			err := send(t, s, nil, referee, []string{alice}, msg)
			if got := smtpCode(err); got != tc.wantCode || (tc.wantCode == 0 && err != nil) {
				t.Fatalf("send: %v (code %d), want code %d", err, got, tc.wantCode)
			}
			want := 0
			if tc.wantCode == 0 {
				want = 1
			}
			if got := messages(t, login(t, s, alice, alicePass), "INBOX"); len(got) != want {
				t.Errorf("INBOX holds %d messages, want %d", len(got), want)
			}
		})
	}
}

func TestUnknownRecipientMessage(t *testing.T) {
	s := start(t, nil)
	err := send(t, s, nil, referee, []string{"mallory@example.test"}, message("x", "x\r\n"))
	var se *smtp.SMTPError
	if !errors.As(err, &se) {
		t.Fatalf("send: %v, want an *smtp.SMTPError", err)
	}
	if se.Code != 550 || se.EnhancedCode != (smtp.EnhancedCode{5, 1, 1}) {
		t.Errorf("refusal %d %v, want 550 5.1.1", se.Code, se.EnhancedCode)
	}
	if !strings.Contains(se.Message, "mallory@example.test") {
		t.Errorf("refusal %q does not name the recipient", se.Message)
	}
}

func TestFault(t *testing.T) {
	t.Run("temporary failure then success", func(t *testing.T) {
		var calls atomic.Int32
		var mu sync.Mutex
		var seen []string
		s := start(t, func(o *embedded.Options) {
			o.Fault = func(from string, to []string) error {
				mu.Lock()
				seen = append(seen, from+">"+strings.Join(to, ","))
				mu.Unlock()
				if calls.Add(1) == 1 {
					return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "simulated outage"}
				}
				return nil
			}
		})
		msg := message("Retry", "second time lucky\r\n")

		err := send(t, s, nil, referee, []string{alice}, msg)
		var se *smtp.SMTPError
		if !errors.As(err, &se) || se.Code != 451 || !se.Temporary() {
			t.Fatalf("first send: %v, want a temporary 451", err)
		}
		if err := send(t, s, nil, referee, []string{alice}, msg); err != nil {
			t.Fatalf("second send: %v", err)
		}

		got := messages(t, login(t, s, alice, alicePass), "INBOX")
		if len(got) != 1 || !bytes.Equal(got[0].body, []byte(msg)) {
			t.Fatalf("INBOX holds %d messages, want the message once", len(got))
		}
		mu.Lock()
		defer mu.Unlock()
		want := []string{referee + ">" + alice, referee + ">" + alice}
		if fmt.Sprint(seen) != fmt.Sprint(want) {
			t.Errorf("Fault saw %v, want %v", seen, want)
		}
	})

	t.Run("one recipient fails, nobody gets it", func(t *testing.T) {
		s := start(t, func(o *embedded.Options) {
			o.Fault = func(from string, to []string) error {
				if len(to) == 1 && to[0] == bob {
					return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 2, 1}, Message: "simulated bounce"}
				}
				return nil
			}
		})
		err := send(t, s, nil, referee, []string{alice, bob}, message("Both", "x\r\n"))
		if code := smtpCode(err); code != 550 {
			t.Fatalf("send: %v, want 550", err)
		}
		if got := messages(t, login(t, s, alice, alicePass), "INBOX"); len(got) != 0 {
			t.Errorf("alice got %d messages although the delivery failed", len(got))
		}
	})
}

// A message to a recipient Discard names is accepted and kept for the
// others only; the same message read twice in a row, into the buffer kept
// from the last, reaches its recipients whole.
func TestDiscard(t *testing.T) {
	s := start(t, func(o *embedded.Options) {
		o.Discard = func(to string) bool { return to == bob }
	})
	long := message("Long", strings.Repeat("a line of the message\r\n", 5000))
	short := message("Short", "x\r\n")
	for _, msg := range []string{long, short} {
		if err := send(t, s, nil, referee, []string{alice, bob}, msg); err != nil {
			t.Fatalf("send: %v", err)
		}
	}
	got := messages(t, login(t, s, alice, alicePass), "INBOX")
	if len(got) != 2 || !bytes.Equal(got[0].body, []byte(long)) || !bytes.Equal(got[1].body, []byte(short)) {
		t.Errorf("alice's INBOX holds %d messages, want both whole", len(got))
	}
	if got := messages(t, login(t, s, bob, bobPass), "INBOX"); len(got) != 0 {
		t.Errorf("bob's INBOX holds %d messages, want none: they were discarded", len(got))
	}
}

func TestIdle(t *testing.T) {
	msg := message("Wake up", "your turn\r\n")
	viaSMTP := func(t *testing.T, s *embedded.Servers) {
		if err := send(t, s, nil, referee, []string{alice}, msg); err != nil {
			t.Fatalf("sending: %v", err)
		}
	}
	direct := func(t *testing.T, s *embedded.Servers) {
		if err := s.Deliver(alice, []byte(msg)); err != nil {
			t.Fatalf("Deliver: %v", err)
		}
	}
	tests := []struct {
		name string
		// before runs between SELECT and IDLE, during after IDLE has begun.
		before, during func(*testing.T, *embedded.Servers)
		want           uint32
	}{
		{name: "SMTP delivery during IDLE", during: viaSMTP, want: 1},
		{name: "Deliver during IDLE", during: direct, want: 1},
		// imapserver alone would keep this news until the next message.
		{name: "delivery between SELECT and IDLE", before: viaSMTP, want: 1},
		{name: "one before, one during", before: direct, during: viaSMTP, want: 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := start(t, nil)
			counts := make(chan uint32, 16)
			c := dialIMAP(t, s, &imapclient.Options{
				UnilateralDataHandler: &imapclient.UnilateralDataHandler{
					Mailbox: func(data *imapclient.UnilateralDataMailbox) {
						if data.NumMessages != nil {
							counts <- *data.NumMessages
						}
					},
				},
			})
			if err := c.Login(alice, alicePass).Wait(); err != nil {
				t.Fatalf("login: %v", err)
			}
			if _, err := c.Select("INBOX", nil).Wait(); err != nil {
				t.Fatalf("select: %v", err)
			}
			if tc.before != nil {
				tc.before(t, s)
			}
			idle, err := c.Idle()
			if err != nil {
				t.Fatalf("IDLE: %v", err)
			}
			if tc.during != nil {
				tc.during(t, s)
			}

			timeout := time.After(patience)
			for got := uint32(0); got != tc.want; {
				select {
				case got = <-counts:
					if got > tc.want {
						t.Fatalf("told of %d messages, want %d", got, tc.want)
					}
				case <-timeout:
					t.Fatalf("the idling client was told of %d messages, want %d", got, tc.want)
				}
			}

			if err := idle.Close(); err != nil {
				t.Fatalf("ending IDLE: %v", err)
			}
			if err := idle.Wait(); err != nil {
				t.Fatalf("IDLE ended with: %v", err)
			}
		})
	}
}

// With no mailbox selected there is nothing to watch, but IDLE must still
// last until DONE and then end cleanly.
func TestIdleWithoutMailbox(t *testing.T) {
	s := start(t, nil)
	c := login(t, s, alice, alicePass)
	idle, err := c.Idle()
	if err != nil {
		t.Fatalf("IDLE: %v", err)
	}
	if err := idle.Close(); err != nil {
		t.Fatalf("ending IDLE: %v", err)
	}
	if err := idle.Wait(); err != nil {
		t.Fatalf("IDLE ended with: %v", err)
	}
	if err := c.Noop().Wait(); err != nil {
		t.Fatalf("NOOP after IDLE: %v", err)
	}
}

func TestMoveToProcessed(t *testing.T) {
	s := start(t, nil)
	msg := message("Orders", "advance\r\n")
	if err := send(t, s, nil, referee, []string{alice}, msg); err != nil {
		t.Fatalf("sending: %v", err)
	}
	c := login(t, s, alice, alicePass)
	inbox := messages(t, c, "INBOX")
	if len(inbox) != 1 {
		t.Fatalf("INBOX holds %d messages, want 1", len(inbox))
	}
	if _, err := c.Move(imap.UIDSetNum(inbox[0].uid), "processed").Wait(); err != nil {
		t.Fatalf("MOVE: %v", err)
	}
	if got := messages(t, c, "INBOX"); len(got) != 0 {
		t.Errorf("INBOX still holds %d messages after MOVE", len(got))
	}
	moved := messages(t, c, "processed")
	if len(moved) != 1 || !bytes.Equal(moved[0].body, []byte(msg)) {
		t.Fatalf("processed holds %d messages, want the moved one", len(moved))
	}
}

func TestIMAPLogin(t *testing.T) {
	tests := []struct {
		name, user, pass string
		ok               bool
	}{
		{name: "right password", user: alice, pass: alicePass, ok: true},
		{name: "address case ignored", user: "ALICE@example.test", pass: alicePass, ok: true},
		{name: "wrong password", user: alice, pass: "wrong", ok: false},
		{name: "another user's password", user: alice, pass: bobPass, ok: false},
		{name: "password case matters", user: alice, pass: strings.ToUpper(alicePass), ok: false},
		{name: "unknown user", user: "mallory@example.test", pass: alicePass, ok: false},
	}
	s := start(t, nil)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := dialIMAP(t, s, nil)
			err := c.Login(tc.user, tc.pass).Wait()
			if tc.ok {
				if err != nil {
					t.Fatalf("login: %v", err)
				}
				return
			}
			var ie *imap.Error
			if !errors.As(err, &ie) || ie.Type != imap.StatusResponseTypeNo {
				t.Fatalf("login: %v, want a NO", err)
			}
			if ie.Code != imap.ResponseCodeAuthenticationFailed {
				t.Errorf("login refused with code %q, want %q", ie.Code, imap.ResponseCodeAuthenticationFailed)
			}
		})
	}
}

func TestDeliver(t *testing.T) {
	s := start(t, nil)
	msg := []byte(message("Direct", "no SMTP involved\r\n"))
	if err := s.Deliver("Bob@Example.test", msg); err != nil {
		t.Fatalf("Deliver: %v", err)
	}
	msg[0] = 'X' // the stored copy must not share the caller's slice
	got := messages(t, login(t, s, bob, bobPass), "INBOX")
	if len(got) != 1 || !bytes.Equal(got[0].body, []byte(message("Direct", "no SMTP involved\r\n"))) {
		t.Fatalf("INBOX holds %v, want the delivered message", got)
	}
	if err := s.Deliver("mallory@example.test", msg); err == nil {
		t.Error("Deliver to an unknown user succeeded")
	}
}

// serverGoroutines lists the stacks of goroutines running server code; the
// clients' goroutines live in imapclient and go-smtp's Client and are not
// counted.
func serverGoroutines() []string {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	var out []string
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "go-imap/v2/imapserver") ||
			strings.Contains(g, "emersion/go-smtp.(*Server)") ||
			strings.Contains(g, "emersion/go-smtp.(*Conn)") ||
			strings.Contains(g, "titm/mail/embedded.") {
			out = append(out, g)
		}
	}
	return out
}

func TestClose(t *testing.T) {
	sink := &logSink{out: t.Output()}
	s, err := embedded.Start(&embedded.Options{
		IMAPAddr: "127.0.0.1:0",
		SMTPAddr: "127.0.0.1:0",
		Users:    map[string]string{alice: alicePass},
		Logger:   slog.New(slog.NewTextHandler(sink, nil)),
	})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	imapAddr, smtpAddr := s.IMAPAddr(), s.SMTPAddr()

	// Leave clients in the middle of things: one idling, one halfway
	// through an SMTP transaction, one connected but silent.
	c, err := imapclient.DialInsecure(imapAddr, nil)
	if err != nil {
		t.Fatalf("dialing IMAP: %v", err)
	}
	defer c.Close()
	if err := c.Login(alice, alicePass).Wait(); err != nil {
		t.Fatalf("login: %v", err)
	}
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatalf("select: %v", err)
	}
	idle, err := c.Idle()
	if err != nil {
		t.Fatalf("IDLE: %v", err)
	}
	sc, err := smtp.Dial(smtpAddr)
	if err != nil {
		t.Fatalf("dialing SMTP: %v", err)
	}
	defer sc.Close()
	if err := sc.Mail(referee, nil); err != nil {
		t.Fatalf("MAIL: %v", err)
	}
	if err := sc.Rcpt(alice, nil); err != nil {
		t.Fatalf("RCPT: %v", err)
	}
	silent, err := net.Dial("tcp", imapAddr)
	if err != nil {
		t.Fatalf("dialing IMAP: %v", err)
	}
	defer silent.Close()

	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}

	for _, addr := range []string{imapAddr, smtpAddr} {
		if conn, err := net.DialTimeout("tcp", addr, patience); err == nil {
			conn.Close()
			t.Errorf("dialing %s after Close succeeded", addr)
		}
	}
	if err := s.Deliver(alice, []byte(message("late", "x\r\n"))); err == nil {
		t.Error("Deliver after Close succeeded")
	}

	select {
	case <-c.Closed():
	case <-time.After(patience):
		t.Error("the IMAP client was not disconnected by Close")
	}
	_ = idle.Wait() // fails, the connection being gone

	// A goroutine that has finished its work may take a moment to vanish
	// from the list, hence the deadline rather than a single look.
	var left []string
	if !waitfor.Within(patience, func() bool { runtime.Gosched(); left = serverGoroutines(); return len(left) == 0 }) {
		t.Fatalf("%d server goroutines outlived Close:\n%s", len(left), strings.Join(left, "\n\n"))
	}
	if strings.Contains(sink.String(), alicePass) {
		t.Errorf("the log contains a password:\n%s", sink.String())
	}
}

// Close right after Start must not trip over a Serve that has not got
// going yet.
func TestCloseRightAfterStart(t *testing.T) {
	for range 20 {
		s, err := embedded.Start(&embedded.Options{
			IMAPAddr: "127.0.0.1:0",
			SMTPAddr: "127.0.0.1:0",
			Users:    map[string]string{alice: alicePass},
			Logger:   slog.New(slog.NewTextHandler(io.Discard, nil)),
		})
		if err != nil {
			t.Fatalf("Start: %v", err)
		}
		if err := s.Close(); err != nil {
			t.Fatalf("Close: %v", err)
		}
	}
}

// Close waits for a Fault call in progress instead of abandoning it, and
// returns once it ends.
func TestCloseDuringFault(t *testing.T) {
	entered := make(chan struct{})
	release := make(chan struct{})
	s, err := embedded.Start(&embedded.Options{
		IMAPAddr: "127.0.0.1:0",
		SMTPAddr: "127.0.0.1:0",
		Users:    map[string]string{alice: alicePass},
		Logger:   slog.New(slog.NewTextHandler(t.Output(), nil)),
		Fault: func(string, []string) error {
			close(entered)
			<-release
			return nil
		},
	})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	sent := make(chan error, 1)
	go func() {
		c, err := smtp.Dial(s.SMTPAddr())
		if err != nil {
			sent <- err
			return
		}
		defer c.Close()
		sent <- c.SendMail(referee, []string{alice}, strings.NewReader(message("slow", "x\r\n")))
	}()
	select {
	case <-entered:
	case err := <-sent:
		t.Fatalf("the message went through without calling Fault: %v", err)
	case <-time.After(patience):
		t.Fatal("Fault was not called")
	}

	closed := make(chan error, 1)
	go func() { closed <- s.Close() }()
	close(release)
	select {
	case err := <-closed:
		if err != nil {
			t.Errorf("Close: %v", err)
		}
	case <-time.After(patience):
		t.Fatal("Close did not return after Fault ended")
	}
	select {
	case <-sent:
	case <-time.After(patience):
		t.Fatal("the SMTP client was left hanging")
	}
}

func TestStartErrors(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("listening: %v", err)
	}
	defer busy.Close()
	busyAddr := busy.Addr().String()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))

	tests := []struct {
		name string
		opt  *embedded.Options
		want string // in the error
	}{
		{name: "nil options", opt: nil, want: "options"},
		{name: "IMAP address in use", opt: &embedded.Options{IMAPAddr: busyAddr, SMTPAddr: "127.0.0.1:0", Users: map[string]string{alice: "p"}}, want: "IMAP on " + busyAddr},
		{name: "SMTP address in use", opt: &embedded.Options{IMAPAddr: "127.0.0.1:0", SMTPAddr: busyAddr, Users: map[string]string{alice: "p"}}, want: "SMTP on " + busyAddr},
		{name: "no users", opt: &embedded.Options{IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0"}, want: "no users"},
		{name: "empty password", opt: &embedded.Options{IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0", Users: map[string]string{alice: ""}}, want: "no password"},
		{name: "same user twice", opt: &embedded.Options{IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0", Users: map[string]string{alice: "p", strings.ToUpper(alice): "q"}}, want: "twice"},
		{name: "empty folder", opt: &embedded.Options{IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0", Users: map[string]string{alice: "p"}, Folders: []string{""}}, want: "folder"},
		{name: "no IMAP address", opt: &embedded.Options{SMTPAddr: "127.0.0.1:0", Users: map[string]string{alice: "p"}}, want: "IMAP"},
		{name: "negative size limit", opt: &embedded.Options{IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0", Users: map[string]string{alice: "p"}, MaxMessageBytes: -1}, want: "size"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.opt != nil {
				tc.opt.Logger = quiet
			}
			s, err := embedded.Start(tc.opt)
			if err == nil {
				s.Close()
				t.Fatalf("Start succeeded, want an error mentioning %q", tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Start: %v, want it to mention %q", err, tc.want)
			}
		})
	}
}

// The IMAP listener of a failed Start must not stay open: starting again on
// the same address has to work.
func TestStartFailureReleasesIMAPAddress(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("listening: %v", err)
	}
	defer busy.Close()
	probe, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("listening: %v", err)
	}
	imapAddr := probe.Addr().String()
	probe.Close()

	opt := &embedded.Options{
		IMAPAddr: imapAddr,
		SMTPAddr: busy.Addr().String(),
		Users:    map[string]string{alice: alicePass},
		Logger:   slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
	if _, err := embedded.Start(opt); err == nil {
		t.Fatal("Start succeeded on a busy SMTP address")
	}
	opt.SMTPAddr = "127.0.0.1:0"
	s, err := embedded.Start(opt)
	if err != nil {
		t.Fatalf("Start after a failed Start: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
}

// A client that goes away in the middle of a large FETCH can leave the IMAP
// library's writer locked for that connection; Close still returns, so a
// daemon stopped at that moment stops.
func TestCloseAfterAbandonedFetch(t *testing.T) {
	s := start(t, nil)
	big := message("Map", strings.Repeat("0123456789abcdef", 1<<20)+"\r\n") // 16 MB
	if err := s.Deliver(alice, []byte(big)); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		conn, err := net.Dial("tcp", s.IMAPAddr())
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(conn, "a LOGIN %s %s\r\nb SELECT INBOX\r\nc FETCH 1 BODY[]\r\n", alice, alicePass)
		buf := make([]byte, 4096)
		for n := 0; n < 64<<10; {
			k, err := conn.Read(buf)
			if err != nil {
				break
			}
			n += k
		}
		conn.(*net.TCPConn).SetLinger(0) // a reset, not a polite close
		conn.Close()
	}
	done := make(chan error, 1)
	go func() { done <- s.Close() }()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("Close did not return after clients abandoned their FETCH")
	}
}

// readCounter counts the reads of the connections it accepts.
type readCounter struct {
	net.Listener
	reads atomic.Int64
}

func (l *readCounter) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &countedConn{Conn: c, reads: &l.reads}, nil
}

type countedConn struct {
	net.Conn
	reads *atomic.Int64
}

func (c *countedConn) Read(p []byte) (int, error) {
	c.reads.Add(1)
	return c.Conn.Read(p)
}

// The SMTP server reads a mail of 1 MB, written in one piece, in far fewer
// reads of the socket than the 256 or more of go-smtp's own buffer of 4
// KB, and the mail arrives whole.
func TestSMTPReadsGathered(t *testing.T) {
	// Not parallel: the hook is the package's.
	counter := &readCounter{}
	embedded.SetListenHook(func(ln net.Listener) net.Listener { counter.Listener = ln; return counter })
	s := start(t, nil)
	embedded.SetListenHook(nil)
	var body strings.Builder
	for body.Len() < 1<<20 {
		fmt.Fprintf(&body, "line %07d of a long mail, as a picture in base64 would be\r\n", body.Len())
	}
	msg := message("Big", body.String())
	c, err := textproto.Dial("tcp", s.SMTPAddr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	step := func(code int, cmd string) {
		t.Helper()
		if cmd != "" {
			if err := c.PrintfLine("%s", cmd); err != nil {
				t.Fatal(err)
			}
		}
		if _, _, err := c.ReadResponse(code); err != nil {
			t.Fatalf("%q: %v", cmd, err)
		}
	}
	step(220, "")
	step(250, "EHLO client.test")
	step(250, "MAIL FROM:<"+referee+">")
	step(250, "RCPT TO:<"+alice+">")
	step(354, "DATA")
	before := counter.reads.Load()
	// The whole mail in one write; it holds no line that begins with a
	// dot.
	if _, err := io.WriteString(c.W, msg+".\r\n"); err != nil {
		t.Fatal(err)
	}
	c.W.Flush()
	step(250, "")
	step(221, "QUIT")
	if n := counter.reads.Load() - before; n >= 100 {
		t.Errorf("1 MB read in %d reads of the socket, want under 100", n)
	} else {
		t.Logf("1 MB read in %d reads of the socket", n)
	}
	got := messages(t, login(t, s, alice, alicePass), "INBOX")
	if len(got) != 1 || !bytes.Equal(got[0].body, []byte(msg)) {
		t.Errorf("alice's INBOX holds %d messages, want the mail of 1 MB whole", len(got))
	}
}
