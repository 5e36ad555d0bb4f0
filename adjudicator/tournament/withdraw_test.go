package tournament

import (
	"errors"
	"strings"
	"testing"
	"time"

	"titm/rules"
)

// A player who withdraws while the bids of his round are open: from
// version 2 of the log his pairing ends there as his forfeit, its bid
// revealed, and the bids close for it; a log of before replays as it was
// written, the pairing's sides decided and its game made. Either log
// verifies, and a result forged in the withdrawn player's favour does not.
func TestWithdrawWhileBidding(t *testing.T) {
	for _, version := range []int{1, LogVersion} {
		s := settings(Swiss, 2, 4, SidesBids)
		s.Version = version
		tr := newT(t, s)
		if _, err := tr.Pair(t0); err != nil {
			t.Fatal(err)
		}
		// A-C and B-D. C bids; A withdraws.
		if got := pairs(tr, tr.Current()); got != "A-C B-D" {
			t.Fatalf("round 1: %s", got)
		}
		if _, err := tr.Bid(2, Bid{Side: rules.German, VP: 2}, t0.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		recs, err := tr.Withdraw(0, "ill", t0.Add(2*time.Minute))
		if err != nil {
			t.Fatal(err)
		}
		p := tr.Current().Pairings[0]
		_, bidErr := tr.Bid(0, Bid{Side: rules.Allied}, t0.Add(3*time.Minute))
		closed, err := tr.CloseBids(t0.Add(time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		switch version {
		case 1:
			// A's bid after he withdrew decided the sides.
			if len(recs) != 1 || p.Done || bidErr != nil || len(closed) != 1 || !p.Sided() {
				t.Errorf("version 1: the withdrawal logged %d records, done %v, A's bid after it %v, %d sides at the close, sided %v",
					len(recs), p.Done, bidErr, len(closed), p.Sided())
			}
			tr.GameMade(1, 1, "g1-1", t0.Add(time.Hour))
		default:
			if len(recs) != 2 || recs[1].Kind != KindResult || recs[1].Points != [2]float64{0, 1} || recs[1].Bids[1] == nil || recs[1].Bids[1].VP != 2 {
				t.Errorf("the withdrawal logged %+v", recs)
			}
			if !p.Unmade() || p.Sided() || tr.BidsOpen() {
				t.Errorf("A-C after A withdrew: %+v; bids open %v", p, tr.BidsOpen())
			}
			if bidErr == nil || !strings.Contains(bidErr.Error(), "you have withdrawn") {
				t.Errorf("A's bid after he withdrew: %v", bidErr)
			}
			if _, err := tr.Bid(2, Bid{Side: rules.German, VP: 1}, t0.Add(3*time.Minute)); err == nil {
				t.Error("C bid again for the pairing the withdrawal ended")
			}
			if len(closed) != 1 || closed[0].Pairing != 2 {
				t.Errorf("the bids closed with %+v, want B-D's sides alone", closed)
			}
			// The public copy shows the bid the result revealed.
			if q := tr.Public().Rounds[0].Pairings[0]; q.Bids[1] == nil || q.Sealed[1] {
				t.Errorf("the public copy of A-C: bids %v, sealed %v", q.Bids, q.Sealed)
			}
		}
		x := MakeExport(tr, nil)
		if _, err := VerifyLog(x); err != nil {
			t.Errorf("version %d: %v", version, err)
		}
		if version == 1 {
			continue
		}
		// The result forged for A, the chain rebuilt.
		seq := recs[1].Seq
		x.Records[seq].Points = [2]float64{1, 0}
		for i := seq; i < len(x.Records); i++ {
			if i > seq {
				x.Records[i].Prev = x.Records[i-1].Hash
			}
			x.Records[i].Hash = RecordHash(x.Records[i])
		}
		x.Head = x.Records[len(x.Records)-1].Hash
		var d *Discrepancy
		if _, err := VerifyLog(x); err == nil || !errors.As(err, &d) || d.Seq != seq || d.Field != "points[0]" {
			t.Errorf("a result forged for the withdrawn player: %v", err)
		}
	}
}
