package store_test

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"titm/store"
)

// mappedKB is how much of the file at path the process holds mapped and
// resident, in kB, from /proc/self/smaps.
func mappedKB(t *testing.T, path string) int {
	t.Helper()
	data, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Skipf("no /proc/self/smaps: %v", err)
	}
	kb, on := 0, false
	for _, l := range strings.Split(string(data), "\n") {
		f := strings.Fields(l)
		switch {
		case len(f) >= 5 && strings.Contains(f[0], "-"):
			on = f[len(f)-1] == path
		case on && len(f) >= 2 && f[0] == "Rss:":
			n, _ := strconv.Atoi(f[1])
			kb += n
		}
	}
	return kb
}

// The pages a transaction reads are unmapped after it ends, and a listing
// of every game unmaps them as it goes: the daemon's resident size is not
// the part of the store it has read.
func TestReadsLeaveNoPagesMapped(t *testing.T) {
	s, path := open(t)
	var ids []string
	for range 4 {
		err := s.Update(func(tx *store.Tx) error {
			for range 40 {
				ids = append(ids, makeGame(t, tx, "campaign", secret(1)).ID)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	var during, listing int
	err := s.View(func(tx *store.Tx) error {
		for _, id := range ids {
			if _, err := tx.Game(id); err != nil {
				return err
			}
		}
		during = mappedKB(t, path)
		games, err := tx.Games()
		if len(games) != len(ids) {
			return fmt.Errorf("%d games listed, want %d (%v)", len(games), len(ids), err)
		}
		listing = mappedKB(t, path)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	// The transactions release at most every ReleaseEvery: the next one
	// after that releases what the last read.
	time.Sleep(store.ReleaseEvery + 10*time.Millisecond)
	s.View(func(*store.Tx) error { return nil })
	after := mappedKB(t, path)
	t.Logf("mapped: %d kB after reading %d games, %d kB after listing them, %d kB after the transaction", during, len(ids), listing, after)
	if during < 1024 {
		t.Skipf("reading %d games mapped only %d kB of the file: nothing to unmap", len(ids), during)
	}
	if listing > during/2 {
		t.Errorf("listing the games left %d kB mapped, of the %d kB read before", listing, during)
	}
	if after > 64 {
		t.Errorf("%d kB of the file still mapped after the transaction, want none", after)
	}
}
