package main

import (
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"titm/adjudicator"
	"titm/adjudicator/journal"
)

// journalLoad is how long BenchmarkJournalListLoad's clients ask.
var journalLoad = flag.Duration("journal-load", 10*time.Second, "how long the 200 clients of BenchmarkJournalListLoad ask for the list of games")

// campaignStore is a store with a campaign game played to its end by the
// scripted players, and, with more > 0, that many intro games besides,
// each a few impulses in.
func campaignStore(b *testing.B, more int) *journalStore {
	b.Helper()
	start := time.Now()
	js := newJournalStore(b)
	js.newGame(b, "campaign-1", "campaign", true)
	js.play(b, "campaign-1", -1)
	if g := js.game(b, "campaign-1"); g.Status != adjudicator.Finished {
		b.Fatalf("the campaign game is %s", g.Status)
	}
	for i := range more {
		id := fmt.Sprintf("intro-%d", i+1)
		js.newGame(b, id, "intro", i%5 != 4)
		js.play(b, id, i%7)
	}
	b.Logf("the store made in %s", time.Since(start).Round(time.Millisecond))
	return js
}

// BenchmarkJournalGamePage measures the page of a finished campaign game,
// server time, without its picture (drawn when the browser asks for it).
// cold is the first request after the game changed, made at every request
// by a journal that keeps no game: the game and its log read, the export
// verified as titm verify does by a replay that writes every impulse's
// report as it goes, the page written; warm is every request after, from
// memory, gzipped. Target: under 50 ms.
func BenchmarkJournalGamePage(b *testing.B) {
	js := campaignStore(b, 0)
	b.Run("cold", func(b *testing.B) {
		// A journal that keeps no game builds the page at every request.
		h := js.journal(b, &journal.Options{GameBytes: 1})
		get(h, "GET", "/games/campaign-1")
		for b.Loop() {
			if resp := get(h, "GET", "/games/campaign-1"); resp.StatusCode != 200 {
				b.Fatalf("status %d", resp.StatusCode)
			}
		}
	})
	b.Run("warm", func(b *testing.B) {
		h := js.journal(b, nil)
		get(h, "GET", "/games/campaign-1")
		for b.Loop() {
			if resp := get(h, "GET", "/games/campaign-1", "Accept-Encoding", "gzip"); resp.StatusCode != 200 {
				b.Fatalf("status %d", resp.StatusCode)
			}
		}
	})
}

// BenchmarkJournalReplayPicture measures the picture of an impulse of the
// replay once drawn: served from memory. Target: under 5 ms. draw is the
// first request, which replays the log to the impulse and draws it.
func BenchmarkJournalReplayPicture(b *testing.B) {
	js := campaignStore(b, 0)
	const path = "/games/campaign-1/impulses/G18-2/picture.png"
	b.Run("cached", func(b *testing.B) {
		h := js.journal(b, nil)
		get(h, "GET", path)
		for b.Loop() {
			if resp := get(h, "GET", path); resp.StatusCode != 200 {
				b.Fatalf("status %d", resp.StatusCode)
			}
		}
	})
	b.Run("draw", func(b *testing.B) {
		h := js.journal(b, nil)
		get(h, "GET", "/games/campaign-1") // the game's view, which the picture starts from
		for b.Loop() {
			b.StopTimer()
			h = js.journal(b, nil)
			get(h, "GET", "/games/campaign-1")
			b.StartTimer()
			if resp := get(h, "GET", path); resp.StatusCode != 200 {
				b.Fatalf("status %d", resp.StatusCode)
			}
		}
	})
}

// BenchmarkJournalListLoad has 200 clients ask for the list of games at
// once, each again as soon as answered, over HTTP on loopback for
// -journal-load (10 s), against a store of a finished campaign game and
// 40 intro games; it reports the latency's median and 99th percentile,
// the requests a second, and fails on any error. Target: p99 under
// 100 ms. Run it alone: go test ./cmd/titm -run '^$' -bench JournalListLoad -benchtime 1x.
func BenchmarkJournalListLoad(b *testing.B) {
	js := campaignStore(b, 40)
	srv := httptest.NewServer(js.journal(b, nil))
	defer srv.Close()
	const clients = 200
	tr := &http.Transport{MaxIdleConns: clients, MaxIdleConnsPerHost: clients, MaxConnsPerHost: clients}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: 10 * time.Second}
	for b.Loop() {
		var mu sync.Mutex
		var took []time.Duration
		var failed int
		var firstErr error
		deadline := time.Now().Add(*journalLoad)
		var wg sync.WaitGroup
		for range clients {
			wg.Go(func() {
				var mine []time.Duration
				var bad int
				var err1 error
				for time.Now().Before(deadline) {
					start := time.Now()
					req, _ := http.NewRequest("GET", srv.URL+"/", nil)
					req.Header.Set("Accept-Encoding", "gzip")
					resp, err := client.Do(req)
					if err == nil {
						_, err = io.Copy(io.Discard, resp.Body)
						resp.Body.Close()
						if err == nil && resp.StatusCode != 200 {
							err = fmt.Errorf("status %d", resp.StatusCode)
						}
					}
					if err != nil {
						bad++
						err1 = err
						continue
					}
					mine = append(mine, time.Since(start))
				}
				mu.Lock()
				took = append(took, mine...)
				failed += bad
				if firstErr == nil {
					firstErr = err1
				}
				mu.Unlock()
			})
		}
		wg.Wait()
		if failed > 0 || len(took) == 0 {
			b.Fatalf("%d requests failed (%v), %d answered", failed, firstErr, len(took))
		}
		slices.Sort(took)
		ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
		b.ReportMetric(ms(took[len(took)/2]), "ms-p50")
		b.ReportMetric(ms(took[len(took)*99/100]), "ms-p99")
		b.ReportMetric(float64(len(took))/journalLoad.Seconds(), "req/s")
		b.ReportMetric(0, "ns/op")
	}
}

// BenchmarkJournalCommunityPages measures, server time, the pages this
// store of a finished campaign game and 40 intro games has besides the
// games': a player's page (warm: the ratings worked out once for the
// store's version; cold: by a new journal, which reads every finished
// game's log to rate it), the list of players, the director's view, and
// the replay's page with its map. Target: under 50 ms each.
func BenchmarkJournalCommunityPages(b *testing.B) {
	js := campaignStore(b, 40)
	for _, c := range []struct{ name, path string }{
		{"player", "/players/gerhard.schmidt"},
		{"players", "/players"},
		{"director", "/director?sort=forfeit"},
		{"replay", "/games/campaign-1/replay?impulse=G18-2"},
	} {
		b.Run(c.name, func(b *testing.B) {
			h := js.journal(b, nil)
			get(h, "GET", c.path)
			for b.Loop() {
				if resp := get(h, "GET", c.path); resp.StatusCode != 200 {
					b.Fatalf("status %d", resp.StatusCode)
				}
			}
		})
	}
	b.Run("player-cold", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			h := js.journal(b, nil)
			get(h, "GET", "/")
			b.StartTimer()
			if resp := get(h, "GET", "/players/gerhard.schmidt"); resp.StatusCode != 200 {
				b.Fatalf("status %d", resp.StatusCode)
			}
		}
	})
}
