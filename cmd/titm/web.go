package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"titm/mail"
)

// web is the daemon's HTTP listener ([web] listen). It serves the health
// at /health: the status as JSON, 200 while healthy and 503 when not, for
// a monitor to alert on; and every other path to the public journal of the
// games (adjudicator/journal), which reads the store and writes nothing.
type web struct {
	srv  *http.Server
	ln   net.Listener
	done chan struct{}
}

// addr is the address listened on.
func (wb *web) addr() string { return wb.ln.Addr().String() }

// startWeb listens on addr and serves until Close: the health, and the
// journal at every other path when it is not nil.
func startWeb(addr string, status func() (*mail.Status, error), journal http.Handler, log *slog.Logger) (*web, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("web.listen: %w", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /health", func(w http.ResponseWriter, r *http.Request) {
		s, err := status()
		if err != nil {
			log.Error("health", "err", err)
			http.Error(w, "the status cannot be read: "+err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		if !s.Healthy {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.Encode(s)
	})
	if journal != nil {
		mux.Handle("/", journal)
	}
	// The timeouts keep a slow or idle client from holding a connection
	// for ever; a health answer is small and quick.
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 10 * time.Second,
		WriteTimeout: 30 * time.Second, IdleTimeout: time.Minute, MaxHeaderBytes: 16 << 10,
		ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
	wb := &web{srv: srv, ln: ln, done: make(chan struct{})}
	go func() {
		defer close(wb.done)
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("web: the listener stopped", "addr", addr, "err", err)
		}
	}()
	log.Info("web: listening", "addr", ln.Addr().String(), "health", "/health", "journal", journal != nil)
	return wb, nil
}

// Close stops the listener, letting requests in hand finish for a few
// seconds.
func (wb *web) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := wb.srv.Shutdown(ctx)
	<-wb.done
	return err
}
