package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"titm/internal/daemon"
	"titm/internal/waitfor"
	"titm/mail"
	"titm/mail/embedded"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// serve --check takes the example configuration, and refuses a wrong one
// naming each key.
func TestServeCheck(t *testing.T) {
	code, out, errs := runT(t, "serve", "--check", "--config", "../../config.example.toml")
	if code != exitOK || !strings.Contains(out, "the configuration is good") {
		t.Errorf("the example: exit %d\n%s%s", code, out, errs)
	}
	bad := filepath.Join(t.TempDir(), "bad.toml")
	os.WriteFile(bad, []byte("[imap]\naddress = \"mail.example.org:143\"\nsecurity = \"startls\"\nusername = \"r\"\npassword = \"p\"\n[smtp]\naddress = \"mail.example.org:25\"\n"), 0o600)
	code, out, _ = runT(t, "serve", "--check", "--config", bad)
	if code != exitProblems || !strings.Contains(out, "imap.security") || !strings.Contains(out, "referee.address") || !strings.Contains(out, "does not start") {
		t.Errorf("a wrong configuration: exit %d\n%s", code, out)
	}
}

// serve --check --connect logs in to both servers and reports each step;
// a step that fails makes the exit status 1 and names the step.
func TestServeCheckConnect(t *testing.T) {
	srv, err := embedded.Start(&embedded.Options{IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0",
		Users:   map[string]string{"referee@live.test": "r"},
		Folders: []string{"processed"}, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	file := func(imapPass, folder string) string {
		f := filepath.Join(t.TempDir(), "titm.toml")
		os.WriteFile(f, []byte(fmt.Sprintf(`[referee]
address = "referee@live.test"
[imap]
address = %q
security = "none"
username = "referee@live.test"
password = %q
folder = %q
[smtp]
address = %q
security = "none"
username = "referee@live.test"
password = "r"
`, srv.IMAPAddr(), imapPass, folder, srv.SMTPAddr())), 0o600)
		return f
	}
	cases := []struct {
		name, pass, folder string
		code               int
		want               []string
	}{
		{"good", "r", "INBOX", exitOK, []string{"the configuration is good", "imap: log in as referee@live.test: ok",
			"imap: select the folder INBOX: ok", "smtp: log in as referee@live.test: ok", "nothing was sent or changed"}},
		{"a wrong password", "wrong", "INBOX", exitProblems, []string{"imap: log in as referee@live.test: FAILED",
			"smtp: log in as referee@live.test: ok", "1 step(s) failed"}},
		{"a wrong folder", "r", "Orders", exitProblems, []string{"imap: select the folder Orders: FAILED", "1 step(s) failed"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errs := runT(t, "serve", "--check", "--connect", "--config", file(c.pass, c.folder))
			if code != c.code {
				t.Errorf("exit %d, want %d\n%s%s", code, c.code, out, errs)
			}
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("the output lacks %q:\n%s", w, out)
				}
			}
		})
	}
	if code, _, _ := runT(t, "serve", "--connect", "--config", file("r", "INBOX")); code != exitUsage {
		t.Errorf("--connect without --check: exit %d, want %d", code, exitUsage)
	}
}

// serve --check --connect with the embedded servers enabled starts them
// for the check, as serve would, and logs in to them.
func TestServeCheckConnectEmbedded(t *testing.T) {
	imapAddr, smtpAddr := "127.0.0.1:"+freePort(t), "127.0.0.1:"+freePort(t)
	dir := t.TempDir()
	f := filepath.Join(dir, "titm.toml")
	os.WriteFile(f, []byte(fmt.Sprintf(`[store]
path = %q
[referee]
address = "referee@demo.test"
[imap]
address = %q
security = "none"
username = "referee@demo.test"
password = "referee"
[smtp]
address = %q
security = "none"
[embedded]
enabled = true
imap_address = %q
smtp_address = %q
[embedded.users]
"referee@demo.test" = "referee"
`, filepath.Join(dir, "titm.db"), imapAddr, smtpAddr, imapAddr, smtpAddr)), 0o600)
	code, out, errs := runT(t, "serve", "--check", "--connect", "--config", f)
	if code != exitOK || !strings.Contains(out, "embedded: start the servers") || !strings.Contains(out, "imap: log in as referee@demo.test: ok") {
		t.Errorf("exit %d\n%s%s", code, out, errs)
	}
	// The check changes nothing: it makes no mail file.
	if _, err := os.Stat(filepath.Join(dir, "titm.db.mail")); !os.IsNotExist(err) {
		t.Errorf("the check made the embedded servers' mail file: %v", err)
	}
}

func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
}

// titm demo --autoplay: the scripted players join and play, the reports
// flow, each mail is written to the mail directory and listed as it comes,
// numbered as its file, on a console that shows no log line (the log goes to
// the file it names); the demo says when the players are done and how to go
// on, and SIGTERM stops it cleanly. Its game is kept in the --db file: a
// second demo with the same file makes a new game beside the first and
// lists only that game's mails.
func TestDemoAutoplay(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "demo.db")
	first := runDemo(t, "--db", db)
	logData, err := os.ReadFile(filepath.Join(filepath.Dir(db), "demo.log"))
	if err != nil || !strings.Contains(string(logData), "msg=\"mail sent\"") {
		t.Errorf("the log file holds no mail sent (%v):\n%.500s", err, logData)
	}
	// Each mail the console lists is in the log by its number, and its
	// Message-ID is the one the daemon logged sending.
	listedAs := regexp.MustCompile(`msg="demo: mail listed" n=(\d+) to=\S+ message_id=(\S+)`).FindAllStringSubmatch(string(logData), -1)
	if n := len(demoListed.FindAllString(first, -1)); n == 0 || len(listedAs) != n {
		t.Errorf("%d mails listed on the console, %d in the log", n, len(listedAs))
	}
	for i, m := range listedAs {
		if m[1] != strconv.Itoa(i+1) || !strings.Contains(string(logData), "message_id="+m[2]+" attempts=") {
			t.Errorf("the log's mail %s (%d listed): Message-ID %s not logged as sent", m[1], i+1, m[2])
		}
	}
	if !strings.Contains(first, "The log        "+filepath.Join(filepath.Dir(db), "demo.log")) ||
		!strings.Contains(first, "The game       "+db+"  kept, with the mailboxes in "+db+".mail") {
		t.Errorf("the demo does not name its store and log:\n%s", first)
	}
	if _, err := os.Stat(db + ".mail"); err != nil {
		t.Errorf("the mailboxes are not kept beside the store: %v", err)
	}
	for _, who := range []string{"german@demo.test", "allied@demo.test"} {
		got := strings.Join(demoSubjects(first)[who], "\n")
		for _, want := range []string{"welcome", "Game intro-1 (intro) begins", "G16-1 played", "A16-1 played"} {
			if !strings.Contains(got, want) {
				t.Errorf("the mails listed for %s lack %q:\n%s", who, want, got)
			}
		}
	}
	second := runDemo(t, "--db", db)
	if !strings.Contains(second, "Game intro-2 (intro) is made") || !strings.Contains(second, "the German player joins game intro-2") {
		t.Errorf("the second demo did not make and play intro-2:\n%s", second)
	}
	subjects := demoSubjects(second)
	if len(subjects) != 2 {
		t.Errorf("the second demo listed mails for %d players", len(subjects))
	}
	for who, ss := range subjects {
		for _, sub := range ss {
			if !strings.Contains(sub, "[intro-2]") {
				t.Errorf("the second demo listed a mail to %s of another game: %q", who, sub)
			}
		}
	}
	// --temporary: the store in a temporary directory, removed at the end,
	// the log in the mail directory.
	temp := runDemo(t, "--temporary")
	m := regexp.MustCompile(`The game       (\S+)  and \S+, removed at the end \(--temporary\)\n  The log        (\S+)`).FindStringSubmatch(temp)
	if m == nil || !strings.Contains(temp, "Game intro-1 (intro) is made") {
		t.Fatalf("the temporary demo's store and log:\n%s", temp)
	}
	if _, err := os.Stat(m[1]); !os.IsNotExist(err) {
		t.Errorf("the temporary store %s is left behind: %v", m[1], err)
	}
	if _, err := os.Stat(m[2]); err != nil {
		t.Errorf("the temporary demo's log: %v", err)
	}
	if code, _, errs := runT(t, "demo", "--temporary", "--db", db); code != exitUsage || !strings.Contains(errs, "--temporary and --db") {
		t.Errorf("demo --temporary --db: %d %s", code, errs)
	}
}

// demoListed matches a line of the demo's list of mails.
var demoListed = regexp.MustCompile(`(?m)^mail +(\d+)  to (\S+) +(\d+ B|\d+\.\d KB)  (.*)$`)

// demoSubjects returns the subjects the demo listed, by recipient.
func demoSubjects(text string) map[string][]string {
	subjects := map[string][]string{}
	for _, m := range demoListed.FindAllStringSubmatch(text, -1) {
		subjects[m[2]] = append(subjects[m[2]], m[4])
	}
	return subjects
}

// runDemo runs titm demo --autoplay for one impulse a side with the
// arguments, checks what it prints until its players are done and that
// it stops on SIGTERM, and returns its console.
func runDemo(t *testing.T, args ...string) string {
	t.Helper()
	dir := t.TempDir()
	imapAddr := "127.0.0.1:" + freePort(t)
	webPort := freePort(t)
	cmd := exec.Command(os.Args[0], append([]string{"demo", "--autoplay", "--impulses", "1",
		"--imap", imapAddr, "--smtp", "127.0.0.1:" + freePort(t), "--mail-dir", dir, "--web", "127.0.0.1:" + webPort}, args...)...)
	cmd.Env = append(os.Environ(), "TITM_RUN_MAIN=1")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr syncBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := make(chan string, 1000)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	var seen []string
	deadline := time.After(45 * time.Second)
	for done := false; !done; {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("the demo ended early:\n%s\n%s", strings.Join(seen, "\n"), stderr.String())
			}
			seen = append(seen, l)
			done = strings.Contains(l, "the scripted players are done")
		case <-deadline:
			t.Fatalf("the demo's players were not done with A16-1 in 45 s:\n%s", strings.Join(seen, "\n"))
		}
	}
	// The rest of the closing text.
	for len(seen) < 1000 && !strings.Contains(seen[len(seen)-1], "Stop with Ctrl-C") {
		select {
		case l := <-lines:
			seen = append(seen, l)
		case <-time.After(5 * time.Second):
			t.Fatalf("the closing text is cut short:\n%s", strings.Join(seen, "\n"))
		}
	}
	text := strings.Join(seen, "\n")
	for _, want := range []string{"german@demo.test  password demo", "the German player joins game intro-", "the German player sends orders for G16-1",
		"the Allied player sends orders for A16-1", "IMAP  " + imapAddr, "user  german@demo.test or allied@demo.test, password demo", dir,
		"The journal    http://127.0.0.1:" + webPort + "/", "http://127.0.0.1:" + webPort + "/games/intro-"} {
		if !strings.Contains(text, want) {
			t.Errorf("the demo did not print %q:\n%s", want, text)
		}
	}
	// The console holds no log line: the log is in its file.
	for _, l := range seen {
		if strings.Contains(l, "level=") || strings.Contains(l, "msg=") {
			t.Errorf("a log line on the console: %s", l)
		}
	}
	// Each player's mails, listed in the order they came, numbered 1, 2, ...
	// as their files in the directory: the welcome, the start with the
	// brief, the JOIN's answer, the reports of G16-1 and A16-1.
	listed := demoListed.FindAllStringSubmatch(text, -1)
	if len(listed) == 0 {
		t.Fatalf("no mail listed:\n%s", text)
	}
	for i, m := range listed {
		n, _ := strconv.Atoi(m[1])
		if n != i+1 {
			t.Errorf("mail %d listed as number %d", i+1, n)
		}
		files, _ := filepath.Glob(filepath.Join(dir, fmt.Sprintf("%03d-*.eml", n)))
		if len(files) != 1 {
			t.Fatalf("mail %d: files %q", n, files)
		}
		raw, err := os.ReadFile(files[0])
		if err != nil {
			t.Fatal(err)
		}
		in, err := mail.ParseIncoming(raw)
		if err != nil || in.Subject != m[4] {
			t.Errorf("%s: subject %q, %v; listed as %q", files[0], in.Subject, err, m[4])
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.eml"))
	if len(files) != len(listed) {
		t.Errorf("%d mails listed, %d files in the directory", len(listed), len(files))
	}
	// The demo's journal shows the game and its reports.
	game := regexp.MustCompile(`/games/(intro-\d+)`).FindStringSubmatch(text)
	resp, err := http.Get("http://127.0.0.1:" + webPort + "/games/" + game[1] + "?lang=en") // the demo's referee may write in Japanese
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(page), "Impulse A16-1, Allied") {
		t.Errorf("the demo's journal: %d\n%.500s", resp.StatusCode, page)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("the demo did not stop cleanly on SIGTERM: %v\n%s", err, stderr.String())
		}
	case <-time.After(20 * time.Second):
		// Its goroutines, to see what it waits for.
		cmd.Process.Signal(syscall.SIGQUIT)
		<-exited
		t.Errorf("the demo did not stop within 20 s of SIGTERM:\n%s", stderr.String())
	}
	if stderr.String() != "" {
		t.Errorf("the demo wrote to stderr:\n%s", stderr.String())
	}
	return text
}

// syncBuffer is a bytes.Buffer for a writer in another goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// subjects returns the subjects of the mails in an address's inbox on the
// embedded IMAP server.
func subjects(t *testing.T, imapAddr, user, pass string) []string {
	t.Helper()
	c, err := imapclient.DialInsecure(imapAddr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login(user, pass).Wait(); err != nil {
		t.Fatal(err)
	}
	sel, err := c.Select("INBOX", &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		t.Fatal(err)
	}
	if sel.NumMessages == 0 {
		return nil
	}
	var all imap.SeqSet
	all.AddRange(1, sel.NumMessages)
	msgs, err := c.Fetch(all, &imap.FetchOptions{Envelope: true}).Collect()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range msgs {
		out = append(out, m.Envelope.Subject)
	}
	return out
}

// waitFor waits up to limit for a mail whose subject holds want in an
// inbox, and returns how long it took.
func waitFor(t *testing.T, imapAddr, user, pass, want string, limit time.Duration) time.Duration {
	t.Helper()
	start := time.Now()
	if !waitfor.Within(limit, func() bool {
		for _, s := range subjects(t, imapAddr, user, pass) {
			if strings.Contains(s, want) {
				return true
			}
		}
		return false
	}) {
		t.Fatalf("no mail %q reached %s within %s: %q", want, user, limit, subjects(t, imapAddr, user, pass))
	}
	return time.Since(start)
}

// With titm serve running, the game commands go through its control socket
// and what they queue leaves at once: the welcome mails of titm new reach
// the players, and titm join tells both players that the game begins,
// long before the sender would look at the outbox again by itself (an
// hour when nothing waits for a retry). The limit leaves room for the
// start picture drawn under the race detector on a busy machine; the time
// the welcome took is logged.
func TestCommandsReachPlayers(t *testing.T) {
	srv, err := embedded.Start(&embedded.Options{IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0",
		Users: map[string]string{"referee@live.test": "r", "german@live.test": "g", "allied@live.test": "a",
			"early-g@live.test": "e", "early-a@live.test": "e"},
		Folders: []string{"processed"}, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	db := filepath.Join(t.TempDir(), "titm.db")
	cfg, err := daemon.ParseConfig("live", []byte(fmt.Sprintf(`[store]
path = %q
[referee]
address = "referee@live.test"
[imap]
address = %q
security = "none"
username = "referee@live.test"
password = "r"
[smtp]
address = %q
security = "none"
`, db, srv.IMAPAddr(), srv.SMTPAddr())), func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serve(ctx, cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), io.Discard) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	}()
	waitfor.Until(t, time.Minute, func() bool {
		select {
		case err := <-done:
			done <- err // for the deferred stop
			t.Fatalf("serve ended: %v", err)
		default:
		}
		return socketAnswers(cfg.Store.ControlSocket)
	}, "the control socket")
	// A first game's welcome delivered shows the sender has read the
	// outbox since that game was made, and sent what it read: the mails
	// of the game that follows can only be sent because the command wakes
	// it, not by the sender's start.
	mustRun(t, "new", "--db", db, "--scenario", "intro", "--german", "early-g@live.test", "--allied", "early-a@live.test")
	waitFor(t, srv.IMAPAddr(), "early-g@live.test", "e", "welcome", 15*time.Second)
	out := mustRun(t, "new", "--db", db, "--scenario", "intro", "--german", "german@live.test", "--allied", "allied@live.test", "--json")
	var made struct{ ID string }
	if err := json.Unmarshal([]byte(out), &made); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	took := waitFor(t, srv.IMAPAddr(), "german@live.test", "g", "welcome", 15*time.Second)
	waitFor(t, srv.IMAPAddr(), "allied@live.test", "a", "welcome", 15*time.Second)
	t.Logf("the welcome reached the German player %s after titm new", took)

	mustRun(t, "join", made.ID, "--db", db, "--side", "german", "--seed", "g")
	out = mustRun(t, "join", made.ID, "--db", db, "--side", "allied", "--seed", "a")
	if !strings.Contains(out, "the game begins") {
		t.Errorf("titm join: %s", out)
	}
	for _, p := range [][2]string{{"german@live.test", "g"}, {"allied@live.test", "a"}} {
		waitFor(t, srv.IMAPAddr(), p[0], p[1], "begins", 15*time.Second)
	}
}
