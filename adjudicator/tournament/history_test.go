package tournament

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

// A replacement's record names the player replaced and the round from
// which the new one plays from version 1 of the log; a log of version 0
// keeps its record as it was written, and both replay. Either way the
// rounds name who played them.
func TestReplaceRecordByVersion(t *testing.T) {
	for _, version := range []int{0, LogVersion} {
		s := settings(RoundRobin, 3, 4, SidesAlternate, TieMargin)
		s.Version = version
		tr := newT(t, s)
		if _, err := tr.Pair(t0); err != nil {
			t.Fatal(err)
		}
		play(t, tr, t0, map[string]string{"A-D": "A", "B-C": "B"})
		rec, err := tr.Replace(1, "Bea", "bea@example.org", "token-b2", "moved away", "", t0.Add(time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case version == 0 && (rec.Old != "" || rec.Round != 0 || rec.Impulse != ""):
			t.Errorf("version 0: the record has the new fields: %+v", rec)
		case version > 0 && (rec.Old != "B" || rec.Round != 2 || rec.Game != "" || rec.Text != "moved away"):
			t.Errorf("version %d: %+v", version, rec)
		}
		if _, err := tr.Pair(t0.Add(2 * time.Hour)); err != nil {
			t.Fatal(err)
		}
		if got := tr.NameIn(1, 1) + "/" + tr.NameIn(1, 2); got != "B/Bea" {
			t.Errorf("version %d: place 2 in rounds 1 and 2: %s", version, got)
		}
		var b strings.Builder
		tr.WriteStandings(&b)
		if !strings.Contains(b.String(), "Bea took the place of B from round 2: moved away.") {
			t.Errorf("version %d: no footnote:\n%s", version, b.String())
		}
		replays(t, tr)
	}
}

// A game taken over in play names both players in its round: the one
// replaced, then the new one from the impulse he took over.
func TestPlayedByTakeOver(t *testing.T) {
	s := settings(RoundRobin, 3, 4, SidesAlternate, TieMargin)
	s.Version = LogVersion
	tr := newT(t, s)
	if _, err := tr.Pair(t0); err != nil {
		t.Fatal(err)
	}
	tr.GameMade(1, 1, "g1", t0)
	k := 0
	for j, p := range tr.Current().Pairings {
		if p.Of(0) >= 0 {
			k = j
		}
	}
	if k != 0 {
		t.Fatalf("A is in pairing %d", k+1)
	}
	rec, err := tr.Replace(0, "Ada", "ada@example.org", "token-a2", "ill", "G1-2", t0)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Round != 1 || rec.Game != "g1" || rec.Impulse != "G1-2" {
		t.Errorf("the record: %+v", rec)
	}
	hs := tr.PlayedBy(0, 1)
	if len(hs) != 2 || hs[0].Name != "A" || hs[0].Address != "a@example.org" || hs[1].Name != "Ada" || hs[1].From != "G1-2" {
		t.Errorf("round 1: %+v", hs)
	}
	if got := tr.NameIn(0, 2); got != "Ada" {
		t.Errorf("round 2: %q", got)
	}
	// The tournament to show names them in its pairings too.
	if p := tr.Public().Rounds[0].Pairings[0]; len(p.Players[0]) != 2 || p.Players[0][0].Name != "A" {
		t.Errorf("Public's players of pairing 1: %+v", p.Players)
	}
	replays(t, tr)
}

// replays checks that the tournament's log replays to itself, record for
// record, and verifies.
func replays(t *testing.T, tr *Tournament) {
	t.Helper()
	x := MakeExport(tr, nil)
	x.Records = append([]Record(nil), tr.Log...)
	logged, _ := json.Marshal(x.Records)
	if _, err := VerifyLog(x); err != nil {
		t.Fatalf("the log does not verify: %v", err)
	}
	// A replay that wrote its records over the export's own would have
	// compared each with itself: what the export holds after it must be
	// what was logged.
	if after, _ := json.Marshal(x.Records); string(after) != string(logged) {
		t.Errorf("the replay differs from the log:\n  logged:   %s\n  replayed: %s", logged, after)
	}
}

// A tournament kept before it kept its replacements has them from its
// log: the same as kept, but for a version 0 log's impulse, which it does
// not say.
func TestHistoryFromLog(t *testing.T) {
	for _, version := range []int{0, LogVersion} {
		s := settings(RoundRobin, 3, 4, SidesAlternate, TieMargin)
		s.Version = version
		tr := newT(t, s)
		if _, err := tr.Pair(t0); err != nil {
			t.Fatal(err)
		}
		play(t, tr, t0, map[string]string{"A-D": "A", "B-C": "B"})
		if _, err := tr.Replace(1, "Bea", "bea@example.org", "token-b2", "moved away", "", t0); err != nil {
			t.Fatal(err)
		}
		if _, err := tr.Pair(t0); err != nil {
			t.Fatal(err)
		}
		var k int
		for j, p := range tr.Current().Pairings {
			tr.GameMade(2, j+1, fmt.Sprintf("g2-%d", j+1), t0)
			if p.Of(2) >= 0 {
				k = j
			}
		}
		if _, err := tr.Replace(2, "Cid", "cid@example.org", "token-c2", "ill", "G16-2", t0); err != nil {
			t.Fatal(err)
		}
		kept := tr.Replacements
		if len(kept) != 2 || kept[1].Game != fmt.Sprintf("g2-%d", k+1) || kept[1].Round != 2 || kept[0].Round != 2 || kept[0].Game != "" {
			t.Fatalf("version %d: kept %+v", version, kept)
		}
		tr.Replacements = nil
		got := tr.History()
		if version == 0 {
			kept[1].Impulse = ""
		}
		if g, w := fmt.Sprintf("%+v", got), fmt.Sprintf("%+v", kept); g != w {
			t.Errorf("version %d: from the log\n  %s\nkept\n  %s", version, g, w)
		}
		if got := tr.NameIn(2, 1) + "/" + tr.NameIn(1, 1) + "/" + tr.NameIn(1, 2); got != "C/B/Bea" {
			t.Errorf("version %d: %s", version, got)
		}
	}
}
