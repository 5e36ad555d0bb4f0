package embedded

import (
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
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

// STORE's three operations, with flags in any case and repeated: a
// message's flags stay lowercased, sorted and single, and a STORE that
// changes nothing says so (nothing is then written to the file).
func TestWithFlags(t *testing.T) {
	m := &message{flags: flagSet([]imap.Flag{`\Seen`, "$Label", `\seen`})}
	if want := []imap.Flag{"$label", `\seen`}; !slices.Equal(m.flags, want) {
		t.Fatalf("flags %q, want %q", m.flags, want)
	}
	for _, c := range []struct {
		op      imap.StoreFlagsOp
		flags   []imap.Flag
		want    []imap.Flag
		changed bool
	}{
		{imap.StoreFlagsAdd, []imap.Flag{`\SEEN`}, []imap.Flag{"$label", `\seen`}, false},
		{imap.StoreFlagsAdd, []imap.Flag{`\Deleted`, `\deleted`}, []imap.Flag{"$label", `\deleted`, `\seen`}, true},
		{imap.StoreFlagsDel, []imap.Flag{`\Seen`}, []imap.Flag{"$label"}, true},
		{imap.StoreFlagsDel, []imap.Flag{`\Flagged`}, []imap.Flag{"$label", `\seen`}, false},
		{imap.StoreFlagsSet, nil, nil, true},
		{imap.StoreFlagsSet, []imap.Flag{`\seen`, "$LABEL"}, []imap.Flag{"$label", `\seen`}, false},
	} {
		got, changed := m.withFlags(&imap.StoreFlags{Op: c.op, Flags: c.flags})
		if !slices.Equal(got, c.want) || changed != c.changed {
			t.Errorf("%v %q: %q, changed %v; want %q, %v", c.op, c.flags, got, changed, c.want, c.changed)
		}
	}
}
