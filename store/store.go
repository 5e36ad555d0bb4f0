// Package store keeps titm's games in one bbolt file: each game with its
// position, its append-only log, the secret seeds apart from everything
// else, the messages processed and the outbox of mails to send.
//
// # Transactions
//
// Every change of a game (orders applied, dice recorded, outcome, mails
// queued, message marked processed) is made in one Update, so that a crash
// at any moment leaves the file before or after the change, never between.
//
// # One process
//
// bbolt lets one process hold the file. Open fails at once with ErrLocked
// when another process holds it, instead of waiting.
//
// # Secrets
//
// A game's secret seed is kept in its own bucket, never in the game's record
// or its log, and the store has no way to read it but Tx.Game, which gives
// it to the game to roll dice with. The file should be readable by its owner
// only; Open creates it with mode 0600.
package store

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"

	"titm/adjudicator"
	"titm/adjudicator/tournament"
	"titm/rules"
)

// Version is the schema version this build writes. Open migrates a file of
// an older version and refuses a newer one.
const Version = 9

// Buckets. Each game has a bucket of its own under bucketLog, whose keys
// are the records' sequence numbers, big-endian.
var (
	bucketMeta      = []byte("meta")
	bucketGames     = []byte("games")
	bucketSecrets   = []byte("secrets")
	bucketLog       = []byte("log")
	bucketProcessed = []byte("processed")
	bucketMessageID = []byte("message-ids") // versions 1 to 6 only: Message-ID -> processed key
	bucketOutbox    = []byte("outbox")
	bucketFiles     = []byte("scenario-files") // FilesHash -> the files, JSON
	bucketHeads     = []byte("heads")          // game id -> the log's length (8 bytes) and its last hash
	bucketStates    = []byte("states")         // game id -> the position, JSON (version 2)
	bucketPlayers   = []byte("players")        // address -> the ids of its games, JSON (version 3)
	bucketQueue     = []byte("queue")          // the ids of the queued mails (version 4)
	bucketMailData  = []byte("mail-data")      // mail id -> the message, until it is sent (version 5)
	bucketSnapshots = []byte("snapshots")      // what a mail's picture is drawn from, until it is sent (version 6)

	bucketDigests = []byte("message-digests") // a message's digest -> its processed key (version 7)
	bucketSentIDs = []byte("mail-ids")        // an outgoing mail's Message-ID -> its id (version 7)

	bucketTournaments = []byte("tournaments")        // tournament id -> the tournament, JSON (version 8)
	bucketTourSecrets = []byte("tournament-secrets") // tournament id -> the seed of its dice (version 8)

	keyVersion = []byte("version")
	keyApp     = []byte("application")
	appName    = []byte("titm")
)

// Options configure Open. A nil *Options is the zero value.
type Options struct {
	// Timeout is how long Open waits for another process to release the
	// file; zero means 100 ms: a second daemon should fail, not hang.
	Timeout time.Duration
	// ReadOnly opens the file for reading only; it must exist.
	ReadOnly bool
	// NoSync skips fsync after each commit: for tests and benchmarks
	// only, never for games.
	NoSync bool
	// Logger gets what Open does to the file (a migration, a mode made
	// 0600) and the damage found; nil is slog.Default().
	Logger *slog.Logger
	// Backups is the folder the backups are written into, when known: a
	// damaged store's error names it.
	Backups string
}

// Store is an open store. Its methods are safe for concurrent use; Update
// calls are serialised by bbolt.
type Store struct {
	db   *bolt.DB
	path string
	opts *bolt.Options // what the file was opened with, to open it again after Compact
	log  *slog.Logger
	// backups is Options.Backups, for the advice of a DamageError.
	backups string

	// Compact swaps the file under the daemon: wmu keeps writers out while
	// it copies, gate keeps everyone out while it swaps (ops.go).
	wmu  sync.Mutex
	gate sync.RWMutex

	mu        sync.Mutex
	scenarios map[string]*loaded // by FilesHash: every game of a scenario shares one

	// files counts the files Compact put in place, whose transaction ids
	// start again: with the id, it makes Tx.Version. Changed under gate.
	files uint64

	// released is when the pages of the file read were last unmapped
	// (release.go), in nanoseconds since epoch.
	released atomic.Int64
}

// loaded is a scenario loaded from the files a game keeps.
type loaded struct {
	s     *rules.Scenario
	files map[string]string
}

// Open opens the store at path, creating it if it does not exist, and
// migrates it to Version when it is older.
func Open(path string, opt *Options) (*Store, error) {
	if opt == nil {
		opt = &Options{}
	}
	timeout := opt.Timeout
	if timeout == 0 {
		timeout = 100 * time.Millisecond
	}
	log := opt.Logger
	if log == nil {
		log = slog.Default()
	}
	existed, err := preflight(path, opt, log)
	if err != nil {
		return nil, fmt.Errorf("store: opening %s: %w", path, err)
	}
	bopts := &bolt.Options{Timeout: timeout, ReadOnly: opt.ReadOnly, NoSync: opt.NoSync}
	db, err := openBolt(path, opt, bopts, log)
	switch {
	case errors.Is(err, ErrDamaged):
		return nil, fmt.Errorf("store: opening %s: %w", path, err)
	case errors.Is(err, berrors.ErrTimeout):
		return nil, fmt.Errorf("store: opening %s: %w", path, ErrLocked)
	case errors.Is(err, berrors.ErrVersionMismatch):
		return nil, fmt.Errorf("store: opening %s: %w (written by another version of bbolt)", path, ErrForeign)
	case err != nil && existed && !errors.Is(err, fs.ErrPermission):
		// bbolt says "invalid database", "checksum error" or "file size
		// too small" of a file it cannot read; none of them is a store.
		return nil, fmt.Errorf("store: opening %s: %w (%v)", path, ErrForeign, err)
	case err != nil:
		return nil, fmt.Errorf("store: opening %s: %w", path, err)
	}
	s := &Store{db: db, path: path, opts: bopts, log: log, backups: opt.Backups, scenarios: map[string]*loaded{}}
	if err := s.prepare(opt.ReadOnly); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: opening %s: %w", path, err)
	}
	return s, nil
}

// prepare checks the file's schema: a new file gets the buckets of this
// version; an older one is migrated; a newer or foreign one refused.
func (s *Store) prepare(readOnly bool) (err error) {
	var version int
	var empty bool
	defer onFault()()
	defer s.guard(&err)
	err = s.db.View(func(tx *bolt.Tx) error {
		meta := tx.Bucket(bucketMeta)
		if meta == nil {
			k, _ := tx.Cursor().First()
			empty = k == nil
			if !empty {
				return fmt.Errorf("%w: a bbolt file of another program", ErrForeign)
			}
			return nil
		}
		if string(meta.Get(keyApp)) != string(appName) {
			return fmt.Errorf("%w: a bbolt file of another program", ErrForeign)
		}
		v := meta.Get(keyVersion)
		if len(v) != 8 {
			return fmt.Errorf("%w: no schema version", ErrForeign)
		}
		version = int(binary.BigEndian.Uint64(v))
		return nil
	})
	if err != nil {
		return err
	}
	switch {
	case version > Version:
		return fmt.Errorf("%w: schema version %d, and this titm knows up to %d; use a newer titm", ErrNewer, version, Version)
	case version == Version:
		return nil
	case readOnly:
		return fmt.Errorf("schema version %d needs migrating to %d, which a read-only open cannot do: run titm migrate-store --db %s once (or start titm serve once, which migrates at its start), with a backup of the file kept first", version, Version, s.path)
	}
	start := time.Now()
	defer func() {
		if err == nil && !empty {
			s.log.Info("store: schema migrated", "path", s.path, "from", version, "to", Version, "took", time.Since(start).Round(time.Millisecond))
		}
	}()
	return s.db.Update(func(tx *bolt.Tx) error {
		if empty {
			return create(tx)
		}
		for v := version; v < Version; v++ {
			if err := migrations[v](tx); err != nil {
				return fmt.Errorf("migrating from schema version %d to %d: %w", v, v+1, err)
			}
			if err := setVersion(tx, v+1); err != nil {
				return err
			}
		}
		return nil
	})
}

// create makes the buckets of a new file.
func create(tx *bolt.Tx) error {
	for _, b := range [][]byte{bucketMeta, bucketGames, bucketSecrets, bucketLog, bucketProcessed, bucketOutbox, bucketFiles, bucketHeads, bucketStates, bucketPlayers, bucketQueue, bucketMailData, bucketSnapshots, bucketDigests, bucketSentIDs, bucketTournaments, bucketTourSecrets, bucketSums} {
		if _, err := tx.CreateBucketIfNotExists(b); err != nil {
			return err
		}
	}
	if err := put(tx, path(bucketMeta), keyApp, appName); err != nil {
		return err
	}
	return setVersion(tx, Version)
}

func setVersion(tx *bolt.Tx, v int) error {
	return put(tx, path(bucketMeta), keyVersion, u64(uint64(v)))
}

// migrations[v] migrates a file of schema version v to v+1, in the same
// transaction that records the new version.
var migrations = map[int]func(*bolt.Tx) error{
	1: migrate1,
	2: migrate2,
	3: migrate3,
	4: migrate4,
	5: func(tx *bolt.Tx) error { _, err := tx.CreateBucket(bucketSnapshots); return err },
	6: migrate6,
	7: migrate7,
	8: migrate8,
}

// migrate8 gives the file its sums (version 9, sums.go), after writing
// every record of the games, the outbox, the processed messages and the
// tournaments again as this titm writes them: a record written by an older
// one may lack a field added since, and Check holds every record to be
// exactly what its schema writes.
func migrate8(tx *bolt.Tx) error {
	for _, b := range []struct {
		name []byte
		new  func() any
	}{
		{bucketGames, func() any { return new(adjudicator.Game) }},
		{bucketOutbox, func() any { return new(Mail) }},
		{bucketProcessed, func() any { return new(Processed) }},
		{bucketTournaments, func() any { return new(tournament.Tournament) }},
	} {
		bk := tx.Bucket(b.name)
		var keys, vals [][]byte
		err := bk.ForEach(func(k, v []byte) error {
			rec := b.new()
			if err := json.Unmarshal(v, rec); err != nil {
				return fmt.Errorf("%s: %x: %w", where(path(b.name), k), k, err)
			}
			data, err := json.Marshal(rec)
			if err != nil {
				return err
			}
			keys, vals = append(keys, append([]byte(nil), k...)), append(vals, data)
			return nil
		})
		if err != nil {
			return err
		}
		for i, k := range keys {
			if err := bk.Put(k, vals[i]); err != nil {
				return err
			}
		}
	}
	return resum(tx)
}

// migrate7 adds the tournaments (version 8): each kept as JSON, and the
// seed of its dice apart, as a game's.
func migrate7(tx *bolt.Tx) error {
	for _, b := range [][]byte{bucketTournaments, bucketTourSecrets} {
		if _, err := tx.CreateBucket(b); err != nil {
			return err
		}
	}
	return nil
}

// migrate6 knows a message processed by its digest instead of its
// Message-ID (version 7), and the mails sent by their Message-ID.
//
// A Message-ID is the sender's to choose: anyone could send a mail with the
// Message-ID a player's mail would have, and the player's mail was then
// taken for one processed before. The digest covers the sender, the key
// headers and the text, so only the same mail matches it. The digests of
// the messages processed before cannot be made (their text is not kept),
// so their index by Message-ID is dropped: they stay known by their
// folder's UIDVALIDITY and UID, which is what finds a message handled but
// not yet moved when the daemon stopped.
//
// The index of the mails sent lets a bounce be matched to the mail it
// quotes (Tx.MailByMessageID).
func migrate6(tx *bolt.Tx) error {
	if _, err := tx.CreateBucket(bucketDigests); err != nil {
		return err
	}
	ids, err := tx.CreateBucket(bucketSentIDs)
	if err != nil {
		return err
	}
	if tx.Bucket(bucketMessageID) != nil {
		if err := tx.DeleteBucket(bucketMessageID); err != nil {
			return err
		}
	}
	return tx.Bucket(bucketOutbox).ForEach(func(k, v []byte) error {
		var m struct {
			MessageID string `json:"message_id"`
		}
		if err := json.Unmarshal(v, &m); err != nil {
			return fmt.Errorf("mail %x: %w", k, err)
		}
		if m.MessageID == "" {
			return nil
		}
		return ids.Put([]byte(m.MessageID), k)
	})
}

// migrate4 moves the messages out of the mails' records into a bucket of
// their own (version 5), so that reading the outbox does not decode every
// message with its map picture, and drops the messages of mails sent.
func migrate4(tx *bolt.Tx) error {
	data, err := tx.CreateBucket(bucketMailData)
	if err != nil {
		return err
	}
	box := tx.Bucket(bucketOutbox)
	var ids [][]byte
	box.ForEach(func(k, _ []byte) error { ids = append(ids, append([]byte(nil), k...)); return nil })
	for _, k := range ids {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(box.Get(k), &m); err != nil {
			return fmt.Errorf("mail %x: %w", k, err)
		}
		var msg []byte
		if raw, ok := m["data"]; ok {
			if err := json.Unmarshal(raw, &msg); err != nil {
				return fmt.Errorf("mail %x: %w", k, err)
			}
			delete(m, "data")
		}
		var status string
		json.Unmarshal(m["status"], &status)
		if len(msg) > 0 && status == MailQueued {
			if err := data.Put(k, msg); err != nil {
				return err
			}
		}
		rec, err := json.Marshal(m)
		if err != nil {
			return err
		}
		if err := box.Put(k, rec); err != nil {
			return err
		}
	}
	return nil
}

// migrate3 indexes the queued mails (version 4), so that the sender reads
// only them, not every mail ever sent.
func migrate3(tx *bolt.Tx) error {
	q, err := tx.CreateBucket(bucketQueue)
	if err != nil {
		return err
	}
	return tx.Bucket(bucketOutbox).ForEach(func(k, v []byte) error {
		var m struct{ Status string }
		if err := json.Unmarshal(v, &m); err != nil {
			return fmt.Errorf("mail %x: %w", k, err)
		}
		if m.Status == MailQueued {
			return q.Put(k, nil)
		}
		return nil
	})
}

// migrate2 indexes the games by their players' addresses (version 3), so
// that a mail finds its sender's games without reading every game.
func migrate2(tx *bolt.Tx) error {
	if _, err := tx.CreateBucket(bucketPlayers); err != nil {
		return err
	}
	t := &Tx{tx: tx}
	return tx.Bucket(bucketGames).ForEach(func(k, v []byte) error {
		g, err := decodeGame(v)
		if err != nil {
			return fmt.Errorf("game %s: %w", k, err)
		}
		return t.index(g)
	})
}

// migrate1 takes each game's position out of its record into the states
// bucket (version 2), so that listing the games reads no position, and
// gives the record the impulse to play.
func migrate1(tx *bolt.Tx) error {
	states, err := tx.CreateBucket(bucketStates)
	if err != nil {
		return err
	}
	games := tx.Bucket(bucketGames)
	type v1 struct {
		State json.RawMessage `json:"state"`
	}
	var ids [][]byte
	games.ForEach(func(k, _ []byte) error { ids = append(ids, append([]byte(nil), k...)); return nil })
	for _, id := range ids {
		data := games.Get(id)
		var old v1
		if err := json.Unmarshal(data, &old); err != nil {
			return fmt.Errorf("game %s: %w", id, err)
		}
		var g map[string]json.RawMessage
		if err := json.Unmarshal(data, &g); err != nil {
			return fmt.Errorf("game %s: %w", id, err)
		}
		var st struct {
			Next json.RawMessage `json:"next"`
		}
		if err := json.Unmarshal(old.State, &st); err != nil {
			return fmt.Errorf("game %s: its position: %w", id, err)
		}
		delete(g, "state")
		g["next"] = st.Next
		rec, err := json.Marshal(g)
		if err != nil {
			return err
		}
		if err := states.Put(id, old.State); err != nil {
			return err
		}
		if err := games.Put(id, rec); err != nil {
			return err
		}
	}
	return nil
}

// Path returns the file's path.
func (s *Store) Path() string { return s.path }

// Close closes the store, releasing the file.
func (s *Store) Close() error {
	s.gate.Lock()
	defer s.gate.Unlock()
	return s.db.Close()
}

// Update runs fn in a read-write transaction: if fn returns nil, everything
// it did is committed (and synced to disk) before Update returns; if it
// returns an error, nothing of it is kept. It blocks while another Update
// runs.
//
// A panic of bbolt, on a page it finds damaged, is returned as a
// *DamageError, and the transaction rolled back.
func (s *Store) Update(fn func(*Tx) error) (err error) {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	s.gate.RLock()
	defer s.gate.RUnlock()
	defer onFault()()
	defer s.guard(&err)
	err = s.db.Update(func(tx *bolt.Tx) error { return fn(&Tx{tx: tx, s: s}) })
	// What the change read, in a read transaction of its own: the
	// mapping may move at the commit.
	s.db.View(func(tx *bolt.Tx) error { s.release(tx, false); return nil })
	return err
}

// View runs fn in a read-only transaction, which sees the store as it was
// when it began. A panic of bbolt, on a page it finds damaged, is
// returned as a *DamageError.
func (s *Store) View(fn func(*Tx) error) (err error) {
	s.gate.RLock()
	defer s.gate.RUnlock()
	defer onFault()()
	defer s.guard(&err)
	return s.db.View(func(tx *bolt.Tx) error {
		err := fn(&Tx{tx: tx, s: s})
		s.release(tx, false)
		return err
	})
}

// Tx is a transaction. It is valid only inside the function given to Update
// or View.
type Tx struct {
	tx *bolt.Tx
	s  *Store
}

// Version names the store's contents as the transaction sees them: it is
// another after every change written. A reader that keeps what it read,
// as the web journal does, learns from it alone, in a read transaction
// that reads nothing else, whether anything changed since.
func (t *Tx) Version() string { return fmt.Sprintf("%d.%d", t.s.files, t.tx.ID()) }

func u64(n uint64) []byte {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], n)
	return b[:]
}
