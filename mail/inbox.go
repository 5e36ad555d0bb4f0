package mail

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"slices"
	"strings"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"titm/store"
)

// Inbox reads the players' mails over IMAP: each new message is fetched,
// handled in one store transaction, and only after the commit flagged as
// seen and moved to the processed folder. A crash between the commit and
// the move leaves the message in the folder; the next pass finds it
// processed (by UIDVALIDITY and UID, or by its content) and only moves it.
type Inbox struct {
	cfg     *IMAPConfig
	st      *store.Store
	h       *Handler
	log     *slog.Logger
	now     func() time.Time
	handled func() // called after each message handled, to wake the sender

	// health, when set, hears of the connection and the mails handled.
	health *Health
}

// NewInbox returns the reader of the configured folder.
func NewInbox(cfg *IMAPConfig, st *store.Store, h *Handler, log *slog.Logger, now func() time.Time, handled func()) *Inbox {
	return &Inbox{cfg: cfg, st: st, h: h, log: log, now: now, handled: handled}
}

// Run reads the folder until ctx ends, reconnecting with exponential
// backoff (1 s doubling up to 5 min) after any error. The message in hand
// when ctx ends is finished first.
func (ib *Inbox) Run(ctx context.Context) error {
	wait := time.Second
	for {
		start := time.Now()
		err := ib.session(ctx)
		if ctx.Err() != nil {
			return nil
		}
		ib.health.lost(err, ib.now())
		if time.Since(start) > time.Minute {
			wait = time.Second // the connection lived: start the backoff again
		}
		ib.log.Warn("imap: connection lost; reconnecting", "in", wait, "err", err)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(wait):
		}
		wait = min(wait*2, 5*time.Minute)
	}
}

// dial connects as configured.
func (ib *Inbox) dial(opts *imapclient.Options) (*imapclient.Client, error) {
	tc, err := clientTLS(ib.cfg.Address, ib.cfg.CAFile, ib.cfg.InsecureSkipVerify)
	if err != nil {
		return nil, fmt.Errorf("imap.ca_file: %w", err)
	}
	opts.TLSConfig = tc
	opts.Dialer = &net.Dialer{Timeout: 30 * time.Second}
	var c *imapclient.Client
	switch ib.cfg.Security {
	case "tls":
		c, err = imapclient.DialTLS(ib.cfg.Address, opts)
	case "none":
		c, err = imapclient.DialInsecure(ib.cfg.Address, opts)
	default:
		c, err = imapclient.DialStartTLS(ib.cfg.Address, opts)
	}
	return c, certHint(err, "imap")
}

// session is one connection: log in, select, then handle what is there and
// wait for more, with IDLE where the server has it and polling otherwise.
func (ib *Inbox) session(ctx context.Context) error {
	news := make(chan struct{}, 1)
	c, err := ib.dial(&imapclient.Options{UnilateralDataHandler: &imapclient.UnilateralDataHandler{
		Mailbox: func(d *imapclient.UnilateralDataMailbox) {
			if d.NumMessages != nil {
				select {
				case news <- struct{}{}:
				default:
				}
			}
		},
	}})
	if err != nil {
		return fmt.Errorf("imap: connecting to %s: %w", ib.cfg.Address, err)
	}
	defer c.Close()
	// A context that ends closes the connection, which ends any command
	// waiting on it.
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	if err := ib.login(c); err != nil {
		return fmt.Errorf("imap: logging in to %s as %s: %w", ib.cfg.Address, ib.cfg.Username, err)
	}
	if err := c.Create(ib.cfg.ProcessedFolder, nil).Wait(); err != nil {
		var ie *imap.Error
		if !errors.As(err, &ie) || ie.Code != imap.ResponseCodeAlreadyExists {
			// Servers that say less than ALREADYEXISTS are checked by
			// selecting it below, through the first move.
			ib.log.Debug("imap: creating the processed folder", "err", err)
		}
	}
	sel, err := c.Select(ib.cfg.Folder, nil).Wait()
	if err != nil {
		return fmt.Errorf("imap: selecting %s: %w", ib.cfg.Folder, err)
	}
	ib.checkValidity(sel.UIDValidity)
	ib.health.connected(ib.now())
	idle := ib.cfg.IDLE && (c.Caps().Has(imap.CapIdle) || c.Caps().Has(imap.CapIMAP4rev2))
	ib.log.Info("imap: reading", "server", ib.cfg.Address, "folder", ib.cfg.Folder, "uidvalidity", sel.UIDValidity, "idle", idle)
	for {
		if err := ib.pass(ctx, c, sel.UIDValidity); err != nil {
			return err
		}
		if ctx.Err() != nil {
			return nil
		}
		if err := ib.wait(ctx, c, idle, news); err != nil {
			return err
		}
	}
}

// login logs in with the password or, when imap.auth is "oauth2", with an
// access token.
func (ib *Inbox) login(c *imapclient.Client) error {
	o := ib.cfg.OAuth2
	if ib.cfg.Auth != "oauth2" || o == nil {
		return c.Login(ib.cfg.Username, ib.cfg.Password).Wait()
	}
	sc, mech, err := o.saslClient(ib.cfg.Username)
	if err != nil {
		return err
	}
	if err := c.Authenticate(sc); err != nil {
		return o.loginError(mech, err)
	}
	return nil
}

// wait waits for new mail: in IDLE until the server announces some, or
// until the poll interval passes (a safety net for servers whose IDLE
// misses mail); without IDLE, for the poll interval, then a NOOP.
func (ib *Inbox) wait(ctx context.Context, c *imapclient.Client, idle bool, news chan struct{}) error {
	t := time.NewTimer(ib.cfg.PollInterval)
	defer t.Stop()
	if !idle {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
		return c.Noop().Wait()
	}
	cmd, err := c.Idle()
	if err != nil {
		return fmt.Errorf("imap: IDLE: %w", err)
	}
	ib.log.Debug("imap: idling", "folder", ib.cfg.Folder)
	select {
	case <-ctx.Done():
	case <-news:
	case <-t.C:
	case <-c.Closed():
	}
	if err := cmd.Close(); err != nil {
		return fmt.Errorf("imap: ending IDLE: %w", err)
	}
	return cmd.Wait()
}

// checkValidity notes a change of the folder's UIDVALIDITY: the server has
// renumbered its messages, so the UIDs processed before mean nothing now.
// Messages are then known again by their content (Digest).
func (ib *Inbox) checkValidity(v uint32) {
	key := "uidvalidity/" + ib.cfg.Folder
	ib.st.Update(func(tx *store.Tx) error {
		if old := tx.Meta(key); old != "" && old != fmt.Sprint(v) {
			ib.log.Warn("imap: the folder's UIDVALIDITY changed: its messages are known by their content from now on", "folder", ib.cfg.Folder, "was", old, "now", v)
		}
		return tx.SetMeta(key, fmt.Sprint(v))
	})
}

// pass handles every message in the folder, oldest first.
func (ib *Inbox) pass(ctx context.Context, c *imapclient.Client, validity uint32) error {
	data, err := c.UIDSearch(&imap.SearchCriteria{NotFlag: []imap.Flag{imap.FlagDeleted}}, nil).Wait()
	if err != nil {
		return fmt.Errorf("imap: searching %s: %w", ib.cfg.Folder, err)
	}
	uids := data.AllUIDs()
	slices.Sort(uids)
	for _, uid := range uids {
		if ctx.Err() != nil {
			return nil
		}
		if err := ib.one(c, validity, uid); err != nil {
			return err
		}
	}
	return nil
}

// handle fetches the message key, of size bytes, handles it and commits
// the outcome. It reports whether the message was gone meanwhile.
func (ib *Inbox) handle(c *imapclient.Client, key MessageKey, size int64, messageID string) (gone bool, err error) {
	uid := imap.UID(key.UID)
	set := imap.UIDSetNum(uid)
	section := &imap.FetchItemBodySection{Peek: true}
	if size > ib.h.cfg.Referee.MaxMessageBytes {
		section.Specifier = imap.PartSpecifierHeader
		section.Partial = &imap.SectionPartial{Size: maxHeaderBytes}
	}
	full, err := c.Fetch(set, &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{section}}).Collect()
	if err != nil {
		return false, fmt.Errorf("imap: fetching message %d: %w", uid, err)
	}
	if len(full) == 0 {
		return true, nil // expunged meanwhile
	}
	raw := full[0].FindBodySection(section)
	fetched := time.Now()
	var outcome string
	err = ib.st.Update(func(tx *store.Tx) error {
		var err error
		outcome, err = ib.h.Handle(tx, key, raw, size, ib.now())
		return err
	})
	var ie *InternalError
	if errors.As(err, &ie) {
		outcome = "failed: " + ie.Error()
		err = ib.st.Update(func(tx *store.Tx) error { return ib.h.Failed(tx, key, raw, size, ie, ib.now()) })
	}
	if err != nil {
		return false, fmt.Errorf("handling message %d: %w", uid, err)
	}
	// took is the referee's own time for the mail, from the mail in
	// hand to its outcome committed, the mails it queued with it.
	ib.log.Info("mail handled", "uid", uid, "message_id", messageID, "outcome", outcome, "took", time.Since(fetched))
	if !strings.HasPrefix(outcome, alreadyProcessed) { // else nothing was committed
		ib.health.handled(ib.now())
		if ib.handled != nil {
			ib.handled()
		}
	}
	return false, nil
}

// one handles one message: processed before, it is only moved; else it is
// fetched, handled and committed, then moved. Of a message over the size
// limit only the header is fetched.
func (ib *Inbox) one(c *imapclient.Client, validity uint32, uid imap.UID) error {
	key := MessageKey{Mailbox: ib.cfg.Folder, UIDValidity: validity, UID: uint32(uid)}
	set := imap.UIDSetNum(uid)
	msgs, err := c.Fetch(set, &imap.FetchOptions{Envelope: true, RFC822Size: true, UID: true}).Collect()
	if err != nil {
		return fmt.Errorf("imap: fetching message %d: %w", uid, err)
	}
	if len(msgs) == 0 {
		return nil // expunged meanwhile
	}
	env, size := msgs[0].Envelope, msgs[0].RFC822Size
	var messageID string
	if env != nil {
		messageID = env.MessageID
	}
	// The same key: handled, and the daemon stopped before it moved it;
	// or another mail, if the server gave the UID again without a new
	// UIDVALIDITY. Only a record without a digest (of an older titm) is
	// trusted by its key alone; else the mail is read, and Handle knows
	// it by its content, as it knows the same mail under another key.
	var p *store.Processed
	var done bool
	ib.st.View(func(tx *store.Tx) error {
		p, done, err = tx.WasProcessed(key.Mailbox, key.UIDValidity, key.UID, "")
		return err
	})
	if err != nil {
		return err
	}
	if done && p.Digest == "" {
		ib.log.Info("mail processed before; moving it", "uid", uid, "message_id", messageID)
	} else if gone, err := ib.handle(c, key, size, messageID); err != nil || gone {
		return err
	}
	if err := c.Store(set, &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{imap.FlagSeen}, Silent: true}, nil).Close(); err != nil {
		return fmt.Errorf("imap: flagging message %d: %w", uid, err)
	}
	if _, err := c.Move(set, ib.cfg.ProcessedFolder).Wait(); err != nil {
		return fmt.Errorf("imap: moving message %d to %s: %w", uid, ib.cfg.ProcessedFolder, err)
	}
	return nil
}
