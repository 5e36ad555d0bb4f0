package mail_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"titm/adjudicator"
	"titm/rules"
	"titm/rules/scenarios"
	"titm/store"
)

// addCampaignGames puts n campaign games in the world's store, PREFIX-0
// to PREFIX-(n-1), both players joined, the ith between player(German, i)
// and player(Allied, i), with the tokens germanToken(i) and
// "allied-token-I", a hundred to a transaction.
func addCampaignGames(tb testing.TB, w *world, prefix string, n int, player func(rules.Side, int) string) {
	tb.Helper()
	s, files, main, err := scenarios.LoadFiles("campaign")
	if err != nil {
		tb.Fatal(err)
	}
	for batch := 0; batch < n; batch += 100 {
		err := w.st.Update(func(tx *store.Tx) error {
			for i := batch; i < min(batch+100, n); i++ {
				id := fmt.Sprintf("%s-%d", prefix, i)
				g, recs, err := adjudicator.New(adjudicator.Options{ID: id, Scenario: s, Files: files, Main: main,
					German: player(rules.German, i), Allied: player(rules.Allied, i), Deadline: 72 * time.Hour,
					Tokens: map[rules.Side]string{rules.German: germanToken(i), rules.Allied: fmt.Sprintf("allied-token-%d", i)},
					Secret: []byte(strings.Repeat("s", 31) + string(rune('a'+i%26))), Now: time.Now()})
				if err != nil {
					return err
				}
				if err := tx.CreateGame(g, recs); err != nil {
					return err
				}
				if err := joinAll(tx, id); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			tb.Fatal(err)
		}
	}
}

// germanToken is the German player's token of the ith game of
// addCampaignGames.
func germanToken(i int) string { return fmt.Sprintf("german-token-%d", i) }

// campaignOrders is the German orders of G16-1, none, in the ith game of
// addCampaignGames, as a mail from its player.
func campaignOrders(prefix string, i int, player func(rules.Side, int) string) []byte {
	raw, _ := message(player(rules.German, i), "orders", fmt.Sprintf("GAME %s-%d\nTOKEN %s\nIMPULSE 16-1\n", prefix, i, germanToken(i)))
	return raw
}
