package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	gomail "github.com/emersion/go-message/mail"
	"github.com/emersion/go-smtp"

	"titm/internal/waitfor"
	"titm/mail"
)

// restartWorld is titm serve run as a child process on its embedded mail
// servers, with the store and the mail file in a folder of the test's.
type restartWorld struct {
	t          *testing.T
	config     string
	imap, smtp string
	web        string
	game       string
	tokens     map[string]string // by address
	cmd        *exec.Cmd
	exited     chan error
	stderr     *syncBuffer
}

const (
	rwReferee = "referee@demo.test"
	rwGerman  = "german@demo.test"
	rwAllied  = "allied@demo.test"
)

var rwPasswords = map[string]string{rwReferee: "referee", rwGerman: "g-pass", rwAllied: "a-pass"}

// start runs serve and waits until it reads mail: /health answers 200 with
// the inbox connected.
func (w *restartWorld) start() {
	w.t.Helper()
	w.cmd = exec.Command(os.Args[0], "serve", "--config", w.config)
	w.cmd.Env = append(os.Environ(), "TITM_RUN_MAIN=1")
	w.stderr = &syncBuffer{}
	w.cmd.Stdout, w.cmd.Stderr = io.Discard, w.stderr
	if err := w.cmd.Start(); err != nil {
		w.t.Fatal(err)
	}
	w.exited = make(chan error, 1)
	go func(cmd *exec.Cmd, exited chan error) { exited <- cmd.Wait() }(w.cmd, w.exited)
	var s mail.Status
	var err error
	if !waitfor.Within(20*time.Second, func() bool {
		var resp *http.Response
		if resp, err = http.Get("http://" + w.web + "/health"); err == nil {
			err = json.NewDecoder(resp.Body).Decode(&s)
			resp.Body.Close()
			if err == nil && resp.StatusCode == http.StatusOK && s.IMAP.Connected {
				return true
			}
		}
		select {
		case err := <-w.exited:
			w.cmd = nil
			w.t.Fatalf("serve ended at its start: %v\n%s", err, w.stderr.String())
		default:
		}
		return false
	}) {
		w.t.Fatalf("serve not healthy 20 s after its start: %v %+v\n%s", err, s, w.stderr.String())
	}
}

// stop ends serve with sig, and waits for it to exit.
func (w *restartWorld) stop(sig syscall.Signal) {
	w.t.Helper()
	w.cmd.Process.Signal(sig)
	select {
	case err := <-w.exited:
		if sig == syscall.SIGTERM && err != nil {
			w.t.Fatalf("serve did not stop cleanly: %v\n%s", err, w.stderr.String())
		}
	case <-time.After(30 * time.Second):
		w.t.Fatalf("serve did not stop within 30 s of %v", sig)
	}
	w.cmd = nil
	if strings.Contains(w.stderr.String(), "processed before; moving it") {
		w.t.Errorf("serve moved a new mail as one processed before:\n%s", w.stderr.String())
	}
}

// send mails text from a player to the referee, over the embedded SMTP
// server, and returns its Message-ID.
func (w *restartWorld) send(from, subject, text string) string {
	w.t.Helper()
	var b bytes.Buffer
	var h gomail.Header
	h.SetAddressList("From", []*gomail.Address{{Address: from}})
	h.SetAddressList("To", []*gomail.Address{{Address: rwReferee}})
	h.SetSubject(subject)
	h.SetDate(time.Now())
	h.GenerateMessageID()
	id, _ := h.MessageID()
	wr, err := gomail.CreateSingleInlineWriter(&b, h)
	if err != nil {
		w.t.Fatal(err)
	}
	io.WriteString(wr, fmt.Sprintf("GAME %s\nTOKEN %s\n%s", w.game, w.tokens[from], text))
	wr.Close()
	c, err := smtp.Dial(w.smtp)
	if err != nil {
		w.t.Fatal(err)
	}
	defer c.Close()
	if err := c.SendMail(from, []string{rwReferee}, &b); err != nil {
		w.t.Fatal(err)
	}
	return id
}

// mails returns the mails in an address's INBOX.
func (w *restartWorld) mails(addr string) []*mail.Incoming {
	w.t.Helper()
	c, err := imapclient.DialInsecure(w.imap, nil)
	if err != nil {
		w.t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login(addr, rwPasswords[addr]).Wait(); err != nil {
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
	msgs, err := c.Fetch(all(sel.NumMessages), &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{section}}).Collect()
	if err != nil {
		w.t.Fatal(err)
	}
	var out []*mail.Incoming
	for _, m := range msgs {
		in, err := mail.ParseIncoming(m.FindBodySection(section))
		if err != nil {
			w.t.Fatal(err)
		}
		out = append(out, in)
	}
	return out
}

// all is the set of every message of a mailbox of n.
func all(n uint32) imap.SeqSet {
	var s imap.SeqSet
	s.AddRange(1, n)
	return s
}

// count returns how many mails of an address's INBOX have a subject
// holding s.
func count(ms []*mail.Incoming, s string) int {
	n := 0
	for _, m := range ms {
		if strings.Contains(m.Subject, s) {
			n++
		}
	}
	return n
}

// answers returns how many mails of ms answer the mail with Message-ID id.
func answers(ms []*mail.Incoming, id string) int {
	n := 0
	for _, m := range ms {
		if slices.Contains(m.References, id) {
			n++
		}
	}
	return n
}

// wait waits until the mails of addr meet ok.
func (w *restartWorld) wait(addr, what string, ok func([]*mail.Incoming) bool) {
	w.t.Helper()
	var ms []*mail.Incoming
	if !waitfor.Within(20*time.Second, func() bool { ms = w.mails(addr); return ok(ms) }) {
		var subjects []string
		for _, m := range ms {
			subjects = append(subjects, m.Subject)
		}
		w.t.Fatalf("%s: no %s within 20 s; the inbox holds %q\n%s", addr, what, subjects, w.stderr.String())
	}
}

// settle waits until the referee's INBOX is empty and the outbox sent.
func (w *restartWorld) settle() {
	w.t.Helper()
	var s mail.Status
	var err error
	if !waitfor.Within(20*time.Second, func() bool {
		s = mail.Status{}
		var resp *http.Response
		if resp, err = http.Get("http://" + w.web + "/health"); err == nil {
			err = json.NewDecoder(resp.Body).Decode(&s)
			resp.Body.Close()
		}
		return err == nil && s.Queued == 0 && len(w.mails(rwReferee)) == 0
	}) {
		w.t.Fatalf("serve did not settle in 20 s: %v %+v", err, s)
	}
}

// titm serve on its embedded mail servers, stopped and started again in
// the middle of a game, once cleanly and once killed with SIGKILL right
// after a mail reached it: the servers keep their mailboxes and UIDs, and
// every mail is answered exactly once, none dropped as if read before,
// none twice. Orders are answered by their impulse's report, and a
// question by a reply in its thread.
func TestServeRestartsOnEmbeddedServers(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "titm.db")
	w := &restartWorld{t: t, config: filepath.Join(dir, "titm.toml"), imap: "127.0.0.1:" + freePort(t),
		smtp: "127.0.0.1:" + freePort(t), web: "127.0.0.1:" + freePort(t)}
	conf := fmt.Sprintf(`[store]
path = %q
[referee]
address = %q
map_picture = false
[imap]
address = %q
security = "none"
username = %q
password = "referee"
poll_interval = "5s"
[smtp]
address = %q
security = "none"
retry_min = "1s"
retry_max = "2s"
[embedded]
enabled = true
imap_address = %q
smtp_address = %q
[embedded.users]
%q = "referee"
%q = %q
%q = %q
[web]
listen = %q
`, db, rwReferee, w.imap, rwReferee, w.smtp, w.imap, w.smtp, rwReferee, rwGerman, rwPasswords[rwGerman], rwAllied, rwPasswords[rwAllied], w.web)
	if err := os.WriteFile(w.config, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if w.cmd != nil {
			w.cmd.Process.Kill()
			<-w.exited
		}
	})
	// The game is made, and joined, through the running daemon, which
	// sends the welcomes and the start.
	w.start()
	out := mustRun(t, "new", "--db", db, "--scenario", "intro", "--german", rwGerman, "--allied", rwAllied, "--json")
	var made struct {
		ID     string
		Tokens map[string]string
	}
	if err := json.Unmarshal([]byte(out), &made); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	w.game, w.tokens = made.ID, map[string]string{rwGerman: made.Tokens["german"], rwAllied: made.Tokens["allied"]}
	mustRun(t, "join", made.ID, "--db", db, "--side", "german", "--seed", "g")
	mustRun(t, "join", made.ID, "--db", db, "--side", "allied", "--seed", "a")
	for _, p := range []string{rwGerman, rwAllied} {
		w.wait(p, "start of the game", func(ms []*mail.Incoming) bool { return count(ms, "begins") > 0 })
	}

	// One round: the German player plays, with a question; then the
	// Allied player. Each player's inbox gains the two reports, and the
	// German his answer, exactly once.
	var questions []string
	round := func(n int) {
		t.Helper()
		questions = append(questions, w.send(rwGerman, fmt.Sprintf("question %d", n), "STATUS\n"))
		w.send(rwGerman, fmt.Sprintf("orders G16-%d", n), fmt.Sprintf("IMPULSE 16-%d\n", n))
		for _, p := range []string{rwGerman, rwAllied} {
			w.wait(p, fmt.Sprintf("report of G16-%d", n), func(ms []*mail.Incoming) bool { return count(ms, fmt.Sprintf("G16-%d played", n)) > 0 })
		}
		w.send(rwAllied, fmt.Sprintf("orders A16-%d", n), fmt.Sprintf("IMPULSE 16-%d\n", n))
		for _, p := range []string{rwGerman, rwAllied} {
			w.wait(p, fmt.Sprintf("report of A16-%d", n), func(ms []*mail.Incoming) bool { return count(ms, fmt.Sprintf("A16-%d played", n)) > 0 })
		}
		w.wait(rwGerman, fmt.Sprintf("answer to question %d", n), func(ms []*mail.Incoming) bool { return answers(ms, questions[n-1]) > 0 })
	}

	round(1)
	w.settle()
	w.stop(syscall.SIGTERM)

	w.start()
	round(2)
	// Killed at once after a mail reached the server: handled or not, it
	// is answered once after the restart.
	w.send(rwGerman, "orders G16-3", "IMPULSE 16-3\n")
	w.stop(syscall.SIGKILL)

	w.start()
	for _, p := range []string{rwGerman, rwAllied} {
		w.wait(p, "report of G16-3", func(ms []*mail.Incoming) bool { return count(ms, "G16-3 played") > 0 })
	}
	w.send(rwAllied, "orders A16-3", "IMPULSE 16-3\n")
	for _, p := range []string{rwGerman, rwAllied} {
		w.wait(p, "report of A16-3", func(ms []*mail.Incoming) bool { return count(ms, "A16-3 played") > 0 })
	}
	w.settle()

	// Every mail each player was sent is there once, those from before
	// the restarts too, and nothing else: no refusal of a mail read twice.
	want := []string{"welcome", "begins", "G16-1 played", "A16-1 played", "G16-2 played", "A16-2 played", "G16-3 played", "A16-3 played"}
	seen := 0
	for _, p := range []string{rwGerman, rwAllied} {
		ms := w.mails(p)
		for _, s := range want {
			if n := count(ms, s); n != 1 {
				t.Errorf("%s got %d mails %q, want 1", p, n, s)
			}
		}
		extra := len(want)
		if p == rwGerman {
			for i, q := range questions {
				if n := answers(ms, q); n != 1 {
					t.Errorf("question %d was answered %d times, want once", i+1, n)
				}
			}
			extra += len(questions)
		}
		if len(ms) != extra {
			var subjects []string
			for _, m := range ms {
				subjects = append(subjects, m.Subject)
			}
			t.Errorf("%s holds %d mails, want %d: %q", p, len(ms), extra, subjects)
		}
		seen += len(ms)
	}
	if seen == 0 {
		t.Fatal("no mail was seen")
	}
	t.Logf("%d mails read in the players' inboxes, each once", seen)
	w.stop(syscall.SIGTERM)
}
