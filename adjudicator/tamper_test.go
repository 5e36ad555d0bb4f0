package adjudicator

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"titm/internal/tamper"
	"titm/rules"
)

// gameChain is how a game's export chains its records, for the forger.
var gameChain = tamper.Chain{Records: "records", Head: "head", Hash: func(rec map[string]any) (string, error) {
	data, err := json.Marshal(rec)
	if err != nil {
		return "", err
	}
	var r Record
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return "", err
	}
	return RecordHash(r), nil
}}

// gameEnums are the values a forger of a valid record would swap.
var gameEnums = tamper.Enums{
	"side": {string(rules.German), string(rules.Allied)},
	"kind": {KindCreated, KindJoined, KindStarted, KindStanding, KindImpulse, KindPaused, KindResumed, KindExtended,
		KindRolledBack, KindConceded, KindDrawOffered, KindDrawAgreed, KindFinished, KindAdjudicated},
	"status": {string(Forming), string(Playing), string(Finished)},
}

// unchecked is Unchecked as the tamper suite asks it.
func unchecked(kind, field string) (string, bool) {
	for _, l := range Unchecked {
		if (l.Kind == "" || l.Kind == kind) && l.Field == field {
			return l.Check, true
		}
	}
	return "", false
}

// where is the record and field a game's verify names.
func where(err error) (seq, act int, field string, ok bool) {
	var d *Discrepancy
	if !errors.As(err, &d) {
		return 0, -1, "", false
	}
	if d.Kind == "export" {
		return -1, -1, d.Field, true
	}
	act = -1
	if d.Act != 0 {
		act = d.Act
	}
	return d.Seq, act, d.Field, true
}

// exportGames plays the games the tamper suite forges, through the game's
// own methods: a First Three Days game played to its end (every unit
// that may move moving, so with battles); an introductory
// game with a standing order, the director's pause, extension and resume,
// a pass at the deadline, a rollback, a draw offered and a concession;
// an introductory game played to its end from orders that make the Allies
// try to blow a bridge and a German engineer try to repair one
// (bridgeImpulses); a Fifth Panzer game ended by a tournament's
// adjudication; and a campaign game conceded after its first impulses.
// Together they have a record of every kind.
func exportGames(t testing.TB) map[string]*Export {
	t.Helper()
	out := map[string]*Export{}

	g, log := newGame(t, "three-days")
	log = playOut(t, g, log)
	out["three-days, played out"] = MakeExport(g, log)

	g, log = newGame(t, "intro")
	now := t0.Add(2 * time.Hour)
	next := func() time.Time { now = now.Add(time.Hour); return now }
	add := func(recs []Record, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		log = append(log, recs...)
	}
	for range 3 {
		log = append(log, playImpulse(t, g, next())...)
	}
	recs, _, err := g.Submit(g.State.Next.Side.Enemy(), "BLOW NONE\n", next())
	add(recs, err)
	add(g.Pause("a player is ill", next()))
	add(g.Extend("", 12*time.Hour, "the illness", next()))
	add(g.Resume("he is back", next()))
	add(g.Extend(g.State.Next.Side, 24*time.Hour, "", next()))
	now = g.Due
	recs, _, err = g.Expire(now)
	add(recs, err)
	log = append(log, playImpulse(t, g, next())...)
	add(g.Rollback(log, rules.Impulse{Side: rules.Allied, Day: 16, N: 1}, "the 8.42 bug", next()))
	for range 3 {
		log = append(log, playImpulse(t, g, next())...)
	}
	add(g.Draw(rules.German, false, next()))
	add(g.Concede(rules.Allied, next()))
	out["intro, with the director, a rollback and a concession"] = MakeExport(g, log)

	g, log = newGame(t, "intro")
	log = append(log, bridgeImpulses(t, g)...)
	log = playOut(t, g, log)
	out["intro, with a bridge demolition and a repair, played out"] = MakeExport(g, log)

	g, log = newGame(t, "fifth-panzer")
	for i := range 2 {
		log = append(log, playImpulse(t, g, t0.Add(time.Duration(i+2)*time.Hour))...)
	}
	recs, err = g.Adjudicate(rules.German, "3 deadlines missed", t0.Add(5*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	out["fifth-panzer, adjudicated"] = MakeExport(g, append(log, recs...))

	g, log = newGame(t, "campaign")
	for i := range 2 {
		log = append(log, playImpulse(t, g, t0.Add(time.Duration(i+2)*time.Hour))...)
	}
	recs, err = g.Concede(rules.German, t0.Add(5*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	out["campaign, conceded"] = MakeExport(g, append(log, recs...))
	return out
}

// bridgeImpulses plays the first impulses of a new introductory game with
// orders set so that the Allies try to blow a bridge and a German engineer
// tries to repair one, and returns their records. The Allies, who may not
// blow bridges on 16 December (10.26), empty Beaufort (20); the Germans
// cross the blown bridge 19-20 into it on foot (8.34); on 17 December a
// German unit crosses the bridge 20-21 into Reisdorf (21), where the
// Allied rangers may try to blow it (10.2, the Allies' standing BLOW ALL,
// B1), and the engineer in Nusbaum (19), unmoved since the turn began,
// tries to repair 19-20 with a German unit at its other end (10.12).
func bridgeImpulses(t testing.TB, g *Game) []Record {
	t.Helper()
	now := t0.Add(2 * time.Hour)
	var log []Record
	for _, text := range []string{
		"",                             // G16-1
		"",                             // A16-1: only the green triangles may move (5.23)
		"",                             // G16-2
		"MOVE 9AD/60 20 16\n",          // A16-2
		"FOOT 276/986 276/987 19 20\n", // G16-3
		"",                             // A16-3
		"MOVE 276/986 20 21\nREPAIR 19-20 BY 605E\n", // G17-1
	} {
		recs, _ := submit(t, g, text, now)
		log = append(log, recs...)
		now = now.Add(time.Hour)
	}
	return log
}

// bridgeTry reports whether a leaf of a record is part of a try to blow or
// repair a bridge, its die (each of the die's fields) or its event: the
// tamper suite changes these wherever they stand among an impulse's many
// dice and events.
func bridgeTry(rec any, l tamper.Leaf) bool {
	if len(l.Path) < 2 {
		return false
	}
	switch l.Path[0] {
	case "events":
		e, _ := l.Value.(string)
		return strings.Contains(e, " tries to blow bridge ") || strings.Contains(e, " tries to repair bridge ")
	case "dice":
		// "G17-1 demolition 20-21 by 78/2Rgr", "G17-1 repair 19-20 by 605E"
		p, _ := tamper.Get(rec, []any{"dice", l.Path[1], "purpose"}).(string)
		f := strings.Fields(p)
		return len(f) > 1 && (f[1] == "demolition" || f[1] == "repair")
	}
	return false
}

// TestTamper forges real exports of finished games (exportGames) in every
// way a forger can, rebuilding the hash chain after each change (each
// record's hash, each prev, the head), and expects verify to refuse each
// forgery, naming the record changed:
//
//   - every record is changed, and in each record every field of its JSON
//     (every leaf, inside the dice and the events too): a field with up to
//     three values in the record (dice[].roll of up to three dice) has
//     each changed; one with more, its first, middle and last (so each
//     record and each distinct field is changed at least once), and
//     wherever it stands, each die and event of a try to blow or repair
//     a bridge (bridgeTry);
//   - a number becomes itself plus one, a bool its negation, a time one
//     millisecond earlier, a side or kind another side or kind, any other
//     text its last letter or digit changed (a hex text stays hex);
//   - a field Unchecked lists (docs/verify.md) may pass verify, as listed
//     (Order, None), or fail at a later record (Later); every other must
//     fail at its own record; a time Unchecked bounds by its neighbours
//     is also moved before the record before it, which must fail;
//   - records are deleted, duplicated, inserted further on and swapped
//     (at the log's start, middle and end, numbered again and not), and
//     the head moved back: each must fail;
//   - every value of the export outside its records (seeds, commitment,
//     head, status, result, the scenario's files) is changed: each must
//     fail, unless Unchecked lists it.
//
// It logs how many (record, field) pairs it changed and that each failed.
func TestTamper(t *testing.T) {
	if raceDetector {
		// It forges one goroutine's exports some thousand times: nothing
		// for the race detector, which would make it ten times slower.
		t.Skip("the forging suite runs without the race detector")
	}
	if testing.Short() {
		t.Skip("forges every field of four games")
	}
	total := tamper.Count{}
	for name, x := range exportGames(t) {
		t.Run(name, func(t *testing.T) {
			data, err := json.Marshal(x)
			if err != nil {
				t.Fatal(err)
			}
			s, err := LoadScenario(x.Files, x.Main)
			if err != nil {
				t.Fatal(err)
			}
			suite := tamper.Suite{Chain: gameChain, Enums: gameEnums, Where: where, Unchecked: unchecked,
				Verify: func(data []byte) error {
					y, err := ReadExport(bytes.NewReader(data))
					if err != nil {
						return err
					}
					// The scenario as loaded once: its files are still
					// checked against the log's digest.
					_, err = VerifyWith(s, y, nil)
					return err
				},
				Also: bridgeTry,
				Export: func(l tamper.Leaf) bool {
					// One scenario file's text stands for them all; the
					// tests of the export's files change them wholesale.
					return len(l.Path) < 2 || l.Path[0] != "files" || l.Path[1] == x.Main
				}}
			doc, err := tamper.Parse(data)
			if err != nil {
				t.Fatal(err)
			}
			before, _ := json.Marshal(doc)
			c := suite.Run(t, doc)
			if after, _ := json.Marshal(doc); !bytes.Equal(after, before) {
				t.Error("the suite left the export changed")
			}
			t.Logf("%s: %d records, %d (record, field) pairs changed, %d refused naming the record, %d accepted as docs/verify.md lists; %d distinct fields; %d times out of order refused; %d moves refused; %d export values changed",
				name, c.Records, c.Pairs, c.Failed, c.Listed, c.Fields, c.Bounds, c.Moves, c.Export)
			if c.Failed+c.Listed != c.Pairs {
				t.Errorf("%d pairs changed, %d refused and %d listed", c.Pairs, c.Failed, c.Listed)
			}
			total.Pairs += c.Pairs
			total.Failed += c.Failed
			total.Listed += c.Listed
		})
	}
	t.Logf("games: %d (record, field) pairs changed with the chain rebuilt: %d refused naming the record, %d accepted as docs/verify.md lists", total.Pairs, total.Failed, total.Listed)
}

// The games the suite forges have a record of every kind but an agreed
// draw (an offer declined is there), battles, a try to blow a bridge and
// one to repair one, each with its die and its event.
func TestTamperCoverage(t *testing.T) {
	kinds := map[string]bool{}
	dice := map[string]int{} // dice by what they are for
	var blow, repair int     // events of a try to blow or repair a bridge
	for _, x := range exportGames(t) {
		for _, r := range x.Records {
			kinds[r.Kind] = true
			for _, d := range r.Dice {
				// The purpose is "G17-1 demolition 20-21 by 78/2Rgr",
				// "G17-1 repair 19-20 by 605E", "A16-2 battle 11 ...".
				if f := strings.Fields(d.Purpose); len(f) > 1 {
					dice[f[1]]++
				}
			}
			for _, e := range r.Events {
				if strings.Contains(e, " tries to blow bridge ") {
					blow++
				}
				if strings.Contains(e, " tries to repair bridge ") {
					repair++
				}
			}
		}
	}
	for _, k := range gameEnums["kind"] {
		if !kinds[k] && k != KindDrawAgreed {
			t.Errorf("no %s record", k)
		}
	}
	for _, p := range []string{"battle", "demolition", "repair"} {
		if dice[p] == 0 {
			t.Errorf("no %s die", p)
		}
	}
	if blow == 0 || repair == 0 {
		t.Errorf("%d tries to blow a bridge, %d to repair one", blow, repair)
	}
}
