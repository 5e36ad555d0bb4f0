package mail

import (
	"strings"

	"titm/adjudicator/referee"
	"titm/adjudicator/tournament"
)

// tournamentMail handles a tournament player's mail: BID, STANDINGS and
// HELP, with his tournament token and, when he plays in more than one, a
// TOURNAMENT line, read by the referee (referee.ReadEntrant). It reports
// false for a mail that is none, which is then read as a game's.
func (w *work) tournamentMail() (bool, error) {
	m := referee.ReadEntrant(w.in.Text)
	if !m.Asks() {
		return false, nil
	}
	q, id := m.Request, m.Tournament
	ids, err := w.tx.TournamentsOf(strings.ToLower(w.in.From))
	if err != nil || len(ids) == 0 {
		return false, err
	}
	if id == "" {
		// Only the running tournaments ask for the line: one that is
		// over takes no bid, and its standings are asked for by name.
		running, err := w.running(ids)
		if err != nil {
			return false, err
		}
		switch {
		case len(running) == 1:
			id = running[0]
		case len(running) == 0 && len(ids) == 1:
			id = ids[0]
		default:
			if len(running) == 0 {
				running = ids
			}
			w.outcome = "refused: no TOURNAMENT line"
			p := w.printer()
			w.reply("", wrapped(p.Sprintf("You play in %d tournaments: %s. Put a TOURNAMENT line in your mail, as TOURNAMENT %s.\n", len(running), strings.Join(running, p.Sprintf(", ")), running[0])))
			return true, nil
		}
	}
	found := false
	for _, x := range ids {
		if strings.EqualFold(x, id) {
			id, found = x, true
		}
	}
	if !found {
		w.outcome = "refused: not a player of " + id
		p := w.printer()
		w.reply("", wrapped(p.Sprintf("You play in no tournament %s; yours: %s.\n", id, strings.Join(ids, p.Sprintf(", ")))))
		return true, nil
	}
	res, err := w.h.ref.Tournament(w.tx, id, strings.ToLower(w.in.From), m.Token, q, w.now)
	if err != nil {
		return true, err
	}
	w.result(res)
	return true, nil
}

// running returns those of the tournaments ids that are running.
func (w *work) running(ids []string) ([]string, error) {
	ts, err := w.tx.Tournaments()
	if err != nil {
		return nil, err
	}
	on := map[string]bool{}
	for _, t := range ts {
		on[t.ID] = t.Status == tournament.Running
	}
	var out []string
	for _, id := range ids {
		if on[id] {
			out = append(out, id)
		}
	}
	return out, nil
}
