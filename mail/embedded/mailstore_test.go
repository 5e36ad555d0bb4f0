package embedded

import (
	"path/filepath"
	"testing"
	"time"
)

// UIDVALIDITY comes from the clock, yet never repeats in a file nor goes
// down, even when the clock goes back between two starts (RFC 9051,
// 2.3.1.1).
func TestNewValidity(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mail.db")
	clock := time.Unix(1000, 0)
	now := func() time.Time { return clock }
	users := map[string]string{"a@x.test": "p", "b@x.test": "q"}
	validity := func(b *backend, user, name string) uint32 {
		t.Helper()
		mb := b.users[user].boxes[name]
		if mb == nil {
			t.Fatalf("%s has no %s", user, name)
		}
		return mb.validity
	}

	b, err := openBackend(path, users, []string{"processed"}, now)
	if err != nil {
		t.Fatal(err)
	}
	// Made together at the first start: one value, the clock's.
	for _, u := range []string{"a@x.test", "b@x.test"} {
		for _, name := range []string{"INBOX", "processed"} {
			if v := validity(b, u, name); v != 1000 {
				t.Errorf("%s %s: UIDVALIDITY %d, want 1000", u, name, v)
			}
		}
	}
	a := b.users["a@x.test"]
	for i, want := range []uint32{1001, 1002} { // the clock stands still
		if i > 0 {
			if err := b.delete(a, "x"); err != nil {
				t.Fatal(err)
			}
		}
		if err := b.create(a, "x"); err != nil {
			t.Fatal(err)
		}
		if v := validity(b, "a@x.test", "x"); v != want {
			t.Errorf("x made %d time(s): UIDVALIDITY %d, want %d", i+1, v, want)
		}
	}
	b.close()

	clock = time.Unix(500, 0) // set back
	if b, err = openBackend(path, users, []string{"processed", "new"}, now); err != nil {
		t.Fatal(err)
	}
	defer b.close()
	if v := validity(b, "a@x.test", "x"); v != 1002 {
		t.Errorf("x after a restart: UIDVALIDITY %d, want 1002", v)
	}
	if v := validity(b, "b@x.test", "new"); v != 1003 {
		t.Errorf("a folder made with the clock set back: UIDVALIDITY %d, want 1003", v)
	}
	clock = time.Unix(5000, 0)
	if err := b.create(b.users["b@x.test"], "later"); err != nil {
		t.Fatal(err)
	}
	if v := validity(b, "b@x.test", "later"); v != 5000 {
		t.Errorf("a folder made later: UIDVALIDITY %d, want 5000", v)
	}
}
