package mail

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"slices"
	"strings"
	"time"
	"titm/adjudicator/lang"
	"unicode/utf8"

	gomail "github.com/emersion/go-message/mail"

	"titm/adjudicator"
	"titm/adjudicator/referee"
	"titm/rules"
	"titm/store"
)

// Handler applies mails to the store: the daemon's logic, apart from the
// network. It finds out who wrote a mail and what it is for, and leaves
// what the mail does to the referee's acts. Each mail is handled in one
// transaction with everything it changes, the mails it queues and the
// record that it was processed. A Handler is safe for concurrent use; the
// store serialises the transactions.
type Handler struct {
	cfg  *Config
	ref  *referee.Referee
	from gomail.Address
	log  *slog.Logger

	// LookupTXT finds DNS TXT records for DKIM (referee.require_dkim); nil
	// means the system's resolver.
	LookupTXT func(domain string) ([]string, error)
}

// NewHandler returns the handler for a configuration.
func NewHandler(cfg *Config, log *slog.Logger) *Handler {
	if log == nil {
		log = slog.Default()
	}
	return &Handler{cfg: cfg, ref: referee.New(cfg.RefereeOptions()), from: cfg.From(), log: log}
}

// RefereeOptions are the settings of the referee's acts, from the
// configuration.
func (c *Config) RefereeOptions() *referee.Options {
	r := &c.Referee
	return &referee.Options{Address: r.Address, Deadline: r.Deadline, MaxExtensions: r.MaxExtensions,
		MaxExtension: r.MaxExtension, Reminder: r.Reminder, MapPicture: r.MapPicture,
		Language: r.Language, Languages: r.Languages}
}

// From is the address the referee's mails come from.
func (c *Config) From() gomail.Address {
	return gomail.Address{Name: c.Referee.Name, Address: c.Referee.Address}
}

// MessageKey names a message in a mailbox (RFC 3501: UIDVALIDITY and UID).
type MessageKey struct {
	Mailbox     string
	UIDValidity uint32
	UID         uint32
}

// pending is a mail to queue: one of the referee's, or a reply in the
// thread of the mail handled.
type pending struct {
	referee.Mail
	refs []string
	lang string // the language of a reply, for what the queue adds to it
}

// work is what handling one mail produces.
type work struct {
	h   *Handler
	tx  *store.Tx
	now time.Time
	*letter
	// replies answer the mail's sender; they are queued before the mails
	// to others, so that a player reads the answer to his mail before
	// the notices it caused.
	replies []pending
	mails   []pending
	outcome string
	game    string
}

// letter is a raw mail as read: whole, or its header alone when it is
// over the size limit.
type letter struct {
	in       *Incoming
	perr     error  // why it cannot be read, if it cannot
	digest   string // what it is known by once processed (Digest)
	oversize bool
	size     int64 // its size, as the server gave it or as read
}

// read reads a raw mail of the given size. A mail over the limit is known
// by its header alone: its body is never read, and raw may hold only the
// header.
func (h *Handler) read(raw []byte, size int64) *letter {
	l := &letter{size: max(size, int64(len(raw)))}
	l.oversize = l.size > h.cfg.Referee.MaxMessageBytes
	if l.oversize {
		l.in = ParseHeader(raw)
	} else {
		l.in, l.perr = ParseIncoming(raw)
	}
	if l.in == nil {
		l.in = &Incoming{}
	}
	l.digest = Digest(raw, l.oversize)
	return l
}

func (w *work) send(m referee.Mail) { w.mails = append(w.mails, pending{Mail: m}) }

// result takes what a referee's act did: its mails, and its reply to the
// mail's sender.
func (w *work) result(res *referee.Result) {
	w.collect(res)
	if res.Reply != "" {
		w.replyMap(w.game, res.Reply, res.ReplyMap)
	}
	w.outcome = res.Outcome
}

// reply answers the mail's sender, in its thread.
func (w *work) reply(game, text string) { w.replyMap(game, text, nil) }

// replyMap answers the mail's sender, with the map picture if ref is set.
func (w *work) replyMap(game, text string, ref *referee.MapRef) {
	refs := append(append([]string(nil), w.in.References...), w.in.MessageID)
	if w.in.MessageID == "" {
		refs = w.in.References
	}
	w.replies = append(w.replies, pending{Mail: referee.Mail{Game: game, Kind: referee.KindReply, To: []string{w.in.From},
		Subject: replySubject(game, w.in.Subject), Text: text, Map: ref}, refs: refs, lang: w.language()})
}

// language returns the code of the language the sender reads: his own in
// the game the mail is about, else his address's, else the referee's.
func (w *work) language() string {
	if w.in == nil {
		return w.h.ref.Language(nil, "")
	}
	var g *adjudicator.Game
	if w.game != "" {
		g, _ = w.tx.Summary(w.game)
	}
	return w.h.ref.Language(g, w.in.From)
}

// printer is the printer of the sender's language.
func (w *work) printer() *lang.Printer { return lang.For(w.language()) }

// Handle handles one raw mail of the mailbox, whose size the server gave;
// of a mail over the size limit, raw may be its header alone. It returns
// the outcome, for the log. A mail already processed (the same key, or the
// same mail under another key: the same digest) is not handled again, and
// the log says so. An error means that nothing was kept: the mail is to be
// tried again.
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
	l := h.read(raw, size)
	if p, done, err := tx.WasProcessed(key.Mailbox, key.UIDValidity, key.UID, l.digest); err != nil {
		return "", err
	} else if done {
		h.log.Info("mail skipped: processed before", "uid", key.UID, "from", l.in.From, "message_id", l.in.MessageID,
			"processed_uid", p.UID, "processed_at", p.Time, "outcome", p.Outcome)
		return alreadyProcessed + p.Outcome, nil
	} else if p != nil {
		// The server gave this key to another mail before: it numbered
		// the folder anew without a new UIDVALIDITY. The mail is new, and
		// handled; the record of the other is replaced.
		h.log.Warn("mail under a key handled before, with other content: the server reused a UID; handling it as a new mail",
			"mailbox", key.Mailbox, "uidvalidity", key.UIDValidity, "uid", key.UID, "from", l.in.From, "message_id", l.in.MessageID,
			"before_message_id", p.MessageID, "before_at", p.Time)
	}
	h.log.Debug("handling mail", "mailbox", key.Mailbox, "uid", key.UID, "from", l.in.From, "subject", l.in.Subject)
	w := &work{h: h, tx: tx, now: now, letter: l}
	if err := w.handle(raw); err != nil {
		return "", err
	}
	if err := w.queue(); err != nil {
		return "", err
	}
	err = tx.MarkProcessed(store.Processed{Mailbox: key.Mailbox, UIDValidity: key.UIDValidity, UID: key.UID,
		MessageID: l.in.MessageID, Digest: l.digest, Game: w.game, Time: now, Outcome: w.outcome})
	return w.outcome, err
}

// queue puts the mails of the work in the outbox: the answers to the
// sender first.
func (w *work) queue() error {
	return queue(w.tx, w.h.from, append(w.replies, w.mails...), w.now)
}

// Queue puts the mails of a referee's act in the outbox, from the referee's
// address: every door queues them the same way, in the transaction of the
// act.
func Queue(tx *store.Tx, from gomail.Address, mails []referee.Mail, now time.Time) error {
	ps := make([]pending, len(mails))
	for i, m := range mails {
		ps[i] = pending{Mail: m}
	}
	return queue(tx, from, ps, now)
}

func queue(tx *store.Tx, from gomail.Address, mails []pending, now time.Time) error {
	for _, m := range mails {
		text := m.Text
		if m.Kind == referee.KindReply {
			text = capText(lang.For(m.lang), text)
		}
		out := Outgoing{To: m.To, Subject: m.Subject, Text: text, References: m.refs, Map: m.Map}
		mail := &store.Mail{Game: m.Game, Kind: m.Kind, Secret: m.Secret, From: from.Address, To: m.To,
			Subject: m.Subject, Created: now}
		if m.Map != nil {
			// Composed when sent, with its picture then drawn.
			id, err := newMessageID(from.Address)
			if err != nil {
				return err
			}
			data, err := json.Marshal(deferred{Out: out, MessageID: id, Date: now})
			if err != nil {
				return err
			}
			mail.MessageID, mail.Data, mail.Deferred, mail.Snapshot = id, data, true, m.Map.Snapshot
		} else {
			data, id, err := Compose(from, &out, now)
			if err != nil {
				return err
			}
			mail.MessageID, mail.Data = id, data
		}
		if err := tx.Queue(mail); err != nil {
			return err
		}
	}
	return nil
}

// alreadyProcessed begins the outcome of a mail Handle found processed
// before.
const alreadyProcessed = "already processed: "

// InternalError is returned by Handle when handling a mail met a fault of
// the referee's own.
type InternalError struct{ What string }

func (e *InternalError) Error() string { return "internal error: " + e.What }

// Failed records a mail whose handling met an internal error: it is marked
// processed, so that it is not tried again at every start, and a
// registered sender is told that nothing of it was applied. raw and size
// are as Handle was given them.
func (h *Handler) Failed(tx *store.Tx, key MessageKey, raw []byte, size int64, cause error, now time.Time) error {
	l := h.read(raw, size)
	w := &work{h: h, tx: tx, now: now, letter: l, outcome: "failed: " + cause.Error()}
	if w.registered(l.in.From) {
		w.reply("", wrapped(w.printer().Sprintf("The referee met an error of its own while handling your mail, so nothing in it was applied. The operator has been told. Please send it again later, or write to the operator.")))
	}
	if err := w.queue(); err != nil {
		return err
	}
	return tx.MarkProcessed(store.Processed{Mailbox: key.Mailbox, UIDValidity: key.UIDValidity, UID: key.UID,
		MessageID: l.in.MessageID, Digest: l.digest, Time: now, Outcome: w.outcome})
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
	if len(ids) == 0 {
		ids, _ = w.tx.TournamentsOf(strings.ToLower(addr))
	}
	return len(ids) > 0
}

func (w *work) handle(raw []byte) error {
	if done, err := w.unreadable(); done || err != nil {
		return err
	}
	in, cfg := w.in, w.h.cfg
	if cfg.Referee.RequireDKIM && w.registered(in.From) && !dkimAligned(raw, in.From, w.h.LookupTXT) {
		// Without a signature of the sender's domain the From may be
		// forged; no reply goes to it, and the address is warned.
		w.outcome = "refused: no valid DKIM signature of the sender's domain"
		w.h.log.Warn("mail refused: no valid DKIM signature", "from", in.From, "message_id", in.MessageID)
		p := w.printer()
		w.send(referee.Mail{Kind: referee.KindWarning, To: []string{in.From}, Subject: p.Sprintf("a mail in your name was refused"),
			Text: wrapped(p.Sprintf("A mail from your address (subject %q) was refused: the referee requires a valid DKIM signature of your address's domain, and it had none. Nothing in it was applied. If you sent it, send it through your own mail provider, which signs the mails it sends.", in.Subject))})
		return nil
	}
	if d := cfg.Referee.Director; d != "" && strings.EqualFold(d, in.From) {
		return w.director()
	}
	if ok, err := w.tournamentMail(); ok || err != nil {
		return err
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
	hd := referee.ReadHeading(in.Text)
	g, side, err := w.findGame(ids, hd)
	if err != nil || g == nil {
		return err
	}
	w.game = g.ID
	if res := w.h.ref.Unproven(g, side, hd.Token, in.Subject, true); res != nil {
		// The registered address is warned, not answered: the mail may be
		// forged, and the warning tells only that one was refused and
		// what it lacked.
		w.outcome = res.Outcome
		w.h.log.Warn("mail refused: "+strings.TrimPrefix(res.Outcome, "refused: "), "game", g.ID, "from", in.From, "message_id", in.MessageID)
		w.collect(res)
		return nil
	}
	res, err := w.h.ref.Orders(w.tx, g.ID, side, w.in.Text, w.now)
	if err != nil {
		return err
	}
	w.result(res)
	return nil
}

// unreadable answers a mail that cannot be read (over the size limit,
// without text, broken), handles a delivery report, and ignores a mail
// without a sender. It reports whether the mail is done with.
func (w *work) unreadable() (bool, error) {
	in, cfg, perr := w.in, w.h.cfg, w.perr
	var re *ReadError
	switch {
	case w.oversize:
		w.outcome = fmt.Sprintf("refused: %d bytes, over the limit of %d", w.size, cfg.Referee.MaxMessageBytes)
		w.h.log.Warn("mail refused: over the size limit", "from", in.From, "message_id", in.MessageID, "bytes", w.size)
		if w.registered(in.From) {
			w.reply("", wrapped(w.printer().Sprintf("Your mail of %d bytes is over the referee's limit of %d bytes, so it was not read.\nSend your orders as plain text, without attachments.\n", w.size, cfg.Referee.MaxMessageBytes)))
		}
		return true, nil
	case len(in.Bounce) > 0:
		return true, w.bounce()
	case errors.Is(perr, ErrNoText):
		w.outcome = "refused: no text part"
		if w.registered(in.From) {
			w.reply("", wrapped(w.printer().Sprintf("Your mail has no text part, so it holds no orders the referee can read.\nWrite your orders in the body of a plain-text mail.\n")))
		}
		return true, nil
	case perr != nil:
		w.outcome = "refused: unreadable: " + perr.Error()
		why := rules.M("it cannot be read")
		if errors.As(perr, &re) {
			why = re.Reason
		}
		if w.registered(in.From) {
			w.reply("", wrapped(w.printer().Sprintf("The referee could not read your mail: %s.\nSend your orders in a plain-text mail.\n", why)))
		}
		return true, nil
	case in.From == "":
		w.outcome = "ignored: no sender"
		return true, nil
	}
	return false, nil
}

// findGame finds the game a player's mail is for: its GAME line, or [id] in
// its subject, or else the game of the sender's that its token proves, the
// one still being played first. A mail that names none of his games and
// proves none is refused with a warning to his address.
func (w *work) findGame(ids []string, hd referee.Heading) (*adjudicator.Game, rules.Side, error) {
	id := hd.Game
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
		g, side, err := w.provenGame(ids, hd.Token)
		if g == nil && err == nil {
			w.unproven(hd.Token)
		}
		return g, side, err
	}
	var match string
	for _, x := range ids {
		if strings.EqualFold(x, id) {
			match = x
		}
	}
	if match == "" {
		if g, _, err := w.provenGame(ids, hd.Token); err != nil || g == nil {
			w.unproven(hd.Token)
			return nil, "", err
		}
		w.outcome = "refused: not a player of " + id
		p := w.printer()
		w.reply("", wrapped(p.Sprintf("You are not a player of game %s; your games are %s.\n", id, strings.Join(ids, p.Sprintf(", ")))))
		return nil, "", nil
	}
	g, err := w.tx.Summary(match)
	if err != nil {
		return nil, "", err
	}
	side := sideOf(g, w.in.From)
	if side == "" {
		w.game = g.ID
		w.outcome = "refused: an observer's mail"
		w.reply(g.ID, wrapped(w.printer().Sprintf("You observe game %s: you receive its reports, but only its players give orders.\n", g.ID)))
		return nil, "", nil
	}
	return g, side, nil
}

// provenGame is the game of ids whose player the sender's token proves him
// to be, the one still being played first; nil when the token proves
// none.
func (w *work) provenGame(ids []string, token string) (*adjudicator.Game, rules.Side, error) {
	if token == "" {
		return nil, "", nil
	}
	var found *adjudicator.Game
	for _, x := range ids {
		g, err := w.tx.Summary(x)
		if err != nil {
			return nil, "", err
		}
		if side := sideOf(g, w.in.From); side != "" && g.Authentic(side, token) &&
			(found == nil || found.Status == adjudicator.Finished) {
			found = g
		}
	}
	if found == nil {
		return nil, "", nil
	}
	return found, sideOf(found, w.in.From), nil
}

// unproven warns the sender's address of a mail that names none of his
// games and whose token proves none: it says what the mail lacked, and
// nothing else.
func (w *work) unproven(token string) {
	p := w.printer()
	text, subject := "", p.Sprintf("a mail in your name was refused")
	if token == "" {
		w.outcome, subject = "refused: no TOKEN line", p.Sprintf("your mail had no TOKEN line")
		text = p.Sprintf("Your mail (subject %q) had no TOKEN line, so nothing in it was applied. Every mail to the referee needs the TOKEN line of your welcome mail, and the GAME line of the game it is for; send it again with them.", w.in.Subject)
	} else {
		w.outcome = "refused: wrong token"
		text = p.Sprintf("A mail from your address (subject %q) had a TOKEN line that is none of your tokens, so nothing in it was applied. If you sent it, send it again with the GAME and TOKEN lines of your welcome mail; if you did not, your token kept it out.", w.in.Subject)
	}
	w.h.log.Warn("mail refused: "+strings.TrimPrefix(w.outcome, "refused: "), "from", w.in.From, "message_id", w.in.MessageID)
	w.send(referee.Mail{Kind: referee.KindWarning, To: []string{w.in.From}, Subject: subject, Text: wrapped(text)})
}

// wrapped lays out a paragraph of a notice in lines of 78 columns at most,
// by display width (a Japanese character takes two).
func wrapped(text string) string {
	var b strings.Builder
	for _, para := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		b.WriteString(strings.Join(lang.Wrap(para, "", "", 78), "\n") + "\n")
	}
	return b.String()
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

// bounce records that a mail the referee sent could not be delivered. A
// delivery report counts only when it returns the header of a mail the
// referee sent to the recipient it reports failed: its Message-ID, of 160
// random bits, is known only to those the mail passed through, so a forged
// report cannot fail another's mail. A mail still queued has not been sent
// and cannot have bounced: a report of it is ignored.
func (w *work) bounce() error {
	in := w.in
	var failed []string
	for _, id := range in.Quoted {
		m, err := w.tx.MailByMessageID(id)
		if err != nil {
			return err
		}
		if m == nil || !slices.ContainsFunc(m.To, func(to string) bool {
			return slices.ContainsFunc(in.Bounce, func(b string) bool { return strings.EqualFold(to, b) })
		}) {
			continue
		}
		w.game = m.Game
		switch m.Status {
		case store.MailSent:
			m.Status, m.Error = store.MailFailed, "bounced: the recipient's server reported it undeliverable"
			if err := w.tx.PutMail(m); err != nil {
				return err
			}
			failed = append(failed, fmt.Sprintf("mail %d to %s", m.ID, strings.Join(m.To, ", ")))
			w.h.log.Warn("mail bounced", "game", m.Game, "to", m.To, "mail", m.ID)
		case store.MailQueued:
			w.h.log.Warn("a bounce of a mail not yet sent ignored", "game", m.Game, "to", m.To, "mail", m.ID, "from", in.From, "message_id", in.MessageID)
		}
	}
	if len(failed) > 0 {
		w.outcome = "bounce: " + strings.Join(failed, "; ") + " failed"
		return nil
	}
	w.outcome = "ignored: a delivery report for " + strings.Join(in.Bounce, ", ") + " that returns no mail the referee sent"
	w.h.log.Warn("delivery report ignored: it returns no mail sent to the recipient it reports", "from", in.From,
		"message_id", in.MessageID, "recipients", in.Bounce, "quoted", in.Quoted)
	return nil
}

// maxReplyBytes bounds an answer's text: a mail of many bad lines is
// answered with a short mail, not with a copy of itself.
const maxReplyBytes = 64 << 10

// capText cuts a text longer than maxReplyBytes at a line's end, and says
// how much was left out.
func capText(p *lang.Printer, text string) string {
	if len(text) <= maxReplyBytes {
		return text
	}
	cut := maxReplyBytes - 200
	if i := strings.LastIndexByte(text[:cut], '\n'); i > 0 {
		cut = i + 1
	} else {
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
	}
	return text[:cut] + p.Sprintf("\n[%d more bytes of this answer are left out: the referee's answers are at most %d KB.]\n",
		len(text)-cut, maxReplyBytes>>10)
}
