package adjudicator

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"titm/rules"
)

// Errors of a game's life. Each is returned wrapped with the particulars.
var (
	// ErrNotPlaying is returned when an impulse's orders come to a game
	// that is forming or finished.
	ErrNotPlaying = errors.New("the game is not being played")
	// ErrNotYourImpulse is returned for impulse orders from the side not
	// to move.
	ErrNotYourImpulse = errors.New("it is not your impulse")
	// ErrPaused is returned for impulse orders while the director has
	// paused the game.
	ErrPaused = errors.New("the game is paused")
	// ErrNotDue is returned when an impulse is passed for its deadline
	// before the deadline.
	ErrNotDue = errors.New("the deadline has not passed")
)

// at is the form every time takes in the log: UTC, to the millisecond, so a
// record's JSON, and so its hash, is the same after a round trip.
func at(t time.Time) time.Time { return t.UTC().Truncate(time.Millisecond) }

// Join records that a side's player joined the game with his seed (B10), a
// text he chose, or one made for him when he gave none. When both have
// joined the game starts: the dice stream is fixed from then on.
func (g *Game) Join(side rules.Side, seed string, now time.Time) ([]Record, error) {
	now = at(now)
	p := g.Players[side]
	switch {
	case p == nil:
		return nil, fmt.Errorf("no side %q: german or allied", side)
	case g.Status != Forming:
		return nil, rules.M("game %s is %s: joining is over", g.ID, g.Status.Message()).Err()
	case p.HasJoined():
		return nil, rules.M("the %s player has already joined game %s", side, g.ID).Err()
	case seed == "":
		return nil, errors.New("a player's seed must not be empty")
	case len(seed) > 200:
		return nil, rules.M("a player's seed is at most 200 characters").Err()
	}
	p.Joined, p.Seed = now, seed
	out := []Record{g.record(Record{Kind: KindJoined, Time: now, Side: side, Seed: seed})}
	if g.Players[side.Enemy()].HasJoined() {
		g.Status = Playing
		g.Began, g.Due = now, now.Add(g.Deadline)
		out = append(out, g.record(Record{Kind: KindStarted, Time: now, Impulse: g.State.Next.String(),
			State: StateHash(g.State), Due: g.Due}))
	}
	return out, nil
}

// Submit takes a side's orders as text. Standing orders alone (BLOW, DEFEND)
// are recorded at any time. A mail with an IMPULSE line or any order for an
// impulse plays the impulse in play, which must be the side's and the one its
// IMPULSE line names; the line is required, so that orders written for an
// old impulse are never applied to a new one. A TOKEN line is the caller's
// business (Authentic) and is never kept. The events are those of the
// impulse, for the report; errors in the orders are rules.OrderErrors.
func (g *Game) Submit(side rules.Side, text string, now time.Time) ([]Record, []rules.Event, error) {
	now = at(now)
	s, err := g.Rules()
	if err != nil {
		return nil, nil, err
	}
	if g.Players[side] == nil {
		return nil, nil, fmt.Errorf("no side %q: german or allied", side)
	}
	// Every error of the mail is listed at once: the lines that do not
	// read, the lines that do not belong, and what the position makes
	// illegal in the lines that read.
	o, err := ParseOrders(text, s, side)
	var errs rules.OrderErrors
	if err != nil && !errors.As(err, &errs) {
		return nil, nil, err
	}
	parsed := len(errs) == 0
	impulse := isImpulse(o)
	for i, ord := range o.List {
		if x, ok := ord.(GameLine); ok && !strings.EqualFold(x.ID, g.ID) {
			errs = append(errs, rules.OrderErrorAt(o.Lines[i], x.String(), rules.M("these orders are for game %s, not %s", x.ID, g.ID)))
		}
		if rules.ClassOf(ord) == rules.Request {
			errs = append(errs, rules.OrderErrorAt(o.Lines[i], ord.String(), rules.M("%s is a request, answered by mail; it is not part of the orders", ord.Keyword())))
		}
	}
	if len(errs) > 0 {
		return nil, nil, errs.With(g.CheckOrders(side, o)...)
	}
	if !impulse {
		if g.Status == Finished {
			return nil, nil, g.over()
		}
		st, err := rules.ApplyStanding(g.State, side, o)
		if err != nil {
			return nil, nil, err
		}
		g.setState(st)
		return []Record{g.record(Record{Kind: KindStanding, Time: now, Side: side, Text: canonical(o), State: StateHash(st)})}, nil, nil
	}
	if err := g.mayPlay(side); err != nil {
		return nil, nil, err
	}
	if _, ok := o.Impulse(); !ok && parsed {
		return nil, nil, rules.OrderErrors{rules.OrderErrorAt(o.Lines[0], o.List[0].String(),
			rules.M("the orders of an impulse need an IMPULSE line, as IMPULSE %d-%d, so that they are never applied to another impulse", g.State.Next.Day, g.State.Next.N))}.With(g.CheckOrders(side, o)...)
	}
	p := g.Players[side]
	p.Impulses++
	p.Taken += now.Sub(g.Began)
	return g.play(o, "", now)
}

// isImpulse reports whether the orders are an impulse's: an IMPULSE line or
// an order for one's own impulse.
func isImpulse(o *rules.Orders) bool {
	for _, ord := range o.List {
		if _, ok := ord.(rules.ImpulseLine); ok || rules.ClassOf(ord) == rules.ImpulseOrder {
			return true
		}
	}
	return false
}

// CheckOrders checks the lines of a side's mail that read, o, against the
// position, as the impulse would be played, without playing it: it returns
// the errors the position finds, in line order. It finds none when o holds
// no order for an impulse, when the side may not play now, or when the
// mail's GAME line names another game, for the position would then not be
// the one the orders were written for. The game is not changed.
//
// A mail some of whose lines do not read is refused for them; CheckOrders
// adds the errors of the other lines, so that the player learns of them in
// the same answer and not one mail later.
func (g *Game) CheckOrders(side rules.Side, o *rules.Orders) rules.OrderErrors {
	if o == nil || !isImpulse(o) || g.mayPlay(side) != nil {
		return nil
	}
	for _, ord := range o.List {
		if x, ok := ord.(GameLine); ok && !strings.EqualFold(x.ID, g.ID) {
			return nil
		}
	}
	s, err := g.Rules()
	if err != nil {
		return nil
	}
	var es rules.OrderErrors
	errors.As(rules.CheckOrders(s, g.State, o), &es)
	return es
}

// over is the refusal of an act in a game that is over.
func (g *Game) over() error {
	return rules.M("game %s is over: the game is not being played", g.ID).Wrap(ErrNotPlaying)
}

// mayPlay says why side may not play the impulse in play, if it may not.
func (g *Game) mayPlay(side rules.Side) error {
	switch {
	case g.Status != Playing:
		return rules.M("game %s is %s: the game is not being played", g.ID, g.Status.Message()).Wrap(ErrNotPlaying)
	case g.Paused:
		return rules.M("game %s: the game is paused by the director", g.ID).Wrap(ErrPaused)
	case g.State.Next.Side != side:
		next := g.State.Next
		return rules.M("it is not your impulse: it is the %s impulse %s, due by %s", next.Side, next.String(), FormatTime(g.Due)).Wrap(ErrNotYourImpulse)
	}
	return nil
}

// Expire plays the impulse in play as a pass when its deadline has passed
// (B8): no movement, no attack, no repair; standing orders still apply.
func (g *Game) Expire(now time.Time) ([]Record, []rules.Event, error) {
	now = at(now)
	if err := g.mayPlay(g.State.Next.Side); err != nil {
		return nil, nil, err
	}
	if now.Before(g.Due) {
		return nil, nil, fmt.Errorf("%w: impulse %s is due by %s", ErrNotDue, g.State.Next, g.Due.Format(time.RFC3339))
	}
	g.Players[g.State.Next.Side].Missed++
	return g.play(nil, ReasonDeadline, now)
}

// ReasonDeadline is the reason of an impulse passed for its deadline.
const ReasonDeadline = "the deadline passed without valid orders (B8)"

// play plays the impulse in play with the orders (nil: a pass) and records
// it with every die; the game ends when the scenario does.
func (g *Game) play(o *rules.Orders, reason string, now time.Time) ([]Record, []rules.Event, error) {
	s, err := g.Rules()
	if err != nil {
		return nil, nil, err
	}
	dice, err := g.dice()
	if err != nil {
		return nil, nil, err
	}
	imp := g.State.Next
	st, events, err := rules.Play(s, g.State, o, dice)
	if err != nil {
		return nil, nil, err
	}
	rolls, draws := dice.done()
	r := Record{Kind: KindImpulse, Time: now, Side: imp.Side, Impulse: imp.String(), Reason: reason,
		Dice: rolls, State: StateHash(st)}
	if o != nil {
		r.Text = canonical(o)
	}
	for _, e := range events {
		r.Events = append(r.Events, e.String())
	}
	g.setState(st)
	g.Draws, g.Rolls, g.DrawOffer = draws, g.Rolls+len(rolls), ""
	var out []Record
	if st.Over {
		out = append(out, g.record(r))
		out = append(out, g.finish(st.Result, now))
		return out, events, nil
	}
	g.Began, g.Due = now, now.Add(g.Deadline)
	r.Due = g.Due
	return append(out, g.record(r)), events, nil
}

// finish ends the game with a result and reveals the secret seed: from now
// on anyone holding the log can recompute every die (B10).
func (g *Game) finish(result string, now time.Time) Record {
	g.Status, g.Result, g.Due, g.Began, g.Paused = Finished, result, time.Time{}, time.Time{}, false
	// A new position, as every change of the game makes one: a position
	// once made is never changed (Snapshot).
	st := g.State.Clone()
	st.Over = true
	if st.Result == "" {
		st.Result = result
	}
	g.setState(st)
	g.Seed = fmt.Sprintf("%x", g.secret)
	return g.record(Record{Kind: KindFinished, Time: now, Result: result, Seed: g.Seed, State: StateHash(g.State)})
}

// canonical writes accepted orders as the log keeps them: one per line, in
// canonical form, without the TOKEN line, which is a secret.
func canonical(o *rules.Orders) string {
	var b strings.Builder
	for _, ord := range o.List {
		if _, ok := ord.(TokenLine); ok {
			continue
		}
		b.WriteString(ord.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// Concede ends the game: the side concedes, and the other wins.
func (g *Game) Concede(side rules.Side, now time.Time) ([]Record, error) {
	return g.concede(side, now, rules.ConcededResult(side))
}

// concede ends the game as Concede does, with result as its result.
func (g *Game) concede(side rules.Side, now time.Time, result string) ([]Record, error) {
	now = at(now)
	if g.Status == Finished {
		return nil, g.over()
	}
	if g.Players[side] == nil {
		return nil, fmt.Errorf("no side %q: german or allied", side)
	}
	r := g.record(Record{Kind: KindConceded, Time: now, Side: side})
	return []Record{r, g.finish(result, now)}, nil
}

// Adjudicate ends a game from outside it, as a tournament does: side
// forfeits it (missed deadlines, or the director's decision on a stalled
// game) and the other wins, or, with side "", the director declares it
// drawn. The reason goes into the log.
func (g *Game) Adjudicate(side rules.Side, reason string, now time.Time) ([]Record, error) {
	now = at(now)
	if g.Status == Finished {
		return nil, g.over()
	}
	if strings.TrimSpace(reason) == "" {
		return nil, errors.New("an adjudication needs a reason")
	}
	result := rules.DrawnByDirector
	if side != "" {
		if g.Players[side] == nil {
			return nil, fmt.Errorf("no side %q: german or allied", side)
		}
		result = rules.ForfeitedResult(side)
	}
	r := g.record(Record{Kind: KindAdjudicated, Time: now, Side: side, Reason: reason})
	return []Record{r, g.finish(result, now)}, nil
}

// Draw offers a draw, or accepts the one the other side offered. An offer
// lapses when the next impulse is played.
func (g *Game) Draw(side rules.Side, accept bool, now time.Time) ([]Record, error) {
	now = at(now)
	switch {
	case g.Players[side] == nil:
		return nil, fmt.Errorf("no side %q: german or allied", side)
	case g.Status != Playing:
		return nil, rules.M("game %s is %s: the game is not being played", g.ID, g.Status.Message()).Wrap(ErrNotPlaying)
	case accept && g.DrawOffer != side.Enemy():
		return nil, rules.M("the %s player has not offered a draw since the last impulse", side.Enemy()).Err()
	case !accept && g.DrawOffer == side.Enemy():
		// Offering what the other side offered is agreeing.
		accept = true
	}
	if !accept {
		g.DrawOffer = side
		return []Record{g.record(Record{Kind: KindDrawOffered, Time: now, Side: side})}, nil
	}
	r := g.record(Record{Kind: KindDrawAgreed, Time: now, Side: side})
	return []Record{r, g.finish(rules.DrawnByAgreement, now)}, nil
}

// Pause stops the clock of the impulse in play: no impulse is played until
// Resume. Standing orders may still be given.
func (g *Game) Pause(reason string, now time.Time) ([]Record, error) {
	now = at(now)
	if err := g.director(reason); err != nil {
		return nil, err
	}
	if g.Status != Playing {
		return nil, rules.M("game %s is %s: no clock runs until both players have joined", g.ID, g.Status.Message()).Err()
	}
	if g.Paused {
		return nil, rules.M("game %s is already paused", g.ID).Err()
	}
	g.Paused, g.Left, g.Due = true, max(g.Due.Sub(now), 0), time.Time{}
	return []Record{g.record(Record{Kind: KindPaused, Time: now, Reason: reason})}, nil
}

// Resume starts the clock again with the time that was left.
func (g *Game) Resume(reason string, now time.Time) ([]Record, error) {
	now = at(now)
	if err := g.director(reason); err != nil {
		return nil, err
	}
	if !g.Paused {
		return nil, rules.M("game %s is not paused", g.ID).Err()
	}
	g.Paused, g.Due, g.Left = false, now.Add(g.Left), 0
	return []Record{g.record(Record{Kind: KindResumed, Time: now, Reason: reason, Due: g.Due})}, nil
}

// Extend moves the deadline of the impulse in play by d: the director's
// decision, or a player's request (side set) that the caller has allowed.
func (g *Game) Extend(side rules.Side, d time.Duration, reason string, now time.Time) ([]Record, error) {
	now = at(now)
	if d <= 0 {
		return nil, fmt.Errorf("an extension must be positive, not %s", d)
	}
	if side == "" {
		if err := g.director(reason); err != nil {
			return nil, err
		}
	} else if err := g.mayPlay(side); err != nil {
		return nil, err
	}
	if g.Status != Playing {
		return nil, rules.M("game %s is %s: the game is not being played", g.ID, g.Status.Message()).Wrap(ErrNotPlaying)
	}
	if g.Paused {
		g.Left += d
	} else {
		g.Due = g.Due.Add(d)
	}
	if side != "" {
		g.Players[side].Extensions++
	}
	return []Record{g.record(Record{Kind: KindExtended, Time: now, Side: side, Deadline: d.String(), Reason: reason, Due: g.Due})}, nil
}

// director checks what every act of the director needs.
func (g *Game) director(reason string) error {
	if strings.TrimSpace(reason) == "" {
		return errors.New("the director must give a reason; it goes into the log")
	}
	if g.Status == Finished {
		return g.over()
	}
	return nil
}

// Rollback returns the game to the position before impulse `to` was last
// played, for a proven adjudication error. log is the game's log so far. The
// rollback is appended to the log; nothing is erased. The dice stream goes
// on where it was, so no die that a report has shown is rolled again, and
// each side keeps the standing orders it has now. A finished game cannot be
// rolled back: its seed is revealed, so every future die is known.
func (g *Game) Rollback(log []Record, to rules.Impulse, reason string, now time.Time) ([]Record, error) {
	if err := g.director(reason); err != nil {
		return nil, err
	}
	if g.Status != Playing {
		return nil, rules.M("game %s is %s: only a game being played can be rolled back", g.ID, g.Status.Message()).Err()
	}
	h, err := Replay(g.Header(), log, nil)
	if err != nil {
		return nil, fmt.Errorf("game %s: reading its log: %w", g.ID, err)
	}
	return g.rollback(h.before, to, reason, now)
}

func (g *Game) rollback(before map[rules.Impulse]*rules.State, to rules.Impulse, reason string, now time.Time) ([]Record, error) {
	now = at(now)
	st := before[to]
	if st == nil {
		return nil, rules.M("game %s: impulse %s has not been played", g.ID, to.String()).Err()
	}
	st = st.Clone()
	for side, sd := range g.State.Standing {
		c := *sd
		st.Standing[side] = &c
	}
	g.setState(st)
	g.DrawOffer = ""
	g.Began = now
	if g.Paused {
		g.Left = g.Deadline
	} else {
		g.Due = now.Add(g.Deadline)
	}
	return []Record{g.record(Record{Kind: KindRolledBack, Time: now, Impulse: to.String(), Reason: reason,
		State: StateHash(st), Due: g.Due})}, nil
}
