package adjudicator

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"titm/internal/tamper"
	"titm/rules"
)

// fuzzGame is a short real game for the fuzzer's seeds: joined, three
// impulses with battles, the director's pause and resume, a concession.
func fuzzGame(t testing.TB) *Export {
	g, log := newGame(t, "intro")
	now := t0.Add(2 * time.Hour)
	for range 3 {
		log = append(log, playImpulse(t, g, now)...)
		now = now.Add(time.Hour)
	}
	for _, act := range []func() ([]Record, error){
		func() ([]Record, error) { return g.Pause("a player is ill", now.Add(time.Hour)) },
		func() ([]Record, error) { return g.Resume("he is back", now.Add(2*time.Hour)) },
		func() ([]Record, error) { return g.Concede(rules.Allied, now.Add(3*time.Hour)) },
	} {
		recs, err := act()
		if err != nil {
			t.Fatal(err)
		}
		log = append(log, recs...)
	}
	return MakeExport(g, log)
}

// FuzzVerify verifies exports made from a real game's (fuzzGame) by the
// fuzzer's changes to its log (the log's JSON is the fuzzed input, the
// export around it kept: the tamper suite changes the export's own
// fields), with the hash chain rebuilt after them as a forger would: it
// must never panic, and never verify a log that reads as a different one,
// unless every field it differs in is one Unchecked lists.
func FuzzVerify(f *testing.F) {
	x := fuzzGame(f)
	orig, err := json.Marshal(x)
	if err != nil {
		f.Fatal(err)
	}
	log, _ := json.Marshal(x.Records)
	f.Add(log)
	indented, _ := json.MarshalIndent(x.Records, "", "  ")
	f.Add(indented)
	a, err := tamper.Parse(orig)
	if err != nil {
		f.Fatal(err)
	}
	s, err := LoadScenario(x.Files, x.Main)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		y := *x
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if dec.Decode(&y.Records) != nil {
			return
		}
		// As read, and with the chain rebuilt: neither may panic.
		VerifyWith(s, &y, nil)
		rechain(&y)
		_, err = VerifyWith(s, &y, nil)
		forged, _ := json.Marshal(&y)
		if err != nil || bytes.Equal(forged, orig) {
			return
		}
		b, err := tamper.Parse(forged)
		if err != nil {
			t.Fatal(err)
		}
		diffs, same := gameChain.Differences(a, b)
		if same {
			for _, d := range diffs {
				if _, ok := unchecked(d[0], d[1]); !ok {
					same = false
				}
			}
		}
		if !same {
			t.Errorf("verified a changed export, in %v:\n%s", diffs, forged)
		}
	})
}
