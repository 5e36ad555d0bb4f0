package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"titm/mail"
)

// idleConfig is the configuration of a daemon on the embedded servers, as
// config.example.toml has it, on free loopback ports, with its store in
// dir and the web listener on.
func idleConfig(tb testing.TB, dir string) *mail.Config {
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
	cfg, err := mail.ParseConfig("idle", []byte(fmt.Sprintf(`[store]
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
`, filepath.Join(dir, "titm.db"), imapAddr, smtpAddr, webAddr, imapAddr, smtpAddr)), func(string) string { return "" })
	if err != nil {
		tb.Fatal(err)
	}
	return cfg
}

// startIdle starts serve on cfg and returns once its inbox reads the
// folder and has had time to settle in IDLE, the sender to find the outbox
// empty: the daemon is idle. The returned channel gives serve's result.
func startIdle(tb testing.TB, ctx context.Context, cfg *mail.Config) <-chan error {
	tb.Helper()
	logs := &syncBuffer{}
	done := make(chan error, 1)
	go func() { done <- serve(ctx, cfg, slog.New(slog.NewTextHandler(logs, nil)), &syncBuffer{}) }()
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(logs.String(), "imap: reading") {
		if time.Now().After(deadline) {
			tb.Fatalf("the daemon did not start reading in 30 s:\n%s", logs.String())
		}
		select {
		case err := <-done:
			tb.Fatalf("serve ended: %v\n%s", err, logs.String())
		case <-time.After(time.Millisecond):
		}
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
// promises a stop within 200 ms; the median is reported as ms/stop.
func BenchmarkStopIdle(b *testing.B) {
	dir := b.TempDir()
	var took []time.Duration
	for b.Loop() {
		b.StopTimer()
		cfg := idleConfig(b, dir)
		ctx, cancel := context.WithCancel(context.Background())
		done := startIdle(b, ctx, cfg)
		b.StartTimer()
		start := time.Now()
		cancel()
		err := <-done
		took = append(took, time.Since(start))
		if err != nil {
			b.Fatalf("serve: %v", err)
		}
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2])/float64(time.Millisecond), "ms/stop")
	b.ReportMetric(float64(took[len(took)-1])/float64(time.Millisecond), "max-ms/stop")
}
