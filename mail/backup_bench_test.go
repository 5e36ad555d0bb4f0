package mail_test

import (
	"context"
	"log/slog"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"titm/rules"
	"titm/store"
)

// tookHandler keeps the time each mail took to handle, from the daemon's
// "mail handled" lines, with when it was handled.
type tookHandler struct {
	mu    sync.Mutex
	times []handledAt
}

type handledAt struct {
	at   time.Time
	took time.Duration
}

func (h *tookHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h *tookHandler) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h *tookHandler) WithGroup(string) slog.Handler            { return h }
func (h *tookHandler) Handle(_ context.Context, r slog.Record) error {
	if r.Message != "mail handled" {
		return nil
	}
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "took" {
			h.mu.Lock()
			h.times = append(h.times, handledAt{at: r.Time, took: a.Value.Duration()})
			h.mu.Unlock()
		}
		return true
	})
	return nil
}

// within returns the longest time a mail handled between from and to
// took, and how many there were.
func (h *tookHandler) within(from, to time.Time) (time.Duration, int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	var most time.Duration
	var n int
	for _, t := range h.times {
		if !t.at.Before(from) && !t.at.After(to) {
			most, n = max(most, t.took), n+1
		}
	}
	return most, n
}

// BenchmarkHotBackup writes a backup of a store of 1,000 campaign games
// while the daemon handles order mails, one every 10 ms, and reports the
// backup's time and the longest any mail handled meanwhile took, from the
// mail in hand to its outcome committed. Target: the backup under 2 s,
// no mail over 100 ms.
func BenchmarkHotBackup(b *testing.B) {
	const games = 1000
	took := &tookHandler{}
	w := newWorld(b, &worldOptions{noStart: true, extra: "map_picture = false"})
	w.logger = slog.New(took)
	// Every game between the same two players.
	players := func(side rules.Side, _ int) string {
		if side == rules.German {
			return german
		}
		return allied
	}
	addCampaignGames(b, w, "bench", games, players)
	w.start()
	// The German orders of G16-1, each game once.
	var next atomic.Int64
	send := func() {
		i := int(next.Add(1)-1) % games
		if err := w.srv.Deliver(referee, campaignOrders("bench", i, players)); err != nil {
			b.Error(err)
		}
	}
	path := filepath.Join(b.TempDir(), "backup.db")
	var worst, backups time.Duration
	var during int
	for b.Loop() {
		stop := make(chan struct{})
		var wg sync.WaitGroup
		wg.Go(func() {
			t := time.NewTicker(10 * time.Millisecond)
			defer t.Stop()
			for {
				send()
				select {
				case <-stop:
					return
				case <-t.C:
				}
			}
		})
		time.Sleep(50 * time.Millisecond) // the mails flowing
		start := time.Now()
		if _, err := w.st.Backup(path); err != nil {
			b.Fatal(err)
		}
		end := time.Now()
		backups += end.Sub(start)
		time.Sleep(50 * time.Millisecond)
		close(stop)
		wg.Wait()
		most, n := took.within(start, end.Add(100*time.Millisecond))
		worst, during = max(worst, most), during+n
	}
	b.StopTimer()
	// ns/op counts the 100 ms of mail around each backup too.
	b.ReportMetric((backups / time.Duration(b.N)).Seconds(), "s-backup")
	b.ReportMetric(float64(worst.Microseconds())/1000, "ms-longest-mail")
	b.ReportMetric(float64(during)/float64(b.N), "mails-during-backup")
	size, _ := w.st.Size()
	b.ReportMetric(float64(size)/(1<<20), "MB-store")
	// What titm backup does next: the copy opened and checked, every game
	// replayed.
	start := time.Now()
	cp, err := store.Open(path, &store.Options{ReadOnly: true})
	if err != nil {
		b.Fatal(err)
	}
	defer cp.Close()
	r, err := cp.Check()
	if err != nil || !r.OK() || r.Games != games+1 {
		b.Fatalf("the backup's check: %v %+v", err, r)
	}
	b.ReportMetric(time.Since(start).Seconds(), "s-check-copy")
}
