// Package waitfor waits, in tests, for a condition that another goroutine
// or process brings about: it asks again and again, a little less often
// each time, until the condition holds or the time allowed runs out. The
// time allowed guards against a hang; it is never a measure of speed.
package waitfor

import (
	"testing"
	"time"
)

// pause bounds the wait between two asks of a condition: the first follows
// at once, then they spread out up to the last.
const (
	firstPause = time.Millisecond
	lastPause  = 20 * time.Millisecond
)

// Until asks cond until it reports true, and fails the test when timeout
// passes first, saying what it waited for: what reads as the end of "waited
// 15s for ...", as "the referee's INBOX to be empty".
func Until(t testing.TB, timeout time.Duration, cond func() bool, what string) {
	t.Helper()
	if !Within(timeout, cond) {
		t.Fatalf("waited %s for %s, in vain", timeout, what)
	}
}

// Within asks cond until it reports true, or timeout passes, and reports
// whether it came true: for a test whose failure says more than Until can,
// as what it saw last.
func Within(timeout time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(timeout)
	pause := firstPause
	for {
		if cond() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(pause)
		pause = min(2*pause, lastPause)
	}
}
