package journal

import (
	"time"

	"titm/adjudicator/lang"
	"titm/adjudicator/tournament"
)

// actView is one of the director's acts on a tournament, as its log
// keeps it: a pause, a resumption, a replacement, a withdrawal or an
// adjudication, with its time and the reason given.
type actView struct {
	Time    time.Time `json:"time"`
	Kind    string    `json:"kind"` // the log record's kind: paused, resumed, replaced, withdrawn, adjudicated
	Round   int       `json:"round,omitempty"`
	Game    string    `json:"game,omitempty"`
	GameURL string    `json:"game_url,omitempty"`
	What    string    `json:"what"`
	Reason  string    `json:"reason,omitempty"`
	Record  int       `json:"record"` // the record's number in the log
}

// actsOf reads the director's acts from a tournament's log, naming each
// player as he was named when the act was done, in the language of p.
func (j *Journal) actsOf(t *tournament.Tournament, p *lang.Printer) []actView {
	var names []string
	name := func(n int) string {
		if n < 1 || n > len(names) {
			return p.Sprintf("player %d", n)
		}
		return names[n-1]
	}
	acts := []actView{}
	for _, r := range t.Log {
		a := actView{Time: r.Time.UTC(), Kind: r.Kind, Round: r.Round, Reason: r.Text, Record: r.Seq}
		switch r.Kind {
		case tournament.KindCreated:
			if r.Settings != nil {
				for _, e := range r.Settings.Players {
					names = append(names, j.handName(tournament.Hand{Name: e.Name, Address: e.Address}))
				}
			}
			continue
		case tournament.KindPaused:
			a.What = p.Sprintf("The director paused the tournament: no round is paired and no game made until it resumes.")
		case tournament.KindResumed:
			a.What = p.Sprintf("The director resumed the tournament.")
		case tournament.KindReplaced:
			n := j.handName(tournament.Hand{Name: r.Name, Address: r.Address})
			a.What = replacedText(p, name(r.Player), n, &r)
			if r.Player >= 1 && r.Player <= len(names) {
				names[r.Player-1] = n
			}
		case tournament.KindWithdrawn:
			a.What = p.Sprintf("%s withdrew from the tournament.", name(r.Player))
		case tournament.KindAdjudicated:
			a.What = p.Sprintf("The director decided game %s of round %d, which had stalled.", r.Game, r.Round)
		default:
			continue
		}
		if r.Game != "" {
			a.Game, a.GameURL = r.Game, gameURL(r.Game)
		}
		acts = append(acts, a)
	}
	return acts
}

// replacedText tells a replacement: whose place, from which round, and
// the game in play taken over, if one was.
func replacedText(p *lang.Printer, old, n string, r *tournament.Record) string {
	s := p.Sprintf("The director gave %s's place to %s", old, n)
	if r.Round > 0 {
		s += p.Sprintf(", from round %d", r.Round)
	}
	if r.Game != "" && r.Impulse != "" {
		s += p.Sprintf(", taking over game %s at impulse %s", r.Game, r.Impulse)
	}
	return s + p.Sprintf(".")
}

// handLinks are who played place i in round n, with their pages.
func (j *Journal) handLinks(t *tournament.Tournament, i, n int) []nameLink {
	if i < 0 || i >= len(t.Entrants) {
		return nil
	}
	var out []nameLink
	for _, h := range t.PlayedBy(i, n) {
		name := j.handName(h)
		out = append(out, nameLink{Name: name, URL: playerURL(name), From: h.From})
	}
	return out
}
