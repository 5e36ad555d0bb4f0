package tournament

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"titm/adjudicator"
	"titm/adjudicator/lang"
	"titm/rules"
)

// Standing is one player's line of the standings.
type Standing struct {
	Rank   int     `json:"rank"` // equal for players equal on points and every tie-break
	Player int     `json:"player"`
	Name   string  `json:"name"`
	Points float64 `json:"points"`
	Played int     `json:"played"` // games finished, byes not counted
	Won    int     `json:"won"`
	Drawn  int     `json:"drawn"`
	Lost   int     `json:"lost"`
	Byes   int     `json:"byes"`
	// Margin is the VP margin of his games, adjusted by the bids: as
	// German the German VP less what he gave, as Allied its opposite.
	Margin int `json:"margin"`
	// Buchholz is the sum of his opponents' points.
	Buchholz float64 `json:"buchholz"`
	// HeadToHead is the points he scored against the players tied with
	// him when that tie-break was applied; nil when it was not (he was
	// tied with nobody there).
	HeadToHead *float64 `json:"head_to_head,omitempty"`
	Out        bool     `json:"out,omitempty"` // knocked out
	Withdrawn  bool     `json:"withdrawn,omitempty"`
	// Through is, in a single elimination, the rounds he went through:
	// the standings are by it first, so the champion is first.
	Through int `json:"through,omitempty"`
	// Before are the players who held his place before him, replaced by
	// the director, oldest first: the place's points are theirs too.
	Before []string `json:"before,omitempty"`
}

// Standings returns the standings after the rounds over, as their
// heading says ("after 2 of 3 rounds"): the games of the round in play,
// and its bye, count when it is over. They are by points (in a single
// elimination, by the rounds gone through first), then the tie-breaks in
// the order of the settings, then the order of the file.
func (t *Tournament) Standings() []Standing {
	n := len(t.Entrants)
	st := make([]Standing, n)
	for i, e := range t.Entrants {
		st[i] = Standing{Player: i, Name: e.Name, Out: e.Out, Withdrawn: e.Withdrawn}
	}
	for _, r := range t.History() {
		st[r.Player].Before = append(st[r.Player].Before, r.Old)
	}
	rounds := t.Rounds
	if c := t.Current(); c != nil && !c.Done() {
		rounds = rounds[:len(rounds)-1]
	}
	count(st, rounds, t.Format == Elimination)
	order, keys := t.rank(st, rounds)
	out := make([]Standing, n)
	for k, i := range order {
		out[k] = st[i]
		out[k].Rank = k + 1
		if k > 0 && equal(keys[i], keys[order[k-1]]) {
			out[k].Rank = out[k-1].Rank
		}
	}
	return out
}

// count adds up the games of rounds, finished, into each player's
// standing: points, results, margin, byes, the rounds gone through in a
// single elimination (elim), and then the Buchholz of the points.
func count(st []Standing, rounds []*Round, elim bool) {
	for _, r := range rounds {
		for _, p := range r.Pairings {
			if !p.Done {
				continue
			}
			if elim {
				st[p.Winner()].Through++
			}
			if p.Bye() {
				st[p.A].Points += p.Points[0]
				st[p.A].Byes++
				continue
			}
			for j, i := range [2]int{p.A, p.B} {
				st[i].add(p.Points[j], p.Points[1-j], p.Margin[j])
			}
		}
	}
	for _, r := range rounds {
		for _, p := range r.Pairings {
			if p.Done && !p.Bye() {
				st[p.A].Buchholz += st[p.B].Points
				st[p.B].Buchholz += st[p.A].Points
			}
		}
	}
}

// add counts a game in which he scored points against the opponent's
// other, with his VP margin.
func (s *Standing) add(points, other float64, margin int) {
	s.Played++
	s.Points += points
	s.Margin += margin
	switch {
	case points > other:
		s.Won++
	case points == other && points > 0:
		s.Drawn++
	default:
		s.Lost++
	}
}

// rank orders the players by the rounds gone through, the points and then
// each tie-break, and returns the order with each player's values as
// sorted by, to find who are equal.
func (t *Tournament) rank(st []Standing, rounds []*Round) (order []int, keys [][]float64) {
	n := len(st)
	order = make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		x, y := &st[order[a]], &st[order[b]]
		if x.Through != y.Through {
			return x.Through > y.Through
		}
		return x.Points > y.Points
	})
	keys = make([][]float64, n)
	for i := range keys {
		keys[i] = []float64{float64(st[i].Through), st[i].Points}
	}
	for _, tb := range t.TieBreaks {
		// Within each group equal on everything so far, work out the
		// tie-break and sort by it.
		for lo := 0; lo < n; {
			hi := lo + 1
			for hi < n && equal(keys[order[lo]], keys[order[hi]]) {
				hi++
			}
			breakTie(tb, rounds, st, keys, order[lo:hi])
			lo = hi
		}
	}
	return order, keys
}

// breakTie sorts a group of players equal so far by the tie-break tb.
func breakTie(tb string, rounds []*Round, st []Standing, keys [][]float64, group []int) {
	if tb == TieHeadToHead && len(group) > 1 {
		headToHead(rounds, st, group)
	}
	for _, i := range group {
		keys[i] = append(keys[i], tieValue(&st[i], tb))
	}
	sort.SliceStable(group, func(a, b int) bool {
		return tieValue(&st[group[a]], tb) > tieValue(&st[group[b]], tb)
	})
}

func equal(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func tieValue(s *Standing, tb string) float64 {
	switch tb {
	case TieMargin:
		return float64(s.Margin)
	case TieBuchholz:
		return s.Buchholz
	case TieHeadToHead:
		if s.HeadToHead != nil {
			return *s.HeadToHead
		}
	}
	return 0
}

// headToHead sets the points each player of group scored against the
// others of the group, in the rounds counted.
func headToHead(rounds []*Round, st []Standing, group []int) {
	in := map[int]bool{}
	for _, i := range group {
		in[i] = true
		st[i].HeadToHead = new(float64)
	}
	for _, r := range rounds {
		for _, p := range r.Pairings {
			if p.Done && !p.Bye() && in[p.A] && in[p.B] {
				*st[p.A].HeadToHead += p.Points[0]
				*st[p.B].HeadToHead += p.Points[1]
			}
		}
	}
}

// Uses reports whether the tournament breaks ties by tb: a column of it
// is shown only then.
func (t *Tournament) Uses(tb string) bool {
	for _, x := range t.TieBreaks {
		if x == tb {
			return true
		}
	}
	return false
}

// WriteStandings writes the standings in English, as titm tournament
// shows them.
func (t *Tournament) WriteStandings(b *strings.Builder) { t.WriteStandingsIn(lang.EN(), b) }

// standingsColumns are the columns of the standings' table: the width of
// each in English, and whether it is aligned on the left. A language whose
// heading is wider widens its column.
var standingsColumns = [...]struct {
	width int
	left  bool
}{{4, true}, {20, true}, {6, false}, {4, false}, {4, false}, {4, false}, {4, false}, {4, false}, {7, false}, {8, false}}

// WriteStandingsIn writes the standings as a table in p's language, as the
// mails give them: laid out by display width (lang.Width), so that the
// columns stay aligned with Japanese headings and names. A name is cut to
// 20 columns. The Buchholz column is there when the tie-breaks use it;
// each replacement of a player is a footnote under the table.
func (t *Tournament) WriteStandingsIn(p *lang.Printer, b *strings.Builder) {
	st := t.Standings()
	left, out := p.Sprintf("left"), p.Sprintf("out")
	head := [len(standingsColumns)]string{p.Sprintf("rank"), p.Sprintf("player"), p.Sprintf("points"), p.Sprintf("won"),
		p.Sprintf("drawn"), p.Sprintf("lost"), p.Sprintf("byes"), "", p.Sprintf("margin"), p.Sprintf("buchholz")}
	var width [len(standingsColumns)]int
	for c, col := range standingsColumns {
		width[c] = col.width
		// A translated heading or status widens its column. The English
		// table stays as it has always been, its "drawn" one column over
		// its numbers.
		if p.Code() != lang.English {
			width[c] = max(col.width, lang.Width(head[c]))
		}
	}
	if p.Code() != lang.English {
		width[7] = max(width[7], lang.Width(left), lang.Width(out))
	}
	buchholz := t.Uses(TieBuchholz)
	row := func(cells [len(standingsColumns)]string) {
		for c, s := range cells {
			if c == len(cells)-1 && !buchholz {
				continue
			}
			if c > 0 {
				b.WriteByte(' ')
			}
			if standingsColumns[c].left {
				b.WriteString(lang.Pad(s, width[c]))
			} else {
				b.WriteString(lang.PadLeft(s, width[c]))
			}
		}
		b.WriteByte('\n')
	}
	row(head)
	for _, s := range st {
		status := ""
		switch {
		case s.Withdrawn:
			status = left
		case s.Out:
			status = out
		}
		row([len(standingsColumns)]string{strconv.Itoa(s.Rank), trunc(s.Name, 20), fmt.Sprintf("%.1f", s.Points),
			strconv.Itoa(s.Won), strconv.Itoa(s.Drawn), strconv.Itoa(s.Lost), strconv.Itoa(s.Byes), status,
			fmt.Sprintf("%+d", s.Margin), fmt.Sprintf("%.1f", s.Buchholz)})
	}
	history := t.History()
	if len(history) > 0 {
		b.WriteByte('\n')
	}
	for _, r := range history {
		// A footnote with its reason may be long: wrapped as the mails
		// are, by display width.
		lang.WrapTo(b, p.Text(ReplacementText(r)), "", "  ", 78)
	}
}

// ReplacementText tells a replacement, for the standings' footnotes and
// the pages: who took whose place, from which round or impulse, and why.
func ReplacementText(r Replacement) rules.Message {
	if r.Impulse != "" {
		return rules.M("%s took the place of %s in game %s from impulse %s (round %d): %s.", r.New, r.Old, r.Game, r.Impulse, r.Round, rules.Plain(r.Reason))
	}
	return rules.M("%s took the place of %s from round %d: %s.", r.New, r.Old, r.Round, rules.Plain(r.Reason))
}

// trunc cuts s to n columns, never within a character.
func trunc(s string, n int) string {
	if lang.Width(s) <= n {
		return s
	}
	w := 0
	for i, r := range s {
		if w += lang.RuneWidth(r); w > n {
			return s[:i]
		}
	}
	return s
}

// GameEnd is how a pairing's game ended.
type GameEnd struct {
	Winner   rules.Side // "" for a draw, or when both lose
	BothLose bool       // a result that gives no side the game
	VP       int        // the German VP at the end, already adjusted by the bids
	How      string     // "victory", "draw", "concession", "forfeit", "adjudicated"
	Result   string     // the game's result, as its log gives it
}

// End is how a finished game ends for its tournament: its result as EndOf
// reads it; how it ended, when the act that ended it names it (how:
// "adjudicated", "forfeit"; "" to read it from the result); and the German
// VP at the end (vp) less the VP the German side gave by the bids (give).
// In a scenario won by VP (v.Kind "vp"; v may be nil) a game that ended by
// its VP levels takes the result of the level the adjusted VP reach; a
// concession, an agreed draw, a forfeit or the director's decision stands
// as it is. The referee enters a game's end with it, and Verify derives
// each result from the game's export with it, so the two cannot differ.
func End(result string, vp, give int, v *rules.Victory, how string) GameEnd {
	e := EndOf(result)
	e.VP = vp - give
	if how != "" {
		e.How = how
	}
	if how != "" || give == 0 || v == nil || v.Kind != rules.VictoryVP || !isLevel(v, result) {
		return e
	}
	// The bids' VP change the result: the level of the adjusted total.
	for _, l := range v.Levels {
		if l.Includes(e.VP) {
			adj := EndOf(l.Result)
			e.Winner, e.BothLose, e.How = adj.Winner, adj.BothLose, adj.How
			e.Result = fmt.Sprintf("%s with the bids (%d German VP after %+d); the game's result %s", l.Result, e.VP, -give, result)
			break
		}
	}
	return e
}

// isLevel reports whether a game's result is one of the VP levels of its
// scenario: the game ended by its victory conditions, not by a concession,
// an agreement or a forfeit, whose results name none.
func isLevel(v *rules.Victory, result string) bool {
	for _, l := range v.Levels {
		if l.Result == result {
			return true
		}
	}
	return false
}

// Result enters a game's end into its pairing. When it ends the round, the
// losers of a single elimination are out and, after the last round, the
// tournament is over and its seed revealed. It returns the records.
func (t *Tournament) Result(game string, e GameEnd, now time.Time) ([]Record, error) {
	r, p, k := t.Find(game)
	switch {
	case p == nil:
		return nil, rules.M("game %s is in no pairing of tournament %s", game, t.ID).Err()
	case p.Done:
		return nil, rules.M("the result of game %s is in already", game).Err()
	}
	g := p.Of(p.German)
	switch {
	case e.BothLose:
	case e.Winner == rules.German:
		p.Points[g] = 1
	case e.Winner == rules.Allied:
		p.Points[1-g] = 1
	default:
		p.Points = [2]float64{0.5, 0.5}
	}
	p.Margin[g], p.Margin[1-g] = e.VP, -e.VP
	if w := p.Of(p.German); t.Version >= 1 && !e.BothLose && e.Winner != "" && e.How != "victory" {
		// A game not won by its victory conditions (a concession, a
		// forfeit, the director's decision) counts no VP margin for its
		// loser: the VP on the board when it stopped, with the bids', may
		// favour him, and a forfeit must not pay.
		if e.Winner == rules.Allied {
			w = 1 - w
		}
		p.Margin[w] = max(p.Margin[w], 0)
		p.Margin[1-w] = -p.Margin[w]
	}
	p.How, p.Done = e.How, true
	rec := Record{Kind: KindResult, Time: now, Round: r.N, Pairing: k + 1, Game: game, Text: e.How + ": " + e.Result, Points: p.Points, Margin: p.Margin}
	if t.Format == Elimination && p.Points[0] == p.Points[1] {
		p.Advance = p.A
		switch {
		case p.Margin[1] > p.Margin[0]:
			p.Advance = p.B
		case p.Margin[0] == p.Margin[1]:
			roll, err := t.roll(fmt.Sprintf("round %d pairing %d: a drawn knockout game with equal margins (1-5 %s goes on, 6-10 %s)", r.N, k+1, t.Entrants[p.A].Name, t.Entrants[p.B].Name))
			if err != nil {
				return nil, err
			}
			if roll.Value > 5 {
				p.Advance = p.B
			}
			rec.Dice = []adjudicator.Roll{roll}
		}
		rec.Advance = p.Advance + 1
	}
	return append([]Record{t.record(rec)}, t.roundOver(r, now)...), nil
}

// roundOver ends round r when its last pairing is over: the losers of a
// single elimination are out and, after the last round, the tournament is
// over and its seed revealed. It returns the records.
func (t *Tournament) roundOver(r *Round, now time.Time) []Record {
	if !r.Done() {
		return nil
	}
	var out []Record
	if t.Format == Elimination {
		for _, q := range r.Pairings {
			if !q.Bye() {
				t.Entrants[q.Opponent(q.Winner())].Out = true
			}
		}
	}
	if len(t.Rounds) == t.Settings.Rounds {
		t.Status = Over
		t.Seed = fmt.Sprintf("%x", t.secret)
		out = append(out, t.record(Record{Kind: KindFinished, Time: now, Seed: t.Seed}))
	}
	return out
}

// EndOf reads a game's result as its log gives it: the winning side from
// "German ... victory", "Allied ... victory", a concession or a forfeit
// ("...: Allied victory"); "Draw" or an agreed draw is a draw; a result naming no
// winner and not a draw ("Both sides lose") gives the game to nobody.
func EndOf(result string) GameEnd {
	e := GameEnd{Result: result, How: "victory"}
	r := strings.ToLower(result)
	if i := strings.LastIndex(r, ": "); i >= 0 {
		switch {
		case strings.Contains(r[:i], "conceded"):
			e.How = "concession"
		case strings.Contains(r[:i], "forfeits"):
			e.How = "forfeit"
		}
		r = r[i+2:]
	}
	switch {
	case strings.HasPrefix(r, "german") && strings.Contains(r, "victory"):
		e.Winner = rules.German
	case strings.HasPrefix(r, "allied") && strings.Contains(r, "victory"):
		e.Winner = rules.Allied
	case strings.Contains(r, "draw"):
		e.How = "draw"
	default:
		e.BothLose = true
	}
	return e
}
