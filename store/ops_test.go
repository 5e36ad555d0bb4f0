package store_test

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"titm/adjudicator"
	"titm/store"
)

// played fills a store with games of intro, each with a few impulses
// played, a processed message and a queued mail, and returns the ids.
func played(t testing.TB, s *store.Store, games, impulses int) []string {
	t.Helper()
	var ids []string
	for i := range games {
		err := s.Update(func(tx *store.Tx) error {
			g := makeGame(t, tx, "intro", secret(byte(i+1)))
			ids = append(ids, g.ID)
			for j := range impulses {
				if err := tx.SaveGame(g, playImpulse(t, g, t0.Add(time.Duration(j)*time.Hour))); err != nil {
					return err
				}
			}
			if err := tx.MarkProcessed(store.Processed{Mailbox: "INBOX", UIDValidity: 1, UID: uint32(i + 1), Digest: fmt.Sprintf("d%d", i),
				Game: g.ID, Time: t0, Outcome: "orders applied"}); err != nil {
				return err
			}
			return tx.Queue(&store.Mail{Game: g.ID, Kind: "report", MessageID: fmt.Sprintf("<m%d@test>", i), From: "r@example.test",
				To: []string{"g@example.test"}, Subject: "report", Data: []byte("Subject: report\r\n\r\ntext\r\n"), Created: t0})
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return ids
}

// A backup opens, checks clean, and holds every game as the store has it;
// it is private to its owner.
func TestBackup(t *testing.T) {
	t.Parallel()
	s, path := open(t)
	ids := played(t, s, 2, 3)
	dst := filepath.Join(t.TempDir(), "copy.db")
	if _, err := s.Backup(path); err == nil {
		t.Error("a backup onto the store itself was written")
	}
	n, err := s.Backup(dst)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(dst)
	if err != nil || fi.Size() != n || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the backup: %v, size %d of %d, mode %v", err, fi.Size(), n, fi.Mode())
	}
	b, err := store.Open(dst, &store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	r, err := b.Check()
	if err != nil || !r.OK() || r.Games != 2 || r.Replayed != 2 || r.Processed != 2 || r.Queued != 2 {
		t.Fatalf("check of the backup: %v %+v", err, r)
	}
	for _, id := range ids {
		var a, c *adjudicator.Game
		s.View(func(tx *store.Tx) error { a, _ = tx.Game(id); return nil })
		b.View(func(tx *store.Tx) error { c, _ = tx.Game(id); return nil })
		if a == nil || c == nil || a.Head != c.Head {
			t.Errorf("game %s: the backup differs from the store", id)
		}
	}
}

// Check finds each kind of damage written into a copy of a good store,
// naming the game or mail; the good copy checks clean.
func TestCheckFindsDamage(t *testing.T) {
	t.Parallel()
	s, _ := open(t)
	ids := played(t, s, 2, 3)
	game := []byte(ids[1])
	key := func(n uint64) []byte { var b [8]byte; binary.BigEndian.PutUint64(b[:], n); return b[:] }
	rec := func(tx *bolt.Tx, n uint64) (adjudicator.Record, *bolt.Bucket) {
		b := tx.Bucket([]byte("log")).Bucket(game)
		var r adjudicator.Record
		if err := json.Unmarshal(b.Get(key(n)), &r); err != nil {
			t.Fatal(err)
		}
		return r, b
	}
	put := func(b *bolt.Bucket, n uint64, r adjudicator.Record) {
		data, _ := json.Marshal(r)
		if err := b.Put(key(n), data); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name, want string
		damage     func(tx *bolt.Tx)
	}{
		{"nothing", "", func(*bolt.Tx) {}},
		{"a changed record", "record 4 was changed", func(tx *bolt.Tx) {
			r, b := rec(tx, 4)
			r.Text += "\nMOVE 1 TO 2"
			put(b, 4, r)
		}},
		{"a broken link", "record 4 does not follow record 3", func(tx *bolt.Tx) {
			r, b := rec(tx, 4)
			r.Prev = strings.Repeat("0", 64)
			r.Hash = adjudicator.RecordHash(r)
			put(b, 4, r)
		}},
		{"a position that differs from its replay", "its position differs from its log replayed", func(tx *bolt.Tx) {
			// The German VP changed in the stored position only.
			states := tx.Bucket([]byte("states"))
			var st map[string]any
			if err := json.Unmarshal(states.Get(game), &st); err != nil {
				t.Fatal(err)
			}
			st["vp"] = 99
			data, _ := json.Marshal(st)
			states.Put(game, data)
		}},
		{"a queued mail without its message", "mail 2: it is queued without its message", func(tx *bolt.Tx) {
			tx.Bucket([]byte("mail-data")).Delete(key(2))
		}},
		{"a queued mail out of the queue", "mail 1: it is queued, but not in the queue's index", func(tx *bolt.Tx) {
			tx.Bucket([]byte("queue")).Delete(key(1))
		}},
		{"a processed record changed", "processed INBOX/00000001/00000002: the record says", func(tx *bolt.Tx) {
			b := tx.Bucket([]byte("processed"))
			k := []byte("INBOX/00000001/00000002")
			var p map[string]any
			json.Unmarshal(b.Get(k), &p)
			p["uid"] = 7
			data, _ := json.Marshal(p)
			b.Put(k, data)
		}},
		{"a digest pointing nowhere", "it points to the processed record", func(tx *bolt.Tx) {
			tx.Bucket([]byte("message-digests")).Put([]byte("stray"), []byte("INBOX/00000001/000000ff"))
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dst := filepath.Join(t.TempDir(), "copy.db")
			if _, err := s.Backup(dst); err != nil {
				t.Fatal(err)
			}
			db, err := bolt.Open(dst, 0o600, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := db.Update(func(tx *bolt.Tx) error { c.damage(tx); return nil }); err != nil {
				t.Fatal(err)
			}
			db.Close()
			b, err := store.Open(dst, &store.Options{ReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			r, err := b.Check()
			if err != nil {
				t.Fatal(err)
			}
			if c.want == "" {
				if !r.OK() {
					t.Errorf("problems in a good store: %v", r.Problems)
				}
				return
			}
			var found bool
			for _, p := range r.Problems {
				found = found || strings.Contains(p.String(), c.want)
			}
			if !found {
				t.Errorf("want a problem %q, got %v", c.want, r.Problems)
			}
		})
	}
}

// Compact keeps every game and record while a writer goes on, and the
// store opens again on the compacted file.
func TestCompact(t *testing.T) {
	s, path := open(t)
	ids := played(t, s, 3, 4)
	// Free pages: mails sent drop their messages.
	s.Update(func(tx *store.Tx) error {
		q, _ := tx.Outbox(store.MailQueued)
		for _, m := range q {
			m.Status, m.Sent = store.MailSent, t0
			if err := tx.PutMail(m); err != nil {
				return err
			}
		}
		return nil
	})
	var wg sync.WaitGroup
	var writes atomic.Int64
	stop := make(chan struct{})
	wg.Go(func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			err := s.Update(func(tx *store.Tx) error { return tx.SetMeta("counter", fmt.Sprint(i)) })
			if err != nil {
				t.Errorf("a write during the compaction: %v", err)
				return
			}
			writes.Add(1)
		}
	})
	// Another process opening the store meanwhile finds it locked at
	// every moment, the swap's too: it never gets a file being replaced.
	var opened atomic.Int64
	wg.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			if other, err := store.Open(path, &store.Options{Timeout: time.Millisecond}); err == nil {
				opened.Add(1)
				other.Close()
			}
		}
	})
	before, after, err := s.Compact()
	close(stop)
	wg.Wait()
	if n := opened.Load(); n > 0 {
		t.Errorf("the store was opened %d time(s) by another during the compaction", n)
	}
	if err != nil {
		t.Fatal(err)
	}
	if before <= 0 || after <= 0 || after > before {
		t.Errorf("sizes before %d, after %d", before, after)
	}
	t.Logf("compacted %d -> %d bytes, %d writes meanwhile", before, after, writes.Load())
	r, err := s.Check()
	if err != nil || !r.OK() || r.Games != len(ids) || r.Processed != len(ids) || r.Mails != len(ids) {
		t.Fatalf("after compaction: %v %+v", err, r)
	}
	var counter string
	s.View(func(tx *store.Tx) error { counter = tx.Meta("counter"); return nil })
	if counter != fmt.Sprint(writes.Load()-1) {
		t.Errorf("the last write kept is %q of %d", counter, writes.Load())
	}
	// It goes on: a game played and the file reopened.
	if err := s.Update(func(tx *store.Tx) error {
		g, err := tx.Game(ids[0])
		if err != nil {
			return err
		}
		return tx.SaveGame(g, playImpulse(t, g, t0.Add(9*time.Hour)))
	}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := os.Stat(path + ".compact"); err == nil {
		t.Error("the compaction's copy is left beside the store")
	}
	s2, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if r, err := s2.Check(); err != nil || !r.OK() {
		t.Errorf("reopened: %v %+v", err, r)
	}
}
