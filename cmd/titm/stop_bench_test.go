package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"titm/internal/daemon"
	"titm/internal/waitfor"
	"titm/store"
)

// idleConfig is the configuration of a daemon on the embedded servers, as
// config.example.toml has it, on free loopback ports, with its store in
// dir and the web listener on.
func idleConfig(tb testing.TB, dir string) *daemon.Config {
	tb.Helper()
	port := func() string {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			tb.Fatal(err)
		}
		defer ln.Close()
		return ln.Addr().String()
	}
	imapAddr, smtpAddr, webAddr := port(), port(), port()
	cfg, err := daemon.ParseConfig("idle", []byte(fmt.Sprintf(`[store]
path = %q
[referee]
address = "referee@idle.test"
[imap]
address = %q
security = "none"
username = "referee@idle.test"
password = "r"
[smtp]
address = %q
security = "none"
[web]
listen = %q
[embedded]
enabled = true
imap_address = %q
smtp_address = %q
[embedded.users]
"referee@idle.test" = "r"
"german@idle.test" = "g"
"allied@idle.test" = "a"
`, filepath.Join(dir, "titm.db"), imapAddr, smtpAddr, webAddr, imapAddr, smtpAddr)), func(string) string { return "" })
	if err != nil {
		tb.Fatal(err)
	}
	return cfg
}

// startIdle starts serve on cfg and returns once its inbox reads the
// folder and has had time to settle in IDLE, the sender to find the outbox
// empty: the daemon is idle. The returned channel gives serve's result.
func startIdle(tb testing.TB, ctx context.Context, cfg *daemon.Config) <-chan error {
	tb.Helper()
	logs := &syncBuffer{}
	done := make(chan error, 1)
	go func() { done <- serve(ctx, cfg, slog.New(slog.NewTextHandler(logs, nil)), &syncBuffer{}) }()
	if !waitfor.Within(30*time.Second, func() bool {
		select {
		case err := <-done:
			tb.Fatalf("serve ended: %v\n%s", err, logs.String())
		default:
		}
		return strings.Contains(logs.String(), "imap: reading")
	}) {
		tb.Fatalf("the daemon did not start reading in 30 s:\n%s", logs.String())
	}
	// The search of the empty folder and the IDLE command take a round
	// trip each on loopback.
	time.Sleep(50 * time.Millisecond)
	return done
}

// BenchmarkStopIdle measures how long an idle daemon on the embedded
// servers, with its control socket and web listener, takes to stop once
// its context ends, as SIGTERM ends it: from the end to serve's return,
// every listener closed and the store released. docs/operating.md
// promises a stop within 200 ms; the median of the stops is reported as
// ms/stop, the slowest as max-ms/stop. "clients" holds the connections of
// holdClients open meanwhile, which a stop used to wait for: up to 5 s
// for the web's, until its client went for the control socket's.
func BenchmarkStopIdle(b *testing.B) {
	for _, clients := range []bool{false, true} {
		name := "bare"
		if clients {
			name = "clients"
		}
		b.Run(name, func(b *testing.B) {
			dir := b.TempDir()
			var took []time.Duration
			for b.Loop() {
				b.StopTimer()
				cfg := idleConfig(b, dir)
				ctx, cancel := context.WithCancel(context.Background())
				done := startIdle(b, ctx, cfg)
				var held []net.Conn
				if clients {
					held = holdClients(b, cfg)
				}
				b.StartTimer()
				start := time.Now()
				cancel()
				err := <-done
				took = append(took, time.Since(start))
				b.StopTimer()
				for _, c := range held {
					c.Close()
				}
				if err != nil {
					b.Fatalf("serve: %v", err)
				}
				b.StartTimer()
			}
			slices.Sort(took)
			b.ReportMetric(float64(took[len(took)/2])/float64(time.Millisecond), "ms/stop")
			b.ReportMetric(float64(took[len(took)-1])/float64(time.Millisecond), "max-ms/stop")
		})
	}
}

// holdClients opens what a stop must not wait for: a connection to the
// web listener that has sent nothing (as a browser opens ahead of need),
// one idle after a request (a monitor's keep-alive), and a control client
// that connected and sends nothing. It returns them, to close after.
func holdClients(tb testing.TB, cfg *daemon.Config) []net.Conn {
	tb.Helper()
	fresh, err := net.Dial("tcp", cfg.Web.Listen)
	if err != nil {
		tb.Fatal(err)
	}
	kept, err := net.Dial("tcp", cfg.Web.Listen)
	if err != nil {
		tb.Fatal(err)
	}
	fmt.Fprintf(kept, "GET /health HTTP/1.1\r\nHost: titm\r\n\r\n")
	if _, err := http.ReadResponse(bufio.NewReader(kept), nil); err != nil {
		tb.Fatal(err)
	}
	ctl, err := net.Dial("unix", cfg.Store.ControlSocket)
	if err != nil {
		tb.Fatal(err)
	}
	// Time for the daemon to accept them, which this side cannot see.
	time.Sleep(20 * time.Millisecond)
	return []net.Conn{fresh, kept, ctl}
}

// A stop does not wait for a client that has no request in hand: the
// control socket cuts a client that connected and sends nothing, telling
// it why, where it used to wait as long as the client held on. The web
// listener's part is internal/daemon's TestWebStopWithSilentClient.
func TestStopWithSilentClients(t *testing.T) {
	log := slog.New(slog.DiscardHandler)
	db := filepath.Join(t.TempDir(), "titm.db")
	st, err := store.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctl, err := listenControl(socketFor(db), &host{st: st, now: time.Now}, log)
	if err != nil {
		t.Fatal(err)
	}
	silent, err := net.Dial("unix", socketFor(db))
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	fmt.Fprint(silent, `{"version": `) // and no more
	waitfor.Until(t, time.Minute, func() bool {
		ctl.mu.Lock()
		defer ctl.mu.Unlock()
		return ctl.reading != nil
	}, "the control socket to read the silent client")
	closed := make(chan error, 1)
	go func() { closed <- ctl.Close() }()
	var resp response
	silent.SetReadDeadline(time.Now().Add(time.Minute)) // against a hang, not a measure
	if err := json.NewDecoder(silent).Decode(&resp); err != nil || !strings.Contains(resp.Error, "the daemon stopped before the request came in full") {
		t.Errorf("the silent client got %+v, %v", resp, err)
	}
	if err := <-closed; err != nil {
		t.Errorf("the control socket's Close: %v", err)
	}
}
