package journal

import (
	"testing"

	"titm/adjudicator/lang"
	"titm/adjudicator/tournament"
	"titm/rules"
)

// The bids' VP are told as the side that gives them.
func TestBidsTextGive(t *testing.T) {
	name := func(i int) string { return []string{"Anna", "Bert"}[i] }
	for _, c := range []struct {
		give int
		want string
	}{
		{-1, "Anna bid 0 VP for the German side; Bert bid 1 VP for the Allied side; the Allied side gives 1 VP"},
		{3, "Anna bid 0 VP for the German side; Bert bid 1 VP for the Allied side; the German side gives 3 VP"},
	} {
		p := &tournament.Pairing{A: 0, B: 1, German: 0, Give: c.give,
			Bids: [2]*tournament.Bid{{Side: rules.German}, {Side: rules.Allied, VP: 1}}}
		if got := bidsText(lang.EN(), p, name); got != c.want {
			t.Errorf("give %d: %q, want %q", c.give, got, c.want)
		}
	}
}
