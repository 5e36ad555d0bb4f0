package store_test

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"titm/adjudicator"
	"titm/internal/playtest"
	"titm/rules"
	"titm/rules/scenarios"
	"titm/store"
)

var t0 = time.Date(2026, 12, 16, 5, 30, 0, 0, time.UTC)

// open opens a new store under t.TempDir and closes it at the end of the
// test.
func open(t testing.TB) (*store.Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "titm.db")
	s, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, path
}

// makeGame makes a game of the scenario with both players joined, the way
// the daemon and `titm new` do.
func makeGame(t testing.TB, tx *store.Tx, scenario string, secret []byte) *adjudicator.Game {
	t.Helper()
	s, files, main, err := scenarios.LoadFiles(scenario)
	if err != nil {
		t.Fatal(err)
	}
	id, err := tx.NewID(scenario)
	if err != nil {
		t.Fatal(err)
	}
	g, recs, err := adjudicator.New(adjudicator.Options{ID: id, Scenario: s, Files: files, Main: main,
		German: "g@example.test", Allied: "a@example.test", Deadline: 72 * time.Hour,
		Tokens: map[rules.Side]string{rules.German: "gggg-gggg-gggg", rules.Allied: "aaaa-aaaa-aaaa"},
		Secret: secret, Now: t0})
	if err != nil {
		t.Fatal(err)
	}
	for _, side := range []rules.Side{rules.German, rules.Allied} {
		r, err := g.Join(side, string(side), t0)
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, r...)
	}
	if err := tx.CreateGame(g, recs); err != nil {
		t.Fatal(err)
	}
	return g
}

// playImpulse plays the impulse in play with every unit that may move
// moving, or attacking where it can.
func playImpulse(t testing.TB, g *adjudicator.Game, now time.Time) []adjudicator.Record {
	t.Helper()
	s, err := g.Rules()
	if err != nil {
		t.Fatal(err)
	}
	text, err := playtest.EveryAttack(s, g.State)
	if err != nil {
		t.Fatal(err)
	}
	recs, _, err := g.Submit(g.State.Next.Side, fmt.Sprintf("IMPULSE %d-%d\n%s", g.State.Next.Day, g.State.Next.N, text), now)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func secret(b byte) []byte { return bytes.Repeat([]byte{b}, adjudicator.SeedSize) }

// A game stored, read back with its secret, played on and stored again
// keeps its log whole.
func TestGameRoundTrip(t *testing.T) {
	s, path := open(t)
	var id string
	err := s.Update(func(tx *store.Tx) error {
		id = makeGame(t, tx, "intro", secret(1)).ID
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if id != "intro-1" {
		t.Errorf("first id %q", id)
	}
	for i := 0; i < 3; i++ {
		err := s.Update(func(tx *store.Tx) error {
			g, err := tx.Game(id)
			if err != nil {
				return err
			}
			return tx.SaveGame(g, playImpulse(t, g, t0.Add(time.Duration(i)*time.Hour)))
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	s, err = store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	err = s.View(func(tx *store.Tx) error {
		g, err := tx.Game(id)
		if err != nil {
			return err
		}
		log, err := tx.Log(id)
		if err != nil {
			return err
		}
		if len(log) != g.Log || log[len(log)-1].Hash != g.Head || g.State.Next.String() != "A16-2" {
			t.Errorf("log of %d records, game at %d, next %s", len(log), g.Log, g.State.Next)
		}
		if _, err := adjudicator.Replay(g.Header(), log, g.Secret()); err != nil {
			t.Errorf("the stored log does not replay: %v", err)
		}
		games, err := tx.Games()
		if err != nil || len(games) != 1 {
			t.Errorf("games: %v, %d", err, len(games))
		}
		if _, err := tx.Game("intro-9"); !errors.Is(err, store.ErrNoGame) {
			t.Errorf("a missing game: %v", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Records that do not follow the log are refused, and the transaction
// keeps nothing.
func TestSaveGameOrder(t *testing.T) {
	s, _ := open(t)
	s.Update(func(tx *store.Tx) error { makeGame(t, tx, "intro", secret(1)); return nil })
	err := s.Update(func(tx *store.Tx) error {
		g, _ := tx.Game("intro-1")
		recs := playImpulse(t, g, t0)
		recs[0].Seq++
		return tx.SaveGame(g, recs)
	})
	if !errors.Is(err, store.ErrLogOrder) {
		t.Errorf("a record out of order: %v", err)
	}
	err = s.Update(func(tx *store.Tx) error {
		g, _ := tx.Game("intro-1")
		playImpulse(t, g, t0)
		return tx.SaveGame(g, nil) // the game moved on, the log did not
	})
	if !errors.Is(err, store.ErrLogOrder) {
		t.Errorf("a game ahead of its log: %v", err)
	}
	s.View(func(tx *store.Tx) error {
		g, _ := tx.Game("intro-1")
		if g.State.Next.String() != "G16-1" {
			t.Errorf("a refused change was kept: next %s", g.State.Next)
		}
		return nil
	})
}

// A second process on the same file is refused at once, with a message
// that says why.
func TestLocked(t *testing.T) {
	_, path := open(t)
	_, err := store.Open(path, &store.Options{Timeout: 50 * time.Millisecond})
	if !errors.Is(err, store.ErrLocked) || !strings.Contains(err.Error(), "in use by another titm process") {
		t.Errorf("second open: %v", err)
	}
}

// A file that is not a titm store, or one from a newer titm, is refused and
// left as it was.
func TestForeignAndNewer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	text := filepath.Join(dir, "notes.txt")
	os.WriteFile(text, bytes.Repeat([]byte("not a database\n"), 500), 0o600)
	if _, err := store.Open(text, nil); !errors.Is(err, store.ErrForeign) {
		t.Errorf("a text file: %v", err)
	}
	if data, _ := os.ReadFile(text); !bytes.HasPrefix(data, []byte("not a database")) {
		t.Error("the text file was changed")
	}
	other := filepath.Join(dir, "other.db")
	db, err := bolt.Open(other, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	db.Update(func(tx *bolt.Tx) error { _, err := tx.CreateBucket([]byte("widgets")); return err })
	db.Close()
	if _, err := store.Open(other, nil); !errors.Is(err, store.ErrForeign) {
		t.Errorf("another program's bbolt file: %v", err)
	}
	_, path := open(t)
	newer := filepath.Join(dir, "newer.db")
	copyClosed(t, path, newer)
	db, err = bolt.Open(newer, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	db.Update(func(tx *bolt.Tx) error {
		var v [8]byte
		binary.BigEndian.PutUint64(v[:], store.Version+1)
		return tx.Bucket([]byte("meta")).Put([]byte("version"), v[:])
	})
	db.Close()
	if _, err := store.Open(newer, nil); !errors.Is(err, store.ErrNewer) {
		t.Errorf("a newer store: %v", err)
	}
}

// copyClosed copies a store that is open in this process: bbolt writes
// through to the file at every commit.
func copyClosed(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// B10: the game's secret seed is in no bucket but the secrets bucket, in hex
// or raw, until the game ends; then it is in the finished record.
func TestSeedOnlyInSecrets(t *testing.T) {
	s, path := open(t)
	seed := secret(0xc3)
	s.Update(func(tx *store.Tx) error { makeGame(t, tx, "intro", seed); return nil })
	for i := 0; i < 6; i++ {
		s.Update(func(tx *store.Tx) error {
			g, _ := tx.Game("intro-1")
			return tx.SaveGame(g, playImpulse(t, g, t0.Add(time.Duration(i)*time.Hour)))
		})
	}
	s.Close()
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]bool{}
	db.View(func(tx *bolt.Tx) error {
		var walk func(name string, b *bolt.Bucket)
		walk = func(name string, b *bolt.Bucket) {
			b.ForEach(func(k, v []byte) error {
				if v == nil {
					walk(name+"/"+string(k), b.Bucket(k))
					return nil
				}
				low := bytes.ToLower(v)
				if bytes.Contains(v, seed) || bytes.Contains(low, []byte(hex.EncodeToString(seed))) {
					found[name] = true
				}
				return nil
			})
		}
		return tx.ForEach(func(name []byte, b *bolt.Bucket) error { walk(string(name), b); return nil })
	})
	db.Close()
	if len(found) != 1 || !found["secrets"] {
		t.Errorf("the seed is found in %v, want only in secrets", found)
	}
}

// Processed messages are found by mailbox, UIDVALIDITY and UID, or by
// digest, never by a Message-ID alone; the outbox keeps mails by status and
// finds them by Message-ID.
func TestMessagesAndOutbox(t *testing.T) {
	s, _ := open(t)
	err := s.Update(func(tx *store.Tx) error {
		if err := tx.MarkProcessed(store.Processed{Mailbox: "INBOX", UIDValidity: 7, UID: 12, MessageID: "a@b", Digest: "d1", Game: "intro-1", Time: t0, Outcome: "orders applied"}); err != nil {
			return err
		}
		for _, to := range []string{"g@example.test", "a@example.test"} {
			if err := tx.Queue(&store.Mail{Game: "intro-1", MessageID: "report-" + to, From: "ref@example.test", To: []string{to}, Subject: "report", Data: []byte("Subject: report\r\n\r\nhi\r\n"), Created: t0}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	s.View(func(tx *store.Tx) error {
		for _, c := range []struct {
			uv, uid uint32
			digest  string
			want    bool
		}{{7, 12, "", true}, {8, 12, "d1", true}, {8, 12, "d2", false}, {8, 12, "a@b", false}, {7, 13, "", false}} {
			p, ok, err := tx.WasProcessed("INBOX", c.uv, c.uid, c.digest)
			if err != nil || ok != c.want || ok && p.Outcome != "orders applied" {
				t.Errorf("%+v: %v %v %v", c, p, ok, err)
			}
		}
		q, _ := tx.Outbox(store.MailQueued)
		if len(q) != 2 || q[0].ID != 1 || q[1].ID != 2 {
			t.Errorf("outbox %v", q)
		}
		if m, err := tx.MailByMessageID("report-a@example.test"); err != nil || m == nil || m.ID != 2 {
			t.Errorf("the mail by its Message-ID: %+v, %v", m, err)
		}
		if m, err := tx.MailByMessageID("nosuch@example.test"); err != nil || m != nil {
			t.Errorf("a Message-ID never sent: %+v, %v", m, err)
		}
		return nil
	})
	s.Update(func(tx *store.Tx) error {
		q, _ := tx.Outbox(store.MailQueued)
		q[0].Status, q[0].Attempts = store.MailSent, 1
		return tx.PutMail(q[0])
	})
	s.View(func(tx *store.Tx) error {
		q, _ := tx.Outbox(store.MailQueued)
		if len(q) != 1 {
			t.Errorf("%d queued after one was sent", len(q))
		}
		// A queued mail's message is kept apart, and dropped once sent.
		if got := string(tx.MailData(q[0].ID)); !strings.HasPrefix(got, "Subject: report") || len(q[0].Data) != 0 {
			t.Errorf("the queued mail's message: %q, record %q", got, q[0].Data)
		}
		if got := tx.MailData(1); len(got) != 0 {
			t.Errorf("the sent mail's message is kept: %q", got)
		}
		return nil
	})
}

// BenchmarkAppendImpulse stores one impulse of the campaign (the game read,
// written back and its log record appended), with fsync. Target: under 2 ms.
// The nosync run shows what the disk's fsync costs.
func BenchmarkAppendImpulse(b *testing.B) {
	b.Run("fsync", func(b *testing.B) { benchAppend(b, nil) })
	b.Run("nosync", func(b *testing.B) { benchAppend(b, &store.Options{NoSync: true}) })
}

func benchAppend(b *testing.B, opt *store.Options) {
	s, err := store.Open(filepath.Join(b.TempDir(), "titm.db"), opt)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	var g *adjudicator.Game
	s.Update(func(tx *store.Tx) error { g = makeGame(b, tx, "campaign", secret(1)); return nil })
	recs := playImpulse(b, g, t0)
	seq, prev := g.Log-len(recs), recs[0].Prev
	b.ReportAllocs()
	for b.Loop() {
		err := s.Update(func(tx *store.Tx) error {
			// The impulse's record, rewritten at the log's end each time,
			// and the game read and written as the daemon does.
			h, err := tx.Game(g.ID)
			if err != nil {
				return err
			}
			r := recs[0]
			r.Seq, r.Prev = seq, prev
			r.Hash = adjudicator.RecordHash(r)
			h.State, h.Log, h.Head = g.State, r.Seq+1, r.Hash
			seq, prev = seq+1, r.Hash
			return tx.SaveGame(h, []adjudicator.Record{r})
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}

// A store of schema version 6 opens migrated to 7: its mails are found by
// their Message-ID, the index of processed messages by Message-ID is gone
// (a Message-ID alone identifies no message), and the messages processed
// are still known by their UID.
func TestMigrate6(t *testing.T) {
	s, path := open(t)
	err := s.Update(func(tx *store.Tx) error {
		for i, to := range []string{"g@example.test", "a@example.test"} {
			m := &store.Mail{Game: "intro-1", MessageID: fmt.Sprintf("m%d@ref.example.test", i), From: "ref@example.test",
				To: []string{to}, Subject: "report", Data: []byte("hi"), Created: t0}
			if err := tx.Queue(m); err != nil {
				return err
			}
		}
		return tx.MarkProcessed(store.Processed{Mailbox: "INBOX", UIDValidity: 7, UID: 12, MessageID: "squat@x", Time: t0, Outcome: "ignored"})
	})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	// The file as version 6 wrote it: no digests, no index of the mails
	// sent, and the processed messages indexed by Message-ID.
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		for _, b := range []string{"message-digests", "mail-ids", "tournaments", "tournament-secrets"} {
			if err := tx.DeleteBucket([]byte(b)); err != nil {
				return fmt.Errorf("%s: %w", b, err)
			}
		}
		ids, err := tx.CreateBucket([]byte("message-ids"))
		if err != nil {
			return err
		}
		if err := ids.Put([]byte("squat@x"), []byte("INBOX/00000007/0000000c")); err != nil {
			return err
		}
		var v [8]byte
		binary.BigEndian.PutUint64(v[:], 6)
		return tx.Bucket([]byte("meta")).Put([]byte("version"), v[:])
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	s, err = store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.View(func(tx *store.Tx) error {
		if m, err := tx.MailByMessageID("m1@ref.example.test"); err != nil || m == nil || m.To[0] != "a@example.test" {
			t.Errorf("a mail of version 6 by its Message-ID: %+v, %v", m, err)
		}
		if _, ok, _ := tx.WasProcessed("INBOX", 7, 12, ""); !ok {
			t.Error("a message processed under version 6 is not known by its UID")
		}
		if _, ok, _ := tx.WasProcessed("INBOX", 8, 1, "squat@x"); ok {
			t.Error("a message is known by a Message-ID alone")
		}
		return nil
	})
	s.Close()
	db, err = bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.View(func(tx *bolt.Tx) error {
		if v := tx.Bucket([]byte("meta")).Get([]byte("version")); binary.BigEndian.Uint64(v) != store.Version {
			t.Errorf("version %d after the migration, want %d", binary.BigEndian.Uint64(v), store.Version)
		}
		if tx.Bucket([]byte("message-ids")) != nil {
			t.Error("the index by Message-ID is kept")
		}
		return nil
	})
}
