// Package referee holds the game's actions, once, for every door: make a
// game, join it, give orders (with the impulse's report to everyone),
// answer a player's requests, the director's acts and the deadlines. A mail,
// a command on the command line, the daemon's control socket and any later
// door (a web page, a tournament) are thin callers: they find out who is
// calling, call an act inside one store transaction, and present what it
// returns. So an act tells the players the same whichever door it came
// through.
//
// Each act reads and writes the store through Tx, which the store
// implements, and returns a Result: the log records it appended, the mails
// to send to the players and the observers, and the answer to the caller.
// The door queues the mails in the same transaction, so that a change and
// the mails that tell of it are kept together or not at all.
package referee

import (
	"strings"
	"time"

	"titm/adjudicator"
	"titm/adjudicator/lang"
	"titm/adjudicator/tournament"
	"titm/rules"
)

// Tx is what the acts need of the store, inside one transaction. Its
// methods are those of the store's transaction; their errors are the
// store's.
type Tx interface {
	// NewID returns a new game id: prefix, "-" and a number never given
	// twice.
	NewID(prefix string) (string, error)
	// CreateGame keeps a new game and its first records.
	CreateGame(g *adjudicator.Game, recs []adjudicator.Record) error
	// SaveGame keeps a game after a change and appends the change's
	// records to its log.
	SaveGame(g *adjudicator.Game, recs []adjudicator.Record) error
	// Game returns a whole game, ready to play.
	Game(id string) (*adjudicator.Game, error)
	// Games returns every game without its position or secret.
	Games() ([]*adjudicator.Game, error)
	// Log returns a game's log, in order.
	Log(id string) ([]adjudicator.Record, error)
	// PutSnapshot keeps what a mail's map picture is drawn from.
	PutSnapshot(key string, data []byte) error
	// IndexGame adds a game's addresses to the index of who plays what,
	// after a player is replaced.
	IndexGame(g *adjudicator.Game) error

	// CreateTournament keeps a new tournament, SaveTournament one after a
	// change; Tournament returns one whole, Tournaments every one (without
	// the seed of its dice), TournamentOf the id of a game's tournament
	// ("" if none).
	CreateTournament(t *tournament.Tournament) error
	SaveTournament(t *tournament.Tournament) error
	Tournament(id string) (*tournament.Tournament, error)
	Tournaments() ([]*tournament.Tournament, error)
	TournamentOf(game string) (string, error)

	// Latest returns the latest time a record of any log was logged at.
	Latest() time.Time
}

// The kinds of mail, for the outbox and the operator.
const (
	KindWelcome  = "welcome"  // a player's token, when a game is made
	KindReport   = "report"   // to both players and the observers: an impulse, a notice
	KindReply    = "reply"    // the answer to the one who wrote
	KindReminder = "reminder" // a deadline comes
	KindWarning  = "warning"  // a mail in the address's name was refused
)

// Mail is a mail an act sends.
type Mail struct {
	Game    string   // the game it is about, or ""
	Kind    string   // one of the kinds above
	To      []string // one address: each recipient has his own mail
	Subject string
	Text    string
	Map     *MapRef // the map picture it carries, or nil
	// Secret is set on a mail that carries a token: the outbox drops its
	// text once it is sent.
	Secret bool
}

// Result is what an act did.
type Result struct {
	// Game is the game after the act (as it stands when the act was
	// refused), or nil when the act found no game.
	Game    *adjudicator.Game
	Records []adjudicator.Record // appended to the game's log, in order
	Events  []rules.Event        // of the impulse played, if one was
	Mails   []Mail               // to the players and the observers
	// Reply is the answer to the caller, in a player's words; ReplyMap
	// the map picture that goes with it (STATUS), or nil.
	Reply    string
	ReplyMap *MapRef
	// Outcome says in a few words what happened, for the door's log:
	// "played G1-1", "refused: 2 error(s) in the orders".
	Outcome string
	// Refused is set when nothing was applied; Errors holds the errors in
	// the orders when they were the reason.
	Refused bool
	Errors  rules.OrderErrors
	// Tournament is the tournament the act changed or read, if any, and
	// TournamentRecords the records appended to its log.
	Tournament        *tournament.Tournament
	TournamentRecords []tournament.Record
}

// Options are the referee's settings. A nil *Options is the zero value.
type Options struct {
	// Address is the referee's mail address, which players write to. The
	// welcome mails name it.
	Address string
	// Deadline is the time per impulse of a game made without one.
	Deadline time.Duration
	// MaxExtensions is the number of extensions a player may ask for in a
	// game; MaxExtension the longest one.
	MaxExtensions int
	MaxExtension  time.Duration
	// Reminder is how long before a deadline the player to move is
	// reminded; 0 sends no reminder.
	Reminder time.Duration
	// MapPicture attaches the map picture to the reports and to STATUS.
	MapPicture bool
	// Language is the language (a lang code: en, ja) of the mails to a
	// player who chose none, to the observers and to a tournament's
	// director; "" is English.
	Language string
	// Languages are players' languages by their addresses (lower case),
	// given to a player when a game is made or he takes a player's place
	// and nobody chose one for him.
	Languages map[string]string
}

// Referee performs the acts with its settings. It holds no state of its
// own and is safe for concurrent use.
type Referee struct {
	opt Options
}

// New returns a referee with the settings o (nil: the zero settings).
func New(o *Options) *Referee {
	r := &Referee{}
	if o != nil {
		r.opt = *o
	}
	return r
}

// Options returns the referee's settings.
func (r *Referee) Options() Options { return r.opt }

// sides are both sides, German first, as every list of them is given.
var sides = []rules.Side{rules.German, rules.Allied}

// refuse makes res a refusal with the reply text and the outcome.
func (res *Result) refuse(reply, outcome string) *Result {
	res.Refused, res.Reply, res.Outcome = true, reply, "refused: "+outcome
	res.Records, res.Mails, res.Events = nil, nil, nil
	return res
}

// send adds a mail to one address.
func (res *Result) send(g *adjudicator.Game, kind, to, subject, text string, ref *MapRef) {
	res.Mails = append(res.Mails, Mail{Game: g.ID, Kind: kind, To: []string{to}, Subject: subject, Text: text, Map: ref})
}

// A text is a text made in its reader's language.
type text func(p *lang.Printer) string

// code returns the language a side's player reads (languageOf): his own
// choice (LANGUAGE, or the director's when the game was made), else his
// address's, else the referee's.
func (r *Referee) code(g *adjudicator.Game, side rules.Side) string {
	p := g.Players[side]
	if p == nil {
		return r.defaultPrinter().Code()
	}
	return r.languageOf(p.Language, p.Address)
}

// languageOf is where every reader's language is decided: the one chosen
// for him (by mail, by the director, by a tournament's file; a game keeps
// its players' as it is made), else the one the referee's settings give
// his address ([referee.languages]), else the referee's.
func (r *Referee) languageOf(chosen, address string) string {
	for _, c := range []string{chosen, r.addressLanguage(address)} {
		if c != "" {
			return lang.For(c).Code()
		}
	}
	return r.defaultPrinter().Code()
}

// printer is the printer of a side's player's language.
func (r *Referee) printer(g *adjudicator.Game, side rules.Side) *lang.Printer {
	return lang.For(r.code(g, side))
}

// defaultPrinter is the printer of the referee's language: the observers',
// a tournament director's, and a player's who chose none.
func (r *Referee) defaultPrinter() *lang.Printer { return lang.For(r.opt.Language) }

// Language returns the code of the language a mail to an address is
// written in: his own in game g when he plays it (g may be nil), else his
// address's ([referee.languages]), else the referee's. The mail door
// answers by it when no act has answered.
func (r *Referee) Language(g *adjudicator.Game, address string) string {
	if g != nil {
		for _, side := range sides {
			if p := g.Players[side]; p != nil && strings.EqualFold(p.Address, address) {
				return r.code(g, side)
			}
		}
	}
	return r.languageOf("", address)
}

// addressLanguage is the language the referee's settings give an address,
// or "".
func (r *Referee) addressLanguage(address string) string {
	return r.opt.Languages[strings.ToLower(address)]
}

// toAll sends a notice to both players and the observers, each in his
// language, under its first line.
func (r *Referee) toAll(res *Result, g *adjudicator.Game, notice text) {
	// Without a picture nothing can fail.
	_ = r.toAllAs(res, g, func(p *lang.Printer) (string, string, error) {
		n := notice(p)
		t := wrap(n)
		return "[" + g.ID + "] " + subjectLine(n, t), t, nil
	}, nil)
}

// toAllAs sends a text to both players and the observers, each in his own
// mail so that no address is shown to the others' mail servers needlessly,
// and in his own language: write makes the subject and the text, and pic
// keeps the map picture (nil: none), each once for every language read,
// not for every reader. A player's mail ends with his standing orders, and
// carries the picture unless he asked for the text alone (PICTURE OFF).
func (r *Referee) toAllAs(res *Result, g *adjudicator.Game, write func(p *lang.Printer) (subject, text string, err error), pic func(p *lang.Printer) (*MapRef, error)) error {
	type made struct {
		subject, text string
		ref           *MapRef
		drawn         bool
	}
	by := map[string]*made{}
	get := func(p *lang.Printer, picture bool) (*made, error) {
		m := by[p.Code()]
		if m == nil {
			m = &made{}
			var err error
			if m.subject, m.text, err = write(p); err != nil {
				return nil, err
			}
			by[p.Code()] = m
		}
		if picture && pic != nil && !m.drawn {
			var err error
			if m.ref, err = pic(p); err != nil {
				return nil, err
			}
			m.drawn = true
		}
		return m, nil
	}
	for _, side := range sides {
		p := r.printer(g, side)
		pictures := g.Players[side].Pictures()
		m, err := get(p, pictures)
		if err != nil {
			return err
		}
		var ref *MapRef
		if pictures {
			ref = m.ref
		}
		res.send(g, KindReport, g.Players[side].Address, m.subject, m.text+"\n"+standing(p, g, side), ref)
	}
	if len(g.Observers) > 0 {
		m, err := get(r.defaultPrinter(), true)
		if err != nil {
			return err
		}
		for _, o := range g.Observers {
			res.send(g, KindReport, o, m.subject, m.text, m.ref)
		}
	}
	return nil
}

// save keeps the game with the records of the result, when there are any.
func (res *Result) save(tx Tx, g *adjudicator.Game) error {
	if len(res.Records) == 0 {
		return nil
	}
	return tx.SaveGame(g, res.Records)
}
