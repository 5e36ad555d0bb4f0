package mail_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	acts "titm/adjudicator/referee"

	gomail "github.com/emersion/go-message/mail"

	"titm/adjudicator"
	"titm/mail"
	"titm/rules"
	"titm/store"
)

// accepted signals each recipient of each mail the embedded SMTP server
// accepts: the fault hook is called then, and here it refuses nothing.
type accepted struct{ ch chan string }

func (a *accepted) hook(_ string, to []string) error {
	for _, t := range to {
		select {
		case a.ch <- t:
		default:
		}
	}
	return nil
}

// BenchmarkOrderToReports measures one impulse by mail with the embedded
// servers: from an order mail appended to the referee's folder to both
// players' reports accepted by SMTP, without and with the map picture
// (referee.map_picture). Target: median under 300 ms.
func BenchmarkOrderToReports(b *testing.B) {
	b.Run("text", func(b *testing.B) { benchOrderToReports(b, "map_picture = false") })
	b.Run("map", func(b *testing.B) { benchOrderToReports(b, "map_picture = true") })
}

func benchOrderToReports(b *testing.B, extra string) {
	acc := &accepted{ch: make(chan string, 64)}
	w := newWorld(b, &worldOptions{fault: acc.hook, extra: extra})
	w.join()
	for len(acc.ch) > 0 {
		<-acc.ch
	}
	var times []time.Duration
	for b.Loop() {
		g := w.gameNow()
		if g.Status != adjudicator.Playing {
			// The game is over: the next rounds play a new one.
			w.freshGame()
			g = w.gameNow()
		}
		from := german
		if g.Next.Side == rules.Allied {
			from = allied
		}
		raw, _ := message(from, "orders", fmt.Sprintf("GAME %s\nTOKEN %s\nIMPULSE %d-%d\n", w.game, w.tokens[from], g.Next.Day, g.Next.N))
		start := time.Now()
		if err := w.srv.Deliver(referee, raw); err != nil {
			b.Fatal(err)
		}
		got := map[string]bool{}
		for !got[german] || !got[allied] {
			select {
			case to := <-acc.ch:
				got[to] = true
			case <-time.After(10 * time.Second):
				b.Fatalf("no reports 10 s after the orders (%v)", got)
			}
		}
		times = append(times, time.Since(start))
		w.settle()
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "ms-median")
	b.ReportMetric(float64(times[len(times)-1].Microseconds())/1000, "ms-max")
}

// BenchmarkThousandGames: a daemon whose store holds 1,000 campaign games,
// each between players of its own, handles 200 order mails spread over
// them, from its start to the last report accepted: once with text reports
// alone, then with the map picture attached to every report
// (referee.map_picture), in the same run. Targets: the text run under 5 s,
// the run with pictures under 3 times the text run ("map/text"), and the
// daemon's peak resident size with pictures under 64 MB; the peak of its
// anonymous memory (the Go runtime's, which its soft limit bounds) is
// reported too, and of its file pages: the program's code and the store's
// pages bbolt maps (docs/mail.md gives the figures).
//
// The daemon runs in a process of its own; the embedded servers run in the
// test's, on the same cores. Their SMTP server (go-smtp, as for every
// other test) reads each report whole and counts it when it accepts it,
// and keeps none of them (embedded.Options.Discard): nothing reads them.
// Run it alone, it is heavy: go test ./mail -run '^$' -bench
// ThousandGames -benchtime 1x.
func BenchmarkThousandGames(b *testing.B) {
	var text, pics thousandRun
	for b.Loop() {
		text = thousandGames(b, "map_picture = false")
		pics = thousandGames(b, "map_picture = true")
	}
	b.ReportMetric(text.elapsed.Seconds(), "s-text")
	b.ReportMetric(pics.elapsed.Seconds(), "s-map")
	b.ReportMetric(pics.elapsed.Seconds()/text.elapsed.Seconds(), "map/text")
	// The daemon's CPU time: on a machine busy with other work the times
	// above swell, and their ratio with them; the CPU time much less.
	b.ReportMetric(text.cpu, "cpu-s-text")
	b.ReportMetric(pics.cpu, "cpu-s-map")
	b.ReportMetric(text.ownCPU, "cpu-s-test-text")
	b.ReportMetric(pics.ownCPU, "cpu-s-test-map")
	b.ReportMetric(text.peak, "MB-text-peak-rss")
	b.ReportMetric(text.anon, "MB-text-peak-anon")
	b.ReportMetric(text.file, "MB-text-peak-file")
	b.ReportMetric(pics.peak, "MB-map-peak-rss")
	b.ReportMetric(pics.anon, "MB-map-peak-anon")
	b.ReportMetric(pics.file, "MB-map-peak-file")
}

// thousandRun is what one run of the daemon of BenchmarkThousandGames took:
// its time, from its start to the last report accepted, its CPU time
// meanwhile (user and system, on all its threads), the test process's
// own CPU time meanwhile (its SMTP server reading the reports, mostly),
// and the daemon's peak resident size (VmHWM) and the peaks of its
// anonymous and file pages, in MB.
type thousandRun struct {
	elapsed          time.Duration
	cpu              float64 // the daemon's CPU time, in seconds
	ownCPU           float64 // the test process's, in seconds
	peak, anon, file float64
}

// playerOf is the address of the player of a side of the ith game of
// BenchmarkThousandGames: each game has its own two, so that the mails of
// different games go out in lanes of their own, as a daemon's do.
func playerOf(side rules.Side, i int) string {
	return fmt.Sprintf("%s-%d@test.example", strings.ToLower(string(side)), i)
}

func thousandGames(b *testing.B, extra string) thousandRun {
	const games, mails = 1000, 200
	var run thousandRun
	b.StopTimer()
	acc := &accepted{ch: make(chan string, 2*mails+16)}
	var users []string
	for i := range games {
		users = append(users, playerOf(rules.German, i), playerOf(rules.Allied, i))
	}
	// The SMTP server reads every mail whole, and counts it (acc), but
	// keeps none: nothing reads them, and 400 mails with pictures, 220
	// MB, held by this process cost it over a second of CPU in page
	// faults, taken from the daemon's two cores.
	discard := func(to string) bool { return to != referee }
	w := newWorld(b, &worldOptions{fault: acc.hook, discard: discard, noStart: true, extra: extra, users: users})
	addCampaignGames(b, w, "bench", games, playerOf)
	// The German orders of G16-1 in 200 games, every fifth one.
	for i := 0; i < mails; i++ {
		if err := w.srv.Deliver(referee, campaignOrders("bench", i*games/mails, playerOf)); err != nil {
			b.Fatal(err)
		}
	}
	// The daemon runs in a process of its own, so that its memory is
	// measured alone.
	w.st.Close()
	conf := filepath.Join(b.TempDir(), "titm.toml")
	os.WriteFile(conf, []byte(w.configText(extra)), 0o600)
	args := []string{"-test.run=^TestDaemonChild$", "-test.count=1"}
	// TITM_DAEMON_PROFILE=DIR profiles the daemon: its CPU and memory
	// profiles, as go test writes them, and its standard error, where it
	// then logs at debug level, go to DIR. (An execution trace, added
	// here with -test.trace, shows where the lanes wait; it costs the
	// daemon much, its collector above all.)
	if dir := os.Getenv("TITM_DAEMON_PROFILE"); dir != "" {
		args = append(args, "-test.cpuprofile="+filepath.Join(dir, "daemon.cpu"), "-test.memprofile="+filepath.Join(dir, "daemon.mem"))
	}
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "TITM_DAEMON_CONFIG="+conf)
	if dir := os.Getenv("TITM_DAEMON_PROFILE"); dir != "" {
		// And its standard error, where GODEBUG=gctrace=1 writes.
		if f, err := os.Create(filepath.Join(dir, "daemon.log")); err == nil {
			defer f.Close()
			cmd.Stderr = f
		}
	}
	b.StartTimer()
	start, own := time.Now(), ownCPU()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	peaks := sampleRSS(cmd.Process.Pid)
	// Two reports a mail, and the intro game's two welcomes.
	for n := 0; n < 2*mails+2; n++ {
		select {
		case <-acc.ch:
		case <-time.After(60 * time.Second):
			cmd.Process.Kill()
			b.Fatalf("%d of %d mails after 60 s", n, 2*mails+2)
		}
	}
	elapsed, ownTaken := time.Since(start), ownCPU()-own
	b.StopTimer()
	// The peak is read from the daemon's own status, not from its
	// rusage: a child started with vfork, as os/exec does, is charged
	// the parent's resident size at exec, and the parent holds the
	// mail servers and the games made for the test.
	peak := peakRSS(b, cmd.Process.Pid)
	anon, file := peaks()
	cpu := cpuSeconds(cmd.Process.Pid)
	cmd.Process.Signal(syscall.SIGTERM)
	cmd.Wait()
	run = thousandRun{elapsed, cpu, ownTaken, peak, anon, file}
	var err error
	if w.st, err = store.Open(w.db, nil); err != nil {
		b.Fatal(err)
	}
	defer w.st.Close()
	var played int
	w.st.View(func(tx *store.Tx) error {
		for i := 0; i < mails; i++ {
			g, _ := tx.Summary(fmt.Sprintf("bench-%d", i*games/mails))
			if g.Next.String() == "A16-1" {
				played++
			}
		}
		return nil
	})
	if played != mails {
		b.Fatalf("%d of %d games played their impulse", played, mails)
	}
	b.StartTimer()
	return run
}

// sampleRSS samples a process's resident memory every few milliseconds
// until the returned function is called, which gives the peaks seen of
// its two parts, in MB: anonymous (the Go heap, stacks and runtime, which
// the soft memory limit bounds) and file-backed (the program's code and
// the pages of the store file that bbolt maps and has read, which the
// kernel may drop and read again at will). The peak of their sum, VmHWM,
// may be below the sum of the peaks. It reads /proc/PID/statm, whose
// second and third fields are the resident pages and those of them that
// are files' (and shared memory's, which the daemon has none of): the
// process's status says the same in more words, at twice the CPU, taken
// from the cores the daemon runs on. The file is opened once and read
// again from its start each time, which the kernel answers with the
// figures of the moment: one system call a sample, not four.
func sampleRSS(pid int) (peaks func() (anon, file float64)) {
	stop := make(chan struct{})
	done := make(chan struct{})
	var anon, file int
	statm, err := os.Open(fmt.Sprintf("/proc/%d/statm", pid))
	go func() {
		defer close(done)
		if err != nil {
			return
		}
		defer statm.Close()
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		buf := make([]byte, 128)
		for {
			if n, err := statm.ReadAt(buf, 0); n > 0 && (err == nil || err == io.EOF) {
				if f := bytes.Fields(buf[:n]); len(f) >= 3 {
					res, _ := strconv.Atoi(string(f[1]))
					shared, _ := strconv.Atoi(string(f[2]))
					anon, file = max(anon, res-shared), max(file, shared)
				}
			}
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	return func() (float64, float64) {
		close(stop)
		<-done
		page := float64(os.Getpagesize()) / (1 << 20)
		return float64(anon) * page, float64(file) * page
	}
}

// cpuSeconds reads the CPU time a process has taken, user and system, in
// seconds, from /proc/PID/stat (its 14th and 15th fields, in clock ticks
// of 100 a second).
func cpuSeconds(pid int) float64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The command's name, in parentheses, may hold spaces: the fields
	// are counted after it.
	f := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+1:]))
	if len(f) < 13 {
		return 0
	}
	utime, _ := strconv.Atoi(f[11])
	stime, _ := strconv.Atoi(f[12])
	return float64(utime+stime) / 100
}

// ownCPU returns the CPU time the test's process has taken, user and
// system, in seconds.
func ownCPU() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

// peakRSS reads a process's peak resident size (VmHWM), in MB.
func peakRSS(b *testing.B, pid int) float64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Skipf("no /proc status for the daemon: %v", err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmHWM:" {
			kb, _ := strconv.Atoi(f[1])
			return float64(kb) / 1024
		}
	}
	b.Fatal("no VmHWM in the daemon's status")
	return 0
}

// freshGame makes the world's game a new one of the intro scenario, made
// by the operator, both players joined.
func (w *world) freshGame() {
	w.t.Helper()
	err := w.st.Update(func(tx *store.Tx) error {
		id, tokens, err := mail.NewGame(tx, gomail.Address{}, nil, acts.NewGame{Scenario: "intro",
			German: german, Allied: allied, Deadline: 48 * time.Hour}, time.Now())
		if err != nil {
			return err
		}
		w.game, w.tokens[german], w.tokens[allied] = id, tokens[rules.German], tokens[rules.Allied]
		return joinAll(tx, id)
	})
	if err != nil {
		w.t.Fatal(err)
	}
}
