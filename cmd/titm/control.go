package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"titm/rules/scenarios"
	"titm/store"
)

// bbolt lets one process hold the store. While titm serve runs, the game
// commands reach it through a Unix socket beside the store (mode 0600, so
// only the store's owner can use it): the command line goes to the daemon,
// which runs the same command on its open store and sends back what it
// printed. Without a daemon the commands open the file themselves.

// viaDaemon lists the commands the control socket runs.
var viaDaemon = []string{"new", "join", "play", "games", "show", "export", "dicelog", "report", "render", "pause", "resume", "extend", "rollback"}

// controlRequest is one command line sent to the daemon.
type controlRequest struct {
	Args []string `json:"args"`
}

// controlResponse is what the command printed and its exit code.
type controlResponse struct {
	Stdout string `json:"stdout"`
	Stderr string `json:"stderr"`
	Code   int    `json:"code"`
}

// shared is the store of the daemon this process is, when it is one: the
// commands it runs for the socket use it instead of opening the file.
var shared struct {
	sync.Mutex
	st *store.Store
}

// errDaemon is returned by openStore when a daemon holds the store: the
// command is to be sent to it.
type errDaemon struct{ socket string }

func (e errDaemon) Error() string { return "the store is held by a running daemon at " + e.socket }

// socketFor is the control socket of a store, by default.
func socketFor(db string) string { return db + ".sock" }

// openStore opens the store for a command, or returns the daemon's when
// the command runs inside it. release closes what was opened.
func openStore(path string, write bool) (st *store.Store, release func(), err error) {
	if shared.st != nil {
		return shared.st, func() {}, nil
	}
	if !write {
		if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
			return nil, nil, fmt.Errorf("no store at %s: make a game first with titm new, or name the store with --db", path)
		}
	}
	st, err = store.Open(path, &store.Options{ReadOnly: !write})
	if errors.Is(err, store.ErrLocked) {
		sock := socketFlag
		if sock == "" {
			sock = socketFor(path)
		}
		if isSocket(sock) {
			return nil, nil, errDaemon{sock}
		}
	}
	if err != nil {
		return nil, nil, err
	}
	return st, func() { st.Close() }, nil
}

func isSocket(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode()&os.ModeSocket != 0
}

// forward sends a command line to the daemon and prints its answer. Paths
// in the line are made absolute, since the daemon runs elsewhere, and
// standard input given as "-" is passed in a temporary file.
func forward(socket string, name string, args []string, stdout, stderr io.Writer) int {
	args = slices.Clone(args)
	for i := 0; i+1 < len(args); i++ {
		switch strings.TrimLeft(args[i], "-") {
		case "orders", "o":
			if args[i+1] == "-" {
				f, err := os.CreateTemp("", "titm-orders-*")
				if err != nil {
					fmt.Fprintf(stderr, "titm %s: %v\n", name, err)
					return exitProblems
				}
				defer os.Remove(f.Name())
				io.Copy(f, os.Stdin)
				f.Close()
				args[i+1] = f.Name()
			} else {
				args[i+1], _ = filepath.Abs(args[i+1])
			}
		case "scenario":
			if !scenarios.Shipped(args[i+1]) {
				args[i+1], _ = filepath.Abs(args[i+1])
			}
		}
	}
	c, err := net.DialTimeout("unix", socket, 5*time.Second)
	if err != nil {
		fmt.Fprintf(stderr, "titm %s: the store is in use, and its daemon does not answer at %s: %v\n", name, socket, err)
		return exitProblems
	}
	defer c.Close()
	if err := json.NewEncoder(c).Encode(controlRequest{Args: append([]string{name}, args...)}); err != nil {
		fmt.Fprintf(stderr, "titm %s: sending to the daemon: %v\n", name, err)
		return exitProblems
	}
	var resp controlResponse
	if err := json.NewDecoder(c).Decode(&resp); err != nil {
		fmt.Fprintf(stderr, "titm %s: reading the daemon's answer: %v\n", name, err)
		return exitProblems
	}
	io.WriteString(stdout, resp.Stdout)
	io.WriteString(stderr, resp.Stderr)
	return resp.Code
}

// control is the daemon's side of the socket.
type control struct {
	ln  net.Listener
	log *slog.Logger
	wg  sync.WaitGroup
}

// listenControl listens on the socket and runs the commands sent to it, one
// at a time, on the daemon's store.
func listenControl(path string, st *store.Store, log *slog.Logger) (*control, error) {
	if isSocket(path) {
		// A socket nobody answers on is left from a daemon that died.
		if c, err := net.DialTimeout("unix", path, time.Second); err == nil {
			c.Close()
			return nil, fmt.Errorf("control socket %s: another daemon answers on it", path)
		}
		os.Remove(path)
	}
	old := syscallUmask(0o077)
	ln, err := net.Listen("unix", path)
	syscallUmask(old)
	if err != nil {
		return nil, fmt.Errorf("control socket %s: %w", path, err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, fmt.Errorf("control socket %s: %w", path, err)
	}
	shared.Lock()
	shared.st = st
	shared.Unlock()
	c := &control{ln: ln, log: log}
	c.wg.Add(1)
	go c.serve()
	return c, nil
}

func (c *control) serve() {
	defer c.wg.Done()
	for {
		conn, err := c.ln.Accept()
		if err != nil {
			return
		}
		c.handle(conn)
	}
}

func (c *control) handle(conn net.Conn) {
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(5 * time.Minute))
	var req controlRequest
	if err := json.NewDecoder(bufio.NewReader(conn)).Decode(&req); err != nil || len(req.Args) == 0 {
		json.NewEncoder(conn).Encode(controlResponse{Stderr: "titm: a bad request on the control socket\n", Code: exitUsage})
		return
	}
	var resp controlResponse
	if !slices.Contains(viaDaemon, req.Args[0]) {
		resp = controlResponse{Stderr: fmt.Sprintf("titm: %s does not go through the daemon\n", req.Args[0]), Code: exitUsage}
	} else {
		var out, errb bytes.Buffer
		shared.Lock()
		resp.Code = run(req.Args, &out, &errb)
		shared.Unlock()
		resp.Stdout, resp.Stderr = out.String(), errb.String()
	}
	c.log.Info("control: command run", "command", req.Args[0], "code", resp.Code)
	json.NewEncoder(conn).Encode(resp)
}

// Close stops listening, waits for the command in hand and removes the
// socket.
func (c *control) Close() error {
	err := c.ln.Close()
	c.wg.Wait()
	shared.Lock()
	shared.st = nil
	shared.Unlock()
	return err
}
