package mail_test

import (
	"testing"
	"time"

	"titm/internal/waitfor"
	"titm/mail"
	"titm/mail/embedded"
)

// waitStatus polls the daemon's status until ok says so, and returns how
// long it took; the test fails after limit.
func waitStatus(t *testing.T, d *mail.Daemon, limit time.Duration, what string, ok func(*mail.Status) bool) time.Duration {
	t.Helper()
	start := time.Now()
	var s *mail.Status
	if !waitfor.Within(limit, func() bool {
		var err error
		if s, err = d.Status(); err != nil {
			t.Fatal(err)
		}
		return ok(s)
	}) {
		t.Fatalf("%s: not within %s: %+v", what, limit, s)
	}
	return time.Since(start)
}

// The status says the IMAP server is out of reach within the poll
// interval of its stopping, with the error and when, and says it is
// connected again once it is back.
func TestHealthIMAPDownAndBack(t *testing.T) {
	w := newWorld(t, nil)
	poll := w.cfg.IMAP.PollInterval
	waitStatus(t, w.d, poll, "connected at the start", func(s *mail.Status) bool { return s.IMAP.Connected })
	s, _ := w.d.Status()
	if !s.Running || !s.Healthy || s.Since.IsZero() || s.Games != 1 || s.Queued > 3 {
		t.Errorf("the status at the start: %+v", s)
	}

	imapAddr, smtpAddr := w.srv.IMAPAddr(), w.srv.SMTPAddr()
	// The inbox may see its connection close while Close is still
	// returning: the time of the stop is taken before.
	stopped := time.Now()
	w.srv.Close()
	took := waitStatus(t, w.d, poll, "down after the server stopped", func(s *mail.Status) bool { return !s.IMAP.Connected })
	t.Logf("down reported %s after the server stopped (poll interval %s)", took, poll)
	s, _ = w.d.Status()
	if s.IMAP.Since.Before(stopped) || s.IMAP.LastError == "" || s.IMAP.ErrorAt.Before(stopped) {
		t.Errorf("the status of a server down: %+v", s.IMAP)
	}
	// Down for minutes, not 15: still healthy.
	if !s.Healthy {
		t.Errorf("unhealthy at once: %v", s.Problems)
	}

	srv, err := embedded.Start(&embedded.Options{IMAPAddr: imapAddr, SMTPAddr: smtpAddr, Users: passwords,
		Folders: []string{"processed"}, Logger: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	// The inbox tries again after 1 s, then 2, 4 ...
	took = waitStatus(t, w.d, 20*time.Second, "connected after the server came back", func(s *mail.Status) bool { return s.IMAP.Connected })
	t.Logf("connected again %s after the server came back", took)
}

// The status is unhealthy when the outbox is stuck for more than an hour,
// the IMAP server is out of reach for more than 15 minutes, or the store's
// part cannot be read, and not before.
func TestStatusJudge(t *testing.T) {
	now := time.Date(2026, 12, 16, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name    string
		set     func(s *mail.Status)
		healthy bool
	}{
		{"all well", func(s *mail.Status) {}, true},
		{"a mail queued 59 minutes", func(s *mail.Status) { s.Queued, s.Oldest = 2, now.Add(-59*time.Minute) }, true},
		{"a mail queued 61 minutes", func(s *mail.Status) { s.Queued, s.Oldest = 2, now.Add(-61*time.Minute) }, false},
		{"IMAP down 14 minutes", func(s *mail.Status) { s.IMAP.Connected, s.IMAP.Since = false, now.Add(-14*time.Minute) }, true},
		{"IMAP down 16 minutes", func(s *mail.Status) { s.IMAP.Connected, s.IMAP.Since = false, now.Add(-16*time.Minute) }, false},
		{"the store unread", func(s *mail.Status) { s.StoreError = "store: mail 01: invalid character" }, false},
	} {
		s := &mail.Status{Now: now, Running: true}
		s.IMAP.Connected, s.IMAP.Since = true, now.Add(-time.Hour)
		c.set(s)
		mail.Judge(s)
		if s.Healthy != c.healthy || s.Healthy != (len(s.Problems) == 0) {
			t.Errorf("%s: healthy %v, problems %q", c.name, s.Healthy, s.Problems)
		}
	}
}
