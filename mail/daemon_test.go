package mail_test

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	"net"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	acts "titm/adjudicator/referee"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	gomail "github.com/emersion/go-message/mail"
	"github.com/emersion/go-smtp"

	"titm/adjudicator"
	"titm/internal/daemon"
	"titm/internal/waitfor"
	"titm/mail"
	"titm/mail/embedded"
	"titm/rules"
	"titm/store"
)

const (
	referee  = "referee@test.example"
	german   = "german@test.example"
	allied   = "allied@test.example"
	stranger = "stranger@test.example"
	observer = "observer@test.example"
)

// world is a daemon at work against the embedded servers, on loopback.
type world struct {
	t        testing.TB
	srv      *embedded.Servers
	cfg      *mail.Config
	st       *store.Store
	d        *mail.Daemon
	cancel   context.CancelFunc
	done     chan struct{}
	game     string
	tokens   map[string]string // by address
	db       string
	security string // the [imap] and [smtp] security settings
	// imap and smtp are where the players read and send when not on the
	// embedded servers (srv).
	imap, smtp string
	// logger, when set, is the daemon's logger (else quiet).
	logger *slog.Logger
}

// imapAddr is the IMAP server holding the players' mailboxes.
func (w *world) imapAddr() string {
	if w.imap != "" {
		return w.imap
	}
	return w.srv.IMAPAddr()
}

// smtpAddr is the SMTP server the players send through.
func (w *world) smtpAddr() string {
	if w.smtp != "" {
		return w.smtp
	}
	return w.srv.SMTPAddr()
}

type worldOptions struct {
	tls     bool // the servers offer STARTTLS, and the daemon uses it
	fault   func(from string, to []string) error
	noStart bool // the test starts the daemon itself
	extra   string
	// languages are the players' languages as the game is made with.
	languages map[rules.Side]string
	// users are more addresses with a mailbox on the servers.
	users []string
	// discard, when set, names the recipients whose mails the SMTP
	// server accepts and drops (embedded.Options.Discard).
	discard func(to string) bool
	// serverLog, when set, is the embedded servers' logger (else quiet).
	serverLog *slog.Logger
}

func newWorld(t testing.TB, o *worldOptions) *world {
	t.Helper()
	if o == nil {
		o = &worldOptions{}
	}
	var tc *tls.Config
	if o.tls {
		tc = selfSigned(t)
	}
	users := map[string]string{referee: "ref-pass", german: "g-pass", allied: "a-pass", stranger: "s-pass", observer: "o-pass"}
	for _, u := range o.users {
		users[u] = "pass"
	}
	serverLog := o.serverLog
	if serverLog == nil {
		serverLog = quiet()
	}
	srv, err := embedded.Start(&embedded.Options{IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0",
		Users:   users,
		Folders: []string{"processed"}, Fault: o.fault, Discard: o.discard, Logger: serverLog, TLSConfig: tc})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	w := &world{t: t, srv: srv, tokens: map[string]string{}, db: filepath.Join(t.TempDir(), "titm.db"), security: `security = "none"`}
	if o.tls {
		w.security = "security = \"starttls\"\ninsecure_skip_verify = true"
	}
	w.cfg = w.config(o.extra)
	w.st, err = store.Open(w.db, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.st.Close() })
	w.st.Update(func(tx *store.Tx) error {
		id, tokens, err := mail.NewGame(tx, gomail.Address{Address: referee}, nil, acts.NewGame{Scenario: "intro",
			German: german, Allied: allied, Observers: []string{observer}, Deadline: 48 * time.Hour, Languages: o.languages}, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		w.game = id
		w.tokens[german], w.tokens[allied] = tokens["german"], tokens["allied"]
		return nil
	})
	if !o.noStart {
		w.start()
	}
	return w
}

// config is the mail door's part of the daemon's configuration, with the
// world's servers and extra among the [referee] settings.
func (w *world) config(extra string) *mail.Config {
	cfg, err := daemon.ParseConfig("test", []byte(w.configText(extra)), func(string) string { return "" })
	if err != nil {
		w.t.Fatal(err)
	}
	return &cfg.Config
}

func (w *world) configText(extra string) string {
	return fmt.Sprintf(`[store]
path = %q
[referee]
address = %q
max_message_bytes = 20000
%s
[imap]
address = %q
%s
username = %q
password = "ref-pass"
poll_interval = "5s"
[smtp]
address = %q
%s
retry_min = "1s"
retry_max = "2s"
`, w.db, referee, extra, w.imapAddr(), w.security, referee, w.smtpAddr(), w.security)
}

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// start runs the daemon until the test ends; setup, when given, prepares
// it before it runs.
func (w *world) start(setup ...func(*mail.Daemon)) {
	ctx, cancel := context.WithCancel(context.Background())
	w.cancel, w.done = cancel, make(chan struct{})
	logger := w.logger
	if logger == nil {
		logger = quiet()
	}
	w.d = mail.NewDaemon(w.cfg, w.st, logger, time.Now)
	for _, f := range setup {
		f(w.d)
	}
	go func() { defer close(w.done); w.d.Run(ctx) }()
	w.t.Cleanup(w.stop)
}

func (w *world) stop() {
	if w.cancel != nil {
		w.cancel()
		<-w.done
		w.cancel = nil
	}
}

// send mails a text from an address to the referee, over SMTP.
func (w *world) send(from, subject, text string) string {
	w.t.Helper()
	raw, id := message(from, subject, text)
	c, err := smtp.Dial(w.smtpAddr())
	if err != nil {
		w.t.Fatal(err)
	}
	defer c.Close()
	if err := c.SendMail(from, []string{referee}, bytes.NewReader(raw)); err != nil {
		w.t.Fatal(err)
	}
	return id
}

func message(from, subject, text string) ([]byte, string) {
	var b bytes.Buffer
	var h gomail.Header
	h.SetAddressList("From", []*gomail.Address{{Address: from}})
	h.SetAddressList("To", []*gomail.Address{{Address: referee}})
	h.SetSubject(subject)
	h.SetDate(time.Now())
	h.GenerateMessageID()
	id, _ := h.MessageID()
	wr, _ := gomail.CreateSingleInlineWriter(&b, h)
	io.WriteString(wr, text)
	wr.Close()
	return b.Bytes(), id
}

// passwords are the test users' IMAP passwords, on every server.
var passwords = map[string]string{referee: "ref-pass", german: "g-pass", allied: "a-pass", stranger: "s-pass", observer: "o-pass"}

// inbox returns the mails in an address's INBOX. It is for a mailbox that
// only gains mail while it reads, as the players' do: where the daemon flags
// and moves mail, as in the referee's, a FETCH may be answered by the
// update of a message moved meanwhile (see settle), so count such a mailbox
// with folderSize.
func (w *world) inbox(addr string) []*mail.Incoming {
	w.t.Helper()
	var out []*mail.Incoming
	for _, body := range w.rawInbox(addr) {
		in, err := mail.ParseIncoming(body)
		if err != nil {
			w.t.Fatal(err)
		}
		out = append(out, in)
	}
	return out
}

// rawInbox returns the mails in an address's INBOX as they are, as inbox
// reads them.
func (w *world) rawInbox(addr string) [][]byte {
	w.t.Helper()
	pass, ok := passwords[addr]
	if !ok {
		pass = "pass" // one of worldOptions.users
	}
	c, err := imapclient.DialInsecure(w.imapAddr(), nil)
	if err != nil {
		w.t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login(addr, pass).Wait(); err != nil {
		w.t.Fatal(err)
	}
	sel, err := c.Select("INBOX", &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		w.t.Fatal(err)
	}
	if sel.NumMessages == 0 {
		return nil
	}
	section := &imap.FetchItemBodySection{Peek: true}
	var all imap.SeqSet
	all.AddRange(1, sel.NumMessages)
	msgs, err := c.Fetch(all, &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{section}}).Collect()
	if err != nil {
		w.t.Fatal(err)
	}
	var out [][]byte
	for _, m := range msgs {
		body := m.FindBodySection(section)
		if body == nil {
			w.t.Fatalf("%s: the FETCH of message %d was answered without its body (flags %v): the mailbox changed under the read", addr, m.SeqNum, m.Flags)
		}
		out = append(out, body)
	}
	return out
}

// waitMail waits until an address has n mails, and returns them.
func (w *world) waitMail(addr string, n int) []*mail.Incoming {
	w.t.Helper()
	var got []*mail.Incoming
	if !waitfor.Within(15*time.Second, func() bool { got = w.inbox(addr); return len(got) >= n }) {
		var subjects []string
		for _, m := range got {
			subjects = append(subjects, m.Subject)
		}
		w.t.Fatalf("%s has %d mails after 15 s, want %d: %q", addr, len(got), n, subjects)
	}
	return got
}

// settle waits until the referee's INBOX is empty (every mail handled and
// moved) and the outbox is sent.
//
// The INBOX is counted with STATUS, not read: the daemon flags a mail seen
// and then moves it, and a FETCH that comes between the two finds the mail
// gone while the server still owes the reader the flag update, which it
// sends as "* 1 FETCH (FLAGS (\Seen))" before completing the FETCH. The
// client takes that for the answer, and the mail read has no body.
func (w *world) settle() {
	w.t.Helper()
	w.settleWithin(15 * time.Second)
}

// settleWithin waits as settle does, as long as d.
func (w *world) settleWithin(d time.Duration) {
	w.t.Helper()
	waitfor.Until(w.t, d, func() bool {
		var queued int
		w.st.View(func(tx *store.Tx) error { q, _ := tx.Outbox(store.MailQueued); queued = len(q); return nil })
		return w.folderSize(referee, "INBOX") == 0 && queued == 0
	}, "the daemon to settle: the referee's INBOX empty and the outbox sent")
}

func (w *world) gameNow() *adjudicator.Game {
	w.t.Helper()
	var g *adjudicator.Game
	if err := w.st.View(func(tx *store.Tx) error {
		var err error
		g, err = tx.Game(w.game)
		return err
	}); err != nil {
		w.t.Fatal(err)
	}
	return g
}

// join has both players answer their welcome with JOIN.
func (w *world) join() {
	w.t.Helper()
	for _, p := range []string{german, allied} {
		welcome := w.waitMail(p, 1)[0]
		m := regexp.MustCompile(`(?m)^\s+TOKEN (\S+)`).FindStringSubmatch(welcome.Text)
		if m == nil || m[1] != w.tokens[p] {
			w.t.Fatalf("the welcome of %s holds no token:\n%s", p, welcome.Text)
		}
		w.send(p, "Re: "+welcome.Subject, fmt.Sprintf("GAME %s\nTOKEN %s\nJOIN SEED seed of %s\n", w.game, m[1], p))
	}
	w.waitMail(german, 3) // welcome, the start, the JOIN's answer
	w.settle()
}

// The daemon's main path: welcome mails with the tokens, JOIN, orders in,
// both players receive the impulse's report.
func TestOrdersToReports(t *testing.T) {
	t.Parallel()
	w := newWorld(t, &worldOptions{extra: "map_picture = true"})
	w.join()
	if g := w.gameNow(); g.Status != adjudicator.Playing {
		t.Fatalf("after both JOINs the game is %s", g.Status)
	}
	start := w.inbox(allied)
	if !containsMail(start, "begins: both players have joined", `German "seed of german@test.example"`) {
		t.Errorf("no start report with the players' seeds for the Allied player")
	}
	nG, nA := len(w.inbox(german)), len(w.inbox(allied))
	w.send(german, "my orders", fmt.Sprintf("GAME %s\nTOKEN %s\nIMPULSE 16-1\nENTRENCH 212/423\n", w.game, w.tokens[german]))
	gm := w.waitMail(german, nG+1)
	am := w.waitMail(allied, nA+1)
	for _, box := range [][]*mail.Incoming{gm, am} {
		r := box[len(box)-1]
		if !strings.Contains(r.Text, "game intro-1") || !strings.Contains(r.Text, "Impulse G16-1, the German impulse 1 of 16 December") || !strings.Contains(r.Text, "212/423 entrenches") || !strings.Contains(r.Text, "Log head: ") {
			t.Errorf("report:\n%s", r.Text)
		}
		if !strings.HasPrefix(r.Subject, "[intro-1] G16-1 played; A16-1 next, due by ") {
			t.Errorf("report subject %q", r.Subject)
		}
		if len(r.Attachments) != 1 || r.Attachments[0] != "intro-1-G16-1.png" {
			t.Errorf("the report's attachments: %q, want the map (referee.map_picture)", r.Attachments)
		}
		if !strings.Contains(r.Text, "Your standing orders on file:\n  BLOW ALL") {
			t.Errorf("the report does not echo the standing orders:\n%s", r.Text)
		}
	}
	w.settle()
	if g := w.gameNow(); g.Next.String() != "A16-1" {
		t.Errorf("after G16-1 the game is at %s", g.Next)
	}
	// The observer gets the reports too, without a player's standing
	// orders.
	if obs := w.inbox(observer); !containsMail(obs, "Impulse G16-1, the German impulse") || containsMail(obs, "Your standing orders") {
		t.Errorf("the observer's mails: %d", len(obs))
	}
	// The picture was drawn when the mails were sent, from a snapshot of
	// the position, which is gone once both are sent.
	w.st.View(func(tx *store.Tx) error {
		all, _ := tx.Outbox("")
		drawn := 0
		for _, m := range all {
			if m.Snapshot != "" {
				drawn++
				if tx.Snapshot(m.Snapshot) != nil {
					t.Errorf("mail %d is sent, and its snapshot %s is kept", m.ID, m.Snapshot)
				}
			}
		}
		if drawn != 6 {
			t.Errorf("%d mails carried a picture, want the 3 of the start and the 3 reports (2 players, 1 observer)", drawn)
		}
		return nil
	})
	for _, m := range w.inbox(german) {
		if strings.Contains(m.Text, w.tokens[german]) && !strings.Contains(m.Subject, "welcome") {
			t.Errorf("a mail other than the welcome shows the token: %q", m.Subject)
		}
	}
}

// Invalid orders: a reply lists every error with its line; nothing changes.
func TestInvalidOrders(t *testing.T) {
	t.Parallel()
	w := newWorld(t, nil)
	w.join()
	before := w.gameNow()
	n := len(w.inbox(german))
	sent := w.send(german, "orders", fmt.Sprintf("GAME %s\nTOKEN %s\nIMPULSE 16-1\nMOVE 212/42 10\nENTRENCH nosuch\n", w.game, w.tokens[german]))
	got := w.waitMail(german, n+1)
	r := got[len(got)-1]
	// The reply is threaded under the mail it answers, and names the game.
	if len(r.References) == 0 || r.References[len(r.References)-1] != sent || r.Subject != "Re: [intro-1] orders" {
		t.Errorf("the reply's thread: subject %q, references %q, want under %q", r.Subject, r.References, sent)
	}
	for _, want := range []string{"2 error(s)", "line 4: MOVE 212/42 10", "line 5: ENTRENCH nosuch", "Nothing in your mail was applied", "In play: the German impulse G16-1, due by ", "Your standing orders on file"} {
		if !strings.Contains(r.Text, want) {
			t.Errorf("the error reply lacks %q:\n%s", want, r.Text)
		}
	}
	w.settle()
	if after := w.gameNow(); after.Head != before.Head || adjudicator.StateHash(after.State) != adjudicator.StateHash(before.State) {
		t.Error("invalid orders changed the game")
	}
	// Orders out of turn are answered with whose impulse it is.
	n = len(w.inbox(allied))
	w.send(allied, "orders", fmt.Sprintf("GAME %s\nTOKEN %s\nIMPULSE 16-1\n", w.game, w.tokens[allied]))
	got = w.waitMail(allied, n+1)
	if r := got[len(got)-1]; !strings.Contains(r.Text, "it is the German impulse G16-1, due by") {
		t.Errorf("out of turn:\n%s", r.Text)
	}
}

// A mail delivered twice is applied and answered once.
func TestDuplicateDelivery(t *testing.T) {
	t.Parallel()
	w := newWorld(t, nil)
	w.join()
	n := len(w.inbox(german))
	raw, _ := message(german, "orders", fmt.Sprintf("GAME %s\nTOKEN %s\nIMPULSE 16-1\nENTRENCH 212/423\n", w.game, w.tokens[german]))
	w.srv.Deliver(referee, raw)
	w.srv.Deliver(referee, raw)
	w.waitMail(german, n+1)
	w.settle()
	if got := len(w.inbox(german)); got != n+1 {
		t.Errorf("the German player got %d mails for one message delivered twice, want 1", got-n)
	}
	log := w.log()
	impulses := 0
	for _, r := range log {
		if r.Kind == adjudicator.KindImpulse {
			impulses++
		}
	}
	if impulses != 1 {
		t.Errorf("%d impulses played from one message delivered twice", impulses)
	}
}

func (w *world) log() []adjudicator.Record {
	var log []adjudicator.Record
	w.st.View(func(tx *store.Tx) error { var err error; log, err = tx.Log(w.game); return err })
	return log
}

// Forged mails change nothing: an unregistered sender gets no reply at all
// (no backscatter); a registered address without the right token gets a
// warning, and nothing else.
func TestForgedMails(t *testing.T) {
	t.Parallel()
	w := newWorld(t, nil)
	w.join()
	before := w.gameNow()
	nG := len(w.inbox(german))
	w.send(stranger, "orders", fmt.Sprintf("GAME %s\nTOKEN %s\nIMPULSE 16-1\nENTRENCH 212/423\n", w.game, w.tokens[german]))
	w.send(german, "orders", fmt.Sprintf("GAME %s\nTOKEN %s\nIMPULSE 16-1\nENTRENCH 212/423\n", w.game, w.tokens[allied]))
	w.send(german, "orders", fmt.Sprintf("GAME %s\nIMPULSE 16-1\nENTRENCH 212/423\n", w.game))
	got := w.waitMail(german, nG+2)
	w.settle()
	for _, m := range got[nG:] {
		// A wrong token is a mail in his name; a missing one is told as
		// such, calmly.
		refused := strings.Contains(m.Subject, "a mail in your name was refused") || strings.Contains(m.Subject, "your mail had no TOKEN line")
		if !refused || strings.Contains(m.Text, "212/423") {
			t.Errorf("the answer to a forged mail: %q\n%s", m.Subject, m.Text)
		}
	}
	if n := len(w.inbox(stranger)); n != 0 {
		t.Errorf("the unregistered sender got %d mails", n)
	}
	if after := w.gameNow(); after.Head != before.Head {
		t.Error("a forged mail changed the game")
	}
}

// The outbox: a temporary refusal (451) is tried again and delivered once;
// a permanent one (550) is recorded as failed, and the game goes on.
func TestSMTPFaults(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	var mu sync.Mutex
	refuse := map[string]int{} // address -> code to answer
	w := newWorld(t, &worldOptions{fault: func(from string, to []string) error {
		calls.Add(1)
		mu.Lock()
		defer mu.Unlock()
		for _, a := range to {
			if code := refuse[a]; code != 0 {
				if code == 451 {
					delete(refuse, a) // once
				}
				return &smtp.SMTPError{Code: code, Message: "test refusal"}
			}
		}
		return nil
	}})
	w.join()
	mu.Lock()
	refuse[allied] = 451
	mu.Unlock()
	nA := len(w.inbox(allied))
	w.send(german, "orders", fmt.Sprintf("GAME %s\nTOKEN %s\nIMPULSE 16-1\n", w.game, w.tokens[german]))
	got := w.waitMail(allied, nA+1)
	w.settle()
	if len(w.inbox(allied)) != nA+1 || !strings.Contains(got[nA].Text, "Impulse G16-1") {
		t.Errorf("after a 451 the Allied report arrived %d times", len(w.inbox(allied))-nA)
	}
	var retried bool
	w.st.View(func(tx *store.Tx) error {
		all, _ := tx.Outbox("")
		for _, m := range all {
			retried = retried || m.Attempts == 2 && m.Status == store.MailSent
		}
		return nil
	})
	if !retried {
		t.Error("no mail was sent on its second attempt")
	}
	mu.Lock()
	refuse[allied] = 550
	mu.Unlock()
	nG := len(w.inbox(german))
	w.send(allied, "orders", fmt.Sprintf("GAME %s\nTOKEN %s\nIMPULSE 16-1\n", w.game, w.tokens[allied]))
	w.waitMail(german, nG+1)
	var failed []*store.Mail
	waitfor.Until(t, 10*time.Second, func() bool {
		w.st.View(func(tx *store.Tx) error { failed, _ = tx.Outbox(store.MailFailed); return nil })
		return len(failed) > 0
	}, "a 550 to be recorded as a failure")
	if !strings.Contains(failed[0].Error, "550") || failed[0].To[0] != allied {
		t.Errorf("failed mail %+v", failed[0])
	}
	if g := w.gameNow(); g.Next.String() != "G16-2" {
		t.Errorf("the game is at %s after the failed mail, want G16-2", g.Next)
	}
}

// Requests are answered to the sender only.
func TestRequests(t *testing.T) {
	t.Parallel()
	w := newWorld(t, nil)
	w.join()
	nG, nA := len(w.inbox(german)), len(w.inbox(allied))
	w.send(german, "questions", fmt.Sprintf("GAME %s\nTOKEN %s\nSTATUS\nDICE\nUNITS\n", w.game, w.tokens[german]))
	got := w.waitMail(german, nG+1)
	w.settle()
	r := got[len(got)-1]
	for _, want := range []string{"Impulse G16-1: the German player is to move", "commitment ", "Your units in game intro-1", "212/423"} {
		if !strings.Contains(r.Text, want) {
			t.Errorf("the answer lacks %q:\n%s", want, r.Text)
		}
	}
	if len(w.inbox(allied)) != nA {
		t.Error("the other player received the answer to a request")
	}
}

func containsMail(ms []*mail.Incoming, wants ...string) bool {
	for _, m := range ms {
		ok := true
		for _, w := range wants {
			ok = ok && strings.Contains(m.Text, w)
		}
		if ok {
			return true
		}
	}
	return false
}

// joinAll has both players of a game join, in the store.
func joinAll(tx *store.Tx, id string) error {
	g, err := tx.Game(id)
	if err != nil {
		return err
	}
	var recs []adjudicator.Record
	for _, side := range []rules.Side{rules.German, rules.Allied} {
		r, err := g.Join(side, "seed", time.Now())
		if err != nil {
			return err
		}
		recs = append(recs, r...)
	}
	return tx.SaveGame(g, recs)
}

// A mail whose handling meets a fault of the referee's own is recorded as
// failed, its sender told, and the daemon goes on: it would fail again at
// every start otherwise.
func TestInternalError(t *testing.T) {
	t.Parallel()
	w := newWorld(t, &worldOptions{noStart: true})
	w.st.Update(func(tx *store.Tx) error { return joinAll(tx, w.game) })
	// The fault comes from the daemon's own logger as it begins to handle
	// the mail: anywhere in the handling is the referee's own.
	w.logger = logOn("handling mail", func(r slog.Record) {
		if attr(r, "subject") == "boom" {
			panic("a fault for the test")
		}
	})
	w.start()
	n := len(w.waitMail(german, 1))
	w.send(german, "boom", fmt.Sprintf("GAME %s\nTOKEN %s\nIMPULSE 16-1\n", w.game, w.tokens[german]))
	got := w.waitMail(german, n+1)
	if r := got[n]; !strings.Contains(r.Text, "met an error of its own") {
		t.Errorf("the answer to a failed mail:\n%s", r.Text)
	}
	w.send(german, "orders", fmt.Sprintf("GAME %s\nTOKEN %s\nIMPULSE 16-1\n", w.game, w.tokens[german]))
	w.waitMail(german, n+2)
	w.settle()
	if g := w.gameNow(); g.Next.String() != "A16-1" {
		t.Errorf("after the failed mail the daemon did not go on: next %s", g.Next)
	}
}

// selfSigned makes a TLS configuration with a certificate for 127.0.0.1
// signed by itself.
func selfSigned(t testing.TB) *tls.Config {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "127.0.0.1"},
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}}
}

// The daemon reads and sends over STARTTLS, as with mail servers on the
// network.
func TestStartTLS(t *testing.T) {
	t.Parallel()
	w := newWorld(t, &worldOptions{tls: true})
	w.join()
	n := len(w.inbox(allied))
	w.send(german, "orders", fmt.Sprintf("GAME %s\nTOKEN %s\nIMPULSE 16-1\n", w.game, w.tokens[german]))
	if got := w.waitMail(allied, n+1); !strings.Contains(got[n].Text, "Impulse G16-1") {
		t.Errorf("the report over STARTTLS:\n%s", got[n].Text)
	}
}

// A folder renumbered by its server (a new UIDVALIDITY) holds mails the
// daemon has seen under other UIDs: it knows them by their Message-ID, and
// applies none twice.
func TestUIDValidityChange(t *testing.T) {
	t.Parallel()
	w := newWorld(t, &worldOptions{noStart: true})
	w.st.Update(func(tx *store.Tx) error { return joinAll(tx, w.game) })
	raw, _ := message(german, "orders", fmt.Sprintf("GAME %s\nTOKEN %s\nIMPULSE 16-1\nENTRENCH 212/423\n", w.game, w.tokens[german]))
	w.srv.Deliver(referee, raw)
	w.start()
	n := len(w.waitMail(german, 2)) // the welcome, the report
	w.settle()
	w.stop()
	// The server renumbers the folder: INBOX made anew, and the mail is
	// there again, with its Message-ID, under a new UIDVALIDITY.
	c, err := imapclient.DialInsecure(w.srv.IMAPAddr(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Login(referee, "ref-pass").Wait(); err != nil {
		t.Fatal(err)
	}
	before, _ := c.Select("INBOX", nil).Wait()
	c.Unselect().Wait()
	if err := c.Delete("INBOX").Wait(); err != nil {
		t.Fatal(err)
	}
	if err := c.Create("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	after, _ := c.Select("INBOX", nil).Wait()
	c.Close()
	if before.UIDValidity == after.UIDValidity {
		t.Fatalf("the UIDVALIDITY stayed %d", after.UIDValidity)
	}
	w.srv.Deliver(referee, raw)
	w.start()
	w.settle()
	if got := len(w.inbox(german)); got != n {
		t.Errorf("the German player got %d more mails after the renumbering", got-n)
	}
	if g := w.gameNow(); g.Next.String() != "A16-1" || impulses(w.log()) != 1 {
		t.Errorf("after the renumbering: next %s, %d impulses", g.Next, impulses(w.log()))
	}
}

// subjects lists the subjects of mails.
func subjects(ms []*mail.Incoming) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.Subject)
	}
	return out
}

// A player reads his mails in the order they tell of things: the welcome
// before anything of the game, even when the welcome had to wait for a
// retry; the answer to his mail before the notices it caused.
func TestMailOrder(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	calls := map[string]int{}
	w := newWorld(t, &worldOptions{noStart: true, fault: func(from string, to []string) error {
		mu.Lock()
		defer mu.Unlock()
		calls[to[0]]++
		if to[0] == german && calls[german] == 1 {
			return &smtp.SMTPError{Code: 451, Message: "try again later"}
		}
		return nil
	}})
	w.cfg.SMTP.RetryMin, w.cfg.SMTP.RetryMax = 3*time.Second, 3*time.Second
	w.start()
	waitfor.Until(t, 15*time.Second, func() bool { // the welcome refused once
		mu.Lock()
		defer mu.Unlock()
		return calls[german] > 0
	}, "the German welcome to be tried")
	w.send(german, "join", fmt.Sprintf("GAME %s\nTOKEN %s\nJOIN\n", w.game, w.tokens[german]))
	w.send(allied, "join", fmt.Sprintf("GAME %s\nTOKEN %s\nJOIN\n", w.game, w.tokens[allied]))
	w.waitMail(german, 3)
	w.waitMail(allied, 3)
	w.settle()
	want := map[string][]string{
		german: {"[intro-1] welcome: you play the German side", "Re: [intro-1] join", "[intro-1] Game intro-1 (intro) begins: both players have joined"},
		allied: {"[intro-1] welcome: you play the Allied side", "Re: [intro-1] join", "[intro-1] Game intro-1 (intro) begins: both players have joined"},
	}
	for _, p := range []string{german, allied} {
		if got := subjects(w.inbox(p)); !slices.Equal(got, want[p]) {
			t.Errorf("%s reads %q, want %q", p, got, want[p])
		}
	}
}
