package referee

import (
	"time"

	"titm/adjudicator"
	"titm/adjudicator/lang"
	"titm/rules"
)

// The director's acts: each is logged with its reason, and both players and
// the observers are told.

// Pause stops a game's clock: no impulse is played until Resume.
func (r *Referee) Pause(tx Tx, id, reason string, now time.Time) (*Result, error) {
	now = clock(tx, now)
	return r.direct(tx, id, func(g *adjudicator.Game) ([]adjudicator.Record, text, error) {
		recs, err := g.Pause(reason, now)
		return recs, func(p *lang.Printer) string {
			return p.Sprintf("The director has paused game %s: %s. No impulse is played until the director resumes it.", g.ID, reason)
		}, err
	})
}

// Resume starts a paused game's clock again, with the time that was left.
func (r *Referee) Resume(tx Tx, id, reason string, now time.Time) (*Result, error) {
	now = clock(tx, now)
	return r.direct(tx, id, func(g *adjudicator.Game) ([]adjudicator.Record, text, error) {
		recs, err := g.Resume(reason, now)
		return recs, func(p *lang.Printer) string {
			return p.Sprintf("The director has resumed game %s: %s. Impulse %s is due by %s.", g.ID, reason, g.Next.String(), adjudicator.FormatTime(g.Due))
		}, err
	})
}

// Extend moves the deadline of the impulse in play by d.
func (r *Referee) Extend(tx Tx, id string, d time.Duration, reason string, now time.Time) (*Result, error) {
	now = clock(tx, now)
	return r.direct(tx, id, func(g *adjudicator.Game) ([]adjudicator.Record, text, error) {
		recs, err := g.Extend("", d, reason, now)
		if g.Paused {
			// The clock is stopped: the time left is what the extension
			// changed, and the deadline comes when the game resumes.
			return recs, func(p *lang.Printer) string {
				return p.Sprintf("The director has extended impulse %s of game %s by %s: %s. The game is paused, with %s left on the clock when it resumes.", g.Next.String(), g.ID, human(d), reason, human(g.Left))
			}, err
		}
		return recs, func(p *lang.Printer) string {
			return p.Sprintf("The director has extended impulse %s of game %s by %s: %s. It is due by %s.", g.Next.String(), g.ID, human(d), reason, adjudicator.FormatTime(g.Due))
		}, err
	})
}

// Rollback returns a game to the position before impulse to, for a proven
// adjudication error. The log keeps everything; no die is rolled twice.
func (r *Referee) Rollback(tx Tx, id string, to rules.Impulse, reason string, now time.Time) (*Result, error) {
	now = clock(tx, now)
	return r.direct(tx, id, func(g *adjudicator.Game) ([]adjudicator.Record, text, error) {
		log, err := tx.Log(g.ID)
		if err != nil {
			return nil, nil, err
		}
		recs, err := g.Rollback(log, to, reason, now)
		return recs, func(p *lang.Printer) string {
			return p.Sprintf("The director has rolled game %s back to before impulse %s: %s.\nImpulse %s is to be played again, due by %s. The log keeps everything; no die is rolled twice.", g.ID, to.String(), reason, g.Next.String(), adjudicator.FormatTime(g.Due))
		}, err
	})
}

// direct runs one act of the director on a game. An error of the act is the
// refusal, for the director to read; nothing is then kept.
func (r *Referee) direct(tx Tx, id string, act func(g *adjudicator.Game) ([]adjudicator.Record, text, error)) (*Result, error) {
	g, err := tx.Game(id)
	if err != nil {
		return nil, err
	}
	recs, notice, err := act(g)
	if err != nil {
		return nil, err
	}
	res := &Result{Game: g, Records: recs}
	if err := res.save(tx, g); err != nil {
		return nil, err
	}
	r.toAll(res, g, notice)
	res.Reply = "done\nlog head " + g.Head
	res.Outcome = recs[len(recs)-1].Kind
	return res, nil
}
