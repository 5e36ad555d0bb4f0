package rules

import (
	"math/rand/v2"
	"os"
	"testing"
)

// TestSupplyMemoMatchesSearch: a supplyMemo kept across the moves of an
// impulse, as a Play keeps it, judges every unit as a search of the position
// from scratch does (13.11-13.14), whatever moves: units stepping along the
// map's links, bridges blown and repaired, and the control of an area
// changing, after which the memo is told to read it again (12.22), as
// game.control does.
func TestSupplyMemoMatchesSearch(t *testing.T) {
	for _, name := range []string{"scenarios/intro.toml", "scenarios/campaign.toml", "../testdata/supply/scenario.toml"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s, err := LoadScenario(os.ReadFile, name)
			if err != nil {
				t.Fatal(err)
			}
			st := NewState(s)
			r := rand.New(rand.NewPCG(27, uint64(len(name))))
			var memo supplyMemo
			seen := map[bool]int{}
			for step := range 200 {
				what := supplyMemoStep(r, s, st, &memo)
				for _, u := range st.Units {
					for _, oneBlown := range []bool{false, true} {
						want := st.supplyJudge(s, u, oneBlown, nil)
						if got := st.supplyJudge(s, u, oneBlown, &memo); got != want {
							t.Fatalf("step %d (%s): %s at %v (one blown bridge %v): the memo judges supplied %v, a search %v",
								step, what, u.ID, u.Place, oneBlown, got, want)
						}
						seen[want]++
					}
				}
			}
			if seen[true] == 0 || seen[false] == 0 {
				t.Errorf("the walk judged %d units supplied and %d not: it should see both", seen[true], seen[false])
			}
		})
	}
}

// supplyMemoStep changes the position at random, as the moves of an impulse
// and its end may, and says what it did.
func supplyMemoStep(r *rand.Rand, s *Scenario, st *State, memo *supplyMemo) string {
	switch k := r.IntN(10); {
	case k == 0 && len(st.Bridges) > 0:
		b := &st.Bridges[r.IntN(len(st.Bridges))]
		b.Blown = !b.Blown
		return "a bridge blown or repaired"
	case k == 1 && len(s.Map.Areas) > 0:
		a := s.Map.Areas[r.IntN(len(s.Map.Areas))].ID
		switch r.IntN(3) {
		case 0:
			delete(st.Control, a)
		case 1:
			st.Control[a] = German
		default:
			st.Control[a] = Allied
		}
		memo.forgetControl()
		return "the control of an area changed"
	}
	u := st.Units[r.IntN(len(st.Units))]
	if !u.OnMap() {
		return "nothing"
	}
	links := s.Map.Links(u.Place)
	if len(links) == 0 {
		return "nothing"
	}
	if to := links[r.IntN(len(links))].To; s.Uses(to) {
		u.Place = to
		return "a unit moved"
	}
	return "nothing"
}
