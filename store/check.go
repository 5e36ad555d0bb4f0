package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"

	bolt "go.etcd.io/bbolt"

	"titm/adjudicator"
	"titm/rules"
)

// A Problem is one thing Check found wrong: where, and what.
type Problem struct {
	Where string `json:"where"` // "game intro-3", "mail 12", "processed INBOX/...", ...
	What  string `json:"what"`
}

func (p Problem) String() string { return p.Where + ": " + p.What }

// CheckReport is what Check read and what it found wrong.
type CheckReport struct {
	Version   int       `json:"version"`   // the schema version
	Games     int       `json:"games"`     // games checked
	Records   int       `json:"records"`   // log records, in all
	Replayed  int       `json:"replayed"`  // games whose log replays to their position
	Processed int       `json:"processed"` // processed-message records
	Mails     int       `json:"mails"`     // mails of the outbox
	Queued    int       `json:"queued"`    // of them, queued
	Pages     int       `json:"pages"`     // pages of the file walked
	Problems  []Problem `json:"problems,omitempty"`
}

// OK reports whether Check found nothing wrong.
func (r *CheckReport) OK() bool { return len(r.Problems) == 0 }

func (r *CheckReport) add(where, format string, args ...any) {
	r.Problems = append(r.Problems, Problem{Where: where, What: fmt.Sprintf(format, args...)})
}

// Check reads the whole store and reports what is wrong in it: every
// page of the file (as Verify), every value against its sum, every record
// against its schema; of every game, its log's hash chain (each record
// hashing to its hash and naming the one before), the head the game and
// the store keep, and its position against its log replayed through the
// rules with its secret seed; every processed-message record and the index
// of their digests; the outbox, its index of queued mails, their messages
// and pictures' snapshots. It runs in one read transaction, so a daemon
// goes on while it reads. Damage is a problem of the report, never a
// panic: the error is for a store that cannot be read at all.
func (s *Store) Check() (*CheckReport, error) { return s.check(true) }

// Verify is the quick part of Check, which the daemon runs at its start:
// the pages, the sums, and the records of the games, tournaments, outbox
// and processed messages against their schemas; it replays no log.
func (s *Store) Verify() (*CheckReport, error) { return s.check(false) }

func (s *Store) check(full bool) (*CheckReport, error) {
	var r *CheckReport
	err := s.View(func(tx *Tx) error {
		r = &CheckReport{}
		tx.checkPages(r)
		if !r.OK() {
			// bbolt would read the damaged pages as they are.
			return nil
		}
		return tx.check(r, full)
	})
	var de *DamageError
	if errors.As(err, &de) {
		// bbolt panicked on what the walk of the pages let through.
		if r == nil {
			r = &CheckReport{}
		}
		r.Problems = append(r.Problems, de.Problems...)
		return r, nil
	}
	return r, err
}

func (t *Tx) check(r *CheckReport, full bool) error {
	if meta := t.tx.Bucket(bucketMeta); meta != nil {
		if v := meta.Get(keyVersion); len(v) == 8 {
			r.Version = int(binary.BigEndian.Uint64(v))
		}
	}
	for _, b := range [][]byte{bucketMeta, bucketGames, bucketSecrets, bucketLog, bucketProcessed, bucketOutbox, bucketFiles, bucketHeads, bucketStates, bucketPlayers, bucketQueue, bucketMailData, bucketSnapshots, bucketDigests, bucketSentIDs, bucketTournaments, bucketTourSecrets, bucketSums} {
		if t.tx.Bucket(b) == nil {
			r.add("schema", "the bucket %q is missing", b)
		}
	}
	if !r.OK() {
		return nil
	}
	t.checkSums(r)
	t.checkRecords(r, !full)
	if full {
		t.checkGames(r)
		t.checkProcessed(r)
		t.checkOutbox(r)
	}
	return nil
}

// checkGames checks every game, and that nothing of a game is left
// without it.
func (t *Tx) checkGames(r *CheckReport) {
	games := t.tx.Bucket(bucketGames)
	// The replays, most of the time a check takes, run on every core. The
	// transaction is read by this goroutine alone (bbolt's objects are not
	// safe for concurrent use); a replay works on what was read from it.
	// Each game's findings are kept apart and reported in the games' order.
	var (
		per  []*CheckReport
		jobs = make(chan func(), runtime.GOMAXPROCS(0))
		wg   sync.WaitGroup
	)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for job := range jobs {
				job()
			}
		})
	}
	games.ForEach(func(k, _ []byte) error {
		r.Games++
		t.s.release(t.tx, false)
		gr := &CheckReport{}
		per = append(per, gr)
		if replay := t.checkGame(gr, string(k)); replay != nil {
			jobs <- replay
		}
		return nil
	})
	close(jobs)
	wg.Wait()
	for _, gr := range per {
		r.Problems = append(r.Problems, gr.Problems...)
		r.Records += gr.Records
		r.Replayed += gr.Replayed
	}
	for _, b := range [][]byte{bucketLog, bucketHeads, bucketStates, bucketSecrets} {
		t.tx.Bucket(b).ForEach(func(k, _ []byte) error {
			if games.Get(k) == nil {
				r.add("game "+string(k), "its %s are kept, but the game is not", b)
			}
			return nil
		})
	}
}

// checkGame checks what of a game needs the transaction, reporting to r,
// and returns the replay of its log to run when that is all that is left
// to check: the returned func touches r and nothing of the transaction.
func (t *Tx) checkGame(r *CheckReport, id string) (replay func()) {
	where := "game " + id
	g, err := t.Summary(id)
	if err != nil {
		r.add(where, "its record cannot be read: %v", err)
		return nil
	}
	log, ok := t.checkChain(r, id, g)
	if !ok {
		return nil
	}
	// Its players find it.
	for _, a := range append([]string{g.Players[rules.German].Address, g.Players[rules.Allied].Address}, g.Observers...) {
		ids, err := t.GamesOf(a)
		if err == nil && !contains(ids, id) {
			r.add(where, "the index of %s's games lacks it", a)
		}
	}
	// The position, against the log replayed.
	full, err := t.Game(id)
	if err != nil {
		r.add(where, "%v", err)
		return nil
	}
	s, err := full.Rules()
	if err != nil {
		r.add(where, "%v", err)
		return nil
	}
	return func() {
		rp, err := adjudicator.ReplayWith(s, full.Header(), log, full.Secret())
		if err != nil {
			r.add(where, "its log does not replay: %v", err)
			return
		}
		switch {
		case adjudicator.StateHash(rp.Game.State) != adjudicator.StateHash(full.State):
			r.add(where, "its position differs from its log replayed (at %s)", rp.Game.State.Next)
		case rp.Game.Status != full.Status:
			r.add(where, "it is %s, but its log replayed leaves it %s", full.Status, rp.Game.Status)
		default:
			r.Replayed++
		}
	}
}

// checkChain reads game id's log, checking the chain record by record and
// its head against the store's and the game's, g. It returns the log, and
// false if the chain is broken, as it reports to r.
func (t *Tx) checkChain(r *CheckReport, id string, g *adjudicator.Game) ([]adjudicator.Record, bool) {
	where := "game " + id
	lb := t.tx.Bucket(bucketLog).Bucket([]byte(id))
	if lb == nil {
		r.add(where, "its log is missing")
		return nil, false
	}
	var log []adjudicator.Record
	prev, broken := "", false
	lb.ForEach(func(k, v []byte) error {
		n := len(log)
		var rec adjudicator.Record
		if err := json.Unmarshal(v, &rec); err != nil {
			r.add(where, "record %d cannot be read: %v", n, err)
			broken = true
			return errStop
		}
		switch {
		case len(k) != 8 || binary.BigEndian.Uint64(k) != uint64(n) || rec.Seq != n:
			r.add(where, "record %d is out of place (key %x, numbered %d)", n, k, rec.Seq)
		case rec.Prev != prev:
			r.add(where, "record %d does not follow record %d: it names %.12s as the one before, which hashes to %.12s", n, n-1, rec.Prev, prev)
		case adjudicator.RecordHash(rec) != rec.Hash:
			r.add(where, "record %d was changed: it hashes to %.12s, not to its hash %.12s", n, adjudicator.RecordHash(rec), rec.Hash)
		default:
			log = append(log, rec)
			prev = rec.Hash
			return nil
		}
		broken = true
		return errStop
	})
	r.Records += len(log)
	if broken {
		return nil, false
	}
	head := t.tx.Bucket(bucketHeads).Get([]byte(id))
	switch {
	case len(head) <= 8 || binary.BigEndian.Uint64(head) != uint64(len(log)) || string(head[8:]) != prev:
		r.add(where, "the head the store keeps does not match its log of %d records", len(log))
		return nil, false
	case g.Log != len(log) || g.Head != prev:
		r.add(where, "the game is at record %d (%.12s), its log at %d (%.12s)", g.Log, g.Head, len(log), prev)
		return nil, false
	}
	return log, true
}

func contains(ids []string, id string) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// errStop ends a ForEach early.
var errStop = errors.New("stop")

// checkProcessed checks the records of the messages handled.
func (t *Tx) checkProcessed(r *CheckReport) {
	pb := t.tx.Bucket(bucketProcessed)
	games := t.tx.Bucket(bucketGames)
	pb.ForEach(func(k, v []byte) error {
		r.Processed++
		where := "processed " + string(k)
		var p Processed
		if err := json.Unmarshal(v, &p); err != nil {
			r.add(where, "the record cannot be read: %v", err)
			return nil
		}
		if !bytes.Equal(p.key(), k) {
			r.add(where, "the record says %s", p.key())
		}
		if p.Time.IsZero() || p.Outcome == "" {
			r.add(where, "the record has no time or outcome")
		}
		if p.Game != "" && games.Get([]byte(p.Game)) == nil {
			r.add(where, "it names game %s, which is not in the store", p.Game)
		}
		if p.Digest != "" && !bytes.Equal(t.tx.Bucket(bucketDigests).Get([]byte(p.Digest)), k) {
			// A later delivery of the same mail under another key points
			// the digest at its own record, which must then exist.
			if other := t.tx.Bucket(bucketDigests).Get([]byte(p.Digest)); other == nil || pb.Get(other) == nil {
				r.add(where, "its digest is not indexed")
			}
		}
		return nil
	})
	t.tx.Bucket(bucketDigests).ForEach(func(k, v []byte) error {
		if pb.Get(v) == nil {
			r.add("digest "+string(k), "it points to the processed record %s, which is missing", v)
		}
		return nil
	})
}

// checkOutbox checks the mails, their index of queued ones, and what a
// queued mail needs to be sent.
func (t *Tx) checkOutbox(r *CheckReport) {
	box, queue := t.tx.Bucket(bucketOutbox), t.tx.Bucket(bucketQueue)
	data, snaps := t.tx.Bucket(bucketMailData), t.tx.Bucket(bucketSnapshots)
	box.ForEach(func(k, v []byte) error {
		r.Mails++
		where := fmt.Sprintf("mail %x", k)
		var m Mail
		if err := json.Unmarshal(v, &m); err != nil {
			r.add(where, "the record cannot be read: %v", err)
			return nil
		}
		where = fmt.Sprintf("mail %d", m.ID)
		if !bytes.Equal(u64(m.ID), k) {
			r.add(where, "it is kept under the key %x", k)
		}
		entry := queue.Get(k)
		queued := entry != nil
		switch {
		case m.Status == MailQueued:
			r.Queued++
			if !queued {
				r.add(where, "it is queued, but not in the queue's index: it would never be sent")
			}
			if len(entry) > 0 && string(entry) != m.Snapshot {
				r.add(where, "the queue's index gives it the snapshot %q, and its record %q", entry, m.Snapshot)
			}
			if len(data.Get(k)) == 0 {
				r.add(where, "it is queued without its message")
			}
			if m.Deferred && m.Snapshot != "" && snaps.Get([]byte(m.Snapshot)) == nil {
				r.add(where, "its picture's snapshot %s is missing", m.Snapshot)
			}
		case m.Status == MailSent || m.Status == MailFailed:
			if queued {
				r.add(where, "it is %s, but still in the queue's index", m.Status)
			}
		default:
			r.add(where, "its status %q is not known", m.Status)
		}
		return nil
	})
	for _, b := range []*bolt.Bucket{queue, data} {
		b.ForEach(func(k, _ []byte) error {
			if box.Get(k) == nil {
				r.add(fmt.Sprintf("mail %x", k), "it is queued or has a message, but the outbox has no such mail")
			}
			return nil
		})
	}
	t.tx.Bucket(bucketSentIDs).ForEach(func(k, v []byte) error {
		if box.Get(v) == nil {
			r.add("message-id "+strings.Trim(string(k), "<>"), "it names mail %x, which the outbox lacks", v)
		}
		return nil
	})
}
