// Package playtest makes orders for tests and benchmarks that play whole
// games: legal, many, and the same every time.
package playtest

import (
	"errors"
	"fmt"
	"strings"

	"titm/rules"
)

// sixes rolls 6 every time: the orders are checked before any die is rolled,
// so the dice do not decide whether they are legal.
type sixes struct{}

func (sixes) Roll(string) (int, error) { return 6, nil }

// EveryMove writes orders that move every unit of the side to move that may
// move: each to the nearest area within three roads without enemy units,
// keeping within the stacking limit. Lines the engine refuses are dropped
// until the rest is accepted, so the orders are legal.
func EveryMove(s *rules.Scenario, st *rules.State) (string, error) {
	return orders(s, st, false)
}

// EveryAttack writes orders as EveryMove does, except that a unit next to
// an area held by the enemy moves into it, so that battles are fought.
func EveryAttack(s *rules.Scenario, st *rules.State) (string, error) {
	return orders(s, st, true)
}

// PlayEveryAttack plays the next impulse of st with EveryAttack's orders
// (a pass when nothing can move) and the dice d, and returns the position
// after it and its events.
func PlayEveryAttack(s *rules.Scenario, st *rules.State, d rules.Dice) (*rules.State, []rules.Event, error) {
	text, err := EveryAttack(s, st)
	if err != nil {
		return nil, nil, err
	}
	var o *rules.Orders
	if text != "" {
		if o, err = rules.ParseOrders(text, s, &rules.ParseOptions{Side: st.Next.Side}); err != nil {
			return nil, nil, fmt.Errorf("%s: the orders written for it: %w", st.Next, err)
		}
	}
	next, events, err := rules.Play(s, st, o, d)
	if err != nil {
		return nil, nil, fmt.Errorf("playing %s: %w", st.Next, err)
	}
	return next, events, nil
}

func orders(s *rules.Scenario, st *rules.State, attack bool) (string, error) {
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
		dest, path := route(s, st, u, held, enemy, attack)
		if path == nil {
			continue
		}
		lines = append(lines, fmt.Sprintf("MOVE %s %s %s", u.ID, u.Place, strings.Join(path, " ")))
		h := held[dest]
		held[dest] = [2]int{h[0] + 1, h[1] + u.Strength}
		h = held[u.Place]
		held[u.Place] = [2]int{h[0] - 1, h[1] - u.Strength}
	}
	return legal(s, st, lines)
}

// route returns the path of u to the nearest area within three roads, free
// of the enemy, with room for the unit; with attack, an enemy's area next
// to it will do. It returns the area and the path, nil if there is none.
func route(s *rules.Scenario, st *rules.State, u *rules.UnitState, held map[rules.Place][2]int, enemy map[rules.Place]bool, attack bool) (rules.Place, []string) {
	prev := map[rules.Place]rules.Place{u.Place: u.Place}
	frontier := []rules.Place{u.Place}
	var dest rules.Place
	for depth := 0; depth < 3 && dest.IsZero(); depth++ {
		var next []rules.Place
		for _, p := range frontier {
			for _, l := range s.Map.Links(p) {
				to := l.To
				if _, seen := prev[to]; seen || to.IsZone() || !s.Uses(to) {
					continue
				}
				if l.Road != nil && l.Road.Bridge && st.Bridge(l.Road.A, l.Road.B).Blown {
					continue
				}
				if enemy[to] {
					if attack && depth == 0 && held[to][0] < rules.StackUnits {
						prev[to] = p
						dest = to
					}
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
		return dest, nil
	}
	path := []string{dest.String()}
	for p := prev[dest]; p != u.Place; p = prev[p] {
		path = append([]string{p.String()}, path...)
	}
	return dest, path
}

// legal drops the lines of orders the rules refuse until the rest are
// played through, and returns them.
func legal(s *rules.Scenario, st *rules.State, lines []string) (string, error) {
	for {
		if len(lines) == 0 {
			return "", nil // nothing can move: a pass
		}
		text := strings.Join(lines, "\n")
		o, err := rules.ParseOrders(text, s, &rules.ParseOptions{Side: st.Next.Side})
		if err == nil {
			if _, _, err = rules.Play(s, st, o, sixes{}); err == nil {
				return text, nil
			}
		}
		var es rules.OrderErrors
		if !errors.As(err, &es) {
			return "", fmt.Errorf("%s: %w", st.Next, err)
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
