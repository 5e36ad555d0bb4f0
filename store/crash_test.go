package store_test

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"titm/adjudicator"
	"titm/store"
)

// The crash test's child process: it writes game changes to the store at
// TITM_CRASH_STORE until it is killed.
func TestCrashWriter(t *testing.T) {
	path := os.Getenv("TITM_CRASH_STORE")
	if path == "" {
		t.Skip("run by TestCrashSafety as its child process")
	}
	crashWriter(t, path)
}

// crashWriter makes one change after another, each as the daemon makes it:
// a message's orders applied to a game (or a new game when the last one is
// over), two report mails queued and the message marked processed, all in
// one transaction. Message n is UID n of the mailbox.
func crashWriter(t *testing.T, path string) {
	s, err := store.Open(path, &store.Options{Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	for {
		err := s.Update(func(tx *store.Tx) error {
			uid := uint32(1)
			for {
				_, done, err := tx.WasProcessed("INBOX", 1, uid, "")
				if err != nil {
					return err
				}
				if !done {
					break
				}
				uid++
			}
			games, err := tx.Games()
			if err != nil {
				return err
			}
			var g *adjudicator.Game
			var recs []adjudicator.Record
			if n := len(games); n == 0 || games[n-1].Status == adjudicator.Finished {
				g = makeGame(t, tx, "intro", secret(byte(uid)))
				recs = []adjudicator.Record{{Seq: 0}}
			} else {
				if g, err = tx.Game(games[n-1].ID); err != nil {
					return err
				}
				recs = playImpulse(t, g, t0.Add(time.Duration(uid)*time.Minute))
				if err := tx.SaveGame(g, recs); err != nil {
					return err
				}
			}
			for _, to := range []string{"g@example.test", "a@example.test"} {
				m := &store.Mail{Game: g.ID, From: "ref@example.test", To: []string{to},
					Subject: fmt.Sprintf("uid %d", uid), Data: []byte("report"), Created: t0}
				if err := tx.Queue(m); err != nil {
					return err
				}
			}
			return tx.MarkProcessed(store.Processed{Mailbox: "INBOX", UIDValidity: 1, UID: uid,
				MessageID: fmt.Sprintf("<%d@example.test>", uid), Game: g.ID, Time: t0,
				Outcome: fmt.Sprintf("%s %d", g.ID, recs[0].Seq)})
		})
		if err != nil {
			t.Fatal(err)
		}
		// The parent kills the writer only after its first commit, so
		// that every run makes progress however slow the machine is.
		fmt.Println("committed")
	}
}

// A crash at any moment leaves every game before or after each change,
// never between: the writer is killed with SIGKILL at random moments, and
// after each kill the file opens, every game agrees with its log, every log
// replays, and every message marked processed has its change and its mails,
// and no other message has any.
func TestCrashSafety(t *testing.T) {
	if testing.Short() {
		t.Skip("kills a writer many times")
	}
	path := t.TempDir() + "/crash.db"
	rng := rand.New(rand.NewPCG(1, 2))
	kills := 30
	for i := 0; i < kills; i++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCrashWriter$", "-test.count=1")
		cmd.Env = append(os.Environ(), "TITM_CRASH_STORE="+path)
		var out strings.Builder
		cmd.Stderr = &out
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		committed := make(chan struct{})
		go func() {
			var once sync.Once
			sc := bufio.NewScanner(stdout)
			for sc.Scan() {
				if sc.Text() == "committed" {
					once.Do(func() { close(committed) })
				}
			}
		}()
		select {
		case <-committed:
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("kill %d: the writer committed nothing in 30 s:\n%s", i, out.String())
		}
		time.Sleep(time.Duration(rng.IntN(200)) * time.Millisecond)
		cmd.Process.Signal(syscall.SIGKILL)
		err = cmd.Wait()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
			t.Fatalf("kill %d: the writer ended by itself (%v):\n%s", i, err, out.String())
		}
		checkConsistent(t, path, i)
	}
	s, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.View(func(tx *store.Tx) error {
		games, _ := tx.Games()
		mails, _ := tx.Outbox("")
		t.Logf("after %d kills: %d games, %d mails, %d messages", kills, len(games), len(mails), len(mails)/2)
		if len(mails) < 2*kills {
			t.Errorf("only %d messages were processed in %d runs: the writer barely ran", len(mails)/2, kills)
		}
		return nil
	})
}

func checkConsistent(t *testing.T, path string, kill int) {
	t.Helper()
	s, err := store.Open(path, nil)
	if err != nil {
		t.Fatalf("after kill %d: %v", kill, err)
	}
	defer s.Close()
	err = s.View(func(tx *store.Tx) error {
		games, err := tx.Games()
		if err != nil {
			return err
		}
		for _, h := range games {
			g, err := tx.Game(h.ID)
			if err != nil {
				return err
			}
			log, err := tx.Log(g.ID)
			if err != nil {
				return err
			}
			if len(log) != g.Log || log[len(log)-1].Hash != g.Head {
				return fmt.Errorf("game %s is at record %d, its log has %d", g.ID, g.Log, len(log))
			}
			rp, err := adjudicator.Replay(g.Header(), log, g.Secret())
			if err != nil {
				return fmt.Errorf("game %s: %w", g.ID, err)
			}
			if adjudicator.StateHash(rp.Game.State) != adjudicator.StateHash(g.State) {
				return fmt.Errorf("game %s: its position is not the one its log leads to", g.ID)
			}
		}
		mails, err := tx.Outbox("")
		if err != nil {
			return err
		}
		n := uint32(0)
		for {
			p, ok, err := tx.WasProcessed("INBOX", 1, n+1, "")
			if err != nil {
				return err
			}
			if !ok {
				break
			}
			n++
			var id string
			var seq int
			fmt.Sscanf(strings.Replace(p.Outcome, " ", "\t", 1), "%s\t%d", &id, &seq)
			log, err := tx.Log(id)
			if err != nil || seq >= len(log) {
				return fmt.Errorf("message %d changed %s at record %d, which is not in the log (%v)", n, id, seq, err)
			}
		}
		if len(mails) != 2*int(n) {
			return fmt.Errorf("%d messages processed, %d mails queued", n, len(mails))
		}
		for i, m := range mails {
			if want := fmt.Sprintf("uid %d", i/2+1); m.Subject != want {
				return fmt.Errorf("mail %d is for %q, want %q", m.ID, m.Subject, want)
			}
		}
		for uid := n + 1; uid < n+10; uid++ {
			if _, ok, _ := tx.WasProcessed("INBOX", 1, uid, ""); ok {
				return fmt.Errorf("message %d is processed, but %d is not", uid, n+1)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("after kill %d: %v", kill, err)
	}
}
