package referee

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"titm/adjudicator"
	"titm/rules"
)

// Orders is a player's mail, or order file, once the door knows that it
// comes from the side's player: its requests are answered, its orders
// checked as a whole and applied, and everyone told. Nothing of it is
// applied when anything in it is refused.
func (r *Referee) Orders(tx Tx, id string, side rules.Side, text string, now time.Time) (*Result, error) {
	t, err := r.turn(tx, id, side, now)
	if err != nil {
		return nil, err
	}
	o, err := ParseOrders(text, t.s, side)
	// A greeting or a sign-off is named in the answer, so that a line
	// the player meant as an order is not lost unseen.
	aside := capital(o.IgnoredText())
	var oes rules.OrderErrors
	if errors.As(err, &oes) {
		// The lines that read are checked against the position all the
		// same, so that one answer lists every error.
		all := oes.With(t.g.CheckOrders(side, o)...)
		if strings.Contains(oes.Error(), "not read as orders") {
			aside = "" // an error already names the lines set aside
		}
		if !asksCheck(o) {
			res := t.refuseOrders(all, t.g)
			if aside != "" {
				res.Reply = aside + ".\n\n" + res.Reply
			}
			return res, nil
		}
		// A CHECK is a dry run whatever its errors are: the mail is
		// answered as one whose orders the position refused, with
		// every error, and its requests are served.
		t.checkErrs = all
	} else if err != nil {
		return nil, err
	}
	t.split(o, text)
	if aside != "" {
		t.answers = append(t.answers, aside+".")
	}
	res, err := t.run()
	if err == nil && !res.Refused {
		err = r.gameEnded(tx, res, now)
	}
	return res, err
}

// Join is JOIN by itself: the side's player joins the game with his seed
// for the dice (B10), one made for him when seed is "".
func (r *Referee) Join(tx Tx, id string, side rules.Side, seed string, now time.Time) (*Result, error) {
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

	answers []string // to the player who wrote, in order
	notices []string // to both players and the observers
	begins  bool     // the game begins: each is sent the brief
	set     bool     // a player's setting changed (PICTURE): the game is kept
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
	if t.check || t.checkErrs != nil {
		// A mail with CHECK applies nothing: an act that changes the game
		// in it (JOIN, EXTEND, CONCEDE, DRAW) would be done for real while
		// the player thinks he is only trying, so the mail is refused and
		// he sends the act alone.
		for _, q := range t.requests {
			switch q.(type) {
			case JoinRequest, ExtendRequest, ConcedeRequest, DrawRequest:
				return t.refuse(fmt.Sprintf("%s: a mail with CHECK applies nothing, so it cannot %s; send %s in a mail without CHECK.",
					q.Keyword(), actName(q), q.Keyword()), q.Keyword()+" with CHECK"), nil
			}
		}
	}
	for _, q := range t.requests {
		refused, err := t.request(q)
		if err != nil {
			return nil, err
		}
		if refused != nil {
			return t.refuse(fmt.Sprintf("%s: %v.", q.Keyword(), refused), q.Keyword()), nil
		}
	}
	if t.checkErrs != nil {
		t.answers = append(t.answers, checkErrorsText(t.checkErrs))
	} else if t.check && t.hasOrder {
		t.answers = append(t.answers, checkText(t.g, t.s, t.side, t.orders))
	} else if t.hasOrder {
		if res, err := t.submit(); res != nil || err != nil {
			return res, err
		}
	}
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
		return t.refuseOrders(oes, t.was), nil
	case errors.Is(err, adjudicator.ErrNotYourImpulse), errors.Is(err, adjudicator.ErrPaused), errors.Is(err, adjudicator.ErrNotPlaying):
		return t.refuse(capital(err.Error())+".", "out of turn"), nil
	case err != nil:
		return nil, err
	}
	t.res.Records = append(t.res.Records, out...)
	t.res.Events = events
	for _, r := range out {
		if r.Kind == adjudicator.KindStanding {
			t.answers = append(t.answers, "Your standing orders are kept.")
		}
	}
	return nil, nil
}

// refuse answers that nothing was applied, and why.
func (t *turn) refuse(text, outcome string) *Result {
	t.res.Game = t.was
	return t.res.refuse(wrap(text)+"\nNothing in your mail was applied.\n"+standing(t.was, t.side), outcome)
}

// refuseOrders answers with every error in the orders, and the impulse in
// play with its deadline.
func (t *turn) refuseOrders(oes rules.OrderErrors, g *adjudicator.Game) *Result {
	t.res.Game = g
	t.res.refuse(orderErrorsText(oes)+"\nNothing in your mail was applied.\n"+wrap(inPlay(g))+standing(g, t.side),
		fmt.Sprintf("%d error(s) in the orders", len(oes)))
	t.res.Errors = oes
	return t.res
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
		if err := t.r.report(t.tx, res, g, rec, res.Events, ""); err != nil {
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
		res.toAll(g, n)
	}
	if len(t.answers) > 0 || len(t.notices) == 0 && !reported && !t.begins {
		if len(t.answers) == 0 {
			t.answers = append(t.answers, "Your mail held no orders and no requests. Send HELP for the order language.")
		}
		res.Reply = wrap(strings.Join(t.answers, "\n\n")) + "\n" + standing(g, t.side)
	}
	return nil
}

// report sends an impulse's report to both players and the observers, with
// the map picture; before is what goes ahead of it (the deadline passed).
func (r *Referee) report(tx Tx, res *Result, g *adjudicator.Game, rec adjudicator.Record, events []rules.Event, before string) error {
	text, err := adjudicator.Report(g, res.Records, events)
	if err != nil {
		return err
	}
	text = before + text
	if g.Status == adjudicator.Finished {
		text += "\n" + promptnessText(g)
	}
	ref, err := r.mapRef(tx, g, rec.Impulse, events)
	if err != nil {
		return err
	}
	subject := reportSubject(g, rec)
	if before != "" {
		subject += " (deadline passed)"
	}
	res.toAllAs(g, subject, text, ref)
	return nil
}

// request answers one request. A request the rules refuse is returned as
// refused, to be told to the player; err is a fault of the referee's own.
func (t *turn) request(q rules.Order) (refused, err error) {
	g, side := t.g, t.side
	var out []adjudicator.Record
	switch q := q.(type) {
	case HelpRequest:
		t.answers = append(t.answers, Help(t.s, g.State, side))
	case StatusRequest:
		t.answers = append(t.answers, statusText(g)+"\n"+t.r.pictureNote(g, side))
		if g.Players[side].Pictures() {
			if t.res.ReplyMap, err = t.r.mapRef(t.tx, g, "in play", nil); err != nil {
				return nil, err
			}
		}
	case BriefRequest:
		t.answers = append(t.answers, briefText(g, t.s, side))
		if g.Players[side].Pictures() && t.res.ReplyMap == nil {
			if t.res.ReplyMap, err = t.r.startRef(t.tx, g, t.s); err != nil {
				return nil, err
			}
		}
	case PictureRequest:
		g.Players[side].NoPicture = !q.On
		t.set = true
		t.answers = append(t.answers, fmt.Sprintf("%s is kept for game %s, until you change it. %s", q, g.ID, t.r.pictureNote(g, side)))
	case UnitsRequest:
		t.answers = append(t.answers, unitsText(g, t.s, side)+"\n"+t.r.pictureNote(g, side))
	case DiceRequest:
		t.answers = append(t.answers, diceText(g, side))
	case OrdersRequest:
		log, err := t.tx.Log(g.ID)
		if err != nil {
			return nil, err
		}
		t.answers = append(t.answers, ordersOnFile(log, side))
	case JoinRequest:
		out, refused, err = t.join(q.Seed)
	case ExtendRequest:
		out, refused = t.extend(time.Duration(q.Hours) * time.Hour)
	case ConcedeRequest:
		if out, refused = g.Concede(side, t.now); refused == nil {
			t.notices = append(t.notices, fmt.Sprintf("The %s player concedes.\n\n%s", side.Title(), endText(g)))
		}
	case DrawRequest:
		out, refused = t.draw(q.Accept)
	}
	t.res.Records = append(t.res.Records, out...)
	return refused, err
}

// actName says what an act does, for its refusal in a CHECK mail.
func actName(q rules.Order) string {
	switch q.(type) {
	case JoinRequest:
		return "join the game"
	case ExtendRequest:
		return "extend your deadline"
	case ConcedeRequest:
		return "concede the game"
	case DrawRequest:
		return "offer or accept a draw"
	}
	return "do that"
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
	t.answers = append(t.answers, fmt.Sprintf("You have joined game %s with the seed %q.", t.g.ID, seed))
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
		return nil, fmt.Errorf("you have had the %d extensions a player may have in a game", opt.MaxExtensions)
	case d > opt.MaxExtension:
		return nil, fmt.Errorf("an extension is at most %s", human(opt.MaxExtension))
	}
	out, err := g.Extend(side, d, "asked by the "+side.Title()+" player", t.now)
	if err == nil {
		t.notices = append(t.notices, fmt.Sprintf("The %s player extended impulse %s by %s: it is now due by %s.", side.Title(), g.Next, human(d), adjudicator.FormatTime(g.Due)))
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
		t.notices = append(t.notices, "The players agree to a draw.\n\n"+endText(g))
	default:
		t.notices = append(t.notices, fmt.Sprintf("The %s player offers a draw. The %s player accepts it with DRAW ACCEPT; the offer lapses when the next impulse is played.", side.Title(), side.Enemy().Title()))
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
