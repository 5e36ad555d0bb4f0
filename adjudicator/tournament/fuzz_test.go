package tournament_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"titm/adjudicator/tournament"
	"titm/internal/tamper"
)

// FuzzVerify verifies exports made from a real knockout's (knockoutExport)
// by the fuzzer's changes to its log (the log's JSON is the fuzzed input;
// the games and the export's own fields are kept: the tamper suites change
// those), with the chain rebuilt after them as a forger would: it must
// never panic, and never verify a log that reads as a different one,
// unless every field it differs in is one tournament.Unchecked lists.
func FuzzVerify(f *testing.F) {
	x := knockoutExport(f)
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
	f.Fuzz(func(t *testing.T, data []byte) {
		y := *x
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if dec.Decode(&y.Records) != nil {
			return
		}
		// As read, and with the chain rebuilt: neither may panic.
		tournament.Verify(&y)
		tournament.VerifyLog(&y)
		rechain(&y)
		_, err := tournament.Verify(&y)
		forged, _ := json.Marshal(&y)
		if err != nil || bytes.Equal(forged, orig) {
			return
		}
		b, err := tamper.Parse(forged)
		if err != nil {
			t.Fatal(err)
		}
		diffs, same := tournamentChain.Differences(a, b)
		if same {
			for _, d := range diffs {
				if _, ok := tournamentUnchecked(d[0], d[1]); !ok {
					same = false
				}
			}
		}
		if !same {
			t.Errorf("verified a changed export, in %v:\n%s", diffs, forged)
		}
	})
}
