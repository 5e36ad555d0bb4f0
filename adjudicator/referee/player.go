package referee

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"titm/adjudicator"
	"titm/adjudicator/lang"
	"titm/rules"
)

// Orders is a player's mail, or order file, once the door knows that it
// comes from the side's player: its requests are answered, its orders
// checked as a whole and applied, and everyone told. Nothing of it is
// applied when anything in it is refused; its requests that only read the
// game are answered all the same, below the refusal.
func (r *Referee) Orders(tx Tx, id string, side rules.Side, text string, now time.Time) (*Result, error) {
	now = clock(tx, now)
	t, err := r.turn(tx, id, side, now)
	if err != nil {
		return nil, err
	}
	o, err := ParseOrders(text, t.s, side)
	// A greeting or a sign-off is named in the answer, so that a line
	// the player meant as an order is not lost unseen.
	aside := ignored(o)
	var oes rules.OrderErrors
	if errors.As(err, &oes) {
		// The lines that read are checked against the position all the
		// same, so that one answer lists every error.
		all := oes.With(t.g.CheckOrders(side, o)...)
		if strings.Contains(oes.Error(), "not read as orders") {
			aside = nil // an error already names the lines set aside
		}
		if !asksCheck(o) {
			// The requests that read are answered below the errors.
			t.split(o, text)
			res, err := t.refuseOrders(all, t.g)
			if err == nil && aside != nil {
				res.Reply = aside(r.printer(t.g, side)) + "\n\n" + res.Reply
			}
			return res, err
		}
		// A CHECK is a dry run whatever its errors are: the mail is
		// answered as one whose orders the position refused, with
		// every error, and its requests are served.
		t.checkErrs = all
	} else if err != nil {
		return nil, err
	}
	t.split(o, text)
	if aside != nil {
		t.answers = append(t.answers, aside)
	}
	res, err := t.run()
	if err == nil && !res.Refused {
		err = r.gameEnded(tx, res, now)
	}
	return res, err
}

// ignored names the lines of a mail that were not read as orders (a
// greeting, a sign-off), or is nil when every line was read.
func ignored(o *rules.Orders) text {
	if o == nil || len(o.Ignored) == 0 {
		return nil
	}
	spans := make([]rules.Message, len(o.Ignored))
	for i, sp := range o.Ignored {
		spans[i] = sp.Text()
	}
	return func(p *lang.Printer) string { return p.Sprintf("Not read as orders: %s.", rules.List(spans)) }
}

// Join is JOIN by itself: the side's player joins the game with his seed
// for the dice (B10), one made for him when seed is "".
func (r *Referee) Join(tx Tx, id string, side rules.Side, seed string, now time.Time) (*Result, error) {
	now = clock(tx, now)
	t, err := r.turn(tx, id, side, now)
	if err != nil {
		return nil, err
	}
	t.requests = []rules.Order{JoinRequest{Seed: seed}}
	return t.run()
}

// turn is one act of a player: the requests and orders of one mail.
type turn struct {
	r    *Referee
	tx   Tx
	now  time.Time
	side rules.Side
	g    *adjudicator.Game // changed by the act
	was  *adjudicator.Game // as it was before
	s    *rules.Scenario
	res  *Result

	requests  []rules.Order
	check     bool              // CHECK: the orders are checked, not played
	checkErrs rules.OrderErrors // a CHECK's errors when some line did not read
	orders    string            // the text of the orders, the requests' lines blanked
	hasOrder  bool              // the mail gives orders

	// answers go to the player who wrote, in order, in his language as
	// it is after the mail (LANGUAGE is answered in the language chosen);
	// notices to both players and the observers, each in his own.
	answers []text
	notices []text
	begins  bool // the game begins: each is sent the brief
	set     bool // a player's setting changed (PICTURE, LANGUAGE): the game is kept
	// picture is the picture the answer carries, if the player takes
	// pictures: of the position in play (STATUS, statusPicture) or of
	// the scenario's start (BRIEF, startPicture), of the game pictureOf
	// as it was at the request; "" none.
	picture   string
	pictureOf *adjudicator.Game
	// noted are the notes on the map picture said in the reply being
	// written: each is said once (written).
	noted map[string]bool
}

func (r *Referee) turn(tx Tx, id string, side rules.Side, now time.Time) (*turn, error) {
	g, err := tx.Game(id)
	if err != nil {
		return nil, err
	}
	if g.Players[side] == nil {
		return nil, fmt.Errorf("no side %q: german or allied", side)
	}
	s, err := g.Rules()
	if err != nil {
		return nil, err
	}
	return &turn{r: r, tx: tx, now: now, side: side, g: g, was: g.Clone(), s: s, res: &Result{Game: g}}, nil
}

// split sorts a mail's lines into requests and orders. A request's line is
// left out of the orders given to the game, keeping the lines' numbers.
func (t *turn) split(o *rules.Orders, text string) {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	for i, ord := range o.List {
		switch rules.ClassOf(ord) {
		case rules.Request:
			if _, ok := ord.(CheckRequest); ok {
				t.check = true
			} else {
				t.requests = append(t.requests, ord)
			}
			if n := o.Lines[i] - 1; n >= 0 && n < len(lines) {
				lines[n] = ""
			}
		case rules.ImpulseOrder, rules.StandingOrder:
			t.hasOrder = true
		case rules.HeadingLine:
			if _, ok := ord.(rules.ImpulseLine); ok {
				t.hasOrder = true
			}
		}
	}
	// The greetings and sign-offs, already named in the reply, are left
	// out too: with a request's line blanked, the game's own reading would
	// otherwise see a mail of chatter alone and refuse what this one took.
	for _, sp := range o.Ignored {
		for n := sp.First - 1; n < sp.Last && n < len(lines); n++ {
			if n >= 0 {
				lines[n] = ""
			}
		}
	}
	t.orders = strings.Join(lines, "\n")
}

// run answers the requests, then plays or checks the orders, keeps what
// changed and tells everyone.
func (t *turn) run() (*Result, error) {
	if res, err := t.refusedWithCheck(); res != nil || err != nil {
		return res, err
	}
	// A draw offered in the mail of one's orders is offered with them, as
	// a move is made with an offer across the board: after the impulse
	// they play, which would otherwise end the offer at once while the
	// opponent is told of it.
	var offer *DrawRequest
	for _, q := range t.requests {
		if d, ok := q.(DrawRequest); ok && !d.Accept && t.hasOrder && !t.check && t.checkErrs == nil && t.g.Status == adjudicator.Playing {
			offer = &d
			continue
		}
		if res, err := t.requestOrRefuse(q); res != nil || err != nil {
			return res, err
		}
	}
	if res, err := t.answerOrders(); res != nil || err != nil {
		return res, err
	}
	if offer != nil {
		if t.g.Status != adjudicator.Playing {
			// The orders ended the game: there is nothing to offer.
			t.answers = append(t.answers, func(p *lang.Printer) string {
				return p.Sprintf("DRAW: the game ended with your orders, so no draw is offered.")
			})
		} else if res, err := t.requestOrRefuse(*offer); res != nil || err != nil {
			return res, err
		}
	}
	return t.finish()
}

// refusedWithCheck refuses a mail with CHECK that asks for an act which
// changes the game (JOIN, EXTEND, CONCEDE, DRAW): CHECK applies nothing,
// and the act would be done for real while the player thinks he is only
// trying, so he sends the act alone. It returns nil if there is none.
func (t *turn) refusedWithCheck() (*Result, error) {
	if !t.check && t.checkErrs == nil {
		return nil, nil
	}
	for _, q := range t.requests {
		switch q.(type) {
		case JoinRequest, ExtendRequest, ConcedeRequest, DrawRequest:
			return t.refuse(func(p *lang.Printer) string {
				return p.Sprintf("%s: a mail with CHECK applies nothing, so it cannot %s; send %s in a mail without CHECK.",
					q.Keyword(), actName(q), q.Keyword())
			}, q.Keyword()+" with CHECK")
		}
	}
	return nil, nil
}

// requestOrRefuse does request q, or refuses the mail for it.
func (t *turn) requestOrRefuse(q rules.Order) (*Result, error) {
	refused, err := t.request(q)
	if err != nil || refused == nil {
		return nil, err
	}
	why := rules.MessageOf(refused)
	return t.refuse(func(p *lang.Printer) string { return p.Sprintf("%s: %s.", q.Keyword(), why) }, q.Keyword())
}

// answerOrders answers the errors CHECK found, or checks the orders, or
// plays them: what the mail's orders ask.
func (t *turn) answerOrders() (*Result, error) {
	switch {
	case t.checkErrs != nil:
		errs := t.checkErrs
		t.answers = append(t.answers, func(p *lang.Printer) string { return checkErrorsText(p, errs) })
	case t.check && t.hasOrder:
		g, s, side, orders := t.g, t.s, t.side, t.orders
		t.answers = append(t.answers, func(p *lang.Printer) string { return checkText(p, g, s, side, orders) })
	case t.hasOrder:
		return t.submit()
	}
	return nil, nil
}

// finish saves the game and tells the players.
func (t *turn) finish() (*Result, error) {
	if err := t.res.save(t.tx, t.g); err != nil {
		return nil, err
	}
	if t.set && len(t.res.Records) == 0 {
		// A setting is not a change of the game's course: it is kept
		// without a record in the log.
		if err := t.tx.SaveGame(t.g, nil); err != nil {
			return nil, err
		}
	}
	if err := t.tell(); err != nil {
		return nil, err
	}
	t.res.Outcome = outcomeOf(t.res.Records, t.requests, t.check)
	return t.res, nil
}

// submit plays the orders, or keeps the standing orders. A refusal is
// returned as the act's result.
func (t *turn) submit() (*Result, error) {
	out, events, err := t.g.Submit(t.side, t.orders, t.now)
	var oes rules.OrderErrors
	switch {
	case errors.As(err, &oes):
		return t.refuseOrders(oes, t.was)
	case errors.Is(err, adjudicator.ErrNotYourImpulse), errors.Is(err, adjudicator.ErrPaused), errors.Is(err, adjudicator.ErrNotPlaying):
		why := rules.MessageOf(err)
		return t.refuse(func(p *lang.Printer) string { return p.Sentence(why) }, "out of turn")
	case err != nil:
		return nil, err
	}
	t.res.Records = append(t.res.Records, out...)
	t.res.Events = events
	for _, r := range out {
		if r.Kind == adjudicator.KindStanding {
			t.answers = append(t.answers, func(p *lang.Printer) string { return p.Sprintf("Your standing orders are kept.") })
		}
	}
	return nil, nil
}

// refuse answers that nothing was applied, and why, in the language the
// player had before the mail: nothing of it was applied, LANGUAGE neither.
// The mail's requests that only read the game are answered below.
func (t *turn) refuse(why text, outcome string) (*Result, error) {
	t.res.Game = t.was
	p := t.r.printer(t.was, t.side)
	answers, answered, err := t.served(p)
	if err != nil {
		return nil, err
	}
	return t.res.refuse(p.Sprintf("%s\nNothing in your mail was applied.\n", wrap(why(p)))+answers+standing(p, t.was, t.side), outcome+answered), nil
}

// refuseOrders answers with every error in the orders, and the impulse in
// play with its deadline, then the mail's requests that only read the
// game. g is the game as it was before the mail.
func (t *turn) refuseOrders(oes rules.OrderErrors, g *adjudicator.Game) (*Result, error) {
	t.res.Game = g
	p := t.r.printer(g, t.side)
	answers, answered, err := t.served(p)
	if err != nil {
		return nil, err
	}
	t.res.refuse(p.Sprintf("%s\nNothing in your mail was applied.\n", orderErrorsText(p, oes))+wrap(inPlay(p, g))+answers+standing(p, g, t.side),
		fmt.Sprintf("%d error(s) in the orders%s", len(oes), answered))
	t.res.Errors = oes
	return t.res, nil
}

// served answers, for a refused mail, its requests that only read the
// game (HELP, STATUS, UNITS, BRIEF, DICE, ORDERS), of the game as it was
// before the mail, with STATUS's or BRIEF's picture: a player who asks
// for his units beside a bad order needs them most. A setting asked for
// (PICTURE, LANGUAGE) is not kept, since nothing of a refused mail is,
// and the answer says so; an act (JOIN, EXTEND, CONCEDE, DRAW) is not
// done, which the refusal already says. The reply is "" when the mail
// asked nothing that is answered; answered names the requests answered, for the
// door's log (", answered STATUS, UNITS").
func (t *turn) served(p *lang.Printer) (reply, answered string, err error) {
	t.answers, t.picture, t.pictureOf = nil, "", nil
	var unkept, kws []string
	for _, q := range t.requests {
		read, err := t.inquire(t.was, q)
		if err != nil {
			return "", "", err
		}
		if read {
			kws = append(kws, q.Keyword())
		} else {
			switch q.(type) {
			case PictureRequest, LanguageRequest:
				unkept = append(unkept, q.String())
			}
		}
	}
	if len(unkept) > 0 {
		list := rules.List(unkept)
		t.answers = append(t.answers, func(p *lang.Printer) string {
			return p.Sprintf("%s: not kept, as nothing in your mail was applied; send it again.", list)
		})
	}
	if len(t.answers) == 0 {
		return "", "", nil
	}
	if err := t.replyPicture(p); err != nil {
		return "", "", err
	}
	if len(kws) > 0 {
		answered = ", answered " + strings.Join(kws, ", ")
	}
	answers := t.written(p)
	return "\n" + wrap(p.Sprintf("The answers to your requests:")+"\n\n"+strings.Join(answers, "\n\n")) + "\n", answered, nil
}

// tell sends the impulse's report to everyone, then the notices, and
// answers the player.
func (t *turn) tell() error {
	g, res := t.g, t.res
	reported := false
	for _, rec := range res.Records {
		if rec.Kind != adjudicator.KindImpulse {
			continue
		}
		if err := t.r.report(t.tx, res, g, rec, res.Events, nil); err != nil {
			return err
		}
		reported = true
	}
	if t.begins {
		if err := t.r.begin(t.tx, res, g); err != nil {
			return err
		}
	}
	for _, n := range t.notices {
		t.r.toAll(res, g, n)
	}
	if len(t.answers) > 0 || len(t.notices) == 0 && !reported && !t.begins {
		if len(t.answers) == 0 {
			t.answers = append(t.answers, func(p *lang.Printer) string {
				return p.Sprintf("Your mail held no orders and no requests. Send HELP for the order language.")
			})
		}
		// In the player's language as the mail left it: LANGUAGE is
		// answered in the language chosen.
		p := t.r.printer(g, t.side)
		if err := t.replyPicture(p); err != nil {
			return err
		}
		answers := t.written(p)
		res.Reply = wrap(strings.Join(answers, "\n\n")) + "\n" + standing(p, g, t.side)
	}
	return nil
}

// written writes the answers in the language of p, for one reply.
func (t *turn) written(p *lang.Printer) []string {
	t.noted = map[string]bool{}
	answers := make([]string, len(t.answers))
	for i, a := range t.answers {
		answers[i] = a(p)
	}
	return answers
}

// withPictureNote is the answer to STATUS or UNITS, text, with the note
// on whether the player's mails carry the map picture in the game at;
// without it when an answer before it in the reply has said the same.
func (t *turn) withPictureNote(p *lang.Printer, at *adjudicator.Game, text string) string {
	n := t.r.pictureNote(p, at, t.side)
	if t.said(n) {
		return strings.TrimSuffix(text, "\n")
	}
	return text + "\n" + n
}

// said reports whether the note n was said before in the reply being
// written, and keeps that it now is.
func (t *turn) said(n string) bool {
	if t.noted == nil {
		t.noted = map[string]bool{}
	}
	before := t.noted[n]
	t.noted[n] = true
	return before
}

// replyPicture keeps the picture the answer carries, drawn in the
// player's language.
func (t *turn) replyPicture(p *lang.Printer) error {
	var err error
	switch t.picture {
	case "":
	case startPicture:
		t.res.ReplyMap, err = t.r.startRef(t.tx, t.pictureOf, t.s, p)
	default:
		t.res.ReplyMap, err = t.r.mapRef(t.tx, t.pictureOf, t.picture, nil, p)
	}
	return err
}

// report sends an impulse's report to both players and the observers, each
// in his language, with the map picture drawn in it; before, if not nil, is
// what goes ahead of it (the deadline passed).
func (r *Referee) report(tx Tx, res *Result, g *adjudicator.Game, rec adjudicator.Record, events []rules.Event, before text) error {
	return r.toAllAs(res, g, func(p *lang.Printer) (string, string, error) {
		text, err := adjudicator.ReportIn(p, g, res.Records, events)
		if err != nil {
			return "", "", err
		}
		subject := reportSubject(p, g, rec)
		if before != nil {
			text = before(p) + text
			subject = p.Sprintf("%s (deadline passed)", subject)
		}
		if g.Status == adjudicator.Finished {
			text += "\n" + promptnessText(p, g)
		}
		return subject, text, nil
	}, func(p *lang.Printer) (*MapRef, error) { return r.mapRef(tx, g, rec.Impulse, events, p) })
}

// request answers one request. A request the rules refuse is returned as
// refused, to be told to the player; err is a fault of the referee's own.
func (t *turn) request(q rules.Order) (refused, err error) {
	g, side := t.g, t.side
	if read, err := t.inquire(g, q); read || err != nil {
		return nil, err
	}
	var out []adjudicator.Record
	switch q := q.(type) {
	case PictureRequest:
		g.Players[side].NoPicture = !q.On
		t.set = true
		at := g.Clone()
		t.answers = append(t.answers, func(p *lang.Printer) string {
			n := t.r.pictureNote(p, at, side)
			t.said(n)
			return p.Sprintf("%s is kept for game %s, until you change it. %s", q.String(), at.ID, n)
		})
	case LanguageRequest:
		g.Players[side].Language = q.Code
		t.set = true
		t.answers = append(t.answers, func(p *lang.Printer) string { return languageNote(p, g, q.Code) })
	case JoinRequest:
		out, refused, err = t.join(q.Seed)
	case ExtendRequest:
		out, refused = t.extend(time.Duration(q.Hours) * time.Hour)
	case ConcedeRequest:
		if out, refused = g.Concede(side, t.now); refused == nil {
			t.notices = append(t.notices, func(p *lang.Printer) string {
				return p.Sprintf("The %s player concedes.\n\n%s", side, endText(p, g))
			})
		}
	case DrawRequest:
		out, refused = t.draw(q.Accept)
	}
	t.res.Records = append(t.res.Records, out...)
	return refused, err
}

// inquire answers a request that only reads the game g (HELP, STATUS,
// UNITS, BRIEF, DICE, ORDERS) and reports whether q was one. STATUS and
// BRIEF bring their picture when the player takes pictures in g.
func (t *turn) inquire(g *adjudicator.Game, q rules.Order) (bool, error) {
	// An answer is written when the mail is done, in the language the
	// player reads after it, of the game as it was at its request: the
	// orders of the mail are played after its requests.
	answer := func(a text) { t.answers = append(t.answers, a) }
	s, side := t.s, t.side
	switch q.(type) {
	case HelpRequest:
		st := g.State.Clone()
		// A tournament's game: its players are told the tournament's
		// lines too.
		tid, err := t.tx.TournamentOf(g.ID)
		if err != nil {
			return true, err
		}
		answer(func(p *lang.Printer) string {
			if tid != "" {
				return HelpIn(p, s, st, side) + "\n" + EntrantHelp(p)
			}
			return HelpIn(p, s, st, side)
		})
	case StatusRequest:
		at := g.Clone()
		answer(func(p *lang.Printer) string { return t.withPictureNote(p, at, statusText(p, at)) })
		if at.Players[side].Pictures() {
			t.picture, t.pictureOf = statusPicture, at
		}
	case BriefRequest:
		at := g.Clone()
		answer(func(p *lang.Printer) string { return briefText(p, at, s, side) })
		if at.Players[side].Pictures() && t.picture == "" {
			t.picture, t.pictureOf = startPicture, at
		}
	case UnitsRequest:
		at := g.Clone()
		answer(func(p *lang.Printer) string { return t.withPictureNote(p, at, unitsText(p, at, s, side)) })
	case DiceRequest:
		at := g.Clone()
		answer(func(p *lang.Printer) string { return diceText(p, at, side) })
	case OrdersRequest:
		log, err := t.tx.Log(g.ID)
		if err != nil {
			return true, err
		}
		answer(func(p *lang.Printer) string { return ordersOnFile(p, log, side) })
	default:
		return false, nil
	}
	return true, nil
}

// languageNote answers LANGUAGE, in the language chosen.
func languageNote(p *lang.Printer, g *adjudicator.Game, code string) string {
	return p.Sprintf("LANGUAGE %s is kept for game %s, until you change it: your mails are written in %s. The languages: %s.",
		code, g.ID, lang.Name(code), languageChoices())
}

// languageChoices names the languages LANGUAGE takes: "LANGUAGE en
// (English) or LANGUAGE ja (日本語)".
func languageChoices() rules.Message {
	var cs []string
	for _, c := range lang.Codes {
		cs = append(cs, fmt.Sprintf("LANGUAGE %s (%s)", c, lang.Name(c)))
	}
	return rules.OrList(cs)
}

// actName says what an act does, for its refusal in a CHECK mail.
func actName(q rules.Order) rules.Message {
	switch q.(type) {
	case JoinRequest:
		return rules.M("join the game")
	case ExtendRequest:
		return rules.M("extend your deadline")
	case ConcedeRequest:
		return rules.M("concede the game")
	case DrawRequest:
		return rules.M("offer or accept a draw")
	}
	return rules.M("do that")
}

// asksCheck reports whether a mail's lines that read hold CHECK.
func asksCheck(o *rules.Orders) bool {
	for _, ord := range o.List {
		if _, ok := ord.(CheckRequest); ok {
			return true
		}
	}
	return false
}

// join is JOIN (B10): the game begins when both players have joined.
func (t *turn) join(seed string) (out []adjudicator.Record, refused, err error) {
	if seed == "" {
		if seed, err = adjudicator.NewPlayerSeed(); err != nil {
			return nil, nil, err
		}
	}
	if out, refused = t.g.Join(t.side, seed, t.now); refused != nil {
		return nil, refused, nil
	}
	id := t.g.ID
	t.answers = append(t.answers, func(p *lang.Printer) string {
		return p.Sprintf("You have joined game %s with the seed %q.", id, seed)
	})
	t.begins = t.g.Status == adjudicator.Playing
	return out, nil, nil
}

// extend is a player's EXTEND, within the referee's limits.
func (t *turn) extend(d time.Duration) ([]adjudicator.Record, error) {
	g, side, opt := t.g, t.side, t.r.opt
	if n, ok := t.r.tournamentExtensions(t.tx, g.ID); ok {
		opt.MaxExtensions = n
	}
	switch {
	case g.Players[side].Extensions >= opt.MaxExtensions:
		return nil, rules.M("you have had the %d extensions a player may have in a game", opt.MaxExtensions).Err()
	case d > opt.MaxExtension:
		return nil, rules.M("an extension is at most %s", human(opt.MaxExtension)).Err()
	}
	out, err := g.Extend(side, d, "asked by the "+side.Title()+" player", t.now)
	if err == nil {
		next, due := g.Next.String(), adjudicator.FormatTime(g.Due)
		t.notices = append(t.notices, func(p *lang.Printer) string {
			return p.Sprintf("The %s player extended impulse %s by %s: it is now due by %s.", side, next, human(d), due)
		})
	}
	return out, err
}

// draw is DRAW and DRAW ACCEPT.
func (t *turn) draw(accept bool) ([]adjudicator.Record, error) {
	g, side := t.g, t.side
	out, err := g.Draw(side, accept, t.now)
	switch {
	case err != nil:
	case g.Status == adjudicator.Finished:
		t.notices = append(t.notices, func(p *lang.Printer) string {
			return p.Sprintf("The players agree to a draw.\n\n%s", endText(p, g))
		})
	default:
		t.notices = append(t.notices, func(p *lang.Printer) string {
			return p.Sprintf("The %s player offers a draw. The %s player accepts it with DRAW ACCEPT; the offer lapses when the next impulse is played.", side, side.Enemy())
		})
	}
	return out, err
}

// outcomeOf says what a player's act did, for the door's log.
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
		if _, changes := r.(JoinRequest); !changes {
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
