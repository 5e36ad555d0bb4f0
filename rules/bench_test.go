package rules_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"titm/rules"
)

// everyMove writes orders that move every unit of the side to move that may
// move: each stack one step along a road to an area without enemy units,
// keeping within the stacking limit. Lines the engine refuses are dropped
// until the rest is accepted, so the orders are legal.
func everyMove(t testing.TB, s *rules.Scenario, st *rules.State) *rules.Orders {
	side := st.Next.Side
	held := map[rules.Place][2]int{} // units, SP of the side
	enemy := map[rules.Place]bool{}
	for _, u := range st.Units {
		if !u.OnMap() {
			continue
		}
		if s.OOB.Unit(u.ID).Side == side {
			h := held[u.Place]
			held[u.Place] = [2]int{h[0] + 1, h[1] + u.Strength}
		} else {
			enemy[u.Place] = true
		}
	}
	var lines []string
	for _, u := range st.Units {
		info := s.OOB.Unit(u.ID)
		if !u.OnMap() || info.Side != side || u.Moved || enemy[u.Place] {
			continue
		}
		if st.Next.Day == rules.FirstDay && st.Next.N == 1 && (info.Triangle == (side == rules.German)) {
			continue // 5.23, 5.24
		}
		// The nearest area within three roads, free of the enemy, with
		// room for the unit.
		prev := map[rules.Place]rules.Place{u.Place: u.Place}
		frontier := []rules.Place{u.Place}
		var dest rules.Place
		for depth := 0; depth < 3 && dest.IsZero(); depth++ {
			var next []rules.Place
			for _, p := range frontier {
				for _, l := range s.Map.Links(p) {
					to := l.To
					if _, seen := prev[to]; seen || to.IsZone() || enemy[to] || !s.Uses(to) {
						continue
					}
					if l.Road != nil && l.Road.Bridge && st.Bridge(l.Road.A, l.Road.B).Blown {
						continue
					}
					prev[to] = p
					next = append(next, to)
					if h := held[to]; dest.IsZero() && h[0]+1 <= rules.StackUnits && h[1]+u.Strength <= rules.StackSP {
						dest = to
					}
				}
			}
			frontier = next
		}
		if dest.IsZero() {
			continue
		}
		path := []string{dest.String()}
		for p := prev[dest]; p != u.Place; p = prev[p] {
			path = append([]string{p.String()}, path...)
		}
		lines = append(lines, fmt.Sprintf("MOVE %s %s %s", u.ID, u.Place, strings.Join(path, " ")))
		h := held[dest]
		held[dest] = [2]int{h[0] + 1, h[1] + u.Strength}
		h = held[u.Place]
		held[u.Place] = [2]int{h[0] - 1, h[1] - u.Strength}
	}
	for {
		if len(lines) == 0 {
			return nil // nothing can move: a pass
		}
		o, err := rules.ParseOrders(strings.Join(lines, "\n"), s, &rules.ParseOptions{Side: side})
		if err == nil {
			if _, _, err = rules.Play(s, st, o, &scripted{}); err == nil {
				return o
			}
		}
		var es rules.OrderErrors
		if !errors.As(err, &es) {
			t.Fatalf("%s: %v", st.Next, err)
		}
		drop := map[int]bool{}
		for _, e := range es {
			drop[e.Line-1] = true
		}
		var kept []string
		for i, l := range lines {
			if !drop[i] {
				kept = append(kept, l)
			}
		}
		lines = kept
	}
}

// BenchmarkCampaignG16_1 adjudicates the campaign's first German impulse
// with every German unit that may move moving. Target: under 5 ms.
func BenchmarkCampaignG16_1(b *testing.B) {
	s := scenario(b, "campaign")
	st := rules.NewState(s)
	o := everyMove(b, s, st)
	b.ReportMetric(float64(len(o.List)), "moves")
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := rules.Play(s, st, o, &scripted{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkThreeDays plays a whole First Three Days game, 18 impulses, each
// side moving every unit it may each impulse. Target: under 100 ms.
func BenchmarkThreeDays(b *testing.B) {
	s := scenario(b, "three-days")
	start := rules.NewState(s)
	var orders []*rules.Orders
	st := start
	for !st.Over {
		o := everyMove(b, s, st)
		orders = append(orders, o)
		next, _, err := rules.Play(s, st, o, &scripted{})
		if err != nil {
			b.Fatal(err)
		}
		st = next
	}
	if len(orders) != 18 {
		b.Fatalf("%d impulses, want 18", len(orders))
	}
	b.ReportAllocs()
	for b.Loop() {
		st := start
		for _, o := range orders {
			next, _, err := rules.Play(s, st, o, &scripted{})
			if err != nil {
				b.Fatal(err)
			}
			st = next
		}
	}
}

// The benchmarks' orders are legal, and many German units move on 16-1.
func TestEveryMoveIsLegal(t *testing.T) {
	s := scenario(t, "campaign")
	st := rules.NewState(s)
	o := everyMove(t, s, st)
	// Of the 52 German units on the map without a red triangle, those in
	// the crowded zones and behind the blown bridges have nowhere to go.
	if len(o.List) < 15 {
		t.Errorf("only %d units move on G16-1", len(o.List))
	}
	t.Logf("%d German units move on G16-1", len(o.List))
}
