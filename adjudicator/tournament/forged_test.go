package tournament_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"titm/adjudicator"
	"titm/adjudicator/tournament"
	"titm/rules"
)

// rechain hashes a tournament's log again from its first record, as a
// forger would after his change: each hash, each prev, the head.
func rechain(x *tournament.Export) {
	prev := ""
	for i := range x.Records {
		x.Records[i].Prev = prev
		x.Records[i].Hash = tournament.RecordHash(x.Records[i])
		prev = x.Records[i].Hash
	}
	x.Head = prev
}

// copyOf is a copy of an export, through its JSON.
func copyOf(t *testing.T, x *tournament.Export) *tournament.Export {
	t.Helper()
	c, err := adjudicator.Clone(x)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// find returns the index of the first record of the log for which ok
// holds.
func find(t *testing.T, x *tournament.Export, what string, ok func(r tournament.Record) bool) int {
	t.Helper()
	for i, r := range x.Records {
		if ok(r) {
			return i
		}
	}
	t.Fatalf("the export has no %s", what)
	return -1
}

// The forgeries of a finished Swiss a director or an auditor would try,
// each with the chain rebuilt after it: a round pairing a player with
// himself, a rematch, a side decision's die changed with the side and
// text it decides, a revealed bid changed with the side decision's text
// and VP. Each fails, naming the record forged.
func TestForgedTournament(t *testing.T) {
	x := swissExport(t)
	if _, err := tournament.Verify(x); err != nil {
		t.Fatalf("the export as made: %v", err)
	}
	round := func(n int) func(r tournament.Record) bool {
		return func(r tournament.Record) bool { return r.Kind == tournament.KindPaired && r.Round == n }
	}
	tests := []struct {
		name  string
		forge func(t *testing.T, x *tournament.Export) int // returns the record forged
	}{
		{"self-pairing", func(t *testing.T, x *tournament.Export) int {
			i := find(t, x, "round 2", round(2))
			p := &x.Records[i].Pairs[0]
			p[1] = p[0]
			return i
		}},
		{"rematch", func(t *testing.T, x *tournament.Export) int {
			first := x.Records[find(t, x, "round 1", round(1))].Pairs[0]
			i := find(t, x, "round 2", round(2))
			for k, p := range x.Records[i].Pairs {
				if p[1] >= 0 && p != first {
					x.Records[i].Pairs[k] = first
					break
				}
			}
			return i
		}},
		{"changed die", func(t *testing.T, x *tournament.Export) int {
			i := find(t, x, "side decision by a die", func(r tournament.Record) bool {
				return r.Kind == tournament.KindSides && len(r.Dice) == 1 && r.Bids == [2]*tournament.Bid{}
			})
			r := &x.Records[i]
			r.Dice[0].Value = 11 - r.Dice[0].Value
			// The other player takes the German side, as the die now
			// says: the pairing's players are in the record before.
			for _, q := range x.Records[:i] {
				if q.Kind == tournament.KindPaired && q.Round == r.Round {
					p := q.Pairs[r.Pairing-1]
					if r.German == p[0]+1 {
						r.German = p[1] + 1
					} else {
						r.German = p[0] + 1
					}
				}
			}
			return i
		}},
		{"changed bid", func(t *testing.T, x *tournament.Export) int {
			i := find(t, x, "side decision by bids", func(r tournament.Record) bool {
				return r.Kind == tournament.KindSides && r.Bids[0] != nil && r.Bids[1] != nil && r.Give != 0 && len(r.Dice) == 0
			})
			r := &x.Records[i]
			// The winning bid gives one VP more, and the text says so.
			for _, b := range r.Bids {
				if b.VP == abs(r.Give) {
					b.VP++
				}
			}
			r.Text = strings.Replace(r.Text, fmt.Sprintf("gives %d VP", abs(r.Give)), fmt.Sprintf("gives %d VP", abs(r.Give)+1), 1)
			if r.Give > 0 {
				r.Give++
			} else {
				r.Give--
			}
			return i
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			y := copyOf(t, x)
			at := tt.forge(t, y)
			rechain(y)
			_, err := tournament.Verify(y)
			var d *tournament.Discrepancy
			if !errors.As(err, &d) || d.Seq != at && d.Act != at {
				t.Fatalf("forged record %d: %v", at, err)
			}
			t.Logf("forged record %d: %v", at, err)
			if _, err := tournament.VerifyLog(y); err == nil {
				t.Errorf("the log alone verified")
			}
		})
	}
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// Verify and VerifyLog leave the export as they found it, and verify it
// again alike; so does a game's Verify.
func TestVerifyChangesNothing(t *testing.T) {
	x := swissExport(t)
	before, _ := json.Marshal(x)
	for range 2 {
		if _, err := tournament.Verify(x); err != nil {
			t.Fatal(err)
		}
		if _, err := tournament.VerifyLog(x); err != nil {
			t.Fatal(err)
		}
	}
	if after, _ := json.Marshal(x); !bytes.Equal(before, after) {
		t.Error("verify changed the export")
	}
	g := x.Games[0]
	before, _ = json.Marshal(g)
	for range 2 {
		if _, err := adjudicator.Verify(g); err != nil {
			t.Fatal(err)
		}
	}
	if after, _ := json.Marshal(g); !bytes.Equal(before, after) {
		t.Error("a game's verify changed its export")
	}
	// The game verify returns shares nothing with the export: a seed
	// changed in the export after its verification is not in it.
	v, err := adjudicator.Verify(g)
	if err != nil {
		t.Fatal(err)
	}
	seed := g.Seeds[rules.German]
	g.Seeds[rules.German] = "changed"
	g.Records[1].Seed = "changed"
	if v.Game.Players[rules.German].Seed != seed {
		t.Error("the verified game shares the export's seeds")
	}
}

// A game of the tournament forged, a record of it changed: Verify names
// the game, and gives what the game's verification found, its record, so
// that a verifier can word the game's record as it does for a game alone.
func TestForgedGameNamesItsRecord(t *testing.T) {
	x := copyOf(t, swissExport(t))
	g := x.Games[len(x.Games)-1]
	seq := len(g.Records) - 1
	g.Records[seq].Time = g.Records[seq].Time.Add(time.Second)
	_, err := tournament.Verify(x)
	var d *tournament.Discrepancy
	if !errors.As(err, &d) || d.Game != g.ID || d.Field != "games" || d.Seq != -1 {
		t.Fatalf("a forged game: %#v", err)
	}
	var gd *adjudicator.Discrepancy
	if !errors.As(err, &gd) || gd.Seq != seq || gd.Field == "" {
		t.Fatalf("the game's record is not given: %v (want record %d)", err, seq)
	}
	if want := fmt.Sprintf("game %s: record %d", g.ID, seq); !strings.HasPrefix(err.Error(), want) {
		t.Errorf("the error %q does not begin %q", err, want)
	}
}
