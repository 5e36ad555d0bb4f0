package main

import (
	"encoding/hex"
	"flag"
	"fmt"
	"io"

	"titm/adjudicator"
	"titm/rules"
	"titm/store"
)

var reportCmd = &command{
	name:    "report",
	args:    "GAME",
	summary: "an impulse's text report, as the players received it, from a stored game (the last impulse, or --impulse)",
	setup: func(fs *flag.FlagSet, out io.Writer) func([]string) error {
		db := dbFlag(fs)
		which := fs.String("impulse", "", "the impulse, as G17-2 (default: the last played); after a rollback, its last playing")
		return func(args []string) error {
			id, err := oneGame(args)
			if err != nil {
				return err
			}
			rp, recs, events, err := storedImpulse(*db, id, *which)
			if err != nil {
				return err
			}
			text, err := adjudicator.Report(rp.Game, recs, events)
			if err != nil {
				return err
			}
			_, err = io.WriteString(out, text)
			return err
		}
	},
}

// storedImpulse rebuilds a stored game as it was after an impulse (which,
// as G17-2; "" for the last played) from its log, with the dice it rolled:
// the game then, the impulse's records and its events.
func storedImpulse(db, id, which string) (*adjudicator.Replayed, []adjudicator.Record, []rules.Event, error) {
	var want rules.Impulse
	if which != "" {
		var err error
		if want, err = rules.ParseImpulse(which); err != nil {
			return nil, nil, nil, usageError{fmt.Sprintf("--impulse %q: %v; give it as G17-2 or A17-2", which, err)}
		}
	}
	st, release, err := openStore(db, false)
	if err != nil {
		return nil, nil, nil, err
	}
	defer release()
	var g *adjudicator.Game
	var log []adjudicator.Record
	err = st.View(func(tx *store.Tx) error {
		if g, err = tx.Game(id); err != nil {
			return err
		}
		log, err = tx.Log(id)
		return err
	})
	if err != nil {
		return nil, nil, nil, err
	}
	k := -1
	for i, r := range log {
		if r.Kind == adjudicator.KindImpulse && (which == "" || r.Impulse == want.String()) {
			k = i
		}
	}
	if k < 0 {
		if which == "" {
			return nil, nil, nil, fmt.Errorf("game %s has played no impulse yet", id)
		}
		return nil, nil, nil, fmt.Errorf("game %s has not played impulse %s", id, want)
	}
	end := k + 1
	if end < len(log) && log[end].Kind == adjudicator.KindFinished {
		end++
	}
	// The seed, once revealed, recomputes the dice; before, the logged dice
	// are used.
	var secret []byte
	if g.Seed != "" {
		secret, _ = hex.DecodeString(g.Seed)
	}
	rp, err := adjudicator.Replay(g.Header(), log[:end], secret)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("game %s: replaying its log: %w", id, err)
	}
	return rp, log[k:end], rp.Events[log[k].Seq], nil
}
