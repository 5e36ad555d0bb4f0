package main

import (
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"titm/adjudicator/referee"
	"titm/store"
)

// TestMain lets the tests run titm as a separate process, as a user does
// beside a running daemon.
func TestMain(m *testing.M) {
	if os.Getenv("TITM_RUN_MAIN") == "1" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// titmProcess runs titm in a child process.
func titmProcess(t *testing.T, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "TITM_RUN_MAIN=1")
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return string(out), code
}

// While a daemon holds the store, the game commands of another process go
// through its control socket and work as without it.
func TestControlSocket(t *testing.T) {
	t.Parallel()
	fixClock(t)
	db := filepath.Join(t.TempDir(), "titm.db")
	id, _ := newGame(t, db, "intro")
	st, err := store.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctl, err := listenControl(socketFor(db), &host{st: st, ref: referee.New(nil), now: time.Now}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer ctl.Close()
	fi, err := os.Stat(socketFor(db))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("control socket mode %v, %v; want 0600", fi.Mode().Perm(), err)
	}
	out, code := titmProcess(t, "games", "--db", db)
	if code != 0 || !strings.Contains(out, id+"  intro") {
		t.Errorf("games through the socket: exit %d\n%s", code, out)
	}
	out, code = titmProcess(t, "join", id, "--db", db, "--side", "german", "--seed", "through the socket")
	if code != 0 || !strings.Contains(out, "the German player joined") {
		t.Errorf("join through the socket: exit %d\n%s", code, out)
	}
	// The change was made by the daemon's process, in its store.
	g := func() string {
		var s string
		st.View(func(tx *store.Tx) error {
			g, err := tx.Game(id)
			if err == nil {
				s = g.Players["german"].Seed
			}
			return err
		})
		return s
	}()
	if g != "through the socket" {
		t.Errorf("the German seed in the daemon's store is %q", g)
	}
	out, code = titmProcess(t, "show", "nosuch-1", "--db", db)
	if code != exitProblems || !strings.Contains(out, "no such game") {
		t.Errorf("an error through the socket: exit %d\n%s", code, out)
	}
	// verify needs no store, and validate is not a game command.
	out, code = titmProcess(t, "pause", id, "--db", db, "--reason", "r")
	if code == 0 || !strings.Contains(out, "forming") {
		t.Errorf("pause of a forming game: exit %d\n%s", code, out)
	}
}
