package tournament

import "time"

// RatingStep is a player's rating after a rating period in which he
// played: the period's end, his games in it and his rating after it.
type RatingStep struct {
	End    time.Time `json:"end"`
	Games  int       `json:"games"` // his games of the period
	Rating Rating    `json:"rating"`
}

// RatingHistory rates the games as Ratings does and returns, for each
// player, his rating after each period he played in, oldest first: the
// last is his rating in Ratings, but for the deviation, which grows in
// the periods after it where he did not play.
func RatingHistory(games []Game) map[string][]RatingStep {
	out := map[string][]RatingStep{}
	ratePeriods(games, func(end time.Time, rs map[string]Rating, played map[string][]Outcome) {
		for p, os := range played {
			out[p] = append(out[p], RatingStep{End: end, Games: len(os), Rating: rs[p]})
		}
	})
	return out
}
