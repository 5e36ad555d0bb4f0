//go:build unix

package mail_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	gomail "github.com/emersion/go-message/mail"

	acts "titm/adjudicator/referee"
	"titm/internal/waitfor"
	"titm/mail"
	"titm/store"
)

// hostileLimit is referee.max_message_bytes in TestHostileThroughPostfix:
// over it a mail of 10,000 lines (160 KB) is read, a mail of 300 KB is
// not.
const hostileLimit = 200 << 10

// handledLine is the daemon's log line for a mail handled.
var handledLine = regexp.MustCompile(`msg="mail handled" uid=\d+ message_id=("(?:[^"\\]|\\.)*"|\S*) outcome=("(?:[^"\\]|\\.)*"|\S*)`)

// outcomes are the outcomes the daemon logged for the mails with a
// Message-ID, in the order it handled them.
func (l *logged) outcomes(id string) []string {
	unquote := func(s string) string {
		if u, err := strconv.Unquote(s); err == nil {
			return u
		}
		return s
	}
	var out []string
	for _, m := range handledLine.FindAllStringSubmatch(l.String(), -1) {
		if strings.Trim(unquote(m[1]), "<>") == id {
			out = append(out, unquote(m[2]))
		}
	}
	return out
}

// submission is a mail a test client submits through Postfix.
type submission struct {
	from string // the envelope sender: empty for a delivery report
	raw  []byte
	// next is how the next mail follows: false, once this one is handled;
	// true, at once.
	next bool
}

// failedMails lists the mails of the outbox that failed for good.
func (w *world) failedMails() []*store.Mail {
	w.t.Helper()
	var failed []*store.Mail
	w.st.View(func(tx *store.Tx) error {
		var err error
		failed, err = tx.Outbox(store.MailFailed)
		return err
	})
	return failed
}

// lastSize is the size (RFC822.SIZE) of the last mail in an address's
// INBOX, as its reader's client would download it.
func (w *world) lastSize(addr string) int64 {
	w.t.Helper()
	c, err := imapclient.DialInsecure(w.imapAddr(), nil)
	if err != nil {
		w.t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login(addr, passwords[addr]).Wait(); err != nil {
		w.t.Fatal(err)
	}
	sel, err := c.Select("INBOX", &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil || sel.NumMessages == 0 {
		w.t.Fatalf("%s: no mail to measure (%v)", addr, err)
	}
	msgs, err := c.Fetch(imap.SeqSetNum(sel.NumMessages), &imap.FetchOptions{RFC822Size: true}).Collect()
	if err != nil || len(msgs) != 1 {
		w.t.Fatalf("%s: fetching the size of message %d: %v", addr, sel.NumMessages, err)
	}
	return msgs[0].RFC822Size
}

// The hostile mails, each submitted through Postfix's submission port,
// delivered by Postfix to Dovecot by LMTP and read there by the daemon;
// what came of each is read back from the players' mailboxes on Dovecot,
// the store and the daemon's log. The rows play one game in turn: G16-1,
// A16-1, G16-2, A16-2, then G16-3 is never played. Last, the daemon runs
// as a child process and is killed in the middle of a burst
// (killedMidBurst). The test logs a table of each case and its outcome.
func TestHostileThroughPostfix(t *testing.T) {
	t.Parallel()
	var log logged
	w, mta := postfixWorldOf(t, postfixOptions{users: []string{stranger}, logger: log.logger(), maxBytes: hostileLimit})
	w.join()
	orders := func(from, text string) []byte {
		raw, _ := message(from, "orders", fmt.Sprintf("GAME %s\nTOKEN %s\n%s", w.game, w.tokens[from], text))
		return raw
	}
	const squat = "squat-1@test.example"
	big, _ := message(german, "big", strings.Repeat("orders and more orders\n", 300<<10/23))
	twice := orders(allied, "IMPULSE 16-2\n")
	players := []string{german, allied, stranger}
	cases := []struct {
		name  string
		mails []submission
		gain  map[string]int // the mails each player's INBOX gains
		// want are the outcomes the daemon logs, by mail, each the
		// beginning of what it logs.
		want  []string
		check func(t *testing.T, got map[string][]*mail.Incoming) string
	}{
		{"a forged DSN (MAILER-DAEMON, quoting nothing) right after the German orders",
			[]submission{{german, orders(german, "IMPULSE 16-1\nENTRENCH 212/423\n"), true}, {"", dsn(allied, "", nil), false}},
			map[string]int{german: 1, allied: 1},
			[]string{"played G16-1", "ignored: a delivery report for " + allied},
			func(t *testing.T, got map[string][]*mail.Incoming) string {
				if r := got[allied][0]; !strings.Contains(r.Text, "Impulse G16-1") || !strings.Contains(r.Text, "212/423 entrenches") {
					t.Errorf("the Allied report:\n%s", r.Text)
				}
				if m, _ := w.mailTo(allied, acts.KindReport); m.Status != store.MailSent {
					t.Errorf("the Allied report is %s: %s", m.Status, m.Error)
				}
				return "the Allied report of G16-1 arrived, and is marked sent"
			}},
		{"a DSN quoting a guessed Message-ID",
			[]submission{{"", dsn(allied, "text/rfc822-headers", []byte("From: "+referee+"\r\nTo: "+allied+"\r\nMessage-ID: <1@test.example>\r\n")), false}},
			nil,
			[]string{"ignored: a delivery report for " + allied},
			func(t *testing.T, got map[string][]*mail.Incoming) string {
				return "no mail marked failed"
			}},
		{"a Message-ID squatted by a stranger before the Allied orders",
			[]submission{{stranger, messageWithID(stranger, "hello", "nothing", squat), false},
				{allied, messageWithID(allied, "orders", fmt.Sprintf("GAME %s\nTOKEN %s\nIMPULSE 16-1\n", w.game, w.tokens[allied]), squat), false}},
			map[string]int{german: 1, allied: 1},
			[]string{"ignored: unregistered sender", "played A16-1"},
			func(t *testing.T, got map[string][]*mail.Incoming) string {
				if r := got[german][0]; !strings.Contains(r.Text, "Impulse A16-1") {
					t.Errorf("the German report:\n%s", r.Text)
				}
				return "the Allied orders played, both reports arrived, the stranger got nothing"
			}},
		{"BLOW and DEFEND lines in the German orders",
			[]submission{{german, orders(german, "IMPULSE 16-2\nBLOW NONE\nDEFEND PREFER ARMOR\n"), false}},
			map[string]int{german: 1, allied: 1},
			[]string{"played G16-2"},
			func(t *testing.T, got map[string][]*mail.Incoming) string {
				for _, s := range []string{"BLOW NONE", "DEFEND PREFER ARMOR"} {
					if strings.Contains(got[allied][0].Text, s) {
						t.Errorf("the Allied report shows the German %s:\n%s", s, got[allied][0].Text)
					}
					if !strings.Contains(got[german][0].Text, s) {
						t.Errorf("the German report does not echo %s:\n%s", s, got[german][0].Text)
					}
				}
				return "echoed to the German player alone; the Allied report shows neither"
			}},
		{"the same mail submitted twice",
			[]submission{{allied, twice, false}, {allied, twice, false}},
			map[string]int{german: 1, allied: 1},
			[]string{"played A16-2", "already processed: played A16-2"},
			func(t *testing.T, got map[string][]*mail.Incoming) string {
				if n := impulses(w.log()); n != 4 {
					t.Errorf("%d impulses in the log, want 4", n)
				}
				return "applied once, one report each"
			}},
		{"an oversize mail from a registered player, delivered twice",
			[]submission{{german, big, false}, {german, big, false}},
			map[string]int{german: 1},
			[]string{"refused: ", "already processed: refused: "},
			func(t *testing.T, got map[string][]*mail.Incoming) string {
				want := fmt.Sprintf("is over the referee's limit of %d bytes", hostileLimit)
				if !strings.Contains(got[german][0].Text, want) {
					t.Errorf("the answer lacks %q:\n%s", want, got[german][0].Text)
				}
				return "answered once, shortly: " + want
			}},
		{"a mail with 10,000 bad lines",
			[]submission{{german, orders(german, "IMPULSE 16-3\n"+strings.Repeat("MOVE nobody 1 2\n", 10000)), false}},
			map[string]int{german: 1},
			[]string{"refused: "},
			func(t *testing.T, got map[string][]*mail.Incoming) string {
				r := got[german][0]
				for _, s := range []string{"Your orders have 10000 error(s)", "line 33: MOVE nobody 1 2", "and 9970 more errors", "Nothing in your mail was applied"} {
					if !strings.Contains(r.Text, s) {
						t.Errorf("the answer lacks %q:\n%.2000s", s, r.Text)
					}
				}
				size := w.lastSize(german)
				if size >= 64<<10 {
					t.Errorf("the answer is %d bytes", size)
				}
				if g := w.gameNow(); g.Next.String() != "G16-3" {
					t.Errorf("the game is at %s", g.Next)
				}
				return fmt.Sprintf("one answer of %d bytes: 30 errors listed, \"and 9970 more errors\"", size)
			}},
	}
	var table []string
	for _, c := range cases {
		ok := t.Run(c.name, func(t *testing.T) {
			w.t = t
			before := map[string]int{}
			for _, p := range players {
				before[p] = len(w.inbox(p))
			}
			var ids []string         // the distinct Message-IDs, as first submitted
			seen := map[string]int{} // mails handled before, by Message-ID
			want := map[string]int{} // mails to have been handled, by Message-ID
			for _, s := range c.mails {
				in, err := mail.ParseIncoming(s.raw)
				if err != nil {
					t.Fatal(err)
				}
				if _, ok := seen[in.MessageID]; !ok {
					seen[in.MessageID] = len(log.outcomes(in.MessageID))
					want[in.MessageID] = seen[in.MessageID]
					ids = append(ids, in.MessageID)
				}
				want[in.MessageID]++
				if err := sendRaw(mta.SubmissionAddr, s.from, referee, s.raw); err != nil {
					t.Fatal(err)
				}
				if !s.next {
					waitHandled(t, &log, want)
				}
			}
			var outcomes []string
			for _, id := range ids {
				outcomes = append(outcomes, log.outcomes(id)[seen[id]:]...)
			}
			if len(outcomes) != len(c.want) {
				t.Fatalf("outcomes %q, want %q", outcomes, c.want)
			}
			for i, o := range outcomes {
				if !strings.HasPrefix(o, c.want[i]) {
					t.Errorf("mail %d: outcome %q, want %q", i+1, o, c.want[i])
				}
			}
			got := map[string][]*mail.Incoming{}
			for _, p := range players {
				if c.gain[p] > 0 {
					w.waitMail(p, before[p]+c.gain[p])
				}
			}
			w.settle()
			for _, p := range players {
				all := w.inbox(p)
				if len(all)-before[p] != c.gain[p] {
					t.Errorf("%s got %d mails, want %d: %q", p, len(all)-before[p], c.gain[p], subjects(all[before[p]:]))
				}
				got[p] = all[min(before[p], len(all)):]
			}
			for _, m := range w.failedMails() {
				t.Errorf("mail %d to %s failed: %s", m.ID, m.To, m.Error)
			}
			if shown := c.check(t, got); !t.Failed() {
				table = append(table, fmt.Sprintf("%-75s | %s | %s", c.name, strings.Join(outcomes, "; "), shown))
			}
		})
		w.t = t
		if !ok {
			table = append(table, fmt.Sprintf("%-75s | FAILED", c.name))
		}
	}
	table = append(table, killedMidBurst(t, w))
	t.Logf("case | the daemon's outcomes | what the players and the store show\n%s", strings.Join(table, "\n"))
}

// waitHandled waits until the daemon has logged as many mails handled as
// are wanted of each Message-ID.
func waitHandled(t *testing.T, log *logged, want map[string]int) {
	t.Helper()
	if !waitfor.Within(20*time.Second, func() bool {
		done := true
		for id, n := range want {
			done = done && len(log.outcomes(id)) >= n
		}
		return done
	}) {
		t.Fatalf("the mails %v were not handled in 20 s; the log:\n%s", want, log.String())
	}
}

// killedMidBurst submits a burst of orders, one in each of a number of new
// games, through Postfix while the daemon runs in a child process that
// kills itself with SIGKILL after its third commit; started again, it
// applies every mail exactly once, and every report is delivered. It
// returns the row of the table.
func killedMidBurst(t *testing.T, w *world) string {
	const name, games, killAfter = "a burst of 6 orders, the daemon SIGKILLed after its 3rd commit", 6, 3
	w.settle()
	w.stop()
	var ids []string
	tokens := map[string]string{}
	err := w.st.Update(func(tx *store.Tx) error {
		for range games {
			id, tok, err := mail.NewGame(tx, gomail.Address{Address: referee}, nil, acts.NewGame{Scenario: "intro",
				German: german, Allied: allied, Deadline: 48 * time.Hour}, time.Now())
			if err != nil {
				return err
			}
			if err := joinAll(tx, id); err != nil {
				return err
			}
			ids, tokens[id] = append(ids, id), tok["german"]
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	w.st.Close()
	conf := filepath.Join(t.TempDir(), "titm.toml")
	if err := os.WriteFile(conf, []byte(w.configText("")), 0o600); err != nil {
		t.Fatal(err)
	}
	child := func(kill bool) (*exec.Cmd, *bytes.Buffer) {
		cmd := exec.Command(os.Args[0], "-test.run=^TestDaemonChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), "TITM_DAEMON_CONFIG="+conf)
		if kill {
			cmd.Env = append(cmd.Env, fmt.Sprintf("TITM_DAEMON_KILL=%d", killAfter))
		}
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		return cmd, &out
	}
	wait := func(cmd *exec.Cmd, out *bytes.Buffer) {
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			<-done
			t.Fatalf("the child daemon did not end in 30 s:\n%s", out)
		}
	}

	cmd, out := child(true)
	for _, id := range ids {
		raw, _ := message(german, "orders", fmt.Sprintf("GAME %s\nTOKEN %s\nIMPULSE 16-1\nENTRENCH 212/423\n", id, tokens[id]))
		if err := sendRaw(w.smtpAddr(), german, referee, raw); err != nil {
			t.Fatal(err)
		}
	}
	wait(cmd, out)
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("the child was not killed after its commit %d:\n%s", killAfter, out)
	}
	// In the middle: the mails up to the kill are applied, the others not.
	st, err := store.Open(w.db, nil)
	if err != nil {
		t.Fatal(err)
	}
	atKill := 0
	st.View(func(tx *store.Tx) error {
		for _, id := range ids {
			log, err := tx.Log(id)
			if err != nil {
				return err
			}
			atKill += impulses(log)
		}
		return nil
	})
	st.Close()
	if atKill != killAfter {
		t.Fatalf("%d of the %d mails applied when the child was killed after its commit %d", atKill, games, killAfter)
	}
	cmd, out = child(false)
	// reports counts the reports of the burst by game, to both players;
	// mids lists the Message-IDs of every mail of each game to them.
	reports := func() (reports map[string]int, mids map[string][]string) {
		reports, mids = map[string]int{}, map[string][]string{}
		for _, p := range []string{german, allied} {
			for _, m := range w.inbox(p) {
				for _, id := range ids {
					if strings.Contains(m.Subject, "["+id+"] ") { // an answer's too: "Re: [id] ..."
						mids[id] = append(mids[id], m.MessageID)
					}
					if strings.HasPrefix(m.Subject, "["+id+"] G16-1 played") {
						reports[id]++
					}
				}
			}
		}
		return reports, mids
	}
	if !waitfor.Within(30*time.Second, func() bool {
		n, _ := reports()
		arrived := true
		for _, id := range ids {
			arrived = arrived && n[id] >= 2
		}
		return arrived && w.folderSize(referee, "INBOX") == 0
	}) {
		n, _ := reports()
		cmd.Process.Signal(syscall.SIGTERM)
		wait(cmd, out)
		t.Fatalf("30 s after the restart the reports by game are %v, the referee's INBOX holds %d:\n%s", n, w.folderSize(referee, "INBOX"), out)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	wait(cmd, out)
	if w.st, err = store.Open(w.db, nil); err != nil {
		t.Fatal(err)
	}
	st = w.st
	t.Cleanup(func() { st.Close() })
	var applied, unsent []string
	err = w.st.View(func(tx *store.Tx) error {
		for _, id := range ids {
			log, err := tx.Log(id)
			if err != nil {
				return err
			}
			applied = append(applied, fmt.Sprint(impulses(log)))
		}
		q, err := tx.Outbox(store.MailQueued)
		for _, m := range q {
			unsent = append(unsent, fmt.Sprintf("%d to %s", m.ID, m.To))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, id := range ids {
		if applied[i] != "1" {
			t.Errorf("game %s: %s impulses played from one mail", id, applied[i])
		}
	}
	if len(unsent) > 0 {
		t.Errorf("mails left unsent after the restart: %q", unsent)
	}
	// Each game's mails are its two welcomes and its two reports. A mail
	// the server took just before the kill, not yet marked sent, is sent
	// again at the restart, under its Message-ID: delivery is at least
	// once. The sender sends over mail.SendConns connections at once, so
	// as many mails may be in flight at the kill and come twice; a second
	// answer, made anew for a mail handled again, would have a Message-ID
	// of its own and show as a fifth distinct mail.
	n, mids := reports()
	twice := 0
	for _, id := range ids {
		distinct := map[string]int{}
		for _, mid := range mids[id] {
			distinct[mid]++
		}
		if n[id] < 2 || len(distinct) != 4 {
			t.Errorf("game %s: %d reports, %d distinct mails to the players, want 2 reports and 4 mails: %v", id, n[id], len(distinct), mids[id])
		}
		twice += len(mids[id]) - len(distinct)
	}
	if twice > mail.SendConns {
		t.Errorf("%d mails delivered twice, want at most the %d in flight at the kill", twice, mail.SendConns)
	}
	resent := "no mail resent"
	if twice > 0 {
		resent = "the mails in flight at the kill delivered again, under their Message-IDs"
	}
	return fmt.Sprintf("%-75s | %d of %d applied at the kill; after the restart impulses by game %s | every report delivered (%d games × 2 players), nothing unsent; %s",
		name, atKill, games, strings.Join(applied, ","), games, resent)
}
