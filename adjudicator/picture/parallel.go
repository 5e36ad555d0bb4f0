package picture

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// parallel runs task(w, i) for every i in [0, n) on k goroutines, w being
// the goroutine's number, below k: a task may use scratch space of its own
// by it. k is workers(n), worked out once by the caller, who sizes the
// scratch space by it. The tasks must not depend on one another nor on
// which goroutine runs them, so that what they make does not depend on the
// number of goroutines either.
func parallel(k, n int, task func(w, i int)) {
	if k <= 1 {
		for i := range n {
			task(0, i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range k {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				task(w, i)
			}
		})
	}
	wg.Wait()
}

// workers is how many goroutines to run n tasks on: GOMAXPROCS, at most.
func workers(n int) int { return max(1, min(n, runtime.GOMAXPROCS(0))) }
