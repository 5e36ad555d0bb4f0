package tournament

import (
	"testing"
	"time"
)

// A player's rating history ends at his rating in Ratings, and has a step
// for each period he played in only.
func TestRatingHistory(t *testing.T) {
	t0 := time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC)
	games := []Game{
		{German: "a", Allied: "b", Score: 1, End: t0},
		{German: "b", Allied: "c", Score: 0.5, End: t0.Add(2 * 24 * time.Hour)},
		{German: "c", Allied: "a", Score: 0, End: t0.Add(9 * 24 * time.Hour)},
		{German: "a", Allied: "b", Score: 0, End: t0.Add(30 * 24 * time.Hour)},
	}
	h := RatingHistory(games)
	for p, want := range map[string]int{"a": 3, "b": 2, "c": 2} {
		if len(h[p]) != want {
			t.Errorf("%s: %d steps, want %d: %+v", p, len(h[p]), want, h[p])
		}
	}
	if g := h["b"][0].Games; g != 2 {
		t.Errorf("b's first period: %d games, want 2", g)
	}
	final := map[string]Rating{}
	for _, r := range Ratings(games) {
		final[r.Player] = r
	}
	// a and b played in the last period: their last step is their rating.
	for _, p := range []string{"a", "b"} {
		steps := h[p]
		if last := steps[len(steps)-1].Rating; last != final[p] {
			t.Errorf("%s: last step %+v, rating %+v", p, last, final[p])
		}
	}
	// c did not: his rating is the same, his deviation grew since.
	last := h["c"][len(h["c"])-1].Rating
	if last.Rating != final["c"].Rating || !(final["c"].RD > last.RD) {
		t.Errorf("c: last step %+v, rating %+v", last, final["c"])
	}
	for p, steps := range h {
		for k := 1; k < len(steps); k++ {
			if !steps[k].End.After(steps[k-1].End) {
				t.Errorf("%s: steps out of order: %+v", p, steps)
			}
		}
	}
}
