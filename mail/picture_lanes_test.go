package mail_test

import (
	"fmt"
	"log/slog"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"titm/adjudicator"
	"titm/rules"
	"titm/rules/scenarios"
	"titm/store"
)

// The pictures of the mails due at once are drawn in lanes of their own,
// ahead of the mails, as many at once as the processor has cores: with
// the reports of several games due, pictures of different impulses are
// drawn at the same time, each once.
func TestPicturesDrawnInLanes(t *testing.T) {
	t.Parallel()
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("one core: one lane")
	}
	const games = 6
	var users []string
	for i := range games {
		users = append(users, playerOf(rules.German, i), playerOf(rules.Allied, i))
	}
	w := newWorld(t, &worldOptions{extra: "map_picture = true", noStart: true, users: users})
	type span struct {
		snapshot string
		from, to time.Time
	}
	var (
		mu    sync.Mutex
		spans []span
	)
	w.logger = logOn("map picture drawn", func(r slog.Record) {
		took, err := time.ParseDuration(attr(r, "took"))
		if err != nil {
			t.Errorf("map picture drawn: took %q: %v", attr(r, "took"), err)
		}
		mu.Lock()
		defer mu.Unlock()
		spans = append(spans, span{attr(r, "snapshot"), r.Time.Add(-took), r.Time})
	})
	s, files, main, err := scenarios.LoadFiles("campaign")
	if err != nil {
		t.Fatal(err)
	}
	err = w.st.Update(func(tx *store.Tx) error {
		for i := range games {
			id := fmt.Sprintf("lanes-%d", i)
			g, recs, err := adjudicator.New(adjudicator.Options{ID: id, Scenario: s, Files: files, Main: main,
				German: playerOf(rules.German, i), Allied: playerOf(rules.Allied, i), Deadline: 72 * time.Hour,
				Tokens: map[rules.Side]string{rules.German: "german-token-" + strconv.Itoa(i), rules.Allied: "allied-token"},
				Secret: []byte(strings.Repeat("s", 32)), Now: time.Now()})
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
		t.Fatal(err)
	}
	// Every game's orders are in the folder before the daemon starts: the
	// reports are due together.
	for i := range games {
		raw, _ := message(playerOf(rules.German, i), "orders", fmt.Sprintf("GAME lanes-%d\nTOKEN german-token-%d\nIMPULSE 16-1\n", i, i))
		if err := w.srv.Deliver(referee, raw); err != nil {
			t.Fatal(err)
		}
	}
	w.start()
	w.settle()
	for i := range games {
		for _, side := range []rules.Side{rules.German, rules.Allied} {
			ms := w.inbox(playerOf(side, i))
			// Each its own game's: the mails of a connection are
			// composed in the same buffer, one after the other.
			if len(ms) != 1 || !strings.Contains(ms[0].Subject, "G16-1 played") || !strings.Contains(ms[0].Subject, fmt.Sprintf("[lanes-%d]", i)) ||
				!slices.Equal(ms[0].Attachments, []string{fmt.Sprintf("lanes-%d-G16-1.png", i)}) {
				t.Errorf("%s: %d mails, want the report of G16-1 of lanes-%d with its map", playerOf(side, i), len(ms), i)
				for _, m := range ms {
					t.Logf("%q with %q", m.Subject, m.Attachments)
				}
			}
		}
	}
	mu.Lock()
	defer mu.Unlock()
	drawn, together := map[string]int{}, 0
	for i, a := range spans {
		drawn[a.snapshot]++
		for _, b := range spans[i+1:] {
			if a.from.Before(b.to) && b.from.Before(a.to) {
				together++
			}
		}
	}
	if len(drawn) != games || len(spans) != games {
		t.Errorf("%d pictures drawn of %d impulses: %v", len(spans), games, drawn)
	}
	if together == 0 {
		t.Errorf("no two of the %d pictures were drawn at the same time: %v", len(spans), spans)
	}
}
