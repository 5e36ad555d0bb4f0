package mail

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"titm/adjudicator"
	"titm/store"
)

// Daemon referees games by mail: it reads the folder, handles each mail,
// sends the outbox, and plays the impulses whose deadline passes (B8).
type Daemon struct {
	Handler *Handler
	Inbox   *Inbox
	Sender  *Sender

	cfg  *Config
	st   *store.Store
	log  *slog.Logger
	now  func() time.Time
	wake chan struct{}
}

// NewDaemon returns the daemon for a configuration and an open store. now
// is its clock (time.Now in service).
func NewDaemon(cfg *Config, st *store.Store, log *slog.Logger, now func() time.Time) *Daemon {
	d := &Daemon{cfg: cfg, st: st, log: log, now: now, wake: make(chan struct{}, 1)}
	d.Handler = NewHandler(cfg, log)
	d.Sender = NewSender(&cfg.SMTP, d.Handler.from, st, log, now)
	d.Inbox = NewInbox(&cfg.IMAP, st, d.Handler, log, now, d.Wake)
	return d
}

// Wake tells the sender that mail is waiting.
func (d *Daemon) Wake() {
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

// Run runs the daemon until ctx ends, then finishes what it has in hand and
// returns.
func (d *Daemon) Run(ctx context.Context) error {
	err := d.st.Update(func(tx *store.Tx) error { return tx.SetMeta("referee", d.cfg.Referee.Address) })
	if err != nil {
		return err
	}
	var wg sync.WaitGroup
	wg.Add(3)
	go func() { defer wg.Done(); d.Inbox.Run(ctx) }()
	go func() { defer wg.Done(); d.Sender.Run(ctx, d.wake) }()
	go func() { defer wg.Done(); d.clock(ctx) }()
	wg.Wait()
	return nil
}

// clock plays deadlines and sends reminders, once a minute.
func (d *Daemon) clock(ctx context.Context) {
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for {
		if n, err := d.Tick(); err != nil {
			d.log.Error("deadlines", "err", err)
		} else if n > 0 {
			d.Wake()
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Tick plays as a pass every impulse whose deadline has passed (B8), telling
// both players, and reminds the player to move of a deadline that comes
// within the configured time. Each game is changed in its own transaction,
// so that a game that fails holds up no other. It returns the number of
// mails queued, and the first error.
func (d *Daemon) Tick() (int, error) {
	now := d.now()
	var due []string
	err := d.st.View(func(tx *store.Tx) error {
		games, err := tx.Games()
		for _, g := range games {
			if g.Status != adjudicator.Playing || g.Paused || g.Due.IsZero() {
				continue
			}
			late := !now.Before(g.Due)
			remind := d.cfg.Referee.Reminder > 0 && !now.Before(g.Due.Add(-d.cfg.Referee.Reminder)) && !g.Reminded.Equal(g.Due)
			if late || remind {
				due = append(due, g.ID)
			}
		}
		return err
	})
	if err != nil {
		return 0, err
	}
	var queued int
	var first error
	for _, id := range due {
		err := d.st.Update(func(tx *store.Tx) error {
			n, err := d.tickGame(tx, id, now)
			queued += n
			return err
		})
		if err != nil {
			d.log.Error("deadline", "game", id, "err", err)
			if first == nil {
				first = fmt.Errorf("game %s: %w", id, err)
			}
		}
	}
	return queued, first
}

// tickGame plays one game's late impulse or sends its reminder.
func (d *Daemon) tickGame(tx *store.Tx, id string, now time.Time) (int, error) {
	g, err := tx.Game(id)
	if err != nil {
		return 0, err
	}
	w := &work{h: d.Handler, tx: tx, now: now, in: &Incoming{}, game: g.ID}
	side := g.Next.Side
	if !now.Before(g.Due) {
		recs, events, err := g.Expire(now)
		if err != nil {
			return 0, err
		}
		if err := tx.SaveGame(g, recs); err != nil {
			return 0, err
		}
		report, err := adjudicator.Report(g, recs, events)
		if err != nil {
			return 0, err
		}
		text := fmt.Sprintf("The %s player sent no valid orders for impulse %s before its deadline: it was played without movement, attack or repair (B8).\n\n", side.Title(), recs[0].Impulse) + report
		if g.Status == adjudicator.Finished {
			text += "\n" + promptnessText(g)
		}
		ref, err := w.mapRef(g, recs[0].Impulse, events)
		if err != nil {
			return 0, err
		}
		w.toAllAs(g, reportSubject(g, recs[0])+" (deadline passed)", text, ref)
		d.log.Info("deadline passed", "game", g.ID, "impulse", recs[0].Impulse)
	} else {
		g.Reminded = g.Due
		if err := tx.SaveGame(g, nil); err != nil {
			return 0, err
		}
		w.send(g.ID, KindReminder, Outgoing{To: []string{g.Players[side].Address},
			Subject: fmt.Sprintf("[%s] reminder: impulse %s is due by %s", g.ID, g.Next, adjudicator.FormatTime(g.Due)),
			Text: fmt.Sprintf("Your orders for impulse %s of game %s are due by %s, in %s.\n"+
				"If none come, the impulse is played without movement, attack or repair (B8).\n"+
				"You may ask for more time with EXTEND 24h (%d extensions a game).\n%s",
				g.Next, g.ID, adjudicator.FormatTime(g.Due), human(g.Due.Sub(now)), d.cfg.Referee.MaxExtensions, w.standing(g, side))})
	}
	if err := w.queue(); err != nil {
		return 0, err
	}
	return len(w.mails), nil
}
