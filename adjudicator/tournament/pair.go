package tournament

import (
	"fmt"
	"time"

	"titm/adjudicator"
	"titm/rules"
)

// ErrNoPairing is returned when no pairing of a Swiss round avoids every
// rematch. rules.MessageOf gives it as a message, for the director's
// language.
var ErrNoPairing error = noPairing{}

type noPairing struct{}

func (noPairing) Error() string { return noPairingText().String() }

func (noPairing) Unwrap() error { return noPairingText().Err() }

func noPairingText() rules.Message { return rules.M("no pairing avoids a rematch") }

// RoundRobinPairs returns the pairs of round r (1-based) of a round robin
// of n players, by the circle method: player 0 stays, the others turn one
// place a round. With n odd, the player paired with -1 has a bye.
func RoundRobinPairs(n, r int) [][2]int {
	m := n
	if m%2 == 1 {
		m++
	}
	ring := make([]int, m)
	for i := range ring {
		ring[i] = i
		if i >= n {
			ring[i] = -1
		}
	}
	// Turn the ring r-1 places, player 0 fixed.
	rest := ring[1:]
	for k := 0; k < r-1; k++ {
		last := rest[len(rest)-1]
		copy(rest[1:], rest[:len(rest)-1])
		rest[0] = last
	}
	var out [][2]int
	for i := 0; i < m/2; i++ {
		a, b := ring[i], ring[m-1-i]
		if a < 0 {
			a, b = b, a
		}
		out = append(out, [2]int{a, b})
	}
	return out
}

// EliminationFirst returns the first round of a single elimination of n
// players seeded in the file's order: the bracket of the next power of two,
// seed 1 against the last, 2 against the one before, so that the top seeds
// have the byes and meet last.
func EliminationFirst(n int) [][2]int {
	size := 1
	for size < n {
		size *= 2
	}
	order := []int{0}
	for len(order) < size {
		// Each seed s meets 2*len-1-s in the next larger bracket.
		var next []int
		m := 2 * len(order)
		for _, s := range order {
			next = append(next, s, m-1-s)
		}
		order = next
	}
	var out [][2]int
	for i := 0; i < size; i += 2 {
		a, b := order[i], order[i+1]
		if b >= n {
			b = -1
		}
		out = append(out, [2]int{a, b})
	}
	return out
}

// SwissPlayer is a player as Swiss pairing sees him.
type SwissPlayer struct {
	ID     int
	Score  float64
	Played map[int]bool // the opponents met
	HadBye bool
}

// SwissPairs pairs a Swiss round (docs/tournaments.md, "Swiss pairing").
// ps is ranked: by score, best first, then by the tie-breaks or the seed.
// With an odd number the lowest-ranked player without a bye has it (B of
// his pair is -1); the others are paired in score groups, the top half of
// a group against its bottom half in order, with no rematch: when a player
// has no opponent left in his group he floats down to the next, and when
// the rest cannot be paired the choice before is undone (backtracking).
func SwissPairs(ps []SwissPlayer) ([][2]int, error) {
	if len(ps)%2 == 0 {
		pairs, ok := pairRest(ps, nil, new(int))
		if !ok {
			return nil, ErrNoPairing
		}
		return pairs, nil
	}
	for b := len(ps) - 1; b >= 0; b-- {
		if ps[b].HadBye {
			continue
		}
		rest := append(append([]SwissPlayer(nil), ps[:b]...), ps[b+1:]...)
		if pairs, ok := pairRest(rest, nil, new(int)); ok {
			return append(pairs, [2]int{ps[b].ID, -1}), nil
		}
	}
	return nil, ErrNoPairing
}

// maxSteps bounds the backtracking, which is exponential at worst: a round
// that cannot be paired in so many tries is reported as unpairable.
const maxSteps = 2_000_000

// pairRest pairs ps (ranked) onto pairs.
func pairRest(ps []SwissPlayer, pairs [][2]int, steps *int) ([][2]int, bool) {
	if len(ps) == 0 {
		return pairs, true
	}
	if *steps++; *steps > maxSteps {
		return nil, false
	}
	p := ps[0]
	g := 1
	for g < len(ps) && ps[g].Score == p.Score {
		g++
	}
	// The group's top half against its bottom half: p, at the top, first
	// tries the player half the group below him, then those below that,
	// then those above it, then the next groups in order (floating down).
	h := g / 2
	var order []int
	for j := max(h, 1); j < g; j++ {
		order = append(order, j)
	}
	for j := h - 1; j >= 1; j-- {
		order = append(order, j)
	}
	for j := g; j < len(ps); j++ {
		order = append(order, j)
	}
	rest := make([]SwissPlayer, 0, len(ps)-2)
	for _, j := range order {
		q := ps[j]
		if p.Played[q.ID] {
			continue
		}
		rest = rest[:0]
		rest = append(rest, ps[1:j]...)
		rest = append(rest, ps[j+1:]...)
		a, b := p.ID, q.ID
		if out, ok := pairRest(append([]SwissPlayer(nil), rest...), append(pairs, [2]int{a, b}), steps); ok {
			return out, true
		}
	}
	return nil, false
}

// Pair pairs the next round: its pairings, and their sides where the side
// rule decides them at once (alternate, random); with sealed bids the sides
// wait for the bids (Bid, CloseBids). It returns the records.
func (t *Tournament) Pair(now time.Time) ([]Record, error) {
	if t.Status == Over {
		return nil, rules.M("tournament %s is over", t.ID).Err()
	}
	if c := t.Current(); c != nil && !c.Done() {
		return nil, rules.M("round %d of tournament %s is not over", c.N, t.ID).Err()
	}
	n := len(t.Rounds) + 1
	if n > t.Settings.Rounds {
		return nil, rules.M("tournament %s has played its %d rounds", t.ID, t.Settings.Rounds).Err()
	}
	pairs, err := t.pairs(n)
	if err != nil {
		return nil, err
	}
	r := &Round{N: n, Scenario: t.Settings.Scenario(n)}
	for _, pr := range pairs {
		// A withdrawn player's opponent has a bye.
		a, b := pr[0], pr[1]
		if b >= 0 && t.Entrants[b].Withdrawn {
			b = -1
		}
		if t.Entrants[a].Withdrawn {
			a, b = b, -1
		}
		if a < 0 {
			continue
		}
		r.Pairings = append(r.Pairings, &Pairing{A: a, B: b, German: -1})
	}
	t.Rounds = append(t.Rounds, r)
	logged := make([][2]int, len(r.Pairings))
	for i, p := range r.Pairings {
		logged[i] = [2]int{p.A, p.B}
	}
	out := []Record{t.record(Record{Kind: KindPaired, Time: now, Round: n, Text: r.Scenario, Pairs: logged})}
	for k := range r.Pairings {
		rec, err := t.startPairing(r, k, now)
		if err != nil {
			return nil, err
		}
		if rec != nil {
			out = append(out, *rec)
		}
	}
	return out, nil
}

// pairs returns round n's pairs of players by the format; a player against
// -1 has a bye.
func (t *Tournament) pairs(n int) ([][2]int, error) {
	switch t.Format {
	case RoundRobin:
		return RoundRobinPairs(len(t.Entrants), n), nil
	case Elimination:
		if n == 1 {
			return EliminationFirst(len(t.Entrants)), nil
		}
		// The winners of the round before, in bracket order.
		var in []int
		for _, p := range t.Current().Pairings {
			in = append(in, p.Winner())
		}
		var pairs [][2]int
		for i := 0; i+1 < len(in); i += 2 {
			pairs = append(pairs, [2]int{in[i], in[i+1]})
		}
		return pairs, nil
	case Swiss:
		pairs, err := SwissPairs(t.swissPlayers())
		if err != nil {
			return nil, &causeError{rules.M("round %d of tournament %s: %s", n, t.ID, rules.MessageOf(err)), err}
		}
		return pairs, nil
	}
	return nil, nil
}

// startPairing ends pairing k of round r at once if it is a bye, or gives
// its sides where the side rule decides them at once; with sealed bids it
// sets when the bids are due. It returns the record made, if any.
func (t *Tournament) startPairing(r *Round, k int, now time.Time) (*Record, error) {
	p := r.Pairings[k]
	if p.Bye() {
		p.Points, p.How, p.Done = [2]float64{1, 0}, "bye", true
		rec := t.record(Record{Kind: KindResult, Time: now, Round: r.N, Pairing: k + 1, Text: "bye", Points: p.Points})
		return &rec, nil
	}
	switch t.Sides {
	case SidesAlternate:
		g := p.A
		if t.germans(p.B) < t.germans(p.A) || (t.germans(p.B) == t.germans(p.A) && t.lastSide(p.A) == rules.German) {
			g = p.B
		}
		p.German = g
		rec := t.record(Record{Kind: KindSides, Time: now, Round: r.N, Pairing: k + 1, German: g + 1, Text: "alternate"})
		return &rec, nil
	case SidesRandom:
		rec, err := t.drawSides(r, k, "random sides", now)
		if err != nil {
			return nil, err
		}
		return &rec, nil
	case SidesBids:
		r.BidsDue = now.Add(t.BidDeadline).UTC().Truncate(time.Millisecond)
	}
	return nil, nil
}

// drawSides decides pairing k's sides by a die: 1-5 A is German, 6-10 B.
func (t *Tournament) drawSides(r *Round, k int, why string, now time.Time) (Record, error) {
	p := r.Pairings[k]
	roll, err := t.roll(fmt.Sprintf("round %d pairing %d: %s (1-5 %s German, 6-10 %s German)", r.N, k+1, why, t.Entrants[p.A].Name, t.Entrants[p.B].Name))
	if err != nil {
		return Record{}, err
	}
	p.German = p.A
	if roll.Value > 5 {
		p.German = p.B
	}
	return t.record(Record{Kind: KindSides, Time: now, Round: r.N, Pairing: k + 1, German: p.German + 1, Text: why, Bids: p.Bids, Give: p.Give, Dice: []adjudicator.Roll{roll}}), nil
}

// swissPlayers ranks the players for Swiss pairing: by the standings.
func (t *Tournament) swissPlayers() []SwissPlayer {
	st := t.Standings()
	out := make([]SwissPlayer, 0, len(st))
	for _, s := range st {
		if t.Entrants[s.Player].Withdrawn {
			continue
		}
		sp := SwissPlayer{ID: s.Player, Score: s.Points, Played: map[int]bool{}}
		for _, r := range t.Rounds {
			for _, p := range r.Pairings {
				switch {
				case p.Of(s.Player) < 0:
				case p.Bye():
					sp.HadBye = true
				default:
					sp.Played[p.Opponent(s.Player)] = true
				}
			}
		}
		out = append(out, sp)
	}
	return out
}

// germans returns the German games of player i less his Allied games.
func (t *Tournament) germans(i int) int {
	n := 0
	for _, r := range t.Rounds {
		for _, p := range r.Pairings {
			if p.Of(i) < 0 || !p.Sided() {
				continue
			}
			if p.German == i {
				n++
			} else {
				n--
			}
		}
	}
	return n
}

// lastSide returns the side player i played last, or "".
func (t *Tournament) lastSide(i int) rules.Side {
	for k := len(t.Rounds) - 1; k >= 0; k-- {
		for _, p := range t.Rounds[k].Pairings {
			if p.Of(i) >= 0 && p.Sided() {
				return p.SideOf(i)
			}
		}
	}
	return ""
}

// Done reports whether every game of the round is over.
func (r *Round) Done() bool {
	for _, p := range r.Pairings {
		if !p.Done {
			return false
		}
	}
	return true
}

// Winner returns the player who goes on from a finished pairing: the one
// with more points (a bye's player; a drawn knockout game's is decided by
// Result with the dice).
func (p *Pairing) Winner() int {
	switch {
	case p.Points[1] > p.Points[0]:
		return p.B
	case p.Points[0] > p.Points[1]:
		return p.A
	}
	return p.Advance
}
