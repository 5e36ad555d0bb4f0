package waitfor_test

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"titm/internal/waitfor"
)

// recorder is a testing.TB that keeps what a failure said instead of
// failing the test that uses it.
type recorder struct {
	testing.TB
	failed string
}

func (r *recorder) Helper()                           {}
func (r *recorder) Fatalf(format string, args ...any) { r.failed = fmt.Sprintf(format, args...) }

func TestUntilComes(t *testing.T) {
	t.Parallel()
	var n atomic.Int32
	go func() {
		for range 5 {
			time.Sleep(2 * time.Millisecond)
			n.Add(1)
		}
	}()
	r := &recorder{TB: t}
	waitfor.Until(r, time.Minute, func() bool { return n.Load() == 5 }, "five")
	if r.failed != "" {
		t.Errorf("a condition that came true failed: %s", r.failed)
	}
}

func TestUntilNever(t *testing.T) {
	t.Parallel()
	asked := 0
	r := &recorder{TB: t}
	waitfor.Until(r, 30*time.Millisecond, func() bool { asked++; return false }, "the moon")
	if !strings.Contains(r.failed, "the moon") || !strings.Contains(r.failed, "30ms") {
		t.Errorf("the failure says %q, want what was awaited and for how long", r.failed)
	}
	if asked < 2 {
		t.Errorf("the condition was asked %d times in 30 ms", asked)
	}
}

func TestWithin(t *testing.T) {
	t.Parallel()
	if !waitfor.Within(time.Second, func() bool { return true }) {
		t.Error("a condition true at once was not met")
	}
	start := time.Now()
	if waitfor.Within(10*time.Millisecond, func() bool { return false }) {
		t.Error("a condition never true was met")
	}
	if time.Since(start) < 10*time.Millisecond {
		t.Error("Within gave up before its time")
	}
}
