package store_test

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"titm/adjudicator/tournament"
	"titm/store"
)

// small writes a small store of every kind of record: a game with its
// log, a processed mail, mails of the outbox queued and sent, a
// tournament, a setting; it returns the file's path, closed.
func small(t testing.TB) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "small.db")
	s, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	played(t, s, 1, 2)
	set := &tournament.Settings{Name: "Open", Director: "td@example.test", Scenarios: []string{"intro"}, Format: tournament.RoundRobin,
		Rounds: 1, Deadline: time.Hour, Sides: tournament.SidesAlternate,
		Players: []tournament.Entry{{Name: "A", Address: "a@example.test"}, {Name: "B", Address: "b@example.test"}}}
	tr, err := tournament.New("open-1", set, bytes.Repeat([]byte{1}, 32), []string{"token-a-123", "token-b-123"}, t0)
	if err != nil {
		t.Fatal(err)
	}
	err = s.Update(func(tx *store.Tx) error {
		if err := tx.CreateTournament(tr); err != nil {
			return err
		}
		if err := tx.SetMeta("referee", "referee@example.test"); err != nil {
			return err
		}
		m := &store.Mail{Game: "intro-1", Kind: "reply", From: "r@example.test", To: []string{"a@example.test"},
			Subject: "re: orders", Data: []byte("Subject: re: orders\r\n\r\nok\r\n"), Created: t0}
		if err := tx.Queue(m); err != nil {
			return err
		}
		m.Status, m.Sent = store.MailSent, t0.Add(time.Minute)
		return tx.PutMail(m)
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// Every byte of the pages in use of a small store, changed on the disk,
// is found by Verify or Check, or changes nothing the store holds (the
// unused end of a page): never a panic, never a fault, never a store that
// reads differently and checks clean. The meta pages are bbolt's: it
// checksums them and falls back on the other (TestMetaPageDamage).
//
// Each byte gets one bit flipped, the bit chosen by a fixed random
// stream. Every byte of the pages' and elements' headers is flipped, and
// of the rest of the pages a fixed random sample of 6000 bytes (2000
// with -short; all with TITM_FLIP_ALL=1, which takes minutes).
func TestByteFlips(t *testing.T) {
	path := small(t)
	live, ps, err := store.LivePages(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := store.Open(path, &store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	want, err := s.Meaning()
	if err != nil {
		t.Fatal(err)
	}
	if r, err := s.Check(); err != nil || !r.OK() || r.Games != 1 || r.Mails != 2 || r.Processed != 1 {
		t.Fatalf("the store before any change: %v, %+v", err, r)
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// Every byte of the pages' headers and of their elements' headers,
	// where a change moves what bbolt reads; of the rest (the keys and
	// values, a freelist's ids, the unused end of a page), a sample.
	var offsets, rest []int64
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range live {
		if id < 2 {
			continue
		}
		pg := data[id*ps : (id+1)*ps]
		heads := 16
		if flags := binary.LittleEndian.Uint16(pg[8:]); flags == 0x01 || flags == 0x02 {
			heads += 16 * int(binary.LittleEndian.Uint16(pg[10:]))
		}
		for i := range ps {
			if i < heads {
				offsets = append(offsets, int64(id*ps+i))
			} else {
				rest = append(rest, int64(id*ps+i))
			}
		}
	}
	rnd := rand.New(rand.NewPCG(29, 2026))
	rnd.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
	n := 6000
	switch {
	case os.Getenv("TITM_FLIP_ALL") != "":
		n = len(rest)
	case testing.Short():
		n = 2000
	}
	offsets = append(offsets, rest[:min(n, len(rest))]...)
	var detected, harmless, bySums, byPages, byCheck int
	b := make([]byte, 1)
	for _, off := range offsets {
		if _, err := f.ReadAt(b, off); err != nil {
			t.Fatal(err)
		}
		orig := b[0]
		b[0] ^= 1 << rnd.IntN(8)
		if _, err := f.WriteAt(b, off); err != nil {
			t.Fatal(err)
		}
		r, err := s.Verify()
		switch {
		case err != nil:
			t.Errorf("byte %d (page %d, +%d): Verify: %v", off, off/int64(ps), off%int64(ps), err)
		case !r.OK():
			detected++
			if r.Problems[0].Where[:4] == "page" {
				byPages++
			} else {
				bySums++
			}
		default:
			got, err := s.Meaning()
			switch {
			case err == nil && got == want:
				harmless++
			default:
				// Not found by the quick check: the full one must.
				if r, cerr := s.Check(); cerr == nil && !r.OK() {
					detected++
					byCheck++
				} else {
					t.Errorf("byte %d (page %d, +%d) changed what the store holds (%v), and checks clean", off, off/int64(ps), off%int64(ps), err)
				}
			}
		}
		b[0] = orig
		if _, err := f.WriteAt(b, off); err != nil {
			t.Fatal(err)
		}
	}
	if total := detected + harmless; total != len(offsets) || detected == 0 || harmless == 0 {
		t.Errorf("%d flips: %d detected, %d harmless", len(offsets), detected, harmless)
	}
	t.Logf("%d bytes of the %d of %d pages in use flipped: %d detected (%d by the walk of the pages, %d by the sums and schemas, %d by the full check only), %d harmless",
		len(offsets), (len(live)-2)*ps, len(live)-2, detected, byPages, bySums, byCheck, harmless)
	if got, err := s.Meaning(); err != nil || got != want {
		t.Fatal("the store was not put back")
	}
}
