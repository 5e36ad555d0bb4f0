// Package sysserver holds what the test harnesses of system mail servers
// (Dovecot, Postfix) share: finding their programs, picking free ports, and
// skipping or failing when a server cannot run here.
package sysserver

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Unavailable reports that a server cannot be used here: a skip, or a
// failure where the environment variable env is set (as CI sets it, so that
// a missing server cannot pass the tests by skipping them). details, if any,
// follow on the next lines (e.g. the server's log).
func Unavailable(t testing.TB, env, summary, details string) {
	t.Helper()
	if details != "" {
		details = "\n" + details
	}
	if os.Getenv(env) != "" {
		t.Fatalf("%s (%s is set, so this fails rather than skips)%s", summary, env, details)
	}
	t.Skipf("%s (set %s=1 to fail instead)%s", summary, env, details)
}

// LookPath finds a program in PATH, or in the sbin and bin directories that
// a non-root user's PATH often lacks.
func LookPath(name string) (string, error) {
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	for _, dir := range []string{"/usr/sbin", "/usr/local/sbin", "/usr/bin", "/usr/local/bin"} {
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s not found in PATH, /usr/sbin or /usr/local/sbin", name)
}

// FreePorts asks the kernel for n free loopback ports, all different:
// each is held until all are found, as a port let go may be handed out
// again at once (two services of a server on one port, the second
// taking it over).
func FreePorts(n int) ([]int, error) {
	ports := make([]int, 0, n)
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("finding a free port: %w", err)
		}
		defer l.Close()
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}
