package tournament

import (
	"math"
	"sort"
	"time"
)

// Glicko-2 (Glickman, "Example of the Glicko-2 system"): a rating, its
// deviation (RD) and volatility per player, updated once a rating period
// with the games of the period. The constants are the paper's: a new
// player starts at 1500, RD 350, volatility 0.06; tau, which limits how
// fast the volatility moves, is 0.5.
const (
	glickoScale = 173.7178
	startRating = 1500
	startRD     = 350
	startVol    = 0.06
	tau         = 0.5
	epsilon     = 0.000001
)

// Rating is a player's Glicko-2 rating.
type Rating struct {
	Player string  `json:"player"`
	Rating float64 `json:"rating"`
	RD     float64 `json:"rd"`
	Vol    float64 `json:"volatility"`
	Games  int     `json:"games"`
}

// Outcome is one game against an opponent, for a rating period: the
// opponent's rating and RD at the period's start, and the score, 1 for a
// win, 0.5 for a draw, 0 for a loss.
type Outcome struct {
	Rating, RD, Score float64
}

func g(phi float64) float64 { return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi)) }

// Update returns a player's rating after a rating period with the games
// gs: Glickman's steps 2 to 8. With no game, only the RD grows.
func Update(r Rating, gs []Outcome) Rating {
	mu := (r.Rating - startRating) / glickoScale
	phi := r.RD / glickoScale
	if len(gs) == 0 {
		r.RD = math.Sqrt(phi*phi+r.Vol*r.Vol) * glickoScale
		return r
	}
	var vInv, delta float64
	for _, o := range gs {
		muJ := (o.Rating - startRating) / glickoScale
		gj := g(o.RD / glickoScale)
		e := 1 / (1 + math.Exp(-gj*(mu-muJ)))
		vInv += gj * gj * e * (1 - e)
		delta += gj * (o.Score - e)
	}
	v := 1 / vInv
	delta *= v
	// Step 5: the new volatility, by the Illinois algorithm.
	a := math.Log(r.Vol * r.Vol)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/(tau*tau)
	}
	A := a
	var B float64
	if delta*delta > phi*phi+v {
		B = math.Log(delta*delta - phi*phi - v)
	} else {
		k := 1.0
		for f(a-k*tau) < 0 {
			k++
		}
		B = a - k*tau
	}
	fA, fB := f(A), f(B)
	for math.Abs(B-A) > epsilon {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	vol := math.Exp(A / 2)
	phiStar := math.Sqrt(phi*phi + vol*vol)
	phiNew := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	muNew := mu + phiNew*phiNew*delta/v
	r.Rating, r.RD, r.Vol = muNew*glickoScale+startRating, phiNew*glickoScale, vol
	r.Games += len(gs)
	return r
}

// Game is a finished game for the ratings: its players, by address, the
// German player's score (1, 0.5, 0) and when it ended.
type Game struct {
	German, Allied string
	Score          float64
	End            time.Time
}

// Period is the length of a rating period.
const Period = 7 * 24 * time.Hour

// Ratings rates every player of the games: rating periods of a week from
// the first game's end, each player updated once a period with his games
// of the period against his opponents' ratings at its start. The list is
// by rating, best first.
func Ratings(games []Game) []Rating {
	if len(games) == 0 {
		return nil
	}
	rs := ratePeriods(games, nil)
	out := make([]Rating, 0, len(rs))
	for _, r := range rs {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Rating != out[j].Rating {
			return out[i].Rating > out[j].Rating
		}
		return out[i].Player < out[j].Player
	})
	return out
}

// ratePeriods rates the games period by period, as Ratings describes, and
// returns every player's rating after the last. each, when not nil, is
// told of each period: its end, the ratings after it, and who played in
// it.
func ratePeriods(games []Game, each func(end time.Time, rs map[string]Rating, played map[string][]Outcome)) map[string]Rating {
	rs := map[string]Rating{}
	if len(games) == 0 {
		return rs
	}
	gs := append([]Game(nil), games...)
	sort.SliceStable(gs, func(i, j int) bool { return gs[i].End.Before(gs[j].End) })
	get := func(p string) Rating {
		if r, ok := rs[p]; ok {
			return r
		}
		return Rating{Player: p, Rating: startRating, RD: startRD, Vol: startVol}
	}
	start := gs[0].End
	for i := 0; i < len(gs); {
		end := start.Add(Period)
		j := i
		for j < len(gs) && gs[j].End.Before(end) {
			j++
		}
		period := map[string][]Outcome{}
		for _, x := range gs[i:j] {
			gr, ar := get(x.German), get(x.Allied)
			period[x.German] = append(period[x.German], Outcome{ar.Rating, ar.RD, x.Score})
			period[x.Allied] = append(period[x.Allied], Outcome{gr.Rating, gr.RD, 1 - x.Score})
		}
		next := map[string]Rating{}
		for p := range rs {
			next[p] = Update(rs[p], period[p])
		}
		for p, os := range period {
			if _, ok := rs[p]; !ok {
				next[p] = Update(get(p), os)
			}
		}
		rs = next
		if each != nil && len(period) > 0 {
			each(end, rs, period)
		}
		i, start = j, end
	}
	return rs
}
