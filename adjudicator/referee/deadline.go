package referee

import (
	"time"

	"titm/adjudicator"
	"titm/adjudicator/lang"
)

// Due returns the games whose deadline has passed (B8) or whose player to
// move is to be reminded of it, of a list as Tx.Games gives it.
func (r *Referee) Due(games []*adjudicator.Game, now time.Time) []string {
	var due []string
	for _, g := range games {
		if g.Status != adjudicator.Playing || g.Paused || g.Due.IsZero() {
			continue
		}
		late := !now.Before(g.Due)
		remind := r.opt.Reminder > 0 && !now.Before(g.Due.Add(-r.opt.Reminder)) && !g.Reminded.Equal(g.Due)
		if late || remind {
			due = append(due, g.ID)
		}
	}
	return due
}

// Deadline plays a game's impulse as a pass when its deadline has passed
// (B8), telling both players and the observers, or else reminds the player
// to move that the deadline comes.
func (r *Referee) Deadline(tx Tx, id string, now time.Time) (*Result, error) {
	now = clock(tx, now)
	g, err := tx.Game(id)
	if err != nil {
		return nil, err
	}
	side := g.Next.Side
	res := &Result{Game: g}
	if g.Status != adjudicator.Playing || g.Paused || g.Due.IsZero() {
		// It ended or was paused since the list of games due was read.
		res.Outcome = "no deadline: the game is " + string(g.Status)
		return res, nil
	}
	if now.Before(g.Due) {
		g.Reminded = g.Due
		if err := tx.SaveGame(g, nil); err != nil {
			return nil, err
		}
		p := r.printer(g, side)
		res.send(g, KindReminder, g.Players[side].Address,
			p.Sprintf("[%s] reminder: impulse %s is due by %s", g.ID, g.Next.String(), adjudicator.FormatTime(g.Due)),
			wrap(p.Sprintf("Your orders for impulse %s of game %s are due by %s, in %s.\n"+
				"If none come, the impulse is played without movement, attack or repair (B8).\n"+
				"You may ask for more time with EXTEND 24h (%d extensions a game).\n",
				g.Next.String(), g.ID, adjudicator.FormatTime(g.Due), human(g.Due.Sub(now)), r.opt.MaxExtensions))+standing(p, g, side), nil)
		res.Outcome = "reminded the " + string(side) + " player"
		return res, nil
	}
	recs, events, err := g.Expire(now)
	if err != nil {
		return nil, err
	}
	res.Records, res.Events = recs, events
	if err := res.save(tx, g); err != nil {
		return nil, err
	}
	played := recs[0].Impulse
	before := func(p *lang.Printer) string {
		return wrap(p.Sprintf("The %s player sent no valid orders for impulse %s before its deadline: it was played without movement, attack or repair (B8).\n\n", side, played))
	}
	if err := r.report(tx, res, g, recs[0], events, before); err != nil {
		return nil, err
	}
	res.Outcome = "deadline passed: played " + recs[0].Impulse
	return res, r.gameEnded(tx, res, now)
}
