package main

import (
	"bufio"
	"bytes"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
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
// flow, and SIGTERM stops it cleanly.
func TestDemoAutoplay(t *testing.T) {
	cmd := exec.Command(os.Args[0], "demo", "--autoplay", "--impulses", "2", "--quiet",
		"--imap", "127.0.0.1:"+freePort(t), "--smtp", "127.0.0.1:"+freePort(t))
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
	deadline := time.After(30 * time.Second)
	for done := false; !done; {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("the demo ended early:\n%s", strings.Join(seen, "\n"))
			}
			seen = append(seen, l)
			done = strings.Contains(l, "the allied player sends orders for A16-1")
		case <-deadline:
			t.Fatalf("the demo's players did not play A16-1 in 30 s:\n%s", strings.Join(seen, "\n"))
		}
	}
	text := strings.Join(seen, "\n")
	for _, want := range []string{"german@demo.test  password demo", "the german player joins game intro-1", "the german player sends orders for G16-1"} {
		if !strings.Contains(text, want) {
			t.Errorf("the demo did not print %q:\n%s", want, text)
		}
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
