package mail_test

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	gomail "github.com/emersion/go-message/mail"
	"github.com/emersion/go-smtp"

	acts "titm/adjudicator/referee"
	"titm/internal/waitfor"
	"titm/mail"
	"titm/store"
)

// dsn is a delivery status notification shaped as a real MTA's (Postfix):
// a multipart/report with a notice, the delivery status of rcpt (Action:
// failed) and, unless returned is empty, the mail returned, as a part of
// the given type: text/rfc822-headers (its header) or message/rfc822 (the
// whole mail).
func dsn(rcpt, returnedType string, returned []byte) []byte {
	const boundary = "3F1A82C0123.1797053400/mx.test.example"
	n := dsnCount.Add(1) // each report is a mail of its own
	var b bytes.Buffer
	fmt.Fprintf(&b, "Return-Path: <>\r\nDate: Wed, 16 Dec 2026 05:31:02 +0000 (UTC)\r\n"+
		"From: MAILER-DAEMON@mx.test.example (Mail Delivery System)\r\nSubject: Undelivered Mail Returned to Sender\r\n"+
		"To: %s\r\nAuto-Submitted: auto-replied\r\nMIME-Version: 1.0\r\n"+
		"Content-Type: multipart/report; report-type=delivery-status;\r\n\tboundary=%q\r\n"+
		"Content-Transfer-Encoding: 8bit\r\nMessage-Id: <20261216053102.3F1A82C%04d@mx.test.example>\r\n\r\n"+
		"This is a MIME-encapsulated message.\r\n\r\n", referee, boundary, n)
	fmt.Fprintf(&b, "--%s\r\nContent-Description: Notification\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"+
		"This is the mail system at host mx.test.example.\r\n\r\nI'm sorry to have to inform you that your message could not\r\n"+
		"be delivered to one or more recipients.\r\n\r\n<%s>: host mx.allied.example[192.0.2.1] said: 550 5.1.1\r\n    User unknown\r\n\r\n", boundary, rcpt)
	fmt.Fprintf(&b, "--%s\r\nContent-Description: Delivery report\r\nContent-Type: message/delivery-status\r\n\r\n"+
		"Reporting-MTA: dns; mx.test.example\r\nX-Postfix-Queue-ID: 3F1A82C0123\r\nX-Postfix-Sender: rfc822; %s\r\n"+
		"Arrival-Date: Wed, 16 Dec 2026 05:31:00 +0000 (UTC)\r\n\r\n"+
		"Final-Recipient: rfc822; %s\r\nOriginal-Recipient: rfc822;%s\r\nAction: failed\r\nStatus: 5.1.1\r\n"+
		"Remote-MTA: dns; mx.allied.example\r\nDiagnostic-Code: smtp; 550 5.1.1 <%s>: Recipient address\r\n    rejected: User unknown\r\n\r\n",
		boundary, referee, rcpt, rcpt, rcpt)
	if len(returned) > 0 {
		desc := "Undelivered Message Headers"
		if returnedType == "message/rfc822" {
			desc = "Undelivered Message"
		}
		fmt.Fprintf(&b, "--%s\r\nContent-Description: %s\r\nContent-Type: %s\r\nContent-Transfer-Encoding: 8bit\r\n\r\n"+
			"Return-Path: <%s>\r\nReceived: by mx.test.example (Postfix) id 3F1A82C0123; Wed, 16 Dec 2026 05:31:00 +0000 (UTC)\r\n",
			boundary, desc, returnedType, referee)
		b.Write(returned)
		b.WriteString("\r\n")
	}
	fmt.Fprintf(&b, "--%s--\r\n", boundary)
	return b.Bytes()
}

var dsnCount atomic.Int32

// headerOf is the header of a raw mail, as text/rfc822-headers returns it.
func headerOf(raw []byte) []byte {
	if i := bytes.Index(raw, []byte("\r\n\r\n")); i >= 0 {
		return raw[:i+2]
	}
	return raw
}

// mailTo returns the last mail of a kind queued to an address, and the
// message as it is sent, with a text of its own (a report with its map
// is composed only when it is sent).
func (w *world) mailTo(addr, kind string) (*store.Mail, []byte) {
	w.t.Helper()
	var m *store.Mail
	w.st.View(func(tx *store.Tx) error {
		all, err := tx.Outbox("")
		for _, x := range all {
			if x.To[0] == addr && x.Kind == kind {
				m = x
			}
		}
		return err
	})
	if m == nil {
		w.t.Fatalf("no %s mail to %s", kind, addr)
	}
	raw, _, err := mail.ComposeAs(gomail.Address{Address: m.From}, &mail.Outgoing{To: m.To, Subject: m.Subject, Text: "the report\n"}, m.Created, m.MessageID)
	if err != nil {
		w.t.Fatal(err)
	}
	return m, raw
}

// setStatus sets a mail's status, as the sender does once it is sent.
func (w *world) setStatus(id uint64, status string) {
	w.t.Helper()
	err := w.st.Update(func(tx *store.Tx) error {
		all, err := tx.Outbox("")
		for _, m := range all {
			if m.ID == id {
				m.Status = status
				return tx.PutMail(m)
			}
		}
		return err
	})
	if err != nil {
		w.t.Fatal(err)
	}
}

func (w *world) status(id uint64) string {
	w.t.Helper()
	var s string
	w.st.View(func(tx *store.Tx) error {
		all, err := tx.Outbox("")
		for _, m := range all {
			if m.ID == id {
				s = m.Status
			}
		}
		return err
	})
	return s
}

// A bounce counts only when it returns the header of a mail the referee
// sent to the recipient it reports failed; a forged one changes nothing,
// and a mail still queued never bounces.
func TestBounceAuthentic(t *testing.T) {
	t.Parallel()
	w := newWorld(t, &worldOptions{noStart: true})
	h := mail.NewHandler(w.cfg, quiet())
	now := time.Now()
	w.joinDirect(h, now) // the welcomes and the start, sent
	raw, _ := message(german, "orders", fmt.Sprintf("GAME %s\nTOKEN %s\nIMPULSE 16-1\nENTRENCH 212/423\n", w.game, w.tokens[german]))
	w.handle(h, 1, raw, now)
	report, data := w.mailTo(allied, acts.KindReport) // the Allied player's report of G16-1
	gReport, _ := w.mailTo(german, acts.KindReport)
	welcome, _ := w.mailTo(allied, acts.KindWelcome)
	if report.Status != store.MailQueued || welcome.Status != store.MailSent {
		t.Fatalf("the report is %s, the welcome %s", report.Status, welcome.Status)
	}
	cases := []struct {
		name     string
		raw      []byte
		sent     bool   // the report is sent before the bounce comes
		want     string // the report's status after it
		outcome  string
		mailGone uint64 // a mail whose status must not change either
	}{
		{"a forged report that returns nothing, the report queued",
			dsn(allied, "", nil), false, store.MailQueued, "ignored: a delivery report", gReport.ID},
		{"a forged report that returns nothing, the report sent",
			dsn(allied, "", nil), true, store.MailSent, "ignored: a delivery report", welcome.ID},
		{"a forged report that returns a guessed Message-ID",
			dsn(allied, "text/rfc822-headers", []byte("From: "+referee+"\r\nTo: "+allied+"\r\nMessage-ID: <1@test.example>\r\n")), true, store.MailSent, "ignored: a delivery report", welcome.ID},
		{"the report's header, returned for another recipient",
			dsn(german, "text/rfc822-headers", headerOf(data)), true, store.MailSent, "ignored: a delivery report", gReport.ID},
		{"a real report of the mail while it is still queued",
			dsn(allied, "text/rfc822-headers", headerOf(data)), false, store.MailQueued, "ignored: a delivery report", 0},
		{"a real report with the mail's header (text/rfc822-headers)",
			dsn(allied, "text/rfc822-headers", headerOf(data)), true, store.MailFailed, fmt.Sprintf("bounce: mail %d to %s failed", report.ID, allied), 0},
		{"a real report with the whole mail (message/rfc822)",
			dsn(allied, "message/rfc822", data), true, store.MailFailed, fmt.Sprintf("bounce: mail %d to %s failed", report.ID, allied), 0},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w.t = t
			status := store.MailQueued
			if c.sent {
				status = store.MailSent
			}
			w.setStatus(report.ID, status)
			var other string
			if c.mailGone != 0 {
				other = w.status(c.mailGone)
			}
			out := w.handle(h, uint32(200+i), c.raw, now)
			if !strings.HasPrefix(out, c.outcome) {
				t.Errorf("outcome %q, want %q", out, c.outcome)
			}
			if got := w.status(report.ID); got != c.want {
				t.Errorf("the report is %s after the bounce, want %s", got, c.want)
			}
			if c.mailGone != 0 && w.status(c.mailGone) != other {
				t.Errorf("mail %d went from %s to %s", c.mailGone, other, w.status(c.mailGone))
			}
		})
	}
}

// A forged delivery report that comes with the orders, while the
// opponent's report is waiting for the SMTP server, does not kill that
// report: it is sent, with its map, once the server takes mail again.
func TestForgedBounceWhileQueued(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	refuse := false
	w := newWorld(t, &worldOptions{extra: "map_picture = true", fault: func(from string, to []string) error {
		mu.Lock()
		defer mu.Unlock()
		if refuse && to[0] == allied {
			return &smtp.SMTPError{Code: 451, Message: "try again later"}
		}
		return nil
	}})
	w.join()
	mu.Lock()
	refuse = true
	mu.Unlock()
	nA := len(w.inbox(allied))
	w.send(german, "orders", fmt.Sprintf("GAME %s\nTOKEN %s\nIMPULSE 16-1\nENTRENCH 212/423\n", w.game, w.tokens[german]))
	waitfor.Until(t, 15*time.Second, func() bool {
		var tried bool
		w.st.View(func(tx *store.Tx) error {
			q, err := tx.Outbox(store.MailQueued)
			for _, m := range q {
				tried = tried || m.To[0] == allied && m.Kind == acts.KindReport && m.Attempts > 0
			}
			return err
		})
		return tried
	}, "the Allied report to be refused")
	// The report waits for its retry: a forged report of its failure
	// comes.
	w.srv.Deliver(referee, dsn(allied, "", nil))
	waitfor.Until(t, 15*time.Second, func() bool {
		return w.folderSize(referee, "processed") >= 4 // two JOINs, the orders, the forged report
	}, "the forged report to be handled")
	mu.Lock()
	refuse = false
	mu.Unlock()
	got := w.waitMail(allied, nA+1)
	if r := got[nA]; !strings.Contains(r.Text, "Impulse G16-1") || len(r.Attachments) != 1 {
		t.Errorf("the Allied report after the forged bounce: attachments %q\n%s", r.Attachments, r.Text)
	}
	// The server has the mail before the sender records it sent.
	w.settle()
	w.st.View(func(tx *store.Tx) error {
		failed, _ := tx.Outbox(store.MailFailed)
		for _, m := range failed {
			t.Errorf("mail %d to %s failed: %s", m.ID, m.To, m.Error)
		}
		return nil
	})
	if m, _ := w.mailTo(allied, acts.KindReport); m.Status != store.MailSent || m.Attempts < 2 {
		t.Errorf("the Allied report is %s after %d attempts, want sent after a refusal", m.Status, m.Attempts)
	}
}

// messageWithID is a mail with a Message-ID of the sender's choosing.
func messageWithID(from, subject, text, id string) []byte {
	raw, old := message(from, subject, text)
	return bytes.Replace(raw, []byte("<"+old+">"), []byte("<"+id+">"), 1)
}

// logged is a logger whose lines a test reads.
type logged struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logged) Write(p []byte) (int, error) { l.mu.Lock(); defer l.mu.Unlock(); return l.b.Write(p) }

func (l *logged) String() string { l.mu.Lock(); defer l.mu.Unlock(); return l.b.String() }

func (l *logged) logger() *slog.Logger { return slog.New(slog.NewTextHandler(io.MultiWriter(l), nil)) }

// A Message-ID is the sender's to choose: a mail that borrows the one of a
// mail processed before is not taken for it. Only the same mail (sender,
// key headers and text) is a duplicate, and a duplicate skipped is logged.
func TestMessageIDSquat(t *testing.T) {
	t.Parallel()
	w := newWorld(t, &worldOptions{noStart: true})
	var log logged
	h := mail.NewHandler(w.cfg, log.logger())
	now := time.Now()
	w.joinDirect(h, now)
	const squat = "squat-1@test.example"
	orders := fmt.Sprintf("GAME %s\nTOKEN %s\nIMPULSE 16-1\nENTRENCH 212/423\n", w.game, w.tokens[german])
	steps := []struct {
		name    string
		raw     []byte
		outcome string
		mails   int // to the German player
	}{
		{"an unknown sender takes a Message-ID", messageWithID(stranger, "hello", "nothing", squat), "ignored: unregistered sender", 0},
		{"the player's orders with the same Message-ID", messageWithID(german, "orders", orders, squat), "played G16-1", 1},
	}
	for i, s := range steps {
		out := w.handle(h, uint32(10+i), s.raw, now)
		if out != s.outcome {
			t.Errorf("%s: outcome %q, want %q", s.name, out, s.outcome)
		}
		if got := w.queued(german); len(got) != s.mails {
			t.Errorf("%s: %d mails to the German player, want %d", s.name, len(got), s.mails)
		}
	}
	if g := w.gameNow(); g.Next.String() != "A16-1" {
		t.Errorf("the game is at %s, want A16-1 after the German orders", g.Next)
	}
	// The same mail delivered again, under another UID: skipped, and
	// logged.
	if out := w.handle(h, 20, steps[1].raw, now); !strings.HasPrefix(out, "already processed: played G16-1") {
		t.Errorf("the orders delivered again: %q", out)
	}
	if !regexp.MustCompile(`msg="mail skipped: processed before" uid=20 from=` + german + ` message_id=` + squat).MatchString(log.String()) {
		t.Errorf("the duplicate skipped is not logged:\n%s", log.String())
	}
	if n := impulses(w.log()); n != 1 {
		t.Errorf("%d impulses played", n)
	}
}

// A mail over max_message_bytes: only its header is read; a registered
// sender is told, once, however often it is delivered.
func TestOversizeDeliveredTwice(t *testing.T) {
	t.Parallel()
	w := newWorld(t, nil)
	w.waitMail(german, 1) // the welcome
	big, _ := message(german, "big", strings.Repeat("orders and more orders\n", 2000))
	w.srv.Deliver(referee, big)
	w.srv.Deliver(referee, big)
	w.settle()
	got := w.inbox(german)
	var answers int
	for _, m := range got[1:] {
		if strings.Contains(m.Text, "is over the referee's limit of 20000 bytes") {
			answers++
		}
	}
	if answers != 1 || len(got) != 2 {
		t.Errorf("%d answers among %d mails to a mail over the limit delivered twice, want 1", answers, len(got)-1)
	}
	// The handler reads the header alone, as the inbox fetches it.
	h := mail.NewHandler(w.cfg, quiet())
	head := headerOf(big)
	var out string
	w.st.Update(func(tx *store.Tx) error {
		var err error
		out, err = h.Handle(tx, mail.MessageKey{Mailbox: "INBOX", UIDValidity: 9, UID: 9}, head, int64(len(big)), time.Now())
		return err
	})
	if !strings.HasPrefix(out, "already processed: refused: ") {
		t.Errorf("the header alone of the mail handled: %q", out)
	}
}

// The referee's Message-IDs carry at least 128 random bits, on its own
// domain: a bounce counts only when it quotes one, so none may be guessed.
func TestMessageIDsUnguessable(t *testing.T) {
	seen := map[string]bool{}
	for range 100 {
		_, id, err := mail.Compose(gomail.Address{Address: referee}, &mail.Outgoing{To: []string{allied}, Subject: "s", Text: "t"}, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		local, domain, _ := strings.Cut(id, "@")
		bits := 0
		switch {
		case regexp.MustCompile(`^[0-9a-f]+$`).MatchString(local):
			bits = 4 * len(local)
		case regexp.MustCompile(`^[a-z2-7]+$`).MatchString(local):
			bits = 5 * len(local)
		}
		if bits < 128 || domain != "test.example" || seen[id] {
			t.Fatalf("Message-ID %q: %d random bits, on %s, seen before %v", id, bits, domain, seen[id])
		}
		seen[id] = true
	}
}

// Answers are bounded: at most 30 errors are listed, then how many more;
// no answer's text is over 64 KB; and a mail the referee cannot read is
// told what is wrong with it in a player's words, not in its parser's.
func TestBoundedReplies(t *testing.T) {
	t.Parallel()
	w := newWorld(t, &worldOptions{noStart: true})
	w.cfg.Referee.MaxMessageBytes = 2 << 20
	h := mail.NewHandler(w.cfg, quiet())
	now := time.Now()
	w.joinDirect(h, now)
	head := fmt.Sprintf("GAME %s\nTOKEN %s\nIMPULSE 16-1\n", w.game, w.tokens[german])
	raw := func(text string) []byte { r, _ := message(german, "orders", text); return r }
	cut := []byte("From: " + german + "\r\nTo: " + referee + "\r\nSubject: cut\r\nMessage-ID: <cut@test.example>\r\n" +
		"Content-Type: multipart/mixed; boundary=\"b\"\r\n\r\n--b\r\nContent-Type: image/png\r\n\r\niVBORw0KGgo=\r\n")
	base64 := []byte("From: " + german + "\r\nTo: " + referee + "\r\nSubject: b64\r\nMessage-ID: <b64@test.example>\r\n" +
		"Content-Type: text/plain\r\nContent-Transfer-Encoding: base64\r\n\r\n!!!! not base64 ****\r\n")
	cases := []struct {
		name  string
		raw   []byte
		want  []string
		never []string
	}{
		{"10,000 bad lines", raw(head + strings.Repeat("MOVE nobody 1 2\n", 10000)),
			[]string{"Your orders have 10000 error(s)", "line 33: MOVE nobody 1 2", "and 9970 more errors", "Nothing in your mail was applied"},
			[]string{"line 34: "}},
		{"one bad line of 300 KB", raw(head + "MOVE " + strings.Repeat("x", 300<<10) + " 1 2\n"),
			[]string{"Your orders have 1 error(s)", "line 4: MOVE xxx"}, nil},
		{"a subject of 100 KB", func() []byte {
			r, _ := message(german, strings.Repeat("s", 100<<10), head+"MOVE nobody 1 2\n")
			return r
		}(),
			[]string{"Re: [intro-1] sss", "line 4: MOVE nobody 1 2"}, []string{strings.Repeat("s", 1000)}},
		{"a multipart mail cut short", cut,
			[]string{"The referee could not read your mail: its parts are broken"}, []string{"multipart", "NextPart", "EOF"}},
		{"a text whose base64 is broken", base64,
			[]string{"The referee could not read your mail: its text is damaged"}, []string{"illegal", "input byte"}},
	}
	for i, c := range cases {
		w.handle(h, uint32(300+i), c.raw, now)
		got := w.queued(german)
		if len(got) != 1 {
			t.Errorf("%s: %d answers", c.name, len(got))
			continue
		}
		if len(got[0]) > 64<<10 {
			t.Errorf("%s: an answer of %d bytes", c.name, len(got[0]))
		}
		for _, s := range c.want {
			if !strings.Contains(got[0], s) {
				t.Errorf("%s: the answer lacks %q:\n%.2000s", c.name, s, got[0])
			}
		}
		for _, s := range c.never {
			if strings.Contains(got[0], s) {
				t.Errorf("%s: the answer holds %q:\n%.2000s", c.name, s, got[0])
			}
		}
	}
}
