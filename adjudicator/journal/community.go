package journal

import (
	"net/http"
	"net/url"
	"sync"

	"titm/adjudicator"
	"titm/adjudicator/tournament"
	"titm/rules"
)

// The community: the tournaments as the pages of the games and of the
// players join them up. A tournament's game names its players as the
// tournament does (Entrant.Name, each who played the place in the round:
// Tournament.PlayedBy), and links back to it; any other game names them
// as the journal always has (Journal.name). A player's page gathers the
// games and tournaments played under one name (players.go).

// community is the tournaments as read at a version of the source, with
// each tournament game's place in them.
type community struct {
	version string
	digest  string // of the tournaments' ids and heads, for the ETags
	tours   []*tournament.Tournament
	games   map[string]*tourGame // by game id

	rated struct {
		once sync.Once
		r    *ratings
		err  error
	} // the ratings, worked out at the first player's page
}

// tourGame is a game of a tournament: the tournament, its round, and who
// played each side, as the tournament's record keeps it.
type tourGame struct {
	tour  *tournament.Tournament
	round int
	hands map[rules.Side][]tournament.Hand
	tag   string // a digest of the names, which a replacement changes and the game's log does not
}

// communityCache is the community last read.
type communityCache struct {
	mu   sync.Mutex
	last *community

	// played tells, by game id and head, whether a finished game was
	// played out on the board, for the ratings: reading it takes the
	// game's whole log, once.
	playedMu sync.Mutex
	played   map[string]bool
}

// community returns the tournaments as the source now holds them: read
// again only when its version changed. A source without tournaments, or
// whose tournaments cannot be read (which is logged), has none, and its
// games name their players as any other game does.
func (j *Journal) community() *community {
	version, err := j.src.Version()
	if err != nil {
		j.log.Error("journal: reading the version", "err", err)
		return &community{games: map[string]*tourGame{}}
	}
	j.comm.mu.Lock()
	c := j.comm.last
	j.comm.mu.Unlock()
	if c != nil && c.version == version {
		return c
	}
	c = &community{version: version, games: map[string]*tourGame{}}
	if ts, ok := j.tournaments(); ok {
		all, err := ts.Tournaments()
		if err != nil {
			j.log.Error("journal: reading the tournaments", "err", err)
			return c
		}
		c.tours = all
		var heads []string
		for _, t := range all {
			c.add(t)
			heads = append(heads, t.ID, t.Head)
		}
		c.digest = digestOf(heads)
	}
	j.comm.mu.Lock()
	j.comm.last = c
	j.comm.mu.Unlock()
	return c
}

// add indexes a tournament's games. Tournament.Public fills in each
// pairing's Players: who played its places in the round.
func (c *community) add(t *tournament.Tournament) {
	for _, r := range t.Rounds {
		for _, p := range r.Pairings {
			if p.Game == "" || p.Bye() || !p.Sided() {
				continue
			}
			tg := &tourGame{tour: t, round: r.N, hands: map[rules.Side][]tournament.Hand{}}
			for k, place := range [2]int{p.A, p.B} {
				hands := p.Players[k]
				if len(hands) == 0 && place >= 0 && place < len(t.Entrants) {
					hands = t.PlayedBy(place, r.N)
				}
				tg.hands[p.SideOf(place)] = hands
			}
			var names []string
			for _, side := range []rules.Side{rules.German, rules.Allied} {
				for _, h := range tg.hands[side] {
					names = append(names, string(side), h.Name, h.Address, h.From)
				}
			}
			tg.tag = digestOf(append(names, t.ID))[:16]
			c.games[p.Game] = tg
		}
	}
}

// nameLink is a name with the URL of its player's page, and, for one who
// took over a game in play, the impulse he took it over at.
type nameLink struct {
	Name string `json:"name"`
	URL  string `json:"url"`
	From string `json:"from,omitempty"`
}

func playerURL(name string) string    { return "/players/" + url.PathEscape(name) }
func playerAPIURL(name string) string { return "/api/players/" + url.PathEscape(name) }

// sideNames names who played a side of a game: as its tournament does for
// a tournament's game, each who held the side in turn; else by the
// journal's name of the side's player.
func (j *Journal) sideNames(c *community, g *adjudicator.Game, side rules.Side, p *adjudicator.Player) []nameLink {
	// An operator who shows addresses has every game's sides named by
	// them, as before tournaments named their games' players.
	if tg := c.games[g.ID]; tg != nil && len(tg.hands[side]) > 0 && !j.opt.ShowAddresses {
		var out []nameLink
		for _, h := range tg.hands[side] {
			n := j.handName(h)
			out = append(out, nameLink{Name: n, URL: playerURL(n), From: h.From})
		}
		return out
	}
	n := j.name(p.Address)
	return []nameLink{{Name: n, URL: playerURL(n)}}
}

// joinNames writes who played a side as the tournament's page does:
// "Bert", or "Bert, then Hanna from G17-1".
func joinNames(ns []nameLink) string {
	s := ""
	for k, n := range ns {
		if k > 0 {
			s += ", then " + n.Name + " from " + n.From
			continue
		}
		s = n.Name
	}
	return s
}

// communityRoutes adds the community's pages to a mux: the players' pages
// and the director's view, in HTML and JSON (docs/journal.md).
func (j *Journal) communityRoutes(handle func(pattern string, h func(http.ResponseWriter, *http.Request))) {
	handle("GET /players", j.servePlayers)
	handle("GET /api/players", j.servePlayers)
	handle("GET /players/{name}", j.servePlayer)
	handle("GET /api/players/{name}", j.servePlayer)
	handle("GET /director", j.serveDirector)
	handle("GET /api/director", j.serveDirector)
}

// tourLink is a game's tournament as its pages link to it.
type tourLink struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Round int    `json:"round"`
	URL   string `json:"url"`
}

// linkOf returns the tournament of a game, or nil.
func (c *community) linkOf(game string) *tourLink {
	tg := c.games[game]
	if tg == nil {
		return nil
	}
	return &tourLink{ID: tg.tour.ID, Name: tg.tour.Name, Round: tg.round, URL: tourURL(tg.tour.ID)}
}

// tourName is the name of the tournament id, or the id itself when no
// tournament has it (a view asked for one the store does not hold).
func (c *community) tourName(id string) string {
	for _, t := range c.tours {
		if t.ID == id {
			return t.Name
		}
	}
	return id
}

// tag is what a game's pages show of its tournament, for the key of its
// view and its ETags: a replacement who takes over a game in play changes
// its players' names, not its log. "" for a game of no tournament.
func (c *community) tag(game string) string {
	if tg := c.games[game]; tg != nil {
		return tg.tag
	}
	return ""
}
