package mail

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"titm/adjudicator/referee"
	"titm/store"

	gomail "github.com/emersion/go-message/mail"
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

	health *Health
}

// NewDaemon returns the daemon for a configuration and an open store. now
// is its clock (time.Now in service).
func NewDaemon(cfg *Config, st *store.Store, log *slog.Logger, now func() time.Time) *Daemon {
	d := &Daemon{cfg: cfg, st: st, log: log, now: now, wake: make(chan struct{}, 1), health: NewHealth(now())}
	d.Handler = NewHandler(cfg, log)
	d.Sender = NewSender(&cfg.SMTP, d.Handler.from, st, log, now)
	d.Inbox = NewInbox(&cfg.IMAP, st, d.Handler, log, now, d.Wake)
	d.Inbox.health = d.health
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
	if err := d.st.Update(func(tx *store.Tx) error { return StoreReferee(tx, d.cfg) }); err != nil {
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
// within the configured time: the referee's Deadline act. Each game is
// changed in its own transaction, so that a game that fails holds up no
// other. It returns the number of mails queued, and the first error.
func (d *Daemon) Tick() (int, error) {
	now := d.now()
	ref := d.Handler.ref
	var due []string
	err := d.st.View(func(tx *store.Tx) error {
		games, err := tx.Games()
		due = ref.Due(games, now)
		return err
	})
	if err != nil {
		return 0, err
	}
	var queued int
	var first error
	for _, id := range due {
		err := d.st.Update(func(tx *store.Tx) error {
			res, err := ref.Deadline(tx, id, now)
			if err != nil {
				return err
			}
			if len(res.Records) > 0 {
				d.log.Info("deadline passed", "game", id, "impulse", res.Records[0].Impulse)
			}
			queued += len(res.Mails)
			return Queue(tx, d.Handler.from, res.Mails, now)
		})
		if err != nil {
			d.log.Error("deadline", "game", id, "err", err)
			if first == nil {
				first = fmt.Errorf("game %s: %w", id, err)
			}
		}
	}
	// The tournaments: bids that close, rounds a pause held back.
	err = d.st.Update(func(tx *store.Tx) error {
		res, err := ref.TournamentTick(tx, now)
		if err != nil {
			return err
		}
		if len(res.TournamentRecords) > 0 {
			d.log.Info("tournaments", "outcome", res.Outcome)
		}
		queued += len(res.Mails)
		return Queue(tx, d.Handler.from, res.Mails, now)
	})
	if err != nil {
		d.log.Error("tournaments", "err", err)
		if first == nil {
			first = fmt.Errorf("tournaments: %w", err)
		}
	}
	return queued, first
}

// StoreReferee keeps the referee's address and settings in the store, so
// that a command run while no daemon runs acts as the daemon would: its
// mails, queued in the store, come from the same address and say the same,
// and the daemon sends them when it next runs.
func StoreReferee(tx *store.Tx, cfg *Config) error {
	data, err := json.Marshal(storedReferee{Name: cfg.Referee.Name, Options: *cfg.RefereeOptions()})
	if err != nil {
		return err
	}
	if err := tx.SetMeta("referee", cfg.Referee.Address); err != nil {
		return err
	}
	return tx.SetMeta("referee.settings", string(data))
}

// storedReferee is the referee as StoreReferee keeps it.
type storedReferee struct {
	Name    string          `json:"name,omitempty"`
	Options referee.Options `json:"options"`
}

// StoredReferee returns the referee's settings and address as the last
// daemon on the store ran with them. Where none has run, the address is
// empty: nobody is known to send mail from.
func StoredReferee(tx *store.Tx) (*referee.Options, gomail.Address, error) {
	var sr storedReferee
	sr.Options.Address = tx.Meta("referee")
	if data := tx.Meta("referee.settings"); data != "" {
		if err := json.Unmarshal([]byte(data), &sr); err != nil {
			return nil, gomail.Address{}, fmt.Errorf("the referee's settings kept in the store cannot be read (%v): start titm serve once to keep them again", err)
		}
	}
	return &sr.Options, gomail.Address{Name: sr.Name, Address: sr.Options.Address}, nil
}
