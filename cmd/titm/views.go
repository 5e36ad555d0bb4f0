package main

import (
	"encoding/hex"
	"fmt"

	"titm/adjudicator"
	"titm/adjudicator/lang"
	"titm/rules"
	"titm/store"
)

// viewFunc serves a request that reads the store and changes nothing.
type viewFunc func(h *host, req request) (*response, error)

// gameViews returns the requests that read the games.
func gameViews() map[string]viewFunc {
	return map[string]viewFunc{
		"games":  viewGames,
		"show":   viewShow,
		"export": viewExport,
		"log":    viewLog,
		"report": viewReport,
		"render": viewRender,
	}
}

func viewGames(h *host, _ request) (*response, error) {
	resp := &response{}
	err := h.st.View(func(tx *store.Tx) error {
		games, err := tx.Games()
		if err != nil {
			return err
		}
		bad, err := trouble(tx)
		for _, g := range games {
			r := rowOf(g)
			r.Trouble = bad[g.ID]
			resp.Rows = append(resp.Rows, r)
		}
		return err
	})
	return resp, err
}

// viewShow returns a game, the end of its log and its mails (without
// their text, which may hold a token).
func viewShow(h *host, req request) (*response, error) {
	resp := &response{}
	err := h.st.View(func(tx *store.Tx) error {
		var err error
		if resp.Game, err = tx.Game(req.Game); err != nil {
			return err
		}
		log, err := tx.Log(req.Game)
		if err != nil {
			return err
		}
		resp.Records = log[max(0, len(log)-5):]
		mails, err := tx.Outbox("")
		for _, m := range mails {
			if m.Game == req.Game {
				resp.Mails = append(resp.Mails, m)
			}
		}
		return err
	})
	return resp, err
}

func viewExport(h *host, req request) (*response, error) {
	resp := &response{}
	err := h.st.View(func(tx *store.Tx) error {
		g, err := tx.Game(req.Game)
		if err != nil {
			return err
		}
		log, err := tx.Log(req.Game)
		resp.Export = adjudicator.MakeExport(g, log)
		return err
	})
	return resp, err
}

// viewLog returns a game's whole log.
func viewLog(h *host, req request) (*response, error) {
	resp := &response{}
	err := h.st.View(func(tx *store.Tx) error {
		var err error
		resp.Records, err = tx.Log(req.Game)
		return err
	})
	return resp, err
}

func viewReport(h *host, req request) (*response, error) {
	rp, recs, events, err := storedImpulse(h.st, req.Game, req.Impulse)
	if err != nil {
		return nil, err
	}
	code := req.Language
	if code == "" {
		if code, err = h.playerLanguage(req.Game, recs[0].Impulse); err != nil {
			return nil, err
		}
	}
	text, err := adjudicator.ReportIn(lang.For(code), rp.Game, recs, events)
	return &response{Text: text}, err
}

// playerLanguage is the language of the player of a game who played an
// impulse (as G17-2): his own choice, else his address's, else the
// referee's, as his mails are written.
func (h *host) playerLanguage(id, impulse string) (string, error) {
	imp, err := rules.ParseImpulse(impulse)
	if err != nil {
		return "", fmt.Errorf("the impulse %q of game %s: %w", impulse, id, err)
	}
	var code string
	err = h.st.View(func(tx *store.Tx) error {
		g, err := tx.Game(id)
		if err != nil {
			return err
		}
		if pl := g.Players[imp.Side]; pl != nil {
			code = h.ref.Language(g, pl.Address)
		}
		return nil
	})
	return code, err
}

func viewRender(h *host, req request) (*response, error) {
	rp, recs, events, err := storedImpulse(h.st, req.Game, req.Impulse)
	if err != nil {
		return nil, err
	}
	data, err := adjudicator.Picture(rp.Game, recs[0].Impulse, events)
	return &response{Data: data, ImpulseRan: recs[0].Impulse}, err
}

// storedImpulse rebuilds a stored game as it was after an impulse (which,
// as G17-2; "" for the last played) from its log, with the dice it rolled:
// the game then, the impulse's records and its events.
func storedImpulse(st *store.Store, id, which string) (*adjudicator.Replayed, []adjudicator.Record, []rules.Event, error) {
	var want rules.Impulse
	if which != "" {
		var err error
		if want, err = rules.ParseImpulse(which); err != nil {
			return nil, nil, nil, usageError{fmt.Sprintf("--impulse %q: %v; give it as G17-2 or A17-2", which, err)}
		}
	}
	var g *adjudicator.Game
	var log []adjudicator.Record
	err := st.View(func(tx *store.Tx) error {
		var err error
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
