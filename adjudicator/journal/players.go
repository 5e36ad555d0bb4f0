package journal

import (
	"cmp"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"titm/adjudicator"
	"titm/adjudicator/lang"
	"titm/adjudicator/tournament"
	"titm/rules"
)

// A player's page: the games and tournaments played under one name (the
// name a tournament gives him, else the name the journal shows for his
// address, never the address unless the operator shows addresses), his
// results, and his rating history by Glicko-2, as titm tournament ratings
// rates him.

// playerView is a player as his page and its JSON show him.
type playerView struct {
	Title       string        `json:"-"`
	Name        string        `json:"name"`
	URL         string        `json:"url"`
	API         string        `json:"api"`
	Won         int           `json:"won"`
	Drawn       int           `json:"drawn"`
	Lost        int           `json:"lost"`
	InPlay      int           `json:"in_play"`
	Games       []playerGame  `json:"games"`
	Tournaments []playerTour  `json:"tournaments"`
	Ratings     []ratingTrack `json:"ratings"`
	Lang        string        `json:"lang"` // the language of the texts: the outcomes, the tournaments' notes
	Here        string        `json:"-"`    // the page's own URL
	Feed        string        `json:"-"`
}

// playerGame is one of a player's games.
type playerGame struct {
	ID       string     `json:"id"`
	URL      string     `json:"url"`
	Scenario string     `json:"scenario"`
	Side     rules.Side `json:"side"`
	Opponent []nameLink `json:"opponent"`
	Status   string     `json:"status"`
	Result   string     `json:"result,omitempty"`
	Outcome  string     `json:"outcome"` // won, drawn, lost (both sides lose), in play, forming
	// OutcomeText is the outcome in the language of the page.
	OutcomeText string    `json:"outcome_text"`
	Tournament  *tourLink `json:"tournament,omitempty"`
	Changed     time.Time `json:"changed"`
}

// playerTour is one of a player's tournaments: his place's standing, and
// how he came to it or left it.
type playerTour struct {
	ID     string `json:"id"`
	URL    string `json:"url"`
	Name   string `json:"name"`
	Status string `json:"status"`
	// StatusText is the status in the language of the page.
	StatusText string  `json:"status_text"`
	Rank       int     `json:"rank"`
	Points     float64 `json:"points"`
	Played     int     `json:"played"`
	Note       string  `json:"note,omitempty"` // a replacement: whose place he took, or who took his
}

// ratingTrack is the rating history of one player who played under the
// name: nearly always one, but two players of different addresses may
// share a name, and are rated apart.
type ratingTrack struct {
	N      int          `json:"-"` // its place among the name's, from 1
	Rating float64      `json:"rating"`
	RD     float64      `json:"rd"`
	Games  int          `json:"games"`
	Steps  []ratingStep `json:"history"`
}

// ratingStep is a rating after a period he played in. It does not name
// the player (the ratings go by address).
type ratingStep struct {
	End    time.Time `json:"end"`
	Games  int       `json:"games"`
	Rating float64   `json:"rating"`
	RD     float64   `json:"rd"`
}

// ratings are the ratings of the journal's finished games, by the names
// the players' addresses played under.
type ratings struct {
	byName  map[string][]string // the addresses credited under a name
	final   map[string]tournament.Rating
	history map[string][]tournament.RatingStep
}

// ratings returns the ratings, worked out once for the community's
// version: the games titm tournament ratings rates (referee.Ratings), each
// credited to who held the side at its end.
func (j *Journal) ratings(c *community) (*ratings, error) {
	c.rated.once.Do(func() { c.rated.r, c.rated.err = j.rate(c) })
	return c.rated.r, c.rated.err
}

func (j *Journal) rate(c *community) (*ratings, error) {
	all, err := j.src.Games()
	if err != nil {
		return nil, fmt.Errorf("reading the games: %w", err)
	}
	r := &ratings{byName: map[string][]string{}}
	var games []tournament.Game
	for _, g := range all {
		for _, side := range []rules.Side{rules.German, rules.Allied} {
			if p := g.Players[side]; p != nil {
				ns := j.sideNames(c, g, side, p)
				last := ns[len(ns)-1].Name
				if !slices.Contains(r.byName[last], p.Address) {
					r.byName[last] = append(r.byName[last], p.Address)
				}
			}
		}
		x, ok, err := j.rated(c, g)
		if err != nil {
			return nil, fmt.Errorf("game %s: %w", g.ID, err)
		}
		if ok {
			games = append(games, x)
		}
	}
	r.history = tournament.RatingHistory(games)
	r.final = map[string]tournament.Rating{}
	for _, x := range tournament.Ratings(games) {
		r.final[x.Player] = x
	}
	return r, nil
}

// rated returns a game as the ratings count it, or false for a game they
// leave out: not finished, lost by both sides, or not played out on the
// board unless its tournament rates those (referee.Ratings).
func (j *Journal) rated(c *community, g *adjudicator.Game) (tournament.Game, bool, error) {
	if g.Status != adjudicator.Finished || g.Players[rules.German] == nil || g.Players[rules.Allied] == nil {
		return tournament.Game{}, false, nil
	}
	e := tournament.EndOf(g.Result)
	if e.BothLose {
		return tournament.Game{}, false, nil
	}
	end, out, err := j.playedOut(g)
	if err != nil {
		return tournament.Game{}, false, err
	}
	if !out && (c.games[g.ID] == nil || !c.games[g.ID].tour.RateUnplayed) {
		return tournament.Game{}, false, nil
	}
	score := 0.5
	switch e.Winner {
	case rules.German:
		score = 1
	case rules.Allied:
		score = 0
	}
	return tournament.Game{German: g.Players[rules.German].Address, Allied: g.Players[rules.Allied].Address, Score: score, End: end}, true, nil
}

// playedOut returns when a finished game ended, and whether it was played
// out on the board: no adjudication ended it. It reads the game's log
// once for each head.
func (j *Journal) playedOut(g *adjudicator.Game) (time.Time, bool, error) {
	key := g.ID + "\x00" + g.Head
	last, err := j.src.LastRecord(g.ID)
	if err != nil {
		return time.Time{}, false, err
	}
	j.comm.playedMu.Lock()
	out, ok := j.comm.played[key]
	j.comm.playedMu.Unlock()
	if ok {
		return last.Time, out, nil
	}
	_, log, err := j.src.Game(g.ID)
	if err != nil {
		return time.Time{}, false, err
	}
	out = !slices.ContainsFunc(log, func(r adjudicator.Record) bool { return r.Kind == adjudicator.KindAdjudicated })
	j.comm.playedMu.Lock()
	if j.comm.played == nil {
		j.comm.played = map[string]bool{}
	}
	j.comm.played[key] = out
	j.comm.playedMu.Unlock()
	return last.Time, out, nil
}

// outcomeText is an outcome in the language of p.
func outcomeText(p *lang.Printer, o string) string {
	switch o {
	case "forming":
		return p.Sprintf("forming")
	case "in play":
		return p.Sprintf("in play")
	case "lost (both sides lose)":
		return p.Sprintf("lost (both sides lose)")
	case "won":
		return p.Sprintf("won")
	case "drawn":
		return p.Sprintf("drawn")
	case "lost":
		return p.Sprintf("lost")
	}
	return o
}

// outcome is how a finished game went for a side.
func outcome(r *row, side rules.Side) string {
	switch r.Status {
	case "forming":
		return "forming"
	case "playing", "paused":
		return "in play"
	}
	e := tournament.EndOf(r.Result)
	switch {
	case e.BothLose:
		return "lost (both sides lose)"
	case e.Winner == side:
		return "won"
	case e.Winner == "":
		return "drawn"
	}
	return "lost"
}

// playerView gathers a player's page in the language of p: nil when
// nobody played under the name.
func (j *Journal) playerView(name string, p *lang.Printer) (*playerView, time.Time, error) {
	d, err := j.readList()
	if err != nil {
		return nil, time.Time{}, err
	}
	c := j.community()
	v := &playerView{Title: p.Sprintf("Player %s", name), Name: name, URL: playerURL(name), API: playerAPIURL(name),
		Games: []playerGame{}, Tournaments: []playerTour{}, Ratings: []ratingTrack{}, Lang: p.Code(), Here: playerURL(name)}
	var mod time.Time
	for i := range d.Games {
		r := &d.Games[i]
		for _, pl := range []player{r.Players.German, r.Players.Allied} {
			if !slices.ContainsFunc(pl.Names, func(n nameLink) bool { return n.Name == name }) {
				continue
			}
			other := r.Players.Allied
			if pl.Side == rules.Allied {
				other = r.Players.German
			}
			pg := playerGame{ID: r.ID, URL: r.URL, Scenario: r.Scenario, Side: pl.Side, Opponent: other.Names, Status: r.Status,
				Result: r.Result, Outcome: outcome(r, pl.Side), Tournament: r.Tournament, Changed: r.Changed}
			pg.OutcomeText = outcomeText(p, pg.Outcome)
			v.Games = append(v.Games, pg)
			v.count(pg.Outcome)
			if r.Changed.After(mod) {
				mod = r.Changed
			}
		}
	}
	for _, t := range c.tours {
		if pt, ok := j.playerTour(t, name, p); ok {
			v.Tournaments = append(v.Tournaments, pt)
		}
	}
	if len(v.Games) == 0 && len(v.Tournaments) == 0 {
		return nil, mod, nil
	}
	rs, err := j.ratings(c)
	if err != nil {
		return nil, mod, err
	}
	for _, addr := range rs.byName[name] {
		v.Ratings = append(v.Ratings, trackOf(rs, addr))
	}
	// Several players rated under one name: the one of most games first.
	slices.SortStableFunc(v.Ratings, func(a, b ratingTrack) int { return cmp.Compare(b.Games, a.Games) })
	v.Ratings = slices.DeleteFunc(v.Ratings, func(t ratingTrack) bool { return t.Games == 0 })
	for k := range v.Ratings {
		v.Ratings[k].N = k + 1
	}
	return v, mod, nil
}

func (v *playerView) count(outcome string) {
	switch {
	case outcome == "won":
		v.Won++
	case outcome == "drawn":
		v.Drawn++
	case strings.HasPrefix(outcome, "lost"):
		v.Lost++
	case outcome == "in play":
		v.InPlay++
	}
}

// trackOf is the rating history of one address, which it does not show.
func trackOf(rs *ratings, addr string) ratingTrack {
	f := rs.final[addr]
	t := ratingTrack{Rating: f.Rating, RD: f.RD, Games: f.Games}
	for _, s := range rs.history[addr] {
		t.Steps = append(t.Steps, ratingStep{End: s.End.UTC(), Games: s.Games, Rating: s.Rating.Rating, RD: s.Rating.RD})
	}
	return t
}

// playerTour returns the player's line of a tournament he held a place
// of, by his name in it, in the language of p.
func (j *Journal) playerTour(t *tournament.Tournament, name string, p *lang.Printer) (playerTour, bool) {
	for i, e := range t.Entrants {
		held := j.playerName(e) == name
		var notes []string
		for _, r := range t.Replacements {
			if r.Player != i {
				continue
			}
			oldName, newName := j.handName(tournament.Hand{Name: r.Old, Address: r.OldAddress}), j.handName(tournament.Hand{Name: r.New, Address: r.Address})
			switch name {
			case newName:
				held = true
				notes = append(notes, p.Sprintf("took over %s's place from round %d", oldName, r.Round))
			case oldName:
				held = true
				notes = append(notes, p.Sprintf("his place was taken over by %s from round %d", newName, r.Round))
			}
		}
		if !held {
			continue
		}
		if e.Withdrawn {
			notes = append(notes, p.Sprintf("withdrew"))
		}
		pt := playerTour{ID: t.ID, URL: tourURL(t.ID), Name: t.Name, Status: t.Status, StatusText: tourStatus(p, t.Status), Note: strings.Join(notes, p.Sprintf("; "))}
		for _, st := range t.Standings() {
			if st.Player == i {
				pt.Rank, pt.Points, pt.Played = st.Rank, st.Points, st.Played
			}
		}
		return pt, true
	}
	return playerTour{}, false
}

func (j *Journal) servePlayer(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	asJSON := strings.HasPrefix(r.URL.Path, "/api/")
	l := j.locOf(r)
	v, mod, err := j.playerView(name, l.p)
	if err != nil {
		j.serverError(w, r, err)
		return
	}
	if v == nil {
		j.fail(w, r, http.StatusNotFound, rules.M("No such player"), rules.M("Nobody has played here under the name %q. The players are listed on the players' page.", name))
		return
	}
	// The ETag is of what the page shows: the games' and tournaments'
	// heads as the journal shows them (lastChange), not the store's
	// version, which moves with standing orders too.
	d, err := j.readList()
	if err != nil {
		j.serverError(w, r, err)
		return
	}
	tags := []string{d.heads, j.community().digest, name}
	var p *page
	if asJSON {
		p, err = jsonPage(v, mod, "api-player-"+l.code(), digestOf(tags))
	} else {
		p, err = render(l, "player.html", v, mod, "player-"+l.key(), digestOf(tags))
	}
	if err != nil {
		j.serverError(w, r, err)
		return
	}
	j.send(w, r, p, "")
}

// playerRow is a player as the list of players shows him.
type playerRow struct {
	Name        string `json:"name"`
	URL         string `json:"url"`
	Games       int    `json:"games"`
	Tournaments int    `json:"tournaments"`
}

// playersList is the list of players' page.
type playersList struct {
	Title   string      `json:"-"`
	Here    string      `json:"-"` // the page's own URL
	Feed    string      `json:"-"`
	Players []playerRow `json:"players"`
}

func (j *Journal) servePlayers(w http.ResponseWriter, r *http.Request) {
	d, err := j.readList()
	if err != nil {
		j.serverError(w, r, err)
		return
	}
	c := j.community()
	rows := map[string]*playerRow{}
	at := func(n string) *playerRow {
		if rows[n] == nil {
			rows[n] = &playerRow{Name: n, URL: playerURL(n)}
		}
		return rows[n]
	}
	for _, g := range d.Games {
		for _, p := range g.Players.Both() {
			for _, n := range p.Names {
				at(n.Name).Games++
			}
		}
	}
	for _, t := range c.tours {
		seen := map[string]bool{}
		for _, e := range t.Entrants {
			seen[j.playerName(e)] = true
		}
		for _, rp := range t.Replacements {
			seen[j.handName(tournament.Hand{Name: rp.Old, Address: rp.OldAddress})] = true
		}
		for n := range seen {
			at(n).Tournaments++
		}
	}
	lc := j.locOf(r)
	l := playersList{Title: lc.p.Sprintf("Players"), Here: "/players", Players: []playerRow{}}
	for _, pr := range rows {
		l.Players = append(l.Players, *pr)
	}
	slices.SortFunc(l.Players, func(a, b playerRow) int { return cmp.Compare(a.Name, b.Name) })
	var p *page
	if strings.HasPrefix(r.URL.Path, "/api/") {
		p, err = jsonPage(l, d.mod, "api-players", d.heads, c.digest)
	} else {
		p, err = render(lc, "players.html", l, d.mod, "players-"+lc.key(), d.heads, c.digest)
	}
	if err != nil {
		j.serverError(w, r, err)
		return
	}
	j.send(w, r, p, "")
}
