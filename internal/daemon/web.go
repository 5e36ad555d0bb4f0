package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"titm/mail"
)

// Web is the daemon's HTTP listener ([web] listen). It serves the health
// at /health: the status as JSON, 200 while healthy and 503 when not, for
// a monitor to alert on; and every other path to the public journal of the
// games (adjudicator/journal), which reads the store and writes nothing.
type Web struct {
	srv  *http.Server
	ln   net.Listener
	done chan struct{}

	mu      sync.Mutex
	closing bool
	fresh   map[net.Conn]bool // connections accepted that have not begun a request
}

// Addr is the address listened on.
func (wb *Web) Addr() string { return wb.ln.Addr().String() }

// StartWeb listens on addr and serves until Close: the health, and the
// journal at every other path when it is not nil.
//
// Every request is served under Contain: a panic (bbolt's on a damaged
// page, or a fault of titm's own) is logged and answered, 503 with the
// problem at /health and 500 elsewhere, rather than leaving the client
// with a dropped connection.
func StartWeb(addr string, status func() (*mail.Status, error), journal http.Handler, log *slog.Logger) (*Web, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("web.listen: %w", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /health", func(w http.ResponseWriter, r *http.Request) {
		if !mail.Local(r) {
			http.Error(w, "the health is served over loopback only, to the operator", http.StatusForbidden)
			return
		}
		var s *mail.Status
		err := Contain(log, "health", func() error {
			var err error
			s, err = status()
			return err
		})
		if err != nil {
			// The status unread is the daemon unhealthy: a monitor
			// reads 503 and why, as of any other problem.
			log.Error("health", "err", err)
			s = &mail.Status{Now: time.Now(), Running: true, Problems: []string{"the status cannot be read: " + err.Error()}}
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		if !s.Healthy {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.Encode(s.Served())
	})
	if journal != nil {
		mux.Handle("/", journal)
	}
	wb := &Web{ln: ln, done: make(chan struct{}), fresh: map[net.Conn]bool{}}
	// The timeouts keep a slow or idle client from holding a connection
	// for ever; a health answer is small and quick.
	wb.srv = &http.Server{Handler: contained(mux, log), ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 10 * time.Second,
		WriteTimeout: 30 * time.Second, IdleTimeout: time.Minute, MaxHeaderBytes: 16 << 10,
		ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn), ConnState: wb.track}
	go func() {
		defer close(wb.done)
		if err := wb.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("web: the listener stopped", "addr", addr, "err", err)
		}
	}()
	log.Info("web: listening", "addr", wb.Addr(), "health", "/health", "journal", journal != nil)
	return wb, nil
}

// contained serves h's requests under Contain. A panic before the answer
// began is answered: 503 at /health (the daemon is not healthy), 500
// elsewhere, with a short text. After, the connection can only be cut.
func contained(h http.Handler, log *slog.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rw := &startedWriter{ResponseWriter: w}
		err := Contain(log, "web: "+r.URL.Path, func() error { h.ServeHTTP(rw, r); return nil })
		if err == nil {
			return
		}
		if rw.started {
			panic(http.ErrAbortHandler)
		}
		code := http.StatusInternalServerError
		if r.URL.Path == "/health" {
			code = http.StatusServiceUnavailable
		}
		text := "the page could not be read; the referee's operator has the error in the log"
		if errors.Is(err, errDamaged) {
			text = "the referee's store is damaged; the operator has the error in the log"
		}
		if code == http.StatusServiceUnavailable {
			text = err.Error()
		}
		w.Header().Set("Cache-Control", "no-store")
		http.Error(w, text, code)
	})
}

// startedWriter is a ResponseWriter that knows whether the answer began.
type startedWriter struct {
	http.ResponseWriter
	started bool
}

func (w *startedWriter) WriteHeader(code int) { w.started = true; w.ResponseWriter.WriteHeader(code) }

func (w *startedWriter) Write(b []byte) (int, error) {
	w.started = true
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (w *startedWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// track keeps the connections that have not begun a request. Once Close
// began, such a connection is closed as it comes.
func (wb *Web) track(c net.Conn, s http.ConnState) {
	wb.mu.Lock()
	defer wb.mu.Unlock()
	switch {
	case s == http.StateNew && wb.closing:
		c.Close()
	case s == http.StateNew:
		wb.fresh[c] = true
	default:
		delete(wb.fresh, c)
	}
}

// Close stops the listener, letting requests in hand finish for a few
// seconds. A connection without a request is closed at once: Shutdown
// closes those idle between requests, but waits for one accepted that has
// not begun its first (as a browser opens ahead of need) until it is 5 s
// old, which would hold the daemon's stop as long.
func (wb *Web) Close() error {
	wb.mu.Lock()
	wb.closing = true
	for c := range wb.fresh {
		c.Close()
	}
	wb.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := wb.srv.Shutdown(ctx)
	<-wb.done
	return err
}
