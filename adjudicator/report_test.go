package adjudicator

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"titm/adjudicator/lang"
	"titm/internal/golden"
	"titm/internal/playtest"
	"titm/rules"
	"titm/rules/scenarios"
)

// goldenReport compares text with a golden file (see internal/golden) and checks
// that its lines fit the report's width, in columns (a Japanese character
// takes two).
func goldenReport(t *testing.T, name, text string) {
	t.Helper()
	golden.Check(t, filepath.Join("..", "testdata", "golden", name), text)
	for i, l := range strings.Split(text, "\n") {
		if w := lang.Width(l); w > ReportWidth {
			t.Errorf("%s:%d is %d columns wide: %q", name, i+1, w, l)
		}
	}
}

// submit plays the impulse in play with the text after the heading lines,
// and returns the records and events.
func submit(t testing.TB, g *Game, text string, now time.Time) ([]Record, []rules.Event) {
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
	r, err := ReportIn(lang.EN(), g, recs, events)
	if err != nil {
		t.Fatal(err)
	}
	goldenReport(t, "report-movement.txt", r)
}

// moveFixture17 makes a game of the movement fixture, both players joined,
// at its first German impulse of 17 December (G17-1), and returns it and
// the time to play it at.
func moveFixture17(t *testing.T) (*Game, time.Time) {
	t.Helper()
	g, _ := formingGame(t, "../testdata/move/scenario.toml", "move-1", testSecret, 48*time.Hour)
	g.Join(rules.German, "g", t0)
	g.Join(rules.Allied, "a", t0)
	now := t0.Add(time.Hour)
	for g.Next.String() != "G17-1" {
		submit(t, g, "", now)
		now = now.Add(time.Hour)
	}
	return g, now
}

// battlesImpulse plays an impulse with a battle, a bridge demolition and a
// repair, each die in it: a position of the movement fixture, set up for
// them on 17 December.
func battlesImpulse(t *testing.T) (*Game, []Record, []rules.Event) {
	t.Helper()
	g, now := moveFixture17(t)
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
	return g, recs, events
}

// The report of an impulse with a battle, a bridge demolition and a
// repair (battlesImpulse).
func TestReportBattles(t *testing.T) {
	g, recs, events := battlesImpulse(t)
	r, err := ReportIn(lang.EN(), g, recs, events)
	if err != nil {
		t.Fatal(err)
	}
	goldenReport(t, "report-battles.txt", r)
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
			r, err := ReportIn(lang.EN(), g, recs, events)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(r, "THE GAME IS OVER") || !strings.Contains(r, g.Seed) {
				t.Errorf("the last report lacks the result or the seed")
			}
			goldenReport(t, "report-final.txt", r)
			return
		}
	}
}

// The answer to CHECK for legal orders: the moves step by step, a bridge
// the enemy may try to blow, an over-stack and who it would remove, the
// units spent, a battle and the first die, on a position of the movement
// fixture on 17 December. The Allies' standing orders say BLOW NONE, and
// the answer is the same as with BLOW ALL: a CHECK never reads them.
func TestCheckReply(t *testing.T) {
	g, s, orders := checkFixture(t)
	var replies []string
	for _, blow := range []string{"NONE", "ALL"} {
		st, err := rules.ApplyStanding(g.State, rules.Allied, mustParse(t, s, rules.Allied, "BLOW "+blow))
		if err != nil {
			t.Fatal(err)
		}
		rh, err := rules.Rehearse(s, st, orders)
		if err != nil {
			t.Fatal(err)
		}
		replies = append(replies, WriteRehearsalIn(lang.EN(), s, rh))
	}
	if replies[0] != replies[1] {
		t.Errorf("the answer depends on the Allied standing orders:\n%s\n----\n%s", replies[0], replies[1])
	}
	goldenReport(t, "check-reply.txt", replies[0])
}

// checkFixture sets up the position of TestCheckReply on the movement
// fixture's G17-1, and returns the game, its scenario and the German
// orders to check.
func checkFixture(t *testing.T) (*Game, *rules.Scenario, *rules.Orders) {
	t.Helper()
	g, _ := moveFixture17(t)
	s, _ := g.Rules()
	// U/IN in 5 with the German infantry, engineers and red-triangle
	// armour: leaving 5 costs them 1 MP more (8.36). U/MX in 3, at the far
	// end of bridge 3-4, may try to blow it (10.22, 10.29).
	place := func(id string, area int) {
		u := g.State.Unit(id)
		u.Place, u.TurnStart, u.Entrenched = rules.AreaPlace(area), rules.AreaPlace(area), false
	}
	place("U/IN", 5)
	place("U/MX", 3)
	orders := "IMPULSE 17-1\n" +
		"MOVE G/RF A 4\n" + // into 4 with G/AR and G/MX
		"MOVE G/IN G/EN 5 4\n" + // out of 5 with U/IN, into 4: over the limit
		"MOVE G/RT 5 4 3\n" + // on over bridge 3-4 into U/MX: a battle
		"REMOVE 4 G/IN\n"
	return g, s, mustParse(t, s, rules.German, orders)
}

func mustParse(t *testing.T, s *rules.Scenario, side rules.Side, text string) *rules.Orders {
	t.Helper()
	o, err := rules.ParseOrders(text, s, &rules.ParseOptions{Side: side})
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// In a scenario won by VP the standing names the VP areas the Germans
// control, which every turn scores (12.21, 12.22), and those still to take,
// each with its VP; and the victory towns by their state, as the scenario's
// end scores them (The First Three Days).
func TestStandingNamesVPAreas(t *testing.T) {
	load := func(name string) (*rules.Scenario, *rules.State) {
		s, err := scenarios.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		return s, rules.NewState(s)
	}
	text := func(s *rules.Scenario, st *rules.State) string {
		return strings.Join(standing(lang.EN(), s, st), "\n")
	}

	s, st := load("fifth-panzer")
	st.Control[47], st.Control[88] = rules.German, rules.German
	want := "VP areas, scored at the end of every turn (12.21, 12.22): German, 5 VP a turn: 47 St. Vith (2 VP), 88 Bastogne (3 VP); still to take: 57 Diekirch (1 VP), 66 Wiltz (1 VP), 71 Clervaux (1 VP), 75 Vielsalm (1 VP), 85 Houffalize (1 VP), 91 La Roche (1 VP), 98 Marche (1 VP)."
	if got := text(s, st); !strings.Contains(got, want) {
		t.Errorf("fifth-panzer:\n got %s\nwant %s", got, want)
	}

	s, st = load("three-days")
	st.Control[88] = rules.German
	var german, allied *rules.UnitState
	for _, u := range st.Units {
		switch side := s.OOB.Unit(u.ID).Side; {
		case german == nil && side == rules.German:
			german = u
		case allied == nil && side == rules.Allied:
			allied = u
		}
	}
	for _, u := range []*rules.UnitState{german, allied} {
		u.Arrived, u.Eliminated, u.Place = true, false, rules.AreaPlace(86)
	}
	want = "Victory towns, scored at the end, 2 VP each German and 1 VP each contested: German: 88 Bastogne; contested: 86 Noville; still to take: 4 Luxembourg, 115 Arlon, 107 Martelange, 85 Houffalize, 75 Vielsalm, 77 Stavelot, 44 Malmedy, 42 Hoffraai, 41 Monschau."
	if got := text(s, st); !strings.Contains(got, want) || strings.Contains(got, "VP areas") {
		t.Errorf("three-days:\n got %s\nwant %s", got, want)
	}
}

// An impulse's orders are listed as the report lists them: without the
// side's standing orders.
func TestPublicOrders(t *testing.T) {
	in := "GAME intro-1\nIMPULSE 16-1\nMOVE 352/915 24 23\nBLOW NONE\nDEFEND PREFER ARMOR INFANTRY\nBLOW 51-70 BY 352/915\nENTRENCH 212/316\n"
	want := "GAME intro-1\nIMPULSE 16-1\nMOVE 352/915 24 23\nENTRENCH 212/316\n"
	if got := PublicOrders(in); got != want {
		t.Errorf("PublicOrders:\n%s\nwant\n%s", got, want)
	}
}
