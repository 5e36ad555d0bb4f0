//go:build unix

package mail_test

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"
	acts "titm/adjudicator/referee"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"titm/adjudicator"
	"titm/internal/waitfor"
	"titm/rules"
)

// BenchmarkImpulseThroughPostfix measures one impulse through a real mail
// system on loopback, with the map picture: each round, the player to move
// submits his orders (a pass) through Postfix, which delivers them by LMTP
// to the referee's Dovecot mailbox, where the daemon waits in IDLE; the
// round ends when both players' reports are in their Dovecot mailboxes.
// The sides alternate, as the impulses do.
//
// ms/median-e2e is the median from the submission accepted by Postfix to
// both reports found by IMAP; target: under 1 s. ms/median-referee is the
// referee's own share, from the mail fetched to both reports accepted by
// Postfix, read from the daemon's log ("mail handled" and its took, "mail
// sent"); target: under 30 ms.
func BenchmarkImpulseThroughPostfix(b *testing.B) {
	logs := &logTimes{more: make(chan struct{}, 1)}
	w, mta := postfixWorldOf(b, postfixOptions{extra: "map_picture = true", logger: slog.New(logs)})
	w.join()
	boxes := map[string]*reportWatch{}
	for addr, pass := range map[string]string{german: "g-pass", allied: "a-pass"} {
		boxes[addr] = watchReports(b, mta.Dovecot.Addr, addr, pass)
	}
	var e2e, share []time.Duration
	for b.Loop() {
		g := w.gameNow()
		if g.Status != adjudicator.Playing {
			b.StopTimer()
			w.newGame()
			b.StartTimer()
			g = w.gameNow()
		}
		from := german
		if g.Next.Side == rules.Allied {
			from = allied
		}
		logs.take()
		raw, _ := message(from, "orders", fmt.Sprintf("GAME %s\nTOKEN %s\nIMPULSE %d-%d\n", w.game, w.tokens[from], g.Next.Day, g.Next.N))
		if err := sendRaw(mta.SubmissionAddr, from, referee, raw); err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		subject := fmt.Sprintf("[%s] %s played", w.game, g.Next)
		// The mailboxes are polled once the referee has sent both
		// reports, so that the polling does not slow down the referee
		// on a machine of few cores.
		recs := logs.waitReports(b, start.Add(15*time.Second))
		for _, addr := range []string{german, allied} {
			boxes[addr].wait(b, subject, start.Add(15*time.Second))
		}
		e2e = append(e2e, time.Since(start))
		share = append(share, refereeShare(b, append(recs, logs.take()...)))
		b.StopTimer()
		w.settle()
		b.StartTimer()
	}
	b.ReportMetric(ms(median(e2e)), "ms/median-e2e")
	b.ReportMetric(ms(median(share)), "ms/median-referee")
	b.ReportMetric(ms(slices.Max(e2e)), "ms/max-e2e")
	b.ReportMetric(ms(slices.Max(share)), "ms/max-referee")
}

// newGame replaces a game that is over by a new one, both players joined,
// and waits until its welcomes are sent.
func (w *world) newGame() {
	w.t.Helper()
	w.freshGame()
	w.d.Wake()
	w.settle()
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// refereeShare reads one round from the daemon's log: from the order mail
// fetched (the time of "mail handled" less its took) to the later of the
// two players' reports accepted ("mail sent").
func refereeShare(b *testing.B, recs []slog.Record) time.Duration {
	var fetched, sent time.Time
	reports := map[string]bool{}
	for _, r := range recs {
		a := attrs(r)
		switch r.Message {
		case "mail handled":
			took, ok := a["took"].Any().(time.Duration)
			if !ok || !fetched.IsZero() {
				b.Fatalf("the log has one \"mail handled\" with its took a round, not %v", recs)
			}
			fetched = r.Time.Add(-took)
		case "mail sent":
			to, _ := a["to"].Any().([]string)
			if a["kind"].String() == acts.KindReport && len(to) == 1 {
				reports[to[0]] = true
				if r.Time.After(sent) {
					sent = r.Time
				}
			}
		}
	}
	if fetched.IsZero() || !reports[german] || !reports[allied] {
		b.Fatalf("the log lacks the mail handled or a report sent: %v", recs)
	}
	return sent.Sub(fetched)
}

func attrs(r slog.Record) map[string]slog.Value {
	m := map[string]slog.Value{}
	r.Attrs(func(a slog.Attr) bool { m[a.Key] = a.Value; return true })
	return m
}

// logTimes keeps the daemon's log records, with their times.
type logTimes struct {
	mu   sync.Mutex
	recs []slog.Record
	more chan struct{} // signalled at each record
}

func (l *logTimes) Enabled(_ context.Context, lv slog.Level) bool { return lv >= slog.LevelInfo }

func (l *logTimes) Handle(_ context.Context, r slog.Record) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.recs = append(l.recs, r.Clone())
	select {
	case l.more <- struct{}{}:
	default:
	}
	return nil
}

func (l *logTimes) WithAttrs([]slog.Attr) slog.Handler { return l }
func (l *logTimes) WithGroup(string) slog.Handler      { return l }

// take returns the records so far and forgets them.
func (l *logTimes) take() []slog.Record {
	l.mu.Lock()
	defer l.mu.Unlock()
	r := l.recs
	l.recs = nil
	return r
}

// waitReports waits until the log tells of a report sent to each player,
// and returns the records so far, forgetting them.
func (l *logTimes) waitReports(b *testing.B, deadline time.Time) []slog.Record {
	var recs []slog.Record
	sent := map[string]bool{}
	for !sent[german] || !sent[allied] {
		select {
		case <-l.more:
		case <-time.After(time.Until(deadline)):
			b.Fatalf("no report sent to both players in the log: %v", recs)
		}
		for _, r := range l.take() {
			recs = append(recs, r)
			a := attrs(r)
			if to, _ := a["to"].Any().([]string); r.Message == "mail sent" && a["kind"].String() == acts.KindReport && len(to) == 1 {
				sent[to[0]] = true
			}
		}
	}
	return recs
}

// reportWatch is a player's INBOX, selected on a connection of its own.
type reportWatch struct {
	addr string
	c    *imapclient.Client
}

func watchReports(b *testing.B, addr, user, pass string) *reportWatch {
	c, err := imapclient.DialInsecure(addr, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { c.Close() })
	if err := c.Login(user, pass).Wait(); err != nil {
		b.Fatal(err)
	}
	if _, err := c.Select("INBOX", &imap.SelectOptions{ReadOnly: true}).Wait(); err != nil {
		b.Fatal(err)
	}
	return &reportWatch{addr: user, c: c}
}

// wait polls until a mail with the subject is in the INBOX. A NOOP first
// has the server tell the session of new mail.
func (r *reportWatch) wait(b *testing.B, subject string, deadline time.Time) {
	crit := &imap.SearchCriteria{Header: []imap.SearchCriteriaHeaderField{{Key: "Subject", Value: subject}}}
	waitfor.Until(b, time.Until(deadline), func() bool {
		if err := r.c.Noop().Wait(); err != nil {
			b.Fatal(err)
		}
		data, err := r.c.UIDSearch(crit, nil).Wait()
		if err != nil {
			b.Fatal(err)
		}
		return len(data.AllUIDs()) > 0
	}, fmt.Sprintf("%q in %s's INBOX", subject, r.addr))
}
