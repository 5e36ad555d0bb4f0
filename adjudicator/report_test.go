package adjudicator

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"titm/internal/playtest"
	"titm/rules"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// golden compares text with a golden file, or rewrites it with -update.
func golden(t *testing.T, name, text string) {
	t.Helper()
	path := filepath.Join("..", "testdata", "golden", name)
	if *update {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(want) != text {
		t.Errorf("%s differs; run go test ./adjudicator -run %s -update and read the diff\n%s", path, t.Name(), text)
	}
	for i, l := range strings.Split(text, "\n") {
		if len([]rune(l)) > ReportWidth {
			t.Errorf("%s:%d is %d columns wide: %q", name, i+1, len([]rune(l)), l)
		}
	}
}

// submit plays the impulse in play with the text after the heading lines,
// and returns the records and events.
func submit(t *testing.T, g *Game, text string, now time.Time) ([]Record, []rules.Event) {
	t.Helper()
	text = fmt.Sprintf("GAME %s\nTOKEN not-kept\nIMPULSE %d-%d\n%s", g.ID, g.Next.Day, g.Next.N, text)
	recs, events, err := g.Submit(g.Next.Side, text, now)
	if err != nil {
		t.Fatalf("%s: %v", g.Next, err)
	}
	return recs, events
}

// The report of an impulse of movement alone.
func TestReportMovement(t *testing.T) {
	g, _ := newGame(t, "intro")
	s, _ := g.Rules()
	text, err := playtest.EveryMove(s, g.State)
	if err != nil {
		t.Fatal(err)
	}
	recs, events := submit(t, g, text, t0.Add(2*time.Hour))
	r, err := Report(g, recs, events)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "report-movement.txt", r)
}

// repairs adds a REPAIR line for every engineer of the side to move that
// stands at a blown bridge (10.1), keeping those the check accepts.
func repairs(t *testing.T, g *Game, text string) string {
	original := text
	s, _ := g.Rules()
	var extra []string
	for _, b := range g.State.Bridges {
		if !b.Blown {
			continue
		}
		for _, u := range g.State.Units {
			info := s.OOB.Unit(u.ID)
			if !u.OnMap() || info.Side != g.Next.Side || info.Type != rules.Engineer || u.Place.IsZone() || (u.Place.Area != b.A && u.Place.Area != b.B) {
				continue
			}
			extra = append(extra, fmt.Sprintf("REPAIR %d-%d BY %s", b.A, b.B, u.ID))
			// An engineer that repairs does not move (10.14).
			var kept []string
			for _, l := range strings.Split(text, "\n") {
				if !strings.HasPrefix(l, "MOVE "+u.ID+" ") {
					kept = append(kept, l)
				}
			}
			text = strings.Join(kept, "\n")
		}
	}
	for len(extra) > 0 {
		all := text + "\n" + strings.Join(extra, "\n")
		o, err := rules.ParseOrders(all, s, &rules.ParseOptions{Side: g.Next.Side})
		if err == nil {
			_, _, err = rules.Play(s, g.State, o, sixes{})
		}
		var es rules.OrderErrors
		if err == nil {
			return all
		}
		if !errors.As(err, &es) {
			t.Fatal(err)
		}
		first := strings.Count(text, "\n") + 2 // the line of extra[0]
		var kept []string
		for i, l := range extra {
			bad := false
			for _, e := range es {
				bad = bad || e.Line == first+i
			}
			if !bad {
				kept = append(kept, l)
			}
		}
		if len(kept) == len(extra) {
			// The engineers that stay make the moves illegal (7.1):
			// no repair this impulse.
			return original
		}
		extra = kept
	}
	return original
}

type sixes struct{}

func (sixes) Roll(string) (int, error) { return 6, nil }

// The report of an impulse with a battle, a bridge demolition and a
// repair, each die in it: a position of the movement fixture, set up for
// them on 17 December.
func TestReportBattles(t *testing.T) {
	g, _ := formingGame(t, "../testdata/move/scenario.toml", "move-1", testSecret, 48*time.Hour)
	g.Join(rules.German, "g", t0)
	g.Join(rules.Allied, "a", t0)
	now := t0.Add(time.Hour)
	for g.Next.String() != "G17-1" {
		submit(t, g, "", now)
		now = now.Add(time.Hour)
	}
	// 9.13: the US mech in 4 with the German armour and mech makes it a
	// battle area; the US infantry in 6 may blow bridge 5-6 (10.29) as the
	// German infantry crosses; bridge 3-4 is blown, and the German
	// engineers in 3 try to repair it, the German armour at its other end
	// (10.1, 10.12).
	move := func(id string, area int) {
		u := g.State.Unit(id)
		u.Place, u.TurnStart = rules.AreaPlace(area), rules.AreaPlace(area)
	}
	move("U/MX", 4)
	move("U/IN", 6)
	move("G/EN", 3)
	g.State.Bridge(3, 4).Blown = true
	recs, events := submit(t, g, "ATTACK 4 WITH G/AR G/MX\nMOVE G/IN 5 6\nREPAIR 3-4 BY G/EN\n", now)
	var battle, demolition, repair bool
	for _, e := range events {
		switch e.(type) {
		case rules.BattleBegins:
			battle = true
		case rules.DemolitionTried:
			demolition = true
		case rules.RepairTried:
			repair = true
		}
	}
	if !battle || !demolition || !repair {
		t.Fatalf("battle %v, demolition %v, repair %v: %v", battle, demolition, repair, events)
	}
	r, err := Report(g, recs, events)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "report-battles.txt", r)
}

// The report of a scenario's last impulse: the result and the revealed
// seed.
func TestReportFinal(t *testing.T) {
	g, _ := newGame(t, "intro")
	s, _ := g.Rules()
	now := t0.Add(2 * time.Hour)
	for {
		text, err := playtest.EveryAttack(s, g.State)
		if err != nil {
			t.Fatal(err)
		}
		recs, events := submit(t, g, text, now)
		now = now.Add(time.Hour)
		if g.Status == Finished {
			r, err := Report(g, recs, events)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(r, "THE GAME IS OVER") || !strings.Contains(r, g.Seed) {
				t.Errorf("the last report lacks the result or the seed")
			}
			golden(t, "report-final.txt", r)
			return
		}
	}
}
