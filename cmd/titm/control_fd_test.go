package main

import (
	"encoding/json"
	"errors"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"titm/internal/waitfor"
	"titm/mail"
	"titm/store"
)

// fdChildEnv, set, runs TestControlOutOfDescriptors itself rather than in a
// child process.
const fdChildEnv = "TITM_CONTROL_FD_CHILD"

// The control socket outlives a failure to accept: with the process out
// of file descriptors, a client that connects is not accepted, and the
// socket tries again rather than stop for good; once descriptors are free,
// the client's request is answered.
//
// It runs in a process of its own: the limit of descriptors is the
// process's, and any other test's goroutine that opens a file while it is
// lowered (a server still closing, say) would take the one left for the
// client.
func TestControlOutOfDescriptors(t *testing.T) {
	if os.Getenv(fdChildEnv) == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestControlOutOfDescriptors$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), fdChildEnv+"=1")
		out, err := cmd.CombinedOutput()
		switch {
		case err != nil:
			t.Fatalf("in a process of its own: %v\n%s", err, out)
		case strings.Contains(string(out), "--- SKIP"):
			t.Skipf("skipped in its process:\n%s", out)
		case !strings.Contains(string(out), "--- PASS: TestControlOutOfDescriptors"):
			t.Fatalf("its process did not run it:\n%s", out)
		}
		return
	}
	var logs syncBuffer
	db := filepath.Join(t.TempDir(), "titm.db")
	st, err := store.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctl, err := listenControl(socketFor(db), &host{st: st, now: time.Now, status: func() (*mail.Status, error) { return &mail.Status{Healthy: true}, nil }},
		slog.New(slog.NewTextHandler(&logs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer ctl.Close()

	// The soft limit lowered to the descriptors open and a few, those
	// few taken by files, and one given back for the client's socket.
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &old); err != nil {
		t.Fatal(err)
	}
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("no /proc/self/fd: %v", err)
	}
	low := old
	low.Cur = uint64(len(fds) + 8)
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &low); err != nil {
		t.Fatal(err)
	}
	var held []*os.File
	release := func() {
		for _, f := range held {
			f.Close()
		}
		held = nil
		syscall.Setrlimit(syscall.RLIMIT_NOFILE, &old)
	}
	defer release()
	// The table of descriptors is the whole process's, and another part
	// of it may hold one for a moment: counted while it was open, it
	// is a second one free once let go, and the server accepts; taken
	// while the client dials, the dial fails. So every descriptor free is
	// taken, twice, some time apart, and a try that went either way is
	// made again.
	fill := func() {
		for {
			f, err := os.Open(os.DevNull)
			if errors.Is(err, syscall.EMFILE) {
				return
			}
			if err != nil {
				release()
				t.Fatal(err)
			}
			held = append(held, f)
		}
	}
	var c net.Conn
	for try := 1; c == nil; try++ {
		if try > 5 {
			release()
			t.Fatalf("the socket did not fail to accept with no descriptor free, in %d tries:\n%s", try-1, logs.String())
		}
		fill()
		time.Sleep(20 * time.Millisecond)
		fill()
		held[len(held)-1].Close()
		held = held[:len(held)-1]
		c, err = net.Dial("unix", socketFor(db))
		if errors.Is(err, syscall.EMFILE) {
			continue
		}
		if err != nil {
			release()
			t.Fatal(err)
		}
		if !waitfor.Within(10*time.Second, func() bool { return strings.Contains(logs.String(), "control: accepting a connection") }) {
			// Accepted: the server waits for a request that will not
			// come until the client goes.
			c.Close()
			c = nil
		}
	}
	defer c.Close()
	release()
	c.SetDeadline(time.Now().Add(time.Minute)) // against a hang, not a measure
	if err := json.NewEncoder(c).Encode(request{Version: protocol, Act: "status"}); err != nil {
		t.Fatal(err)
	}
	var resp response
	if err := json.NewDecoder(c).Decode(&resp); err != nil || resp.Error != "" || resp.Ops == nil || !resp.Ops.Status.Healthy {
		t.Errorf("the request after the failures to accept: %+v, %v\n%s", resp, err, logs.String())
	}
	if !strings.Contains(logs.String(), "too many open files") {
		t.Errorf("the failure to accept was not for want of descriptors:\n%s", logs.String())
	}
}
