package mail

import (
	"net/http"
	"testing"
	"time"
)

// The health is answered over loopback only, and never through a proxy.
func TestHealthLocal(t *testing.T) {
	for _, c := range []struct {
		remote, header string
		want           bool
	}{
		{"127.0.0.1:5000", "", true},
		{"[::1]:5000", "", true},
		{"127.0.0.1:5000", "X-Forwarded-For", false},
		{"127.0.0.1:5000", "Forwarded", false},
		{"192.0.2.7:5000", "", false},
		{"[2001:db8::1]:5000", "", false},
		{"not an address", "", false},
	} {
		r := &http.Request{RemoteAddr: c.remote, Header: http.Header{}}
		if c.header != "" {
			r.Header.Set(c.header, "for=198.51.100.4")
		}
		if got := Local(r); got != c.want {
			t.Errorf("%s with %q: local %v, want %v", c.remote, c.header, got, c.want)
		}
	}
}

// The served status leaves out what moves when a mail comes, and keeps
// the verdict and its reasons.
func TestHealthServed(t *testing.T) {
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	s := &Status{Now: now, Running: true, Since: now, LastMail: now, Queued: 2, Oldest: now.Add(-2 * time.Hour), Bytes: 4096, Games: 3}
	s.IMAP.Connected, s.IMAP.Since = true, now
	s.judge()
	got := s.Served()
	if !got.LastMail.IsZero() || got.Queued != 0 || !got.Oldest.IsZero() || got.Bytes != 0 {
		t.Errorf("served: %+v", got)
	}
	if got.Healthy || len(got.Problems) != 1 || got.Games != 3 || s.Queued != 2 {
		t.Errorf("served %+v from %+v", got, s)
	}
}
