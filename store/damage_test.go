package store_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"titm/store"
)

// damage changes a copy of a good file: at an offset, or by a function
// of the file's bytes and its pages in use.
func damaged(t *testing.T, good string, change func(data []byte, live []int, ps int) []byte) string {
	t.Helper()
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	live, ps, err := store.LivePages(good)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "damaged.db")
	if err := os.WriteFile(path, change(data, live, ps), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// find returns the offset of b in a page in use (a free page may hold
// an older copy).
func find(t *testing.T, data, b []byte, live []int, ps int) int {
	t.Helper()
	for _, id := range live {
		if i := bytes.Index(data[id*ps:(id+1)*ps], b); i >= 0 {
			return id*ps + i
		}
	}
	t.Fatalf("%q is not in a page in use", b)
	return 0
}

// checkFinds opens a damaged store and checks that Open, or else Verify and
// Check, report a problem containing want.
func checkFinds(t *testing.T, path, want string) {
	t.Helper()
	s, err := store.Open(path, &store.Options{ReadOnly: true})
	if err != nil {
		if !errors.Is(err, store.ErrDamaged) || !strings.Contains(err.Error(), want) {
			t.Fatalf("Open: %v; want damage naming %q", err, want)
		}
		return
	}
	defer s.Close()
	for name, check := range map[string]func() (*store.CheckReport, error){"Verify": s.Verify, "Check": s.Check} {
		r, err := check()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var found bool
		for _, p := range r.Problems {
			found = found || strings.Contains(p.String(), want)
		}
		if !found {
			t.Errorf("%s: want a problem naming %q, got %v", name, want, r.Problems)
		}
	}
}

// A file cut short is refused before bbolt maps it, saying how much is
// missing and what to do; the file is not changed.
func TestTruncated(t *testing.T) {
	good := small(t)
	path := damaged(t, good, func(data []byte, _ []int, _ int) []byte { return data[:len(data)*6/10] })
	for _, ro := range []bool{true, false} {
		_, err := store.Open(path, &store.Options{ReadOnly: ro, Backups: "/var/backups/titm"})
		if !errors.Is(err, store.ErrDamaged) {
			t.Fatalf("read-only %v: %v, want ErrDamaged", ro, err)
		}
		for _, w := range []string{"cut short", "are missing", "/var/backups/titm", "titm check-store", "docs/operating.md"} {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("the error %q does not say %q", err, w)
			}
		}
	}
	if fi, _ := os.Stat(path); fi.Size() != int64(len(mustRead(t, good)))*6/10 {
		t.Error("the file was changed")
	}
}

func mustRead(t *testing.T, path string) []byte {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// An empty file is named as one, by a read-only and a read-write open;
// a missing file is made by a read-write open.
func TestEmptyFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "empty.db")
	os.WriteFile(path, nil, 0o600)
	for _, ro := range []bool{true, false} {
		_, err := store.Open(path, &store.Options{ReadOnly: ro})
		if !errors.Is(err, store.ErrDamaged) || !strings.Contains(err.Error(), "it is empty (0 bytes)") {
			t.Errorf("read-only %v: %v", ro, err)
		}
	}
	s, err := store.Open(filepath.Join(t.TempDir(), "new.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if r, err := s.Check(); err != nil || !r.OK() || r.Version != store.Version {
		t.Errorf("a new store: %v %+v", err, r)
	}
	s.Close()
}

// A store copied in with mode 0644 is made 0600 when opened, and the log
// says so.
func TestLooseMode(t *testing.T) {
	path := small(t)
	os.Chmod(path, 0o644)
	var log bytes.Buffer
	s, err := store.Open(path, &store.Options{Logger: slog.New(slog.NewTextHandler(&log, nil))})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v after open", fi.Mode().Perm())
	}
	if !strings.Contains(log.String(), "its mode is now 0600") || !strings.Contains(log.String(), "was=0644") {
		t.Errorf("the log: %s", log.String())
	}
}

// A leaf page of a game's log whose header's flags are changed is named
// by Verify and Check; a read that bbolt makes on it (it trusts the
// header and panics) is a *DamageError naming the page, not a panic.
func TestPageFlags(t *testing.T) {
	good := small(t)
	var page int
	path := damaged(t, good, func(data []byte, live []int, ps int) []byte {
		page = find(t, data, []byte(`"text":"IMPULSE`), live, ps) / ps
		data[page*ps+8] ^= 0x02 | 0x04 // leaf -> meta
		return data
	})
	want := fmt.Sprintf("page %d: damaged", page)
	checkFinds(t, path, want)
	s, err := store.Open(path, &store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	err = s.View(func(tx *store.Tx) error { _, err := tx.Log("intro-1"); return err })
	var de *store.DamageError
	if !errors.As(err, &de) || !strings.Contains(err.Error(), fmt.Sprintf("page %d", page)) || !strings.Contains(err.Error(), "restore") {
		t.Errorf("reading the games: %v", err)
	}
}

// The key token_hash of a game's player changed on the disk to token_has\x97
// is found and named with its game (the player could not be
// authenticated again): by the sums, and by the record's schema.
func TestTokenHashKey(t *testing.T) {
	good := small(t)
	path := damaged(t, good, func(data []byte, live []int, ps int) []byte {
		at := find(t, data, []byte(`{"id":"intro-1","scenario"`), live, ps)
		i := at + bytes.Index(data[at:], []byte(`"token_hash"`))
		data[i+10] = 0x97
		return data
	})
	checkFinds(t, path, "game intro-1: the value of \"intro-1\" in the bucket \"games\" does not match its sum")
	// The record's schema names the key, were the sum rewritten.
	checkFinds(t, path, `game intro-1: its record cannot be read: json: unknown field "token_has`)
}

// A branch page's element with its key one byte longer or shorter is
// found, naming the page: a Get by the key would go down the wrong way.
func TestBranchKeySize(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "many.db")
	s, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = s.Update(func(tx *store.Tx) error {
		for i := range 400 {
			if err := tx.MarkProcessed(store.Processed{Mailbox: "INBOX", UIDValidity: 1, UID: uint32(i + 1), Time: t0, Outcome: "ignored"}); err != nil {
				return err
			}
		}
		return nil
	})
	s.Close()
	if err != nil {
		t.Fatal(err)
	}
	for _, by := range []int{1, -1} {
		var page int
		bad := damaged(t, path, func(data []byte, live []int, ps int) []byte {
			for _, id := range live {
				if id > 1 && binary.LittleEndian.Uint16(data[id*ps+8:]) == 0x01 {
					page = id
					data[page*ps+16+16+4] += byte(by) // element 1's ksize
					return data
				}
			}
			t.Fatal("no branch page")
			return nil
		})
		if by > 0 {
			checkFinds(t, bad, fmt.Sprintf("page %d", page))
			continue
		}
		// Shorter, the key may still part the same keys (no key of the
		// store lies between it and what it was): then the store reads
		// the same, every key found by Get.
		if same(t, path, bad) {
			t.Logf("a branch key one byte shorter parts the same keys")
			continue
		}
		checkFinds(t, bad, fmt.Sprintf("page %d", page))
	}
}

// same reports whether two files read the same and the second checks
// clean.
func same(t *testing.T, a, b string) bool {
	t.Helper()
	sa, err := store.Open(a, &store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer sa.Close()
	sb, err := store.Open(b, &store.Options{ReadOnly: true})
	if err != nil {
		return false
	}
	defer sb.Close()
	ma, _ := sa.Meaning()
	mb, err := sb.Meaning()
	return err == nil && ma == mb
}

// The migration of an older store is logged, from, to and the time it
// took; a read-only open of it says how to migrate; the store migrated
// checks clean.
func TestMigrationLogged(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "old.db")
	os.WriteFile(path, mustRead(t, fixtureV1), 0o600)
	_, err := store.Open(path, &store.Options{ReadOnly: true})
	if err == nil || !strings.Contains(err.Error(), "run titm migrate-store --db "+path+" once (or start titm serve once") {
		t.Errorf("a read-only open of an old store: %v", err)
	}
	var log bytes.Buffer
	s, err := store.Open(path, &store.Options{Logger: slog.New(slog.NewTextHandler(&log, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if l := log.String(); !strings.Contains(l, "store: schema migrated") || !strings.Contains(l, "from=1") ||
		!strings.Contains(l, fmt.Sprintf("to=%d", store.Version)) || !strings.Contains(l, "took=") {
		t.Errorf("the log: %s", l)
	}
	if r, err := s.Check(); err != nil || !r.OK() || r.Replayed != 1 {
		t.Errorf("the store migrated: %v %+v", err, r)
	}
	log.Reset()
	s.Close()
	again, err := store.Open(path, &store.Options{Logger: slog.New(slog.NewTextHandler(&log, nil))})
	if err != nil {
		t.Fatal(err)
	}
	again.Close()
	if log.Len() > 0 {
		t.Errorf("a store of this version is logged as migrated: %s", log.String())
	}
}

// A freelist page whose count is changed, which bbolt reads when it opens
// the file for writing, is named, not a crash; read-only, Verify names it.
func TestFreelistCount(t *testing.T) {
	good := small(t)
	path := damaged(t, good, func(data []byte, live []int, ps int) []byte {
		for _, id := range live {
			if binary.LittleEndian.Uint16(data[id*ps+8:]) == 0x10 {
				binary.LittleEndian.PutUint16(data[id*ps+10:], 0xFFFF)
				binary.LittleEndian.PutUint64(data[id*ps+16:], 1<<40)
				return data
			}
		}
		t.Fatal("no freelist page")
		return nil
	})
	_, err := store.Open(path, nil)
	if !errors.Is(err, store.ErrDamaged) || !strings.Contains(err.Error(), "damaged") {
		t.Errorf("a read-write open: %v", err)
	}
	checkFinds(t, path, "the freelist counts")
}

// A write that meets a damaged page is a *DamageError, the transaction
// rolled back, and the store goes on: another write commits.
func TestWriteOnDamage(t *testing.T) {
	good := small(t)
	path := damaged(t, good, func(data []byte, live []int, ps int) []byte {
		page := find(t, data, []byte(`"text":"IMPULSE`), live, ps) / ps
		data[page*ps+8] = 0x06
		return data
	})
	s, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	err = s.Update(func(tx *store.Tx) error {
		g, err := tx.Game("intro-1")
		if err != nil {
			return err
		}
		return tx.SaveGame(g, playImpulse(t, g, t0.Add(9*time.Hour)))
	})
	if !errors.Is(err, store.ErrDamaged) {
		t.Fatalf("a write on a damaged page: %v", err)
	}
	err = s.Update(func(tx *store.Tx) error { return tx.SetMeta("after", "yes") })
	if err != nil {
		t.Fatalf("a write after: %v", err)
	}
	s.View(func(tx *store.Tx) error {
		if tx.Meta("after") != "yes" {
			t.Error("the write after was lost")
		}
		return nil
	})
}
