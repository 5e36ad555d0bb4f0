package mail

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	gomail "github.com/emersion/go-message/mail"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"titm/store"
)

// Sender delivers the outbox over SMTP: every mail was queued in the same
// transaction as the change it tells of, so a crash loses none, and each is
// marked sent only after the server took it.
type Sender struct {
	cfg  *SMTPConfig
	from gomail.Address
	st   *store.Store
	log  *slog.Logger
	now  func() time.Time

	recent recentPictures // the pictures drawn last, for mails sent in a later flush
}

// NewSender returns the sender of a store's outbox; from is the referee,
// for the mails composed when they are sent.
func NewSender(cfg *SMTPConfig, from gomail.Address, st *store.Store, log *slog.Logger, now func() time.Time) *Sender {
	return &Sender{cfg: cfg, from: from, st: st, log: log, now: now}
}

// Run sends what is due, then waits for wake, for the next retry or for ctx
// to end. It returns when ctx ends.
func (s *Sender) Run(ctx context.Context, wake <-chan struct{}) error {
	for {
		next, err := s.Flush(ctx)
		if err != nil {
			s.log.Error("outbox", "err", err)
			next = s.now().Add(s.cfg.RetryMin)
		}
		wait := time.Hour
		if !next.IsZero() {
			wait = max(next.Sub(s.now()), 0)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil
		case <-wake:
		case <-t.C:
		}
		t.Stop()
	}
}

// sendConns is how many connections Flush sends over at once, each taking
// the mails of its own recipients: both players' reports of an impulse
// leave together, not one after the other.
const sendConns = 2

// Flush sends every mail that is due and returns when the next mail
// waiting for a retry is due (zero: none waits). The mails to an address
// leave in the order they were queued, over one connection: while one waits
// for a retry, the later ones to the same address wait behind it, so that a
// player never reads the notices of a game before its welcome, or an answer
// after what it caused. Mails with no recipient in common may leave
// together, over up to sendConns connections.
func (s *Sender) Flush(ctx context.Context) (time.Time, error) {
	var due []*store.Mail
	var next time.Time
	now := s.now()
	held := map[string]bool{} // addresses with a mail waiting for its retry
	err := s.st.View(func(tx *store.Tx) error {
		q, err := tx.Outbox(store.MailQueued)
		for _, m := range q {
			if m.Next.After(now) {
				if next.IsZero() || m.Next.Before(next) {
					next = m.Next
				}
				hold(held, m)
				continue
			}
			if !isHeld(held, m) {
				due = append(due, m)
			}
		}
		return err
	})
	if err != nil || len(due) == 0 {
		return next, err
	}
	lanes := lanesOf(due)
	pics := newPictures(due, s.st, &s.recent, s.log)
	// The pictures are drawn ahead in lanes of their own, which end with
	// the sending: a mail held back leaves its picture untaken.
	drawing, stopDrawing := context.WithCancel(ctx)
	waitDrawing := pics.render(drawing, runtime.GOMAXPROCS(0))
	defer func() { stopDrawing(); waitDrawing() }()
	var (
		mu    sync.Mutex
		first error
		taken atomic.Int64
		wg    sync.WaitGroup
	)
	for range min(sendConns, len(lanes)) {
		wg.Go(func() {
			k := &conn{}
			defer k.quit()
			for {
				i := int(taken.Add(1) - 1)
				if i >= len(lanes) {
					return
				}
				// Lanes share no recipient: the addresses held are
				// each lane's own from here on.
				n, err := s.sendLane(ctx, k, lanes[i], maps.Clone(held), pics)
				mu.Lock()
				if !n.IsZero() && (next.IsZero() || n.Before(next)) {
					next = n
				}
				if err != nil && first == nil {
					first = err
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return next, first
}

// lanesOf parts the mails, in their order, into lanes that share no
// recipient, each in the mails' order; the lanes are in the order of their
// first mails.
func lanesOf(due []*store.Mail) [][]*store.Mail {
	parent := map[string]string{}
	var find func(a string) string
	find = func(a string) string {
		p, ok := parent[a]
		if !ok || p == a {
			parent[a] = a
			return a
		}
		r := find(p)
		parent[a] = r
		return r
	}
	for _, m := range due {
		for _, a := range m.To[min(1, len(m.To)):] {
			parent[find(strings.ToLower(a))] = find(strings.ToLower(m.To[0]))
		}
	}
	var lanes [][]*store.Mail
	at := map[string]int{}
	for _, m := range due {
		r := ""
		if len(m.To) > 0 {
			r = find(strings.ToLower(m.To[0]))
		}
		i, ok := at[r]
		if !ok {
			i = len(lanes)
			at[r] = i
			lanes = append(lanes, nil)
		}
		lanes[i] = append(lanes[i], m)
	}
	return lanes
}

// conn is a connection to the server, kept from one lane to the next: a
// lane is the mails to one player, and with many players each lane would
// otherwise dial, greet, start TLS and log in for a mail or two.
type conn struct {
	c    *smtp.Client
	stop func() bool // ends the closing of c when the context ends
	// buf is what the mails sent over it are composed in, one after the
	// other: it grows to the largest once, and goes with the conn at
	// the end of the Flush.
	buf bytes.Buffer
}

// quit ends the connection, if there is one.
func (k *conn) quit() {
	if k.c != nil {
		k.stop()
		k.c.Quit()
		k.c = nil
	}
}

// drop closes a broken connection, or one whose session cannot be reset:
// the next mail dials again.
func (k *conn) drop() {
	k.stop()
	k.c.Close()
	k.c = nil
}

// sendLane sends a lane's mails over k's connection, and returns when the
// first of them left waiting for a retry is due.
func (s *Sender) sendLane(ctx context.Context, k *conn, lane []*store.Mail, held map[string]bool, pics *pictures) (time.Time, error) {
	var next time.Time
	var dialErr error // once the server cannot be reached, the rest wait too
	for _, m := range lane {
		if ctx.Err() != nil {
			break
		}
		if isHeld(held, m) {
			continue // behind a mail to the same address refused just now
		}
		err := dialErr
		if k.c == nil && err == nil {
			k.c, err = s.dial(ctx)
			dialErr = err
			if err == nil {
				// A context that ends closes the connection, which ends
				// a send that waits on a server: the daemon stops at
				// once, and the mail is tried again at the next start.
				c := k.c
				k.stop = context.AfterFunc(ctx, func() { c.Close() })
			}
		}
		if err == nil {
			var data []byte
			if data, err = s.message(m, pics, &k.buf); err != nil {
				// The mail cannot be made: no retry would help.
				err = unsendable{err}
			} else {
				err = k.c.SendMail(m.From, m.To, bytes.NewReader(data))
			}
			var se *smtp.SMTPError
			var un unsendable
			switch {
			case err == nil, errors.As(err, &un):
			case errors.As(err, &se):
				// Refused: the session is reset for the next mail.
				if k.c.Reset() != nil {
					k.drop()
				}
			default:
				// The connection broke: the next mail dials again.
				k.drop()
			}
		}
		if err := s.record(m, err); err != nil {
			return next, err
		}
		if m.Status == store.MailQueued {
			if next.IsZero() || m.Next.Before(next) {
				next = m.Next
			}
			hold(held, m)
		}
	}
	return next, nil
}

// hold notes that a mail's recipients have a mail waiting for its retry.
func hold(held map[string]bool, m *store.Mail) {
	for _, a := range m.To {
		held[strings.ToLower(a)] = true
	}
}

// isHeld reports whether a mail must wait behind an earlier one to any of
// its recipients.
func isHeld(held map[string]bool, m *store.Mail) bool {
	for _, a := range m.To {
		if held[strings.ToLower(a)] {
			return true
		}
	}
	return false
}

// record keeps the outcome of one attempt.
func (s *Sender) record(m *store.Mail, err error) error {
	now := s.now()
	m.Attempts++
	var se *smtp.SMTPError
	switch {
	case err == nil:
		// A sent mail's text is dropped: a welcome's token is now with its
		// player, and the store keeps tokens only as hashes; a report and
		// its map are in the log, from which titm report and titm render
		// make them again. The store stays the size of the games.
		m.Status, m.Sent, m.Error = store.MailSent, now, ""
		s.log.Info("mail sent", "game", m.Game, "kind", m.Kind, "mail", m.ID, "to", m.To, "message_id", m.MessageID, "attempts", m.Attempts)
	case errors.As(err, new(unsendable)):
		m.Status, m.Error = store.MailFailed, err.Error()
		s.log.Error("mail cannot be made", "game", m.Game, "mail", m.ID, "err", err)
	case errors.As(err, &se) && se.Code >= 500:
		m.Status, m.Error = store.MailFailed, err.Error()
		s.log.Error("mail refused for good", "game", m.Game, "kind", m.Kind, "mail", m.ID, "to", m.To, "err", err)
	case now.Sub(m.Created) >= s.cfg.GiveUp:
		m.Status, m.Error = store.MailFailed, fmt.Sprintf("still failing after %s: %v", s.cfg.GiveUp, err)
		s.log.Error("mail given up", "game", m.Game, "mail", m.ID, "to", m.To, "err", err)
	default:
		m.Error = err.Error()
		m.Next = now.Add(backoff(s.cfg.RetryMin, s.cfg.RetryMax, m.Attempts))
		s.log.Warn("mail to be tried again", "game", m.Game, "mail", m.ID, "to", m.To, "at", m.Next, "err", err)
	}
	return s.st.Update(func(tx *store.Tx) error {
		if err := tx.PutMail(m); err != nil {
			return err
		}
		if m.Snapshot != "" && m.Status != store.MailQueued {
			return tx.DropSnapshot(m.Snapshot)
		}
		return nil
	})
}

// unsendable is the error of a mail that cannot be made, such as a picture
// whose snapshot is missing: it is failed at once.
type unsendable struct{ error }

func (u unsendable) Unwrap() error { return u.error }

// backoff is the wait after the n-th failure: min, doubling, up to max.
func backoff(lo, hi time.Duration, n int) time.Duration {
	d := lo
	for i := 1; i < n && d < hi; i++ {
		d *= 2
	}
	return min(d, hi)
}

// login logs in with the password or, when smtp.auth is "oauth2", with an
// access token.
func (s *Sender) login(c *smtp.Client) error {
	o := s.cfg.OAuth2
	if s.cfg.Auth != "oauth2" || o == nil {
		return c.Auth(sasl.NewPlainClient("", s.cfg.Username, s.cfg.Password))
	}
	sc, mech, err := o.saslClient(s.cfg.Username)
	if err != nil {
		return err
	}
	if err := c.Auth(sc); err != nil {
		return o.loginError(mech, err)
	}
	return nil
}
