package webverify

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
	"titm/internal/playout"

	"titm/adjudicator"
	"titm/adjudicator/tournament"
)

// finished plays a game of a scenario to its end, every unit attacking
// where it can, and returns its export.
func finished(t testing.TB, scenario, id string) *adjudicator.Export {
	t.Helper()
	g, log, err := playout.Game(scenario, id, 5)
	if err != nil {
		t.Fatal(err)
	}
	return adjudicator.MakeExport(g, log)
}

func encode(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// forgeDie changes the first die of the first impulse that rolled one,
// and rebuilds the hash chain after it (every hash, prev and the head),
// so that only the replay can tell. It returns the record changed.
func forgeDie(t testing.TB, x *adjudicator.Export) int {
	t.Helper()
	seq := -1
	for i, r := range x.Records {
		if r.Kind == adjudicator.KindImpulse && len(r.Dice) > 0 {
			r.Dice = append([]adjudicator.Roll(nil), r.Dice...)
			r.Dice[0].Value = r.Dice[0].Value%6 + 1
			x.Records[i], seq = r, i
			break
		}
	}
	if seq < 0 {
		t.Fatal("no impulse rolled a die")
	}
	prev := ""
	for i := range x.Records {
		x.Records[i].Prev = prev
		x.Records[i].Hash = adjudicator.RecordHash(x.Records[i])
		prev = x.Records[i].Hash
	}
	x.Head = prev
	return seq
}

func TestCheckGame(t *testing.T) {
	x := finished(t, "three-days", "three-1")
	data := encode(t, x)
	impulse := x.Records[len(x.Records)/2].Hash
	for _, tt := range []struct {
		name string
		head string
		ok   bool
		want string
	}{
		{"whole", "", true, "verified: game three-1: "},
		{"with a head", strings.ToUpper(impulse), true, "verified: game three-1: "},
		{"with another head", strings.Repeat("ab", 32), false, "no record of the log has the hash abab"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := Check(data, tt.head)
			if r.OK != tt.ok || r.Kind != KindGame || r.ID != "three-1" || !strings.HasPrefix(r.Summary, strings.TrimSuffix(tt.want, "abab")) && !strings.Contains(r.Summary, tt.want) {
				t.Fatalf("%+v", r)
			}
			if r.Records != len(x.Records) || r.Seq != -1 || r.Note != "" {
				t.Errorf("%+v", r)
			}
			if r.OK && r.Head != x.Head {
				t.Errorf("head %s, want %s", r.Head, x.Head)
			}
			if !r.OK && r.Head != "" {
				t.Errorf("a failed verification gives the head %s", r.Head)
			}
			if r.HeadFound != (tt.head != "" && tt.ok) {
				t.Errorf("head found: %v", r.HeadFound)
			}
		})
	}
}

// A die changed with the chain rebuilt: the verifier names the record and
// gives no head.
func TestCheckForgedGame(t *testing.T) {
	x := finished(t, "three-days", "three-1")
	seq := forgeDie(t, x)
	r := Check(encode(t, x), "")
	if r.OK || r.Seq != seq || r.RecordKind != adjudicator.KindImpulse || r.What == "" || r.Head != "" {
		t.Fatalf("a die of record %d changed: %+v", seq, r)
	}
	if !strings.HasPrefix(r.Summary, fmt.Sprintf("NOT verified: game three-1: record %d (impulse ", seq)) {
		t.Errorf("summary %q", r.Summary)
	}
}

func TestCheckNotAnExport(t *testing.T) {
	x := finished(t, "three-days", "three-1")
	x.Format = "something/else"
	for name, data := range map[string][]byte{
		"empty":          nil,
		"not JSON":       []byte("<html>"),
		"another format": encode(t, x),
		"a field more":   []byte(`{"format":"titm-export/1","extra":1}`),
		// A game that is null: the verifier must answer, whatever it
		// finds in it.
		"a null game": []byte(`{"format":"titm-tournament/1","games":[null]}`),
	} {
		r := Check(data, "")
		if r.OK || r.Seq != -1 || !strings.HasPrefix(r.Summary, "NOT verified: ") || r.What == "" {
			t.Errorf("%s: %+v", name, r)
		}
	}
}

// tourExport makes a Swiss tournament of four, paired, with the bids of
// its first round in and its sides decided: an export with no game yet.
func tourExport(t testing.TB) *tournament.Export {
	t.Helper()
	tr, err := playout.BidTournament()
	if err != nil {
		t.Fatal(err)
	}
	return tournament.MakeExport(tr, nil)
}

func TestCheckTournament(t *testing.T) {
	x := tourExport(t)
	r := Check(encode(t, x), "")
	if !r.OK || r.Kind != KindTournament || r.ID != "t-1" || r.Head != x.Head || r.Records != len(x.Records) || r.Seq != -1 {
		t.Fatalf("%+v", r)
	}
	if !strings.HasPrefix(r.Summary, "verified: tournament t-1: ") || r.Note == "" {
		t.Errorf("%+v", r)
	}
	// A record's hash no longer its content's: the verifier names it.
	x.Records[2].Time = x.Records[2].Time.Add(time.Second)
	r = Check(encode(t, x), "")
	if r.OK || r.Kind != KindTournament || r.Seq != 2 || r.RecordKind != x.Records[2].Kind || r.RecordKind == "" || r.Head != "" || !strings.HasPrefix(r.Summary, "NOT verified: tournament t-1: record 2: ") {
		t.Errorf("record 2 changed: %+v", r)
	}
	// Another format of tournament's export.
	x.Format = "titm-tournament/99"
	if r := Check(encode(t, x), ""); r.OK || r.Seq != -1 {
		t.Errorf("another format: %+v", r)
	}
}

// BenchmarkCheckCampaign is the verification of a whole campaign game, as
// the browser runs it (the budget there is 2 s), natively.
func BenchmarkCheckCampaign(b *testing.B) {
	x := finished(b, "campaign", "campaign-1")
	data := encode(b, x)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if r := Check(data, ""); !r.OK {
			b.Fatal(r.Summary)
		}
	}
}
