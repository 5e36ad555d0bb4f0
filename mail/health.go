package mail

import (
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"titm/adjudicator"
	"titm/store"
)

// The limits past which the daemon is unhealthy: a monitor alerting on
// them finds a daemon that cannot reach its mail before the players do.
const (
	// StuckQueue is the age of the oldest queued mail past which the
	// outbox is stuck: every mail leaves within seconds when the SMTP
	// server takes it.
	StuckQueue = time.Hour
	// IMAPDown is how long the IMAP server may be out of reach; a restart
	// of the provider's server takes less.
	IMAPDown = 15 * time.Minute
)

// Health is what the daemon knows of itself that the store does not keep:
// when it started, whether its IMAP connection is up, and when it last
// handled a mail. The inbox reports to it as it goes; it is safe for
// concurrent use, and a nil *Health ignores the reports.
type Health struct {
	mu       sync.Mutex
	started  time.Time
	up       bool
	since    time.Time // connected since, or down since
	lastErr  string
	errAt    time.Time
	lastMail time.Time
}

// NewHealth returns the health of a daemon starting at now: its IMAP
// connection is down until the inbox logs in.
func NewHealth(now time.Time) *Health { return &Health{started: now, since: now} }

// connected reports the inbox logged in and reading.
func (h *Health) connected(now time.Time) {
	if h == nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.up {
		h.up, h.since = true, now
	}
}

// lost reports the connection lost, or a try to connect failed.
func (h *Health) lost(err error, now time.Time) {
	if h == nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.up {
		h.up, h.since = false, now
	}
	if err != nil {
		h.lastErr, h.errAt = err.Error(), now
	}
}

// handled reports a mail handled.
func (h *Health) handled(now time.Time) {
	if h == nil {
		return
	}
	h.mu.Lock()
	h.lastMail = now
	h.mu.Unlock()
}

// Status is the daemon's health at a glance, as titm status prints it,
// the hourly log line says it, and /health serves it.
type Status struct {
	Now     time.Time `json:"now"`
	Running bool      `json:"running"` // a daemon holds the store
	Since   time.Time `json:"since,omitzero"`
	IMAP    struct {
		Connected bool      `json:"connected"`
		Since     time.Time `json:"since,omitzero"` // connected since, or down since
		LastError string    `json:"last_error,omitempty"`
		ErrorAt   time.Time `json:"last_error_at,omitzero"`
	} `json:"imap"`
	LastMail time.Time `json:"last_mail,omitzero"` // the last mail handled since the start
	// Queued is the number of mails waiting to be sent; Oldest when the
	// oldest of them was queued.
	Queued int       `json:"queued"`
	Oldest time.Time `json:"oldest_queued,omitzero"`
	// Failed is the number of mails that failed for good in the last 24
	// hours.
	Failed int `json:"failed_last_day"`
	// DueToday is the number of games whose deadline falls before the end
	// of the day (or has passed).
	DueToday int   `json:"deadlines_today"`
	Games    int   `json:"games"`
	Bytes    int64 `json:"store_bytes"`
	// StoreError is why the store's part of the status (the counts
	// above) could not be read, when it could not.
	StoreError string `json:"store_error,omitempty"`
	// Healthy is false when Problems says why.
	Healthy  bool     `json:"healthy"`
	Problems []string `json:"problems,omitempty"`
}

// StoreStatus reads the store's part of the status: the outbox, the
// deadlines and the file's size. giveUp is how long a mail is retried
// (smtp.give_up), which bounds how far back its failures are looked for.
// Running is false, and Healthy says only whether the outbox is stuck.
func StoreStatus(st *store.Store, giveUp time.Duration, now time.Time) (*Status, error) {
	s := &Status{Now: now}
	y, m, d := now.Date()
	endOfDay := time.Date(y, m, d+1, 0, 0, 0, 0, now.Location())
	err := st.View(func(tx *store.Tx) error {
		q, err := tx.Outbox(store.MailQueued)
		if err != nil {
			return err
		}
		s.Queued = len(q)
		for _, m := range q {
			if s.Oldest.IsZero() || m.Created.Before(s.Oldest) {
				s.Oldest = m.Created
			}
		}
		day := now.Add(-24 * time.Hour)
		if s.Failed, err = tx.FailedSince(day, day.Add(-giveUp)); err != nil {
			return err
		}
		games, err := tx.Games()
		if err != nil {
			return err
		}
		s.Games = len(games)
		for _, g := range games {
			if g.Status == adjudicator.Playing && !g.Paused && !g.Due.IsZero() && g.Due.Before(endOfDay) {
				s.DueToday++
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("the store's status: %w", err)
	}
	if s.Bytes, err = st.Size(); err != nil {
		return nil, err
	}
	s.judge()
	return s, nil
}

// Status returns the daemon's status: its own health and the store's. A
// store whose part cannot be read (a record that does not decode) is one
// of the status's problems, the rest told as ever, not an error: a monitor
// reading /health learns that the daemon is unhealthy, and why.
func (d *Daemon) Status() (*Status, error) {
	now := d.now()
	s, err := StoreStatus(d.st, d.cfg.SMTP.GiveUp, now)
	if err != nil {
		s = &Status{Now: now, StoreError: err.Error()}
	}
	h := d.health
	h.mu.Lock()
	s.Running, s.Since, s.LastMail = true, h.started, h.lastMail
	s.IMAP.Connected, s.IMAP.Since, s.IMAP.LastError, s.IMAP.ErrorAt = h.up, h.since, h.lastErr, h.errAt
	h.mu.Unlock()
	s.judge()
	return s, nil
}

// judge sets Healthy and Problems from the rest.
func (s *Status) judge() {
	s.Problems = nil
	if s.StoreError != "" {
		s.Problems = append(s.Problems, "the store cannot be read: "+s.StoreError)
	}
	if s.Queued > 0 && s.Now.Sub(s.Oldest) > StuckQueue {
		s.Problems = append(s.Problems, fmt.Sprintf("the outbox is stuck: a mail has waited %s", s.Now.Sub(s.Oldest).Round(time.Second)))
	}
	if s.Running && !s.IMAP.Connected && s.Now.Sub(s.IMAP.Since) > IMAPDown {
		s.Problems = append(s.Problems, fmt.Sprintf("the IMAP server has been out of reach for %s", s.Now.Sub(s.IMAP.Since).Round(time.Second)))
	}
	s.Healthy = len(s.Problems) == 0
}

// LogAttrs are the status as the attributes of one log line.
func (s *Status) LogAttrs() []any {
	a := []any{"healthy", s.Healthy, "up_since", s.Since, "imap_connected", s.IMAP.Connected, "imap_since", s.IMAP.Since}
	if s.IMAP.LastError != "" {
		a = append(a, "imap_last_error", s.IMAP.LastError, "imap_error_at", s.IMAP.ErrorAt)
	}
	a = append(a, "last_mail", s.LastMail, "queued", s.Queued)
	if s.Queued > 0 {
		a = append(a, "oldest_queued_age", s.Now.Sub(s.Oldest).Round(time.Second))
	}
	a = append(a, "failed_last_day", s.Failed, "deadlines_today", s.DueToday, "games", s.Games, "store_bytes", s.Bytes)
	if len(s.Problems) > 0 {
		a = append(a, "problems", s.Problems)
	}
	return a
}

// Served returns the status as /health serves it: without what tells when
// a mail came or what it added (the last mail handled, the outbox's count
// and age, the store's size), which move when a player sends only standing
// orders, that the journal hides until they take effect. Healthy and
// Problems are kept, and say it when the outbox is stuck.
func (s *Status) Served() *Status {
	c := *s
	c.LastMail, c.Queued, c.Oldest, c.Bytes = time.Time{}, 0, time.Time{}, 0
	c.Problems = append([]string(nil), s.Problems...)
	return &c
}

// Local reports whether a request for /health may be answered: it came
// over loopback, and not through a proxy (which names the client it
// forwards for), since the health is the operator's, not the public's.
func Local(r *http.Request) bool {
	if r.Header.Get("Forwarded") != "" || r.Header.Get("X-Forwarded-For") != "" {
		return false
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
