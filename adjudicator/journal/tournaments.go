package journal

import (
	"cmp"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"titm/adjudicator"
	"titm/adjudicator/lang"
	"titm/adjudicator/tournament"
	"titm/rules"
)

// A TournamentSource is a Source that holds tournaments too: the journal
// shows them, beside the games, when its source is one.
type TournamentSource interface {
	Source
	// Tournaments returns every tournament as Tournament.Public makes it,
	// in the order to list them.
	Tournaments() ([]*tournament.Tournament, error)
	// Tournament returns one as Tournament.Public makes it; an unknown id
	// is an error that wraps ErrNotFound.
	Tournament(id string) (*tournament.Tournament, error)
}

// tourRow is a tournament as the list shows it.
type tourRow struct {
	ID      string `json:"id"`
	URL     string `json:"url"`
	API     string `json:"api"`
	Name    string `json:"name"`
	Format  string `json:"format"`
	Rounds  int    `json:"rounds"`
	Round   int    `json:"round"` // the round in play or the last played; 0 before the first
	Players int    `json:"players"`
	Status  string `json:"status"`
	// StatusText is the status in the reader's language.
	StatusText string `json:"status_text"`
	Paused     bool   `json:"paused,omitempty"`
}

// tourView is a tournament as its page and its JSON show it: the
// settings a player reads in his welcome, the rounds with their pairings,
// and the standings. It names the players as the file does, never by
// their addresses, and shows a sealed bid only as in.
type tourView struct {
	Title     string   `json:"-"`
	ID        string   `json:"id"`
	Name      string   `json:"name"`
	Format    string   `json:"format"`
	Rounds    int      `json:"rounds"`
	Scenarios []string `json:"scenarios"`
	Sides     string   `json:"sides"`
	TieBreaks []string `json:"tiebreaks"`
	Deadline  string   `json:"deadline"`
	Time      string   `json:"-"` // Deadline in the reader's words
	Forfeit   int      `json:"forfeit_after,omitempty"`
	// RateUnplayed: the games not played out on the board are rated.
	RateUnplayed bool                  `json:"rate_unplayed,omitempty"`
	Status       string                `json:"status"`
	StatusText   string                `json:"status_text"` // the status in the language of lang
	Lang         string                `json:"lang"`        // the language of the texts: the format, the results, the bids, the replacements
	Feed         string                `json:"-"`           // the tournament's Atom feed
	Here         string                `json:"-"`           // the page's own URL
	Paused       bool                  `json:"paused,omitempty"`
	Created      time.Time             `json:"created"`
	Players      []string              `json:"players"`
	Played       []roundView           `json:"round_list"`
	Standings    []tournament.Standing `json:"standings"` // named as the page names them
	// Replacements are the director's replacements of players: who took
	// whose place, from which round or impulse, and why. Each round
	// names who played it.
	Replacements []replacementView `json:"replacements,omitempty"`
	Buchholz     bool              `json:"-"` // the tie-breaks use it: its column is shown
	HeadToHead   bool              `json:"-"`
	Commitment   string            `json:"commitment"`
	Seed         string            `json:"seed,omitempty"` // revealed once the tournament is over
	Head         string            `json:"head"`
	Records      int               `json:"records"`
	// Export is the URL of the tournament's public export, once it is
	// over; Committed is false for a tournament whose log holds its
	// players' addresses, made before logs committed to them, which has
	// no public export.
	Export    string `json:"export,omitempty"`
	Committed bool   `json:"-"`

	// Acts are the director's acts, in the order of the log (acts.go).
	Acts []actView `json:"acts"`
	// PlayerURLs are the players' pages, by the names the page shows.
	PlayerURLs map[string]string `json:"-"`
	// Director is the director's view of the tournament's games in play.
	Director string `json:"director"`
	// Games is what the page shows of its games' own records, for its
	// ETag: a game's players join, and it starts, pauses or ends, without
	// a record of the tournament.
	Games string `json:"-"`
	// Changed is the last change the journal shows of those games, for
	// the page's Last-Modified.
	Changed time.Time `json:"-"`
}

type replacementView struct {
	Old     string `json:"old"`
	New     string `json:"new"`
	Round   int    `json:"round"` // the first round the new player plays
	Game    string `json:"game,omitempty"`
	Impulse string `json:"impulse,omitempty"` // the impulse of Game in play when he took it over
	Reason  string `json:"reason"`
	Text    string `json:"text"`
}

type roundView struct {
	N        int           `json:"n"`
	Scenario string        `json:"scenario"`
	BidsDue  *time.Time    `json:"bids_due,omitempty"`
	Pairings []pairingView `json:"pairings"`
}

type pairingView struct {
	A       string     `json:"a"`
	B       string     `json:"b,omitempty"` // empty for a bye
	German  string     `json:"german,omitempty"`
	Allied  string     `json:"allied,omitempty"`
	Bids    string     `json:"bids,omitempty"`
	Game    string     `json:"game,omitempty"`
	GameURL string     `json:"game_url,omitempty"`
	Result  string     `json:"result,omitempty"`
	Points  [2]float64 `json:"points"` // A's and B's
	Done    bool       `json:"done"`
	// GameStatus is where the game stands while the pairing is not done:
	// forming, playing, paused or finished.
	GameStatus string    `json:"game_status,omitempty"`
	changed    time.Time // the game's last change shown, while not done

	// AHands and BHands are who played A's and B's places, with their
	// pages; AGerman says A played the German side.
	AHands  []nameLink `json:"-"`
	BHands  []nameLink `json:"-"`
	AGerman bool       `json:"-"`
}

func tourURL(id string) string    { return "/tournaments/" + url.PathEscape(id) }
func tourAPIURL(id string) string { return "/api/tournaments/" + url.PathEscape(id) }
func tourExportURL(id string) string {
	return "/tournaments/" + url.PathEscape(id) + "/export.json"
}

// tournaments returns the source as a TournamentSource, if it is one.
func (j *Journal) tournaments() (TournamentSource, bool) {
	ts, ok := j.src.(TournamentSource)
	return ts, ok
}

// playerName names an entrant as the page shows him: by the name the file
// or the director gave, which is never an address unless the operator
// allows addresses to be shown.
func (j *Journal) playerName(e *tournament.Entrant) string {
	n := cmp.Or(e.Name, e.Address)
	if strings.Contains(n, "@") {
		return j.name(n)
	}
	return n
}

func (j *Journal) tourRowOf(t *tournament.Tournament, p *lang.Printer) tourRow {
	r := tourRow{ID: t.ID, URL: tourURL(t.ID), API: tourAPIURL(t.ID), Name: t.Name, Format: formatName(p, t.Format),
		Rounds: t.Settings.Rounds, Players: len(t.Entrants), Status: t.Status, StatusText: tourStatus(p, t.Status), Paused: t.Paused}
	if n := len(t.Rounds); n > 0 {
		r.Round = t.Rounds[n-1].N
	}
	return r
}

// formatName is a tournament's format as a player reads it.
func formatName(p *lang.Printer, f string) string {
	switch f {
	case tournament.RoundRobin:
		return p.Sprintf("round robin")
	case tournament.Swiss:
		return p.Sprintf("Swiss")
	case tournament.Elimination:
		return p.Sprintf("single elimination")
	}
	return f
}

// tourStatus is where a tournament stands, as a player reads it.
func tourStatus(p *lang.Printer, s string) string {
	switch s {
	case tournament.Running:
		return p.Sprintf("in play")
	case tournament.Over:
		return p.Sprintf("finished")
	}
	return s
}

// word is a setting's word (a tie-break, how sides are given) in the
// reader's language, as the welcome names it (catalog tournament.toml).
func word(p *lang.Printer, key string) string { return p.Sprintf(key) }

// handName names one who played a place as the page shows him.
func (j *Journal) handName(h tournament.Hand) string {
	return j.playerName(&tournament.Entrant{Name: h.Name, Address: h.Address})
}

// tourViewOf is a tournament as its page shows it, in the language of p;
// it reads the games of the pairings not done, to tell where they stand.
func (j *Journal) tourViewOf(t *tournament.Tournament, p *lang.Printer) (*tourView, error) {
	name := func(i int) string {
		if i < 0 || i >= len(t.Entrants) {
			return ""
		}
		return j.playerName(t.Entrants[i])
	}
	v := &tourView{Title: p.Sprintf("Tournament %s", t.Name), Lang: p.Code(), ID: t.ID, Name: t.Name, Format: formatName(p, t.Format), Rounds: t.Settings.Rounds,
		Scenarios: t.Scenarios, Sides: word(p, t.Sides), Deadline: adjudicator.FormatDuration(t.Deadline), Time: span(p, t.Deadline),
		Forfeit: t.ForfeitAfter, RateUnplayed: t.RateUnplayed, Status: t.Status, StatusText: tourStatus(p, t.Status), Paused: t.Paused, Created: t.Created.UTC(),
		Commitment: t.Commitment, Head: t.Head, Records: len(t.Log), Feed: tourURL(t.ID) + "/feed.atom", Here: tourURL(t.ID)}
	for _, tb := range t.TieBreaks {
		v.TieBreaks = append(v.TieBreaks, word(p, tb))
	}
	v.Committed = t.Committed()
	v.Acts, v.PlayerURLs, v.Director = j.actsOf(t, p), map[string]string{}, directorURL("", t.ID)
	if t.Status == tournament.Over {
		v.Seed = t.Seed
		if v.Committed {
			v.Export = tourExportURL(t.ID)
		}
	}
	for i := range t.Entrants {
		v.Players = append(v.Players, name(i))
		v.PlayerURLs[name(i)] = playerURL(name(i))
	}
	v.Buchholz, v.HeadToHead = t.Uses(tournament.TieBuchholz), t.Uses(tournament.TieHeadToHead)
	for _, r := range t.Replacements {
		x := r
		x.Old = j.handName(tournament.Hand{Name: r.Old, Address: r.OldAddress})
		x.New = j.handName(tournament.Hand{Name: r.New, Address: r.Address})
		v.Replacements = append(v.Replacements, replacementView{Old: x.Old, New: x.New, Round: r.Round, Game: r.Game,
			Impulse: r.Impulse, Reason: r.Reason, Text: p.Text(tournament.ReplacementText(x))})
	}
	var games []string
	for _, r := range t.Rounds {
		rv, err := j.roundViewOf(t, r, p)
		if err != nil {
			return nil, fmt.Errorf("tournament %s, round %d: %w", t.ID, r.N, err)
		}
		v.Played = append(v.Played, rv)
		for _, pv := range rv.Pairings {
			games = append(games, pv.Game, pv.GameStatus, pv.Result)
			if pv.changed.After(v.Changed) {
				v.Changed = pv.changed
			}
		}
	}
	v.Games = digestOf(games)
	for _, st := range t.Standings() {
		st.Name = name(st.Player)
		v.PlayerURLs[st.Name] = playerURL(j.playerName(t.Entrants[st.Player]))
		for k, b := range st.Before {
			st.Before[k] = j.handName(tournament.Hand{Name: b})
		}
		v.Standings = append(v.Standings, st)
	}
	return v, nil
}

// roundViewOf is a round as the page shows it, in the language of p.
func (j *Journal) roundViewOf(t *tournament.Tournament, r *tournament.Round, p *lang.Printer) (roundView, error) {
	// Each round names who played it: a player replaced keeps his
	// rounds, and a game taken over names both.
	name := func(i int) string {
		if i < 0 || i >= len(t.Entrants) {
			return ""
		}
		var b strings.Builder
		for k, h := range t.PlayedBy(i, r.N) {
			if k > 0 {
				b.WriteString(p.Sprintf(", then %s from %s", j.handName(h), h.From))
				continue
			}
			b.WriteString(j.handName(h))
		}
		return b.String()
	}
	rv := roundView{N: r.N, Scenario: r.Scenario}
	if !r.BidsDue.IsZero() {
		due := r.BidsDue.UTC()
		rv.BidsDue = &due
	}
	for _, pr := range r.Pairings {
		pv := pairingView{A: name(pr.A), Points: pr.Points, Done: pr.Done, AHands: j.handLinks(t, pr.A, r.N), AGerman: pr.German == pr.A}
		if !pr.Bye() {
			pv.B, pv.BHands = name(pr.B), j.handLinks(t, pr.B, r.N)
		}
		if pr.Sided() && !pr.Bye() {
			pv.German, pv.Allied = name(pr.German), name(pr.Opponent(pr.German))
		}
		pv.Bids = bidsText(p, pr, name)
		var g *adjudicator.Game
		if pr.Game != "" {
			pv.Game, pv.GameURL = pr.Game, gameURL(pr.Game)
			if !pr.Done && !pr.Bye() {
				var err error
				if g, pv.changed, err = j.pairingGame(pr.Game); err != nil {
					return rv, fmt.Errorf("the game of %s: %w", pv.A, err)
				}
				pv.GameStatus = gameStatus(g)
			}
		}
		pv.Result = pairingResult(p, pr, &pv, g)
		rv.Pairings = append(rv.Pairings, pv)
	}
	return rv, nil
}

// pairingGame reads the game of a pairing not done, and the time of its
// last change that the journal shows; again, should the game change
// between the two reads.
func (j *Journal) pairingGame(id string) (*adjudicator.Game, time.Time, error) {
	for range 3 {
		g, err := j.src.Summary(id)
		if err != nil {
			return nil, time.Time{}, err
		}
		c, err := j.lastChange(g)
		if errors.Is(err, errStale) {
			continue
		}
		if err != nil {
			return nil, time.Time{}, fmt.Errorf("game %s: %w", id, err)
		}
		return g, c.Time, nil
	}
	return nil, time.Time{}, fmt.Errorf("game %s: %w", id, errStale)
}

// gameStatus is where a game stands, as the list of games says it:
// forming, playing, paused or finished.
func gameStatus(g *adjudicator.Game) string {
	if g.Status == adjudicator.Playing && g.Paused {
		return "paused"
	}
	return string(g.Status)
}

// pairingResult tells where a pairing stands: its result once done, else
// where its game stands, g, as the game's page says it.
func pairingResult(p *lang.Printer, pr *tournament.Pairing, pv *pairingView, g *adjudicator.Game) string {
	switch {
	case pr.Bye():
		return p.Sprintf("a bye")
	case pr.Done:
		return p.Sprintf("%s: %s %s, %s %s", howWord(p, pr.How), pv.A, fmt.Sprintf("%g", pr.Points[0]), pv.B, fmt.Sprintf("%g", pr.Points[1]))
	case g == nil:
		return p.Sprintf("waiting for the sides")
	}
	switch pv.GameStatus {
	case "forming":
		var sides []string
		for _, side := range []rules.Side{rules.German, rules.Allied} {
			if pl := g.Players[side]; pl == nil || !pl.HasJoined() {
				sides = append(sides, p.Side(side))
			}
		}
		switch len(sides) {
		case 2:
			return p.Sprintf("waiting for both players to join")
		case 1:
			return p.Sprintf("waiting for the %s player to join", sides[0])
		}
	case "paused":
		return statusWord(p, "paused")
	case "finished":
		// The game is over and its result not yet the pairing's.
		return p.Sprintf("finished: %s", rules.ResultMessage(g.Result))
	}
	return p.Sprintf("in play")
}

// howWord names how a pairing ended: victory, draw, concession, forfeit,
// or the director's adjudication.
func howWord(p *lang.Printer, how string) string {
	switch how {
	case "victory":
		return p.Sprintf("victory")
	case "draw":
		return p.Sprintf("draw")
	case "concession":
		return p.Sprintf("concession")
	case "forfeit":
		return p.Sprintf("forfeit")
	case "bye":
		return p.Sprintf("a bye")
	case "adjudicated":
		return p.Sprintf("adjudicated by the director")
	case "withdrawal":
		return p.Sprintf("withdrawal")
	}
	return how
}

// bidsText tells a pairing's sealed bids: only that each came in while
// they are sealed (Tournament.Public keeps them so), both once the sides
// are decided.
func bidsText(p *lang.Printer, pr *tournament.Pairing, name func(int) string) string {
	var parts []string
	for k, i := range [2]int{pr.A, pr.B} {
		switch b := pr.Bids[k]; {
		case b != nil:
			parts = append(parts, p.Sprintf("%s bid %d VP for the %s side", name(i), b.VP, b.Side))
		case pr.Sealed[k]:
			parts = append(parts, p.Sprintf("%s's bid is in, sealed", name(i)))
		}
	}
	switch {
	case pr.Give > 0:
		parts = append(parts, p.Sprintf("the German side gives %d VP", pr.Give))
	case pr.Give < 0:
		parts = append(parts, p.Sprintf("the Allied side gives %d VP", -pr.Give))
	}
	return strings.Join(parts, p.Sprintf("; "))
}

// tourList is the list of tournaments' page.
type tourList struct {
	Title       string
	Here        string // the page's own URL
	Feed        string // the journal's Atom feed
	Tournaments []tourRow
}

func (j *Journal) serveTournaments(w http.ResponseWriter, r *http.Request, asJSON bool) {
	ts, ok := j.tournaments()
	if !ok {
		j.notFound(w, r)
		return
	}
	all, err := ts.Tournaments()
	if err != nil {
		j.serverError(w, r, err)
		return
	}
	l := j.locOf(r)
	d := tourList{Title: l.p.Sprintf("Tournaments"), Here: "/tournaments", Feed: "/feed.atom"}
	var mod time.Time
	var heads []string
	for _, t := range all {
		d.Tournaments = append(d.Tournaments, j.tourRowOf(t, l.p))
		heads = append(heads, t.ID, t.Head)
		if n := len(t.Log); n > 0 && t.Log[n-1].Time.After(mod) {
			mod = t.Log[n-1].Time
		}
	}
	digest := digestOf(heads)
	var p *page
	if asJSON {
		p, err = jsonPage(struct {
			Lang        string    `json:"lang"`
			Tournaments []tourRow `json:"tournaments"`
		}{l.code(), d.Tournaments}, mod, "tournaments-json-"+l.code(), digest)
	} else {
		p, err = render(l, "tournaments.html", d, mod, "tournaments-"+l.key(), digest)
	}
	if err != nil {
		j.serverError(w, r, err)
		return
	}
	j.send(w, r, p, "")
}

func (j *Journal) serveTournament(w http.ResponseWriter, r *http.Request, id string, asJSON bool) {
	ts, ok := j.tournaments()
	if !ok {
		j.notFound(w, r)
		return
	}
	t, err := ts.Tournament(id)
	if errors.Is(err, ErrNotFound) {
		j.notFound(w, r)
		return
	}
	if err != nil {
		j.serverError(w, r, err)
		return
	}
	l := j.locOf(r)
	v, err := j.tourViewOf(t, l.p)
	if err != nil {
		j.serverError(w, r, err)
		return
	}
	// The page changed last with the tournament's log or with one of its
	// games in play.
	mod := v.Changed
	if n := len(t.Log); n > 0 && t.Log[n-1].Time.After(mod) {
		mod = t.Log[n-1].Time
	}
	var p *page
	if asJSON {
		p, err = jsonPage(v, mod, "tournament-json-"+l.code(), t.Head, v.Games)
	} else {
		p, err = render(l, "tournament.html", v, mod, "tournament-"+l.key(), t.Head, v.Games)
	}
	if err != nil {
		j.serverError(w, r, err)
		return
	}
	j.send(w, r, p, "")
}

// serveTournamentExport serves the public export of a tournament that is
// over: its log, which commits to the addresses without holding them, and
// its games' public exports, all finished. titm verify checks it
// completely, the addresses aside. A tournament in play has none (its
// games' logs hold standing orders, its seed is secret), nor one whose log
// holds its players' addresses.
func (j *Journal) serveTournamentExport(w http.ResponseWriter, r *http.Request, id string) {
	ts, ok := j.tournaments()
	if !ok {
		j.notFound(w, r)
		return
	}
	t, err := ts.Tournament(id)
	if errors.Is(err, ErrNotFound) {
		j.notFound(w, r)
		return
	}
	if err != nil {
		j.serverError(w, r, err)
		return
	}
	switch {
	case t.Status != tournament.Over:
		j.fail(w, r, http.StatusNotFound, rules.M("Not published yet"), rules.M("The export of tournament %s is published when the tournament is over: before, its games' logs would tell the players' standing orders, and its seed is not revealed.", id))
		return
	case !t.Committed():
		j.fail(w, r, http.StatusNotFound, rules.M("No public export"), rules.M("Tournament %s was made before its log committed to its players' addresses: its records hold them, so its export is not published here. The director can give it (titm tournament export).", id))
		return
	}
	var games []*adjudicator.Export
	heads := []string{t.Head}
	for _, round := range t.Rounds {
		for _, p := range round.Pairings {
			if p.Game == "" {
				continue
			}
			g, log, err := j.src.Game(p.Game)
			if err != nil {
				j.serverError(w, r, fmt.Errorf("tournament %s: %w", id, err))
				return
			}
			if g.Status != adjudicator.Finished {
				j.fail(w, r, http.StatusNotFound, rules.M("Not published yet"), rules.M("The export of tournament %s is published when all its games are over, and game %s is not.", id, g.ID))
				return
			}
			games = append(games, adjudicator.MakeExport(g, log))
			heads = append(heads, g.Head)
		}
	}
	x, err := tournament.MakeExport(t, games).Public()
	if err != nil {
		j.serverError(w, r, err)
		return
	}
	var mod time.Time
	if n := len(t.Log); n > 0 {
		mod = t.Log[n-1].Time
	}
	p, err := jsonPage(x, mod, "tournament-export", digestOf(heads))
	if err != nil {
		j.serverError(w, r, err)
		return
	}
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", id+".json"))
	j.send(w, r, p, "")
}
