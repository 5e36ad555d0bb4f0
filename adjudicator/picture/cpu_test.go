package picture

import (
	"syscall"
	"testing"
	"time"
)

// cpuTime is the CPU time the process has used, user and system, on every
// thread.
func cpuTime(t testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatalf("reading the CPU time used: %v", err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// cpuMeter reports the CPU time a benchmark's loop costs per op, as
// "cpu-ms/op": on several cores a render's wall time (ns/op) is less than
// its CPU time, and the budget is of CPU. Call it before the loop and the
// function it returns after.
func cpuMeter(b *testing.B) func() {
	start := cpuTime(b)
	return func() {
		b.ReportMetric(float64(cpuTime(b)-start)/1e6/float64(b.N), "cpu-ms/op")
	}
}
