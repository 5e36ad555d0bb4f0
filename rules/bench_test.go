package rules_test

import (
	"testing"

	"titm/internal/playtest"
	"titm/rules"
)

// everyMove is playtest.EveryMove, parsed.
func everyMove(t testing.TB, s *rules.Scenario, st *rules.State) *rules.Orders {
	t.Helper()
	text, err := playtest.EveryMove(s, st)
	if err != nil {
		t.Fatal(err)
	}
	if text == "" {
		return nil
	}
	o, err := rules.ParseOrders(text, s, &rules.ParseOptions{Side: st.Next.Side})
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// BenchmarkCampaignG16_1 adjudicates the campaign's first German impulse
// with every German unit that may move moving. Target: under 5 ms.
func BenchmarkCampaignG16_1(b *testing.B) {
	s := scenario(b, "campaign")
	st := rules.NewState(s)
	o := everyMove(b, s, st)
	b.ReportMetric(float64(len(o.List)), "moves")
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := rules.Play(s, st, o, &scripted{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkThreeDays plays a whole First Three Days game, 18 impulses, each
// side moving every unit it may each impulse. Target: under 100 ms.
func BenchmarkThreeDays(b *testing.B) {
	s := scenario(b, "three-days")
	start := rules.NewState(s)
	var orders []*rules.Orders
	st := start
	for !st.Over {
		o := everyMove(b, s, st)
		orders = append(orders, o)
		next, _, err := rules.Play(s, st, o, &scripted{})
		if err != nil {
			b.Fatal(err)
		}
		st = next
	}
	if len(orders) != 18 {
		b.Fatalf("%d impulses, want 18", len(orders))
	}
	b.ReportAllocs()
	for b.Loop() {
		st := start
		for _, o := range orders {
			next, _, err := rules.Play(s, st, o, &scripted{})
			if err != nil {
				b.Fatal(err)
			}
			st = next
		}
	}
}

// The benchmarks' orders are legal, and many German units move on 16-1.
func TestEveryMoveIsLegal(t *testing.T) {
	s := scenario(t, "campaign")
	st := rules.NewState(s)
	o := everyMove(t, s, st)
	// Of the 52 German units on the map without a red triangle, those in
	// the crowded zones and behind the blown bridges have nowhere to go.
	if len(o.List) < 15 {
		t.Errorf("only %d units move on G16-1", len(o.List))
	}
	t.Logf("%d German units move on G16-1", len(o.List))
}
