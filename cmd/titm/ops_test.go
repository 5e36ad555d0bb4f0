package main

import (
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
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"titm/adjudicator"
	"titm/internal/daemon"
	"titm/internal/playtest"
	"titm/internal/waitfor"
	"titm/mail"
	"titm/mail/embedded"
	"titm/rules/scenarios"
	"titm/store"
)

// opsWorld is titm serve against embedded mail servers that outlive it,
// so that a test can stop it, change its store and start it again.
type opsWorld struct {
	t     *testing.T
	srv   *embedded.Servers
	db    string
	cfg   *daemon.Config
	extra string // more configuration
	text  string // the whole configuration, as a file would hold it
	stop  func()
}

var opsUsers = map[string]string{"referee@ops.test": "r", "german@ops.test": "g", "allied@ops.test": "a"}

func newOpsWorld(t *testing.T, extra string) *opsWorld {
	srv, err := embedded.Start(&embedded.Options{IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0", Users: opsUsers,
		Folders: []string{"processed"}, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	w := &opsWorld{t: t, srv: srv, db: filepath.Join(t.TempDir(), "titm.db"), extra: extra}
	w.text = fmt.Sprintf(`[store]
path = %q
[referee]
address = "referee@ops.test"
map_picture = false
[imap]
address = %q
security = "none"
username = "referee@ops.test"
password = "r"
poll_interval = "5s"
[smtp]
address = %q
security = "none"
%s
`, w.db, srv.IMAPAddr(), srv.SMTPAddr(), extra)
	w.cfg, err = daemon.ParseConfig("ops", []byte(w.text), func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// start runs serve until stop.
func (w *opsWorld) start() {
	w.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serve(ctx, w.cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), io.Discard) }()
	w.stop = func() {
		cancel()
		if err := <-done; err != nil {
			w.t.Errorf("serve: %v", err)
		}
		w.stop = nil
	}
	w.t.Cleanup(func() {
		if w.stop != nil {
			w.stop()
		}
	})
	waitfor.Until(w.t, time.Minute, func() bool {
		select {
		case err := <-done:
			done <- err // for the stop
			w.t.Fatalf("serve ended: %v", err)
		default:
		}
		return socketAnswers(w.cfg.Store.ControlSocket)
	}, "the control socket")
}

// game returns a game as the daemon has it, through its socket.
// socketAnswers reports whether a daemon answers on the control socket:
// its file is there from the moment the socket is bound, a moment before
// it listens, and a request sent then is refused.
func socketAnswers(path string) bool {
	c, err := net.DialTimeout("unix", path, time.Second)
	if err != nil {
		return false
	}
	c.Close()
	return true
}

func (w *opsWorld) game(id string) *adjudicator.Game {
	w.t.Helper()
	resp, err := forward(w.cfg.Store.ControlSocket, request{Version: protocol, Act: "show", Game: id})
	if err == nil {
		err = resp.err()
	}
	if err != nil {
		w.t.Fatal(err)
	}
	return resp.Game
}

// newGames makes n games of intro through the daemon, both players
// joined, and returns their ids and tokens.
func (w *opsWorld) newGames(n int) ([]string, []map[string]string) {
	var ids []string
	var tokens []map[string]string
	for range n {
		out := mustRun(w.t, "new", "--db", w.db, "--scenario", "intro", "--german", "german@ops.test", "--allied", "allied@ops.test", "--json")
		var made struct {
			ID     string
			Tokens map[string]string
		}
		if err := json.Unmarshal([]byte(out), &made); err != nil {
			w.t.Fatalf("%v\n%s", err, out)
		}
		mustRun(w.t, "join", made.ID, "--db", w.db, "--side", "german", "--seed", "g")
		mustRun(w.t, "join", made.ID, "--db", w.db, "--side", "allied", "--seed", "a")
		ids, tokens = append(ids, made.ID), append(tokens, made.Tokens)
	}
	return ids, tokens
}

// order mails the orders of the side to move in a game: every unit that
// may move, moving.
func (w *opsWorld) order(id string, tokens map[string]string) {
	w.t.Helper()
	g := w.game(id)
	s, err := scenarios.Load("intro")
	if err != nil {
		w.t.Fatal(err)
	}
	text, err := playtest.EveryMove(s, g.State)
	if err != nil {
		w.t.Fatal(err)
	}
	side := g.State.Next.Side
	body := fmt.Sprintf("GAME %s\nTOKEN %s\nIMPULSE %d-%d\n%s\nEND\n", id, tokens[string(side)], g.State.Next.Day, g.State.Next.N, text)
	w.mailAs(string(side)+"@ops.test", "orders "+g.State.Next.String(), body)
}

// impulses counts the impulses a game's log records.
func impulsesOf(log []adjudicator.Record) int {
	n := 0
	for _, r := range log {
		if r.Kind == adjudicator.KindImpulse {
			n++
		}
	}
	return n
}

// waitImpulse waits until a game's next impulse is not at.
func (w *opsWorld) waitPast(id string, at string) {
	w.t.Helper()
	waitfor.Until(w.t, 20*time.Second, func() bool { return w.game(id).State.Next.String() != at }, fmt.Sprintf("game %s to pass %s", id, at))
}

// imapDo logs in as the referee and runs f on the client.
func (w *opsWorld) imapDo(f func(c *imapclient.Client) error) {
	w.t.Helper()
	c, err := imapclient.DialInsecure(w.srv.IMAPAddr(), nil)
	if err != nil {
		w.t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login("referee@ops.test", "r").Wait(); err != nil {
		w.t.Fatal(err)
	}
	if err := f(c); err != nil {
		w.t.Fatal(err)
	}
}

// A backup taken while a burst of order mails is handled opens, checks
// and holds every game at a consistent point. Restored, with the mails
// handled since put back in the referee's folder as docs/operating.md
// says, the daemon applies those after the backup's point once each and
// skips the others: every game ends where it was before the restore.
func TestBackupDuringBurstAndRestore(t *testing.T) {
	w := newOpsWorld(t, "")
	w.start()
	ids, tokens := w.newGames(3)
	backup := filepath.Join(t.TempDir(), "backup.db")
	const rounds = 4
	for r := range rounds {
		at := map[string]string{}
		for i, id := range ids {
			at[id] = w.game(id).State.Next.String()
			w.order(id, tokens[i])
		}
		if r == rounds/2 {
			// In the middle of the burst: the round's mails are being
			// handled.
			out := mustRun(t, "backup", "--db", w.db, backup)
			if !strings.Contains(out, "checked") || !strings.Contains(out, "no problems") {
				t.Errorf("titm backup: %s", out)
			}
		}
		for _, id := range ids {
			w.waitPast(id, at[id])
		}
	}
	fi, err := os.Stat(backup)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the backup: %v, %v", err, fi)
	}
	// Before the restore: where each game is.
	want := map[string]string{}
	wantImpulses := map[string]int{}
	for _, id := range ids {
		g := w.game(id)
		want[id] = adjudicator.StateHash(g.State)
		wantImpulses[id] = rounds
	}
	w.stop()
	for _, id := range ids {
		var n int
		readStore(t, w.db, func(tx *store.Tx) {
			log, _ := tx.Log(id)
			n = impulsesOf(log)
		})
		if n != rounds {
			t.Fatalf("game %s has %d impulses before the restore, want %d", id, n, rounds)
		}
	}

	// The backup: consistent, somewhere in the burst.
	var behind int
	readStore(t, backup, func(tx *store.Tx) {
		for _, id := range ids {
			log, err := tx.Log(id)
			if err != nil {
				t.Fatal(err)
			}
			n := impulsesOf(log)
			if n < rounds/2 || n > rounds/2+1 {
				t.Errorf("game %s has %d impulses in the backup, taken in round %d", id, n, rounds/2+1)
			}
			behind += rounds - n
		}
	})
	t.Logf("the backup is %d impulse(s) behind, in all", behind)

	// Restore: the backup in the store's place; every mail handled put
	// back in the folder.
	if err := os.Rename(backup, w.db); err != nil {
		t.Fatal(err)
	}
	w.imapDo(func(c *imapclient.Client) error {
		if _, err := c.Select("processed", nil).Wait(); err != nil {
			return err
		}
		_, err := c.Move(imap.SeqSet{imap.SeqRange{Start: 1, Stop: 0}}, "INBOX").Wait()
		return err
	})
	w.start()
	for _, id := range ids {
		if !waitfor.Within(30*time.Second, func() bool { return adjudicator.StateHash(w.game(id).State) == want[id] }) {
			t.Fatalf("game %s is at %s, not where it was before the restore", id, w.game(id).State.Next)
		}
	}
	// Every mail handled, and none twice.
	var left uint32
	if !waitfor.Within(30*time.Second, func() bool {
		w.imapDo(func(c *imapclient.Client) error {
			st, err := c.Status("INBOX", &imap.StatusOptions{NumMessages: true}).Wait()
			if err == nil {
				left = *st.NumMessages
			}
			return err
		})
		return left == 0
	}) {
		t.Fatalf("%d mails left in the referee's folder", left)
	}
	w.stop()
	readStore(t, w.db, func(tx *store.Tx) {
		for _, id := range ids {
			log, _ := tx.Log(id)
			if n := impulsesOf(log); n != wantImpulses[id] {
				t.Errorf("game %s has %d impulses after the restore, want %d: a mail applied twice or not at all", id, n, wantImpulses[id])
			}
		}
	})
	if code, out, errs := runT(t, "check-store", "--db", w.db); code != exitOK || !strings.Contains(out, "no problems") {
		t.Errorf("check-store after the restore: exit %d\n%s%s", code, out, errs)
	}
	// And play goes on.
	w.start()
	at := w.game(ids[0]).State.Next.String()
	w.order(ids[0], tokens[0])
	w.waitPast(ids[0], at)
}

// readStore opens a store file read-only for f.
func readStore(t *testing.T, path string, f func(tx *store.Tx)) {
	t.Helper()
	st, err := store.Open(path, &store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	st.View(func(tx *store.Tx) error { f(tx); return nil })
}

// check-store, compact and status reach the store through a running
// daemon, and open it themselves without one; the compacted store keeps
// every game and mail, and a daemon started on it goes on.
func TestStoreCommands(t *testing.T) {
	t.Parallel()
	w := newOpsWorld(t, "")
	w.start()
	ids, tokens := w.newGames(2)
	for i, id := range ids {
		at := w.game(id).State.Next.String()
		w.order(id, tokens[i])
		w.waitPast(id, at)
	}
	for _, live := range []bool{true, false} {
		if !live {
			w.stop()
		}
		out := mustRun(t, "check-store", "--db", w.db)
		if !strings.Contains(out, "2 game(s)") || !strings.Contains(out, "2 replayed") || !strings.Contains(out, "no problems") {
			t.Errorf("check-store (daemon %v): %s", live, out)
		}
		// The store named as a FILE, as an operator may, the daemon
		// holding it or not.
		out = mustRun(t, "check-store", w.db)
		if !strings.Contains(out, w.db+": schema version") || !strings.Contains(out, "2 replayed") || !strings.Contains(out, "no problems") {
			t.Errorf("check-store FILE (daemon %v): %s", live, out)
		}
		code, out, errs := runT(t, "status", "--db", w.db)
		if code != exitOK || !strings.Contains(out, "2 game(s)") || strings.Contains(out, "not running") == live {
			t.Errorf("status (daemon %v): exit %d\n%s%s", live, code, out, errs)
		}
		if live && !strings.Contains(out, "IMAP:          connected since") {
			t.Errorf("status of a daemon: %s", out)
		}
		before := map[string]string{}
		readOrShow := func(id string) string {
			if live {
				return w.game(id).Head
			}
			var head string
			readStore(t, w.db, func(tx *store.Tx) { g, _ := tx.Summary(id); head = g.Head })
			return head
		}
		for _, id := range ids {
			before[id] = readOrShow(id)
		}
		out = mustRun(t, "compact", "--db", w.db)
		if !strings.HasPrefix(out, "compacted "+w.db) {
			t.Errorf("compact (daemon %v): %s", live, out)
		}
		for _, id := range ids {
			if readOrShow(id) != before[id] {
				t.Errorf("game %s changed in the compaction", id)
			}
		}
		if out := mustRun(t, "check-store", "--db", w.db); !strings.Contains(out, "no problems") {
			t.Errorf("check-store after compact (daemon %v): %s", live, out)
		}
	}
	// A daemon on the compacted store goes on.
	w.start()
	for i, id := range ids {
		at := w.game(id).State.Next.String()
		w.order(id, tokens[i])
		w.waitPast(id, at)
	}
	// A backup file is checked on its own.
	b := filepath.Join(t.TempDir(), "b.db")
	mustRun(t, "backup", "--db", w.db, b)
	if out := mustRun(t, "check-store", b); !strings.Contains(out, b+": schema version") {
		t.Errorf("check-store of a file: %s", out)
	}
}

// titm serve, run as the service unit runs it (docs/titm.service), with its
// web listener, its backups and JSON logs, stops cleanly on SIGTERM well
// within the unit's TimeoutStopSec, leaving the store free for the next
// start.
func TestServeStopsOnSIGTERM(t *testing.T) {
	dir := t.TempDir()
	web := "127.0.0.1:" + freePort(t)
	w := newOpsWorld(t, fmt.Sprintf("[backup]\ndir = %q\nevery = \"1h\"\n[web]\nlisten = %q\n[log]\nformat = \"json\"\n",
		filepath.Join(dir, "backups"), web))
	config := filepath.Join(dir, "titm.toml")
	if err := os.WriteFile(config, []byte(w.text), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "serve", "--config", config)
	cmd.Env = append(os.Environ(), "TITM_RUN_MAIN=1")
	var stderr syncBuffer
	cmd.Stdout, cmd.Stderr = io.Discard, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	stopped := false
	defer func() {
		if !stopped {
			cmd.Process.Kill()
			<-exited
		}
	}()

	// Up: /health answers 200 with the inbox connected.
	var s mail.Status
	var err error
	if !waitfor.Within(20*time.Second, func() bool {
		var resp *http.Response
		if resp, err = http.Get("http://" + web + "/health"); err != nil {
			return false
		}
		err = json.NewDecoder(resp.Body).Decode(&s)
		resp.Body.Close()
		return err == nil && resp.StatusCode == http.StatusOK && s.IMAP.Connected
	}) {
		t.Fatalf("no healthy /health 20 s after the start: %v %+v\n%s", err, s, stderr.String())
	}

	// The unit's TimeoutStopSec is 30 s; the daemon should need far less.
	cmd.Process.Signal(syscall.SIGTERM)
	sent := time.Now()
	select {
	case err := <-exited:
		stopped = true
		if err != nil {
			t.Fatalf("serve did not exit cleanly on SIGTERM: %v\n%s", err, stderr.String())
		}
		t.Logf("serve exited %s after SIGTERM", time.Since(sent).Round(time.Millisecond))
		if took := time.Since(sent); took > 5*time.Second {
			t.Errorf("serve took %s to stop on SIGTERM, want under 5 s", took)
		}
	case <-time.After(30 * time.Second):
		cmd.Process.Signal(syscall.SIGQUIT)
		<-exited
		stopped = true
		t.Fatalf("serve did not stop within the unit's 30 s of SIGTERM:\n%s", stderr.String())
	}

	// Every log line is JSON, as [log] format asks, for the journal.
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	for _, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil || m["msg"] == nil || m["level"] == nil {
			t.Errorf("a log line that is not JSON: %q (%v)", l, err)
		}
	}
	// The store and its socket are free for the next start.
	if isSocket(filepath.Join(filepath.Dir(w.db), "titm.db.sock")) {
		t.Errorf("the control socket is left behind")
	}
	st, err := store.Open(w.db, &store.Options{Timeout: time.Second})
	if err != nil {
		t.Fatalf("the store after the stop: %v", err)
	}
	st.Close()
}
