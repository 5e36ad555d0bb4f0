package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"os"
	"sync"
	"time"

	"titm/internal/daemon"
	"titm/store"
)

// bbolt lets one process hold the store. While titm serve runs, the game
// commands reach it through a Unix socket beside the store (mode 0600, so
// only the store's owner can use it): a command sends its request, the
// daemon serves it on its open store as the command would have, and sends
// back the response. Without a daemon the commands open the file
// themselves.

// storeFlags are the flags that say where a game command's store is.
type storeFlags struct {
	db     string // the bbolt file
	socket string // the control socket of a daemon holding it; "" for the default
}

// defaultDB is the store the game commands use without --db.
const defaultDB = "titm.db"

func addStoreFlags(fs *flag.FlagSet) *storeFlags {
	sf := &storeFlags{}
	fs.StringVar(&sf.db, "db", defaultDB, "the store: a bbolt file, made when missing")
	fs.StringVar(&sf.socket, "socket", "", "the control socket of a daemon that holds the store (default: the store's path and .sock, as serve makes it)")
	return sf
}

// socketFor is the control socket of a store, by default.
func socketFor(db string) string { return db + ".sock" }

// do serves a request on the store: opened here, or, when a daemon holds
// it, by the daemon through its control socket. write says whether the
// request may change the store. The response's error is returned as the
// error.
func (c *cli) do(sf *storeFlags, req request, write bool) (*response, error) {
	req.Version = protocol
	if !write {
		if _, err := os.Stat(sf.db); errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("no store at %s: make a game first with titm new, or name the store with --db", sf.db)
		}
	}
	st, err := store.Open(sf.db, &store.Options{ReadOnly: !write})
	if errors.Is(err, store.ErrLocked) {
		sock := sf.socket
		if sock == "" {
			sock = socketFor(sf.db)
		}
		if isSocket(sock) {
			resp, err := forward(sock, req)
			if err != nil {
				return nil, err
			}
			return resp, resp.err()
		}
	}
	if err != nil {
		return nil, err
	}
	defer st.Close()
	h, err := localHost(st, c.now)
	if err != nil {
		return nil, err
	}
	resp := h.serve(req)
	return resp, resp.err()
}

func isSocket(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode()&os.ModeSocket != 0
}

// forward sends a request to the daemon and returns its response.
func forward(socket string, req request) (*response, error) {
	c, err := net.DialTimeout("unix", socket, 5*time.Second)
	if err != nil {
		return nil, fmt.Errorf("the store is in use, and its daemon does not answer at %s: %w", socket, err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Minute))
	if err := json.NewEncoder(c).Encode(req); err != nil {
		return nil, fmt.Errorf("sending to the daemon: %w", err)
	}
	var resp response
	if err := json.NewDecoder(c).Decode(&resp); err != nil {
		return nil, fmt.Errorf("reading the daemon's answer: %w", err)
	}
	if resp.Version != protocol {
		return nil, fmt.Errorf("the daemon at %s answers in version %d of the control protocol, not %d: run the same titm as the daemon", socket, resp.Version, protocol)
	}
	return &resp, nil
}

// damage is where the daemon remembers the damage its doors met
// (internal/daemon), which the host's requests on the socket note.
type damage = daemon.Damage

// control is the daemon's side of the socket.
type control struct {
	ln  net.Listener
	h   *host
	log *slog.Logger
	wg  sync.WaitGroup

	mu      sync.Mutex
	closing bool
	reading net.Conn // the connection whose request is being read, if any
}

// listenControl listens on the socket and serves the requests sent to it,
// one at a time, with the daemon's host.
func listenControl(path string, h *host, log *slog.Logger) (*control, error) {
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
	c := &control{ln: ln, h: h, log: log}
	c.wg.Add(1)
	go c.serve()
	return c, nil
}

func (c *control) serve() {
	defer c.wg.Done()
	var wait time.Duration
	for {
		conn, err := c.ln.Accept()
		if errors.Is(err, net.ErrClosed) {
			return
		}
		if err != nil {
			// Out of file descriptors, most likely: the socket must not
			// stop for good, so it tries again, less often while it
			// fails, as net/http's server does.
			wait = min(max(2*wait, 5*time.Millisecond), time.Second)
			c.log.Error("control: accepting a connection", "err", err, "again_in", wait)
			time.Sleep(wait)
			continue
		}
		wait = 0
		c.handle(conn)
	}
}

func (c *control) handle(conn net.Conn) {
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(5 * time.Minute))
	var req request
	var resp *response
	if err := c.read(conn, &req); err != nil {
		resp = &response{Version: protocol, Error: err.Error()}
	} else if err := daemon.Contain(c.log, "control: "+req.Act, func() error { resp = c.h.serve(req); return nil }); err != nil {
		// The socket must never end the daemon: a request that panics,
		// as bbolt does on a damaged page, is answered with the
		// problem, and the next is served.
		resp = &response{Version: protocol, Error: err.Error()}
		c.h.damage.Note(err)
	}
	c.log.Info("control: request served", "act", req.Act, "game", req.Game, "error", resp.Error)
	json.NewEncoder(conn).Encode(resp)
}

// read reads a request from conn. Close cuts a read in progress: a
// client that connected and sends nothing, or slowly, must not hold the
// daemon's stop.
func (c *control) read(conn net.Conn, req *request) error {
	c.mu.Lock()
	if c.closing {
		c.mu.Unlock()
		return errors.New("the daemon is stopping: run the command again once it has stopped")
	}
	c.reading = conn
	c.mu.Unlock()
	err := json.NewDecoder(bufio.NewReader(conn)).Decode(req)
	c.mu.Lock()
	c.reading = nil
	closing := c.closing
	c.mu.Unlock()
	switch {
	case err != nil && closing:
		return errors.New("the daemon stopped before the request came in full: run the command again")
	case err != nil:
		return fmt.Errorf("a bad request on the control socket: %w", err)
	}
	return nil
}

// Close stops listening, cuts a request still being received, waits for
// the one being served and removes the socket.
func (c *control) Close() error {
	err := c.ln.Close()
	c.mu.Lock()
	c.closing = true
	if c.reading != nil {
		c.reading.SetReadDeadline(time.Now())
	}
	c.mu.Unlock()
	c.wg.Wait()
	return err
}
