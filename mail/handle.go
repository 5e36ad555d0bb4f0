package mail

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"strings"
	"time"

	gomail "github.com/emersion/go-message/mail"

	"titm/adjudicator"
	"titm/rules"
	"titm/store"
)

// Mail kinds in the outbox, for the operator.
const (
	KindWelcome  = "welcome"
	KindReport   = "report"
	KindReply    = "reply"
	KindReminder = "reminder"
	KindWarning  = "warning"
	KindNotice   = "notice"
)

// Handler applies mails to the store: the daemon's logic, apart from the
// network. Each mail is handled in one transaction with everything it
// changes, the mails it queues and the record that it was processed.
// A Handler is safe for concurrent use; the store serialises the
// transactions.
type Handler struct {
	cfg  *Config
	from gomail.Address
	log  *slog.Logger

	// LookupTXT finds DNS TXT records for DKIM (referee.require_dkim); nil
	// means the system's resolver.
	LookupTXT func(domain string) ([]string, error)

	hook func(*Incoming) // tests: called before a mail is handled
}

// NewHandler returns the handler for a configuration.
func NewHandler(cfg *Config, log *slog.Logger) *Handler {
	if log == nil {
		log = slog.Default()
	}
	return &Handler{cfg: cfg, from: gomail.Address{Name: cfg.Referee.Name, Address: cfg.Referee.Address}, log: log}
}

// MessageKey names a message in a mailbox (RFC 3501: UIDVALIDITY and UID).
type MessageKey struct {
	Mailbox     string
	UIDValidity uint32
	UID         uint32
}

// pending is a mail to queue.
type pending struct {
	game   string
	kind   string
	secret bool // carries a token: its text is dropped once sent
	out    Outgoing
}

// work is what handling one mail produces.
type work struct {
	h       *Handler
	tx      *store.Tx
	now     time.Time
	in      *Incoming
	mails   []pending
	outcome string
	game    string
}

func (w *work) send(game, kind string, o Outgoing) {
	w.mails = append(w.mails, pending{game: game, kind: kind, out: o})
}

// reply answers the mail's sender, in its thread.
func (w *work) reply(game, text string) { w.replyMap(game, text, nil) }

// replyMap answers the mail's sender, with the map picture if ref is set.
func (w *work) replyMap(game, text string, ref *MapRef) {
	refs := append(append([]string(nil), w.in.References...), w.in.MessageID)
	if w.in.MessageID == "" {
		refs = w.in.References
	}
	w.send(game, KindReply, Outgoing{To: []string{w.in.From}, Subject: replySubject(game, w.in.Subject), Text: text, References: refs, Map: ref})
}

// Handle handles one raw mail of the mailbox, whose size the server gave.
// It returns the outcome, for the log. A mail already processed (the same
// key, or the same Message-ID under another key) is not handled again. An
// error means that nothing was kept: the mail is to be tried again.
func (h *Handler) Handle(tx *store.Tx, key MessageKey, raw []byte, size int64, now time.Time) (outcome string, err error) {
	defer func() {
		// A fault of the referee's own must not stop it for good: the
		// mail would fail again at every start. The transaction is
		// rolled back, and the caller records the mail with Failed.
		if r := recover(); r != nil {
			h.log.Error("handling a mail failed", "uid", key.UID, "panic", r, "stack", string(debug.Stack()))
			outcome, err = "", &InternalError{What: fmt.Sprint(r)}
		}
	}()
	in, perr := ParseIncoming(raw)
	if in == nil {
		in = &Incoming{}
	}
	if p, done, err := tx.WasProcessed(key.Mailbox, key.UIDValidity, key.UID, in.MessageID); err != nil {
		return "", err
	} else if done {
		return "already processed: " + p.Outcome, nil
	}
	if h.hook != nil {
		h.hook(in)
	}
	w := &work{h: h, tx: tx, now: now, in: in}
	if err := w.handle(raw, size, perr); err != nil {
		return "", err
	}
	if err := w.queue(); err != nil {
		return "", err
	}
	err = tx.MarkProcessed(store.Processed{Mailbox: key.Mailbox, UIDValidity: key.UIDValidity, UID: key.UID,
		MessageID: in.MessageID, Game: w.game, Time: now, Outcome: w.outcome})
	return w.outcome, err
}

// queue puts the mails of the work in the outbox.
func (w *work) queue() error {
	for _, m := range w.mails {
		mail := &store.Mail{Game: m.game, Kind: m.kind, Secret: m.secret, From: w.h.from.Address, To: m.out.To,
			Subject: m.out.Subject, Created: w.now}
		if m.out.Map != nil {
			// Composed when sent, with its picture then drawn.
			id, err := newMessageID(w.h.from.Address)
			if err != nil {
				return err
			}
			data, err := json.Marshal(deferred{Out: m.out, MessageID: id, Date: w.now})
			if err != nil {
				return err
			}
			mail.MessageID, mail.Data, mail.Deferred, mail.Snapshot = id, data, true, m.out.Map.Snapshot
		} else {
			data, id, err := Compose(w.h.from, &m.out, w.now)
			if err != nil {
				return err
			}
			mail.MessageID, mail.Data = id, data
		}
		if err := w.tx.Queue(mail); err != nil {
			return err
		}
	}
	return nil
}

// InternalError is returned by Handle when handling a mail met a fault of
// the referee's own.
type InternalError struct{ What string }

func (e *InternalError) Error() string { return "internal error: " + e.What }

// Failed records a mail whose handling met an internal error: it is marked
// processed, so that it is not tried again at every start, and a
// registered sender is told that nothing of it was applied.
func (h *Handler) Failed(tx *store.Tx, key MessageKey, raw []byte, cause error, now time.Time) error {
	in, _ := ParseIncoming(raw)
	if in == nil {
		in = &Incoming{}
	}
	w := &work{h: h, tx: tx, now: now, in: in, outcome: "failed: " + cause.Error()}
	if w.registered(in.From) {
		w.reply("", "The referee met an error of its own while handling your mail, so nothing in it was applied.\n"+
			"The operator has been told. Please send it again later, or write to the operator.\n")
	}
	if err := w.queue(); err != nil {
		return err
	}
	return tx.MarkProcessed(store.Processed{Mailbox: key.Mailbox, UIDValidity: key.UIDValidity, UID: key.UID,
		MessageID: in.MessageID, Time: now, Outcome: w.outcome})
}

// registered reports whether an address plays, observes or directs.
func (w *work) registered(addr string) bool {
	if addr == "" {
		return false
	}
	if d := w.h.cfg.Referee.Director; d != "" && strings.EqualFold(d, addr) {
		return true
	}
	ids, _ := w.tx.GamesOf(addr)
	return len(ids) > 0
}

func (w *work) handle(raw []byte, size int64, perr error) error {
	in, cfg := w.in, w.h.cfg
	switch {
	case size > cfg.Referee.MaxMessageBytes || int64(len(raw)) > cfg.Referee.MaxMessageBytes:
		w.outcome = fmt.Sprintf("refused: %d bytes, over the limit of %d", max(size, int64(len(raw))), cfg.Referee.MaxMessageBytes)
		if w.registered(in.From) {
			w.reply("", fmt.Sprintf("Your mail of %d bytes is over the referee's limit of %d bytes, so it was not read.\nSend your orders as plain text, without attachments.\n", max(size, int64(len(raw))), cfg.Referee.MaxMessageBytes))
		}
		return nil
	case len(in.Bounce) > 0:
		return w.bounce()
	case errors.Is(perr, ErrNoText):
		w.outcome = "refused: no text part"
		if w.registered(in.From) {
			w.reply("", "Your mail has no text part, so it holds no orders the referee can read.\nWrite your orders in the body of a plain-text mail.\n")
		}
		return nil
	case perr != nil:
		w.outcome = "refused: unreadable: " + perr.Error()
		if w.registered(in.From) {
			w.reply("", "The referee could not read your mail: "+perr.Error()+"\nSend your orders in a plain-text mail.\n")
		}
		return nil
	case in.From == "":
		w.outcome = "ignored: no sender"
		return nil
	}
	if cfg.Referee.RequireDKIM && w.registered(in.From) && !dkimAligned(raw, in.From, w.h.LookupTXT) {
		// Without a signature of the sender's domain the From may be
		// forged; no reply goes to it, and the address is warned.
		w.outcome = "refused: no valid DKIM signature of the sender's domain"
		w.h.log.Warn("mail refused: no valid DKIM signature", "from", in.From, "message_id", in.MessageID)
		w.send("", KindWarning, Outgoing{To: []string{in.From}, Subject: "a mail in your name was refused",
			Text: fmt.Sprintf("A mail from your address (subject %q) was refused: the referee requires a valid DKIM signature\n"+
				"of your address's domain, and it had none. Nothing in it was applied. If you sent it, send it\n"+
				"through your own mail provider, which signs the mails it sends.\n", in.Subject)})
		return nil
	}
	if d := cfg.Referee.Director; d != "" && strings.EqualFold(d, in.From) {
		return w.director()
	}
	ids, err := w.tx.GamesOf(in.From)
	if err != nil {
		return err
	}
	if len(ids) == 0 {
		// No reply: the sender may be forged, and a reply would go to
		// someone who never wrote (backscatter).
		w.outcome = "ignored: unregistered sender"
		w.h.log.Warn("mail from an unregistered sender", "from", in.From, "message_id", in.MessageID)
		return nil
	}
	g, side, err := w.findGame(ids)
	if err != nil || g == nil {
		return err
	}
	w.game = g.ID
	if !g.Authentic(side, tokenOf(in.Text)) {
		w.outcome = "refused: missing or wrong token"
		w.h.log.Warn("mail refused: missing or wrong token", "game", g.ID, "from", in.From, "message_id", in.MessageID)
		// The registered address is warned, not answered: the mail may be
		// forged, and the warning tells only that one was refused.
		w.send(g.ID, KindWarning, Outgoing{To: []string{g.Players[side].Address},
			Subject: fmt.Sprintf("[%s] a mail in your name was refused", g.ID),
			Text: fmt.Sprintf("A mail from your address to game %s (subject %q) was refused: it had no TOKEN line, or a wrong one.\n"+
				"Nothing in it was applied. If you sent it, send it again with the TOKEN line of your welcome mail.\n"+
				"If you did not, someone tried to give orders in your name; your token keeps them out.\n", g.ID, in.Subject)})
		return nil
	}
	return w.player(g, side)
}

// findGame finds the game a player's mail is for: its GAME line, or [id] in
// its subject, or the one game of the sender still being played.
func (w *work) findGame(ids []string) (*adjudicator.Game, rules.Side, error) {
	id := gameLineOf(w.in.Text)
	if id == "" {
		for _, m := range subjectGame.FindAllStringSubmatch(w.in.Subject, -1) {
			for _, x := range ids {
				if strings.EqualFold(m[1], x) {
					id = x
				}
			}
		}
	}
	if id == "" {
		var open []string
		for _, x := range ids {
			if g, err := w.tx.Summary(x); err == nil && g.Status != adjudicator.Finished && sideOf(g, w.in.From) != "" {
				open = append(open, x)
			}
		}
		if len(open) != 1 {
			w.outcome = "refused: no GAME line"
			w.reply("", fmt.Sprintf("Your mail names no game, and you play %d games: %s.\nPut a GAME line at its top, as GAME %s, or the game's id in brackets in the subject.\n",
				len(open), strings.Join(open, ", "), first(open, "intro-1")))
			return nil, "", nil
		}
		id = open[0]
	}
	var match string
	for _, x := range ids {
		if strings.EqualFold(x, id) {
			match = x
		}
	}
	if match == "" {
		w.outcome = "refused: not a player of " + id
		w.reply("", fmt.Sprintf("You are not a player of game %s; your games are %s.\n", id, strings.Join(ids, ", ")))
		return nil, "", nil
	}
	g, err := w.tx.Game(match)
	if err != nil {
		return nil, "", err
	}
	side := sideOf(g, w.in.From)
	if side == "" {
		w.game = g.ID
		w.outcome = "refused: an observer's mail"
		w.reply(g.ID, fmt.Sprintf("You observe game %s: you receive its reports, but only its players give orders.\n", g.ID))
		return nil, "", nil
	}
	return g, side, nil
}

func first(xs []string, def string) string {
	if len(xs) > 0 {
		return xs[0]
	}
	return def
}

// sideOf returns the side an address plays in a game, or "".
func sideOf(g *adjudicator.Game, addr string) rules.Side {
	for _, s := range []rules.Side{rules.German, rules.Allied} {
		if strings.EqualFold(g.Players[s].Address, addr) {
			return s
		}
	}
	return ""
}

// tokenOf finds the TOKEN line of a mail's text before any parsing, so that
// nothing of a mail is read back to a sender who has not proved who he is.
func tokenOf(text string) string { return headingOf(text, "TOKEN") }

// gameLineOf finds the GAME line.
func gameLineOf(text string) string { return headingOf(text, "GAME") }

func headingOf(text, keyword string) string {
	for _, l := range strings.Split(text, "\n") {
		f := strings.Fields(l)
		if len(f) >= 2 && strings.EqualFold(f[0], keyword) {
			return f[1]
		}
		if len(f) == 1 && strings.EqualFold(f[0], "END") {
			break
		}
	}
	return ""
}

// player handles an authenticated player's mail: requests answered, orders
// checked as a whole and applied, everyone told.
func (w *work) player(g *adjudicator.Game, side rules.Side) error {
	s, err := g.Rules()
	if err != nil {
		return err
	}
	o, err := rules.ParseOrders(w.in.Text, s, &rules.ParseOptions{Side: side})
	var oes rules.OrderErrors
	if errors.As(err, &oes) {
		w.outcome = fmt.Sprintf("refused: %d error(s) in the orders", len(oes))
		w.reply(g.ID, orderErrorsText(oes)+"\nNothing in your mail was applied.\n"+inPlay(g)+w.standing(g, side))
		return nil
	} else if err != nil {
		return err
	}
	var requests []rules.Order
	check, orders := false, false
	lines := strings.Split(strings.ReplaceAll(w.in.Text, "\r\n", "\n"), "\n")
	for i, ord := range o.List {
		switch rules.ClassOf(ord) {
		case rules.Request:
			if _, ok := ord.(rules.CheckRequest); ok {
				check = true
			} else {
				requests = append(requests, ord)
			}
			// The request's line is left out of the orders given to
			// the game, keeping the lines' numbers.
			if n := o.Lines[i] - 1; n >= 0 && n < len(lines) {
				lines[n] = ""
			}
		case rules.ImpulseOrder, rules.StandingOrder:
			orders = true
		case rules.HeadingLine:
			if _, ok := ord.(rules.ImpulseLine); ok {
				orders = true
			}
		}
	}
	before := g.Clone()
	var recs []adjudicator.Record
	var answers []string
	var notices []string // told to both players and the observers
	var played []rules.Event
	var replyMap *MapRef // the STATUS answer's map
	fail := func(text, outcome string) error {
		w.outcome = "refused: " + outcome
		w.reply(g.ID, text+"\nNothing in your mail was applied.\n"+w.standing(before, side))
		return nil
	}
	for _, r := range requests {
		var out []adjudicator.Record
		var err error
		switch r := r.(type) {
		case rules.HelpRequest:
			answers = append(answers, rules.HelpText(s, side))
		case rules.StatusRequest:
			answers = append(answers, statusText(g))
			if replyMap, err = w.mapRef(g, "in play", nil); err != nil {
				return err
			}
		case rules.UnitsRequest:
			answers = append(answers, unitsText(g, s, side))
		case rules.DiceRequest:
			answers = append(answers, diceText(g))
		case rules.OrdersRequest:
			log, err := w.tx.Log(g.ID)
			if err != nil {
				return err
			}
			answers = append(answers, ordersOnFile(log, side))
		case rules.JoinRequest:
			seed := r.Seed
			if seed == "" {
				if seed, err = adjudicator.NewPlayerSeed(); err != nil {
					return err
				}
			}
			if out, err = g.Join(side, seed, w.now); err == nil {
				answers = append(answers, fmt.Sprintf("You have joined game %s with the seed %q.", g.ID, seed))
				if g.Status == adjudicator.Playing {
					notices = append(notices, startText(g))
				}
			}
		case rules.ExtendRequest:
			p := g.Players[side]
			d := time.Duration(r.Hours) * time.Hour
			switch {
			case p.Extensions >= w.h.cfg.Referee.MaxExtensions:
				err = fmt.Errorf("you have had the %d extensions a player may have in a game", w.h.cfg.Referee.MaxExtensions)
			case d > w.h.cfg.Referee.MaxExtension:
				err = fmt.Errorf("an extension is at most %s", human(w.h.cfg.Referee.MaxExtension))
			default:
				if out, err = g.Extend(side, d, "asked by the "+string(side)+" player", w.now); err == nil {
					notices = append(notices, fmt.Sprintf("The %s player extended impulse %s by %s: it is now due by %s.", side.Title(), g.Next, human(d), adjudicator.FormatTime(g.Due)))
				}
			}
		case rules.ConcedeRequest:
			if out, err = g.Concede(side, w.now); err == nil {
				notices = append(notices, fmt.Sprintf("The %s player concedes.\n\n%s", side.Title(), endText(g)))
			}
		case rules.DrawRequest:
			if out, err = g.Draw(side, r.Accept, w.now); err == nil {
				if g.Status == adjudicator.Finished {
					notices = append(notices, "The players agree to a draw.\n\n"+endText(g))
				} else {
					notices = append(notices, fmt.Sprintf("The %s player offers a draw. The %s player accepts it with DRAW ACCEPT; the offer lapses when the next impulse is played.", side.Title(), side.Enemy().Title()))
				}
			}
		}
		if err != nil {
			return fail(fmt.Sprintf("%s: %v.", r.Keyword(), err), r.Keyword())
		}
		recs = append(recs, out...)
	}
	text := strings.Join(lines, "\n")
	switch {
	case check && orders:
		answers = append(answers, checkText(g, s, side, text))
	case orders:
		out, events, err := g.Submit(side, text, w.now)
		var oes rules.OrderErrors
		switch {
		case errors.As(err, &oes):
			w.outcome = fmt.Sprintf("refused: %d error(s) in the orders", len(oes))
			w.reply(g.ID, orderErrorsText(oes)+"\nNothing in your mail was applied.\n"+inPlay(before)+w.standing(before, side))
			return nil
		case errors.Is(err, adjudicator.ErrNotYourImpulse), errors.Is(err, adjudicator.ErrPaused), errors.Is(err, adjudicator.ErrNotPlaying):
			return fail(capital(err.Error())+".", "out of turn")
		case err != nil:
			return err
		}
		recs = append(recs, out...)
		played = events
		for _, r := range out {
			if r.Kind == adjudicator.KindStanding {
				answers = append(answers, "Your standing orders are kept.")
			}
		}
	}
	if len(recs) > 0 {
		if err := w.tx.SaveGame(g, recs); err != nil {
			return err
		}
	}
	// The impulse's report goes to everyone; so do the notices.
	reported := false
	for _, r := range recs {
		if r.Kind == adjudicator.KindImpulse {
			report, err := adjudicator.Report(g, recs, played)
			if err != nil {
				return err
			}
			if g.Status == adjudicator.Finished {
				report += "\n" + promptnessText(g)
			}
			ref, err := w.mapRef(g, r.Impulse, played)
			if err != nil {
				return err
			}
			w.toAllAs(g, reportSubject(g, r), report, ref)
			reported = true
		}
	}
	for _, n := range notices {
		w.toAll(g, n)
	}
	if len(answers) > 0 || len(notices) == 0 && !reported {
		if len(answers) == 0 {
			answers = append(answers, "Your mail held no orders and no requests. Send HELP for the order language.")
		}
		w.replyMap(g.ID, strings.Join(answers, "\n\n")+"\n"+w.standing(g, side), replyMap)
	}
	w.outcome = outcomeOf(recs, requests, check)
	return nil
}

// reportSubject is the subject of an impulse's report: the game, the
// impulse played and what comes next.
func reportSubject(g *adjudicator.Game, r adjudicator.Record) string {
	switch {
	case g.Status == adjudicator.Finished:
		return fmt.Sprintf("[%s] %s played: the game is over, %s", g.ID, r.Impulse, g.Result)
	case g.Paused:
		return fmt.Sprintf("[%s] %s played; %s next (paused)", g.ID, r.Impulse, g.Next)
	}
	return fmt.Sprintf("[%s] %s played; %s next, due by %s", g.ID, r.Impulse, g.Next, adjudicator.FormatTime(g.Due))
}

// toAll sends a notice to both players and the observers, under its first
// line.
func (w *work) toAll(g *adjudicator.Game, text string) {
	w.toAllAs(g, fmt.Sprintf("[%s] %s", g.ID, firstLine(text)), text, nil)
}

// toAllAs sends a text to both players and the observers, each in his own
// mail so that no address is shown to the others' mail servers needlessly.
func (w *work) toAllAs(g *adjudicator.Game, subject, text string, ref *MapRef) {
	for _, side := range []rules.Side{rules.German, rules.Allied} {
		w.send(g.ID, KindReport, Outgoing{To: []string{g.Players[side].Address}, Subject: subject,
			Text: text + "\n" + w.standing(g, side), Map: ref})
	}
	for _, o := range g.Observers {
		w.send(g.ID, KindReport, Outgoing{To: []string{o}, Subject: subject, Text: text, Map: ref})
	}
}

// standing is the echo of a player's standing orders that ends every mail
// to him, so that he always knows what the referee holds.
func (w *work) standing(g *adjudicator.Game, side rules.Side) string {
	if g == nil || g.State == nil {
		return ""
	}
	sd := g.State.Standing[side]
	var b strings.Builder
	b.WriteString("\nYour standing orders on file:\n")
	fmt.Fprintf(&b, "  %s\n", sd.Blow)
	for _, d := range sd.Defend {
		fmt.Fprintf(&b, "  %s\n", d)
	}
	return b.String()
}

func outcomeOf(recs []adjudicator.Record, requests []rules.Order, check bool) string {
	var parts []string
	for _, r := range recs {
		switch r.Kind {
		case adjudicator.KindImpulse:
			parts = append(parts, "played "+r.Impulse)
		case adjudicator.KindStanding:
			parts = append(parts, "standing orders kept")
		default:
			parts = append(parts, r.Kind)
		}
	}
	for _, r := range requests {
		if _, changes := r.(rules.JoinRequest); !changes {
			parts = append(parts, "answered "+r.Keyword())
		}
	}
	if check {
		parts = append(parts, "checked")
	}
	if len(parts) == 0 {
		return "answered"
	}
	return strings.Join(parts, ", ")
}

// inPlay says which impulse is in play and until when, for replies to
// orders that were refused.
func inPlay(g *adjudicator.Game) string {
	if g.Status != adjudicator.Playing {
		return fmt.Sprintf("Game %s is %s.\n", g.ID, g.Status)
	}
	if g.Paused {
		return fmt.Sprintf("Game %s is paused by the director; impulse %s is next.\n", g.ID, g.Next)
	}
	return fmt.Sprintf("In play: the %s impulse %s, due by %s.\n", g.Next.Side.Title(), g.Next, adjudicator.FormatTime(g.Due))
}

func orderErrorsText(es rules.OrderErrors) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Your orders have %d error(s):\n\n", len(es))
	for _, e := range es {
		fmt.Fprintf(&b, "line %d: %s\n  %s\n", e.Line, e.Text, e.Msg)
	}
	return b.String()
}

func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return strings.TrimSuffix(l, ".")
}

// human writes a duration to the minute, as people do: 72h, 1h30m, 45m.
func human(d time.Duration) string { return adjudicator.FormatDuration(d.Round(time.Minute)) }

// bounce records that mails to an address could not be delivered: the
// mails to it still in the outbox are failed, and the operator sees it.
func (w *work) bounce() error {
	w.outcome = "bounce for " + strings.Join(w.in.Bounce, ", ")
	mails, err := w.tx.Outbox("")
	if err != nil {
		return err
	}
	for i := len(mails) - 1; i >= 0; i-- {
		m := mails[i]
		for _, to := range m.To {
			for _, b := range w.in.Bounce {
				if strings.EqualFold(to, b) && m.Status != store.MailFailed {
					m.Status, m.Error = store.MailFailed, "bounced: the recipient's server reported it undeliverable"
					if err := w.tx.PutMail(m); err != nil {
						return err
					}
					w.game = m.Game
					w.h.log.Warn("mail bounced", "game", m.Game, "to", to, "mail", m.ID)
					return nil
				}
			}
		}
	}
	return nil
}

// director handles the tournament director's mail: NEW, PAUSE, RESUME,
// EXTEND and ROLLBACK, each with a reason, acknowledged and logged.
func (w *work) director() error {
	cfg := w.h.cfg
	if !constantEqual(tokenOf(w.in.Text), cfg.Referee.DirectorToken) {
		w.outcome = "refused: the director's token is missing or wrong"
		w.h.log.Warn("director's mail refused: missing or wrong token", "from", w.in.From, "message_id", w.in.MessageID)
		w.send("", KindWarning, Outgoing{To: []string{cfg.Referee.Director}, Subject: "a mail in your name was refused",
			Text: fmt.Sprintf("A mail from your address (subject %q) was refused: it had no TOKEN line, or a wrong one. Nothing in it was applied.\n", w.in.Subject)})
		return nil
	}
	var answers, done []string
	for n, l := range strings.Split(strings.ReplaceAll(w.in.Text, "\r\n", "\n"), "\n") {
		f := strings.Fields(l)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") || strings.HasPrefix(f[0], ">") {
			continue
		}
		kw := strings.ToUpper(f[0])
		if kw == "END" || l == "-- " {
			break
		}
		if kw == "TOKEN" {
			continue
		}
		ans, err := w.directorLine(kw, f[1:])
		if err != nil {
			answers = append(answers, fmt.Sprintf("line %d: %s\n  %v", n+1, strings.TrimSpace(l), err))
			continue
		}
		answers = append(answers, fmt.Sprintf("line %d: %s\n  %s", n+1, strings.TrimSpace(l), ans))
		done = append(done, kw)
	}
	if len(answers) == 0 {
		answers = append(answers, directorHelp)
	}
	w.outcome = "director: " + strings.Join(done, ", ")
	if len(done) == 0 {
		w.outcome = "director: nothing done"
	}
	w.reply(w.game, strings.Join(answers, "\n\n")+"\n")
	return nil
}

const directorHelp = `The director's orders, one a line, after TOKEN:
  NEW scenario german-address allied-address
  PAUSE game reason...
  RESUME game reason...
  EXTEND game 24h reason...
  ROLLBACK game G17-2 reason...`

func (w *work) directorLine(kw string, args []string) (string, error) {
	if kw == "NEW" {
		if len(args) != 3 {
			return "", errors.New("NEW takes a scenario and the two players' addresses: NEW campaign german@example.org allied@example.org")
		}
		return w.newGame(args[0], args[1], args[2])
	}
	if len(args) < 2 {
		return "", fmt.Errorf("%s takes a game and a reason\n%s", kw, directorHelp)
	}
	g, err := w.tx.Game(args[0])
	if errors.Is(err, store.ErrNoGame) {
		return "", fmt.Errorf("no game %s", args[0])
	} else if err != nil {
		return "", err
	}
	w.game = g.ID
	var recs []adjudicator.Record
	var notice string
	switch kw {
	case "PAUSE":
		reason := strings.Join(args[1:], " ")
		recs, err = g.Pause(reason, w.now)
		notice = fmt.Sprintf("The director has paused game %s: %s. No impulse is played until the director resumes it.", g.ID, reason)
	case "RESUME":
		reason := strings.Join(args[1:], " ")
		recs, err = g.Resume(reason, w.now)
		notice = fmt.Sprintf("The director has resumed game %s: %s. Impulse %s is due by %s.", g.ID, reason, g.Next, adjudicator.FormatTime(g.Due))
	case "EXTEND":
		d, perr := time.ParseDuration(strings.ToLower(args[1]))
		if perr != nil || len(args) < 3 {
			return "", errors.New("EXTEND takes a game, a time as 24h, and a reason")
		}
		reason := strings.Join(args[2:], " ")
		recs, err = g.Extend("", d, reason, w.now)
		notice = fmt.Sprintf("The director has extended impulse %s of game %s by %s: %s. It is due by %s.", g.Next, g.ID, human(d), reason, adjudicator.FormatTime(g.Due))
	case "ROLLBACK":
		to, perr := rules.ParseImpulse(args[1])
		if perr != nil || len(args) < 3 {
			return "", errors.New("ROLLBACK takes a game, the impulse to play again as G17-2, and a reason")
		}
		log, lerr := w.tx.Log(g.ID)
		if lerr != nil {
			return "", lerr
		}
		reason := strings.Join(args[2:], " ")
		recs, err = g.Rollback(log, to, reason, w.now)
		notice = fmt.Sprintf("The director has rolled game %s back to before impulse %s: %s.\nImpulse %s is to be played again, due by %s. The log keeps everything; no die is rolled twice.", g.ID, to, reason, g.Next, adjudicator.FormatTime(g.Due))
	default:
		return "", fmt.Errorf("unknown order %s\n%s", kw, directorHelp)
	}
	if err != nil {
		return "", err
	}
	if err := w.tx.SaveGame(g, recs); err != nil {
		return "", err
	}
	w.toAll(g, notice)
	return "done; log head " + g.Head, nil
}

func constantEqual(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	return adjudicator.HashToken(a) == adjudicator.HashToken(b)
}

// newGame makes a game for the director and welcomes its players.
func (w *work) newGame(scenario, german, allied string) (string, error) {
	id, tokens, err := NewGame(w.tx, w.h.from, NewGameOptions{Scenario: scenario, German: german, Allied: allied,
		Deadline: w.h.cfg.Referee.Deadline, Now: w.now})
	if err != nil {
		return "", err
	}
	_ = tokens
	w.game = id
	return fmt.Sprintf("game %s made; its players are welcomed and asked to JOIN", id), nil
}
