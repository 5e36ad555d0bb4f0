package mail_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	gomail "github.com/emersion/go-message/mail"

	"titm/adjudicator"
	"titm/internal/daemon"
	"titm/mail"
	"titm/store"
)

// A daemon in a child process, for the crash tests and the benchmarks: with
// TITM_DAEMON_KILL set to n (1 when it is not a number) it kills itself
// with SIGKILL right after its n-th commit, before it moves the message;
// otherwise it runs until SIGTERM.
func TestDaemonChild(t *testing.T) {
	path := os.Getenv("TITM_DAEMON_CONFIG")
	if path == "" {
		t.Skip("run by TestKilledBetweenCommitAndMove as its child process")
	}
	cfg, err := daemon.LoadConfig(path, os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(cfg.Store.Path, &store.Options{Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	debug.SetMemoryLimit(36 << 20) // as titm serve sets it
	log := quiet()
	if os.Getenv("TITM_DAEMON_PROFILE") != "" {
		// Its log at debug level, each record with its time, to its
		// standard error, which BenchmarkThousandGames keeps beside the
		// profiles: where the time goes between the mails.
		log = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	if v := os.Getenv("TITM_DAEMON_KILL"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			n = 1
		}
		// The inbox logs "mail handled" once a mail's outcome is
		// committed, before it moves the message.
		commits := 0
		log = logOn("mail handled", func(r slog.Record) {
			if strings.HasPrefix(attr(r, "outcome"), "already processed") {
				return // nothing was committed
			}
			if commits++; commits == n {
				syscall.Kill(os.Getpid(), syscall.SIGKILL)
			}
		})
	}
	d := mail.NewDaemon(&cfg.Config, st, log, time.Now)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	d.Run(ctx)
	if os.Getenv("TITM_DAEMON_KILL") != "" {
		t.Fatal("the daemon returned")
	}
}

// A daemon killed between the commit of a mail and its move to the
// processed folder, then started again, neither applies nor answers the
// mail a second time: the message is found processed, and only moved.
func TestKilledBetweenCommitAndMove(t *testing.T) {
	w := newWorld(t, &worldOptions{noStart: true})
	// Both players join, and the welcomes are sent, before the child runs.
	err := w.st.Update(func(tx *store.Tx) error { return joinAll(tx, w.game) })
	if err != nil {
		t.Fatal(err)
	}
	if _, err := mail.NewSender(&w.cfg.SMTP, gomail.Address{Address: referee}, w.st, quiet(), time.Now).Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	w.st.Close()
	conf := filepath.Join(t.TempDir(), "titm.toml")
	os.WriteFile(conf, []byte(w.configText("")), 0o600)
	raw, _ := message(german, "orders", fmt.Sprintf("GAME %s\nTOKEN %s\nIMPULSE 16-1\nENTRENCH 212/423\n", w.game, w.tokens[german]))
	w.srv.Deliver(referee, raw)

	// A child that never kills itself (it did not log the record it
	// waits for) would hang the test: after a minute it is made to quit,
	// which writes its goroutines and fails the test, not killed with the
	// signal the test waits for.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestDaemonChild$", "-test.count=1")
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGQUIT) }
	cmd.WaitDelay = 10 * time.Second
	cmd.Env = append(os.Environ(), "TITM_DAEMON_CONFIG="+conf, "TITM_DAEMON_KILL=1")
	out, _ := cmd.CombinedOutput()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ctx.Err() != nil || !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("the child was not killed after its commit (%v):\n%s", ctx.Err(), out)
	}
	st, err := store.Open(w.db, nil)
	if err != nil {
		t.Fatal(err)
	}
	w.st = st
	t.Cleanup(func() { st.Close() })
	if n := impulses(w.log()); n != 1 {
		t.Fatalf("after the kill the log has %d impulses, want the 1 committed", n)
	}
	if n := len(w.inbox(referee)); n != 1 {
		t.Fatalf("after the kill the referee's INBOX has %d mails, want the 1 not yet moved", n)
	}
	nG := len(w.inbox(german))
	w.start()
	w.waitMail(german, nG+1)
	w.settle()
	if got := len(w.inbox(german)) - nG; got != 1 {
		t.Errorf("the German player got %d reports for one mail, want 1", got)
	}
	if n := impulses(w.log()); n != 1 {
		t.Errorf("after the restart the log has %d impulses, want 1", n)
	}
	if n := w.folderSize(referee, "processed"); n != 1 {
		t.Errorf("the processed folder has %d mails, want 1", n)
	}
}

func impulses(log []adjudicator.Record) int {
	n := 0
	for _, r := range log {
		if r.Kind == adjudicator.KindImpulse {
			n++
		}
	}
	return n
}

// folderSize counts the mails in one of the referee's folders with STATUS,
// which reads no mail and so is safe while the daemon moves them.
func (w *world) folderSize(addr, folder string) int {
	w.t.Helper()
	c, err := imapclient.DialInsecure(w.imapAddr(), nil)
	if err != nil {
		w.t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login(addr, "ref-pass").Wait(); err != nil {
		w.t.Fatal(err)
	}
	data, err := c.Status(folder, &imap.StatusOptions{NumMessages: true}).Wait()
	if err != nil {
		w.t.Fatal(err)
	}
	return int(*data.NumMessages)
}
