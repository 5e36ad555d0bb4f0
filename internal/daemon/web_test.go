package daemon

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"titm/internal/waitfor"
	"titm/mail"
)

// /health answers with the status as JSON: 200 while healthy, 503 when
// not; the listener has timeouts, so that no client holds it for ever.
func TestHealthURL(t *testing.T) {
	var mu sync.Mutex
	// What moves when a mail comes in, standing orders alone among them,
	// is not served.
	s := &mail.Status{Healthy: true, Running: true, Games: 4, LastMail: time.Now(), Queued: 1, Oldest: time.Now(), Bytes: 1 << 20}
	status := func() (*mail.Status, error) { mu.Lock(); defer mu.Unlock(); c := *s; return &c, nil }
	wb, err := StartWeb("127.0.0.1:0", status, nil, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer wb.Close()
	if wb.srv.ReadHeaderTimeout == 0 || wb.srv.WriteTimeout == 0 || wb.srv.IdleTimeout == 0 {
		t.Error("the listener has no timeouts")
	}
	url := "http://" + wb.Addr() + "/health"
	for _, healthy := range []bool{true, false} {
		mu.Lock()
		s.Healthy = healthy
		mu.Unlock()
		resp, err := http.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		var got mail.Status
		err = json.NewDecoder(resp.Body).Decode(&got)
		resp.Body.Close()
		want := http.StatusOK
		if !healthy {
			want = http.StatusServiceUnavailable
		}
		if err != nil || resp.StatusCode != want || got.Games != 4 || got.Healthy != healthy {
			t.Errorf("healthy %v: %d %v %+v", healthy, resp.StatusCode, err, got)
		}
		if !got.LastMail.IsZero() || got.Queued != 0 || !got.Oldest.IsZero() || got.Bytes != 0 {
			t.Errorf("healthy %v: /health tells when mail came: %+v", healthy, got)
		}
	}
	// Through a proxy, which names the client it forwards for, the
	// health is not served: it is the operator's.
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("X-Forwarded-For", "203.0.113.9")
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusForbidden {
		t.Errorf("GET /health through a proxy: %v %v", resp, err)
	}
	if resp, err := http.Post(url, "text/plain", nil); err != nil || resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST /health: %v %v", resp.StatusCode, err)
	}
}

// A web request whose handler panics for a reason of its own, not the
// store's, is answered 500 with a short text that names no store damage,
// at /health 503; one that panics after its answer began is cut, as
// nothing else can be done then; the listener serves on.
func TestWebPanicAnswered(t *testing.T) {
	var logs syncBuffer
	mux := http.NewServeMux()
	mux.HandleFunc("/bug", func(http.ResponseWriter, *http.Request) { panic("a bug") })
	mux.HandleFunc("/late", func(w http.ResponseWriter, _ *http.Request) {
		w.Write([]byte("half a page"))
		panic("a bug after the answer began")
	})
	mux.HandleFunc("/health", func(http.ResponseWriter, *http.Request) { panic("a bug in the health") })
	mux.HandleFunc("/ok", func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("ok")) })
	srv := httptest.NewServer(contained(mux, slog.New(slog.NewTextHandler(&logs, nil))))
	defer srv.Close()
	for _, c := range []struct {
		path string
		code int
		body string
	}{
		{"/bug", http.StatusInternalServerError, "the page could not be read; the referee's operator has the error in the log\n"},
		{"/health", http.StatusServiceUnavailable, "an internal error of titm: a bug in the health (the daemon's log has its stack)\n"},
		{"/ok", http.StatusOK, "ok"},
	} {
		resp, err := http.Get(srv.URL + c.path)
		if err != nil {
			t.Fatalf("GET %s: %v", c.path, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.code || string(body) != c.body {
			t.Errorf("GET %s: %d %q, want %d %q", c.path, resp.StatusCode, body, c.code, c.body)
		}
	}
	if resp, err := http.Get(srv.URL + "/late"); err == nil {
		_, err = io.ReadAll(resp.Body)
		resp.Body.Close()
		if err == nil {
			t.Error("GET /late: the answer begun before the panic was not cut")
		}
	}
	if !strings.Contains(logs.String(), "web: /bug: an internal error of titm: a bug") || !strings.Contains(logs.String(), "stack=") {
		t.Errorf("the log does not tell of the panic and its stack:\n%s", logs.String())
	}
}

// syncBuffer is a bytes.Buffer safe for a logger's writes from several
// goroutines.
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

// A stop does not wait for a client that has no request in hand: the web
// listener closes a connection that has sent nothing, which Shutdown
// would wait 5 s for (Close then returns its deadline's error).
func TestWebStopWithSilentClient(t *testing.T) {
	log := slog.New(slog.DiscardHandler)
	status := func() (*mail.Status, error) { return &mail.Status{Healthy: true}, nil }
	wb, err := StartWeb("127.0.0.1:0", status, nil, log)
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := net.Dial("tcp", wb.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	waitfor.Until(t, time.Minute, func() bool {
		wb.mu.Lock()
		defer wb.mu.Unlock()
		return len(wb.fresh) > 0
	}, "the web listener to accept the silent client")
	if err := wb.Close(); err != nil {
		t.Errorf("the web listener's Close with a silent client: %v", err)
	}
}
