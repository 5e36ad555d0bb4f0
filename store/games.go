package store

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"titm/adjudicator"
	"titm/rules"
)

// NewID returns a new game id, the prefix (a scenario's name) and a number
// that the store never gives twice.
func (t *Tx) NewID(prefix string) (string, error) {
	b := t.tx.Bucket(bucketGames)
	for {
		n, err := nextSequence(t.tx, path(bucketGames))
		if err != nil {
			return "", fmt.Errorf("store: numbering a game: %w", err)
		}
		id := fmt.Sprintf("%s-%d", prefix, n)
		if b.Get([]byte(id)) == nil {
			return id, nil
		}
	}
}

// CreateGame stores a new game, its secret seed and the first records of
// its log.
func (t *Tx) CreateGame(g *adjudicator.Game, recs []adjudicator.Record) error {
	if t.tx.Bucket(bucketGames).Get([]byte(g.ID)) != nil {
		return fmt.Errorf("store: game %s: %w", g.ID, ErrExists)
	}
	if _, err := t.tx.Bucket(bucketLog).CreateBucket([]byte(g.ID)); err != nil {
		return fmt.Errorf("store: game %s: making its log: %w", g.ID, err)
	}
	if err := put(t.tx, path(bucketSecrets), []byte(g.ID), g.Secret()); err != nil {
		return fmt.Errorf("store: game %s: keeping its seed: %w", g.ID, err)
	}
	if err := t.index(g); err != nil {
		return fmt.Errorf("store: game %s: %w", g.ID, err)
	}
	if adjudicator.FilesHash(g.Files) != g.Data {
		return fmt.Errorf("store: game %s: its files do not match their digest", g.ID)
	}
	if files := t.tx.Bucket(bucketFiles); files.Get([]byte(g.Data)) == nil {
		data, err := json.Marshal(g.Files)
		if err != nil {
			return fmt.Errorf("store: game %s: %w", g.ID, err)
		}
		if err := put(t.tx, path(bucketFiles), []byte(g.Data), data); err != nil {
			return fmt.Errorf("store: game %s: keeping its scenario: %w", g.ID, err)
		}
	}
	return t.SaveGame(g, recs)
}

// SaveGame stores a game after a change and appends the change's records to
// its log. The records must follow the log's last record, and the game's
// head must be the last of them: the log and the game never disagree.
func (t *Tx) SaveGame(g *adjudicator.Game, recs []adjudicator.Record) error {
	log := t.tx.Bucket(bucketLog).Bucket([]byte(g.ID))
	if log == nil {
		return fmt.Errorf("store: game %s: %w", g.ID, ErrNoGame)
	}
	// The log's length and last hash, kept apart so that appending does
	// not read the last record.
	n, head := 0, ""
	if v := t.tx.Bucket(bucketHeads).Get([]byte(g.ID)); len(v) > 8 {
		n, head = int(binary.BigEndian.Uint64(v)), string(v[8:])
	}
	for _, r := range recs {
		if r.Seq != n || r.Prev != head {
			return fmt.Errorf("store: game %s: record %d after record %d: %w", g.ID, r.Seq, n-1, ErrLogOrder)
		}
		data, err := json.Marshal(r)
		if err != nil {
			return fmt.Errorf("store: game %s: record %d: %w", g.ID, r.Seq, err)
		}
		if err := put(t.tx, path(bucketLog, []byte(g.ID)), u64(uint64(r.Seq)), data); err != nil {
			return fmt.Errorf("store: game %s: appending record %d: %w", g.ID, r.Seq, err)
		}
		n, head = n+1, r.Hash
		if err := t.logged(r.Time); err != nil {
			return fmt.Errorf("store: game %s: %w", g.ID, err)
		}
	}
	if g.Log != n || g.Head != head {
		return fmt.Errorf("store: game %s: the game is at record %d, the log at %d: %w", g.ID, g.Log, n, ErrLogOrder)
	}
	if err := put(t.tx, path(bucketHeads), []byte(g.ID), append(u64(uint64(n)), head...)); err != nil {
		return fmt.Errorf("store: game %s: %w", g.ID, err)
	}
	state, err := json.Marshal(g.State)
	if err != nil {
		return fmt.Errorf("store: game %s: %w", g.ID, err)
	}
	rec := *g
	rec.State = nil
	data, err := json.Marshal(&rec)
	if err != nil {
		return fmt.Errorf("store: game %s: %w", g.ID, err)
	}
	if err := put(t.tx, path(bucketStates), []byte(g.ID), state); err != nil {
		return fmt.Errorf("store: game %s: %w", g.ID, err)
	}
	if err := put(t.tx, path(bucketGames), []byte(g.ID), data); err != nil {
		return fmt.Errorf("store: game %s: %w", g.ID, err)
	}
	return nil
}

// Game returns a game, with its secret seed, ready to play.
func (t *Tx) Game(id string) (*adjudicator.Game, error) {
	g, err := t.Summary(id)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(t.tx.Bucket(bucketStates).Get([]byte(id)), &g.State); err != nil || g.State == nil {
		return nil, fmt.Errorf("store: game %s: reading its position: %v", id, err)
	}
	if err := g.SetSecret(t.tx.Bucket(bucketSecrets).Get([]byte(id))); err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	l, err := t.scenario(g)
	if err != nil {
		return nil, err
	}
	g.SetScenario(l.s, l.files)
	return g, nil
}

// scenario returns the game's scenario, loaded once for all the games that
// share its files.
func (t *Tx) scenario(g *adjudicator.Game) (*loaded, error) {
	t.s.mu.Lock()
	l := t.s.scenarios[g.Data]
	t.s.mu.Unlock()
	if l != nil {
		return l, nil
	}
	data := t.tx.Bucket(bucketFiles).Get([]byte(g.Data))
	if data == nil {
		return nil, fmt.Errorf("store: game %s: its scenario's files are missing", g.ID)
	}
	var files map[string]string
	if err := json.Unmarshal(data, &files); err != nil {
		return nil, fmt.Errorf("store: game %s: reading its scenario's files: %w", g.ID, err)
	}
	s, err := adjudicator.LoadScenario(files, g.Main)
	if err != nil {
		return nil, fmt.Errorf("store: game %s: %w", g.ID, err)
	}
	l = &loaded{s: s, files: files}
	t.s.mu.Lock()
	t.s.scenarios[g.Data] = l
	t.s.mu.Unlock()
	return l, nil
}

func decodeGame(data []byte) (*adjudicator.Game, error) {
	var g adjudicator.Game
	if err := json.Unmarshal(data, &g); err != nil {
		return nil, err
	}
	return &g, nil
}

// Games returns every game, by id, without its position (State is nil) or
// its secret: a list is for reading, and reads no position. Tx.Game reads a
// whole game.
func (t *Tx) Games() ([]*adjudicator.Game, error) {
	var out []*adjudicator.Game
	err := t.tx.Bucket(bucketGames).ForEach(func(k, v []byte) error {
		g, err := decodeGame(v)
		if err != nil {
			return fmt.Errorf("store: game %s: %w", k, err)
		}
		if out = append(out, g); len(out)%releaseBatch == 0 {
			t.s.release(t.tx, true)
		}
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return lessID(out[i].ID, out[j].ID) })
	return out, err
}

// lessID orders ids as people count: intro-2 before intro-10.
func lessID(a, b string) bool {
	if len(a) != len(b) {
		pa, pb := prefix(a), prefix(b)
		if pa == pb {
			return len(a) < len(b)
		}
	}
	return a < b
}

func prefix(id string) string {
	i := len(id)
	for i > 0 && id[i-1] >= '0' && id[i-1] <= '9' {
		i--
	}
	return id[:i]
}

// Log returns a game's log, in order.
func (t *Tx) Log(id string) ([]adjudicator.Record, error) {
	b := t.tx.Bucket(bucketLog).Bucket([]byte(id))
	if b == nil {
		return nil, fmt.Errorf("store: game %s: %w", id, ErrNoGame)
	}
	var out []adjudicator.Record
	err := b.ForEach(func(k, v []byte) error {
		var r adjudicator.Record
		if err := json.Unmarshal(v, &r); err != nil {
			return fmt.Errorf("store: game %s: record %x: %w", id, k, err)
		}
		out = append(out, r)
		return nil
	})
	return out, err
}

// LastRecord returns the last record of a game's log, without reading
// the rest: a list of games that says when each last changed reads one
// record a game, not every log.
func (t *Tx) LastRecord(id string) (adjudicator.Record, error) {
	var r adjudicator.Record
	b := t.tx.Bucket(bucketLog).Bucket([]byte(id))
	if b == nil {
		return r, fmt.Errorf("store: game %s: %w", id, ErrNoGame)
	}
	k, v := b.Cursor().Last()
	if k == nil {
		return r, fmt.Errorf("store: game %s: its log is empty", id)
	}
	if err := json.Unmarshal(v, &r); err != nil {
		return r, fmt.Errorf("store: game %s: record %x: %w", id, k, err)
	}
	return r, nil
}

// index adds a game to the index of its players' and observers' addresses.
func (t *Tx) index(g *adjudicator.Game) error {
	addrs := append([]string{g.Players[rules.German].Address, g.Players[rules.Allied].Address}, g.Observers...)
	b := t.tx.Bucket(bucketPlayers)
	for _, a := range addrs {
		a = strings.ToLower(a)
		var ids []string
		if v := b.Get([]byte(a)); v != nil {
			if err := json.Unmarshal(v, &ids); err != nil {
				return fmt.Errorf("the games of %s: %w", a, err)
			}
		}
		if slices.Contains(ids, g.ID) {
			continue
		}
		data, err := json.Marshal(append(ids, g.ID))
		if err != nil {
			return err
		}
		if err := put(t.tx, path(bucketPlayers), []byte(a), data); err != nil {
			return err
		}
	}
	return nil
}

// GamesOf returns the ids of the games an address plays or observes, in
// the order they were made.
func (t *Tx) GamesOf(address string) ([]string, error) {
	v := t.tx.Bucket(bucketPlayers).Get([]byte(strings.ToLower(address)))
	if v == nil {
		return nil, nil
	}
	var ids []string
	if err := json.Unmarshal(v, &ids); err != nil {
		return nil, fmt.Errorf("store: the games of %s: %w", address, err)
	}
	return ids, nil
}

// Summary returns a game without its position or secret, as Games does.
func (t *Tx) Summary(id string) (*adjudicator.Game, error) {
	data := t.tx.Bucket(bucketGames).Get([]byte(id))
	if data == nil {
		return nil, fmt.Errorf("store: game %s: %w", id, ErrNoGame)
	}
	g, err := decodeGame(data)
	if err != nil {
		return nil, fmt.Errorf("store: game %s: %w", id, err)
	}
	return g, nil
}

// SetMeta keeps a setting of the store's owner, such as the referee's
// address that the daemon last ran with.
func (t *Tx) SetMeta(key, value string) error {
	return put(t.tx, path(bucketMeta), []byte("setting/"+key), []byte(value))
}

// keyLatest is the meta key of the latest time a record was logged at.
var keyLatest = []byte("latest-logged")

// Latest returns the latest time a record of any log of the store was
// logged at (zero for none yet, or a store written before it was kept).
// The referee logs no act earlier, whatever the machine's clock says.
func (t *Tx) Latest() time.Time {
	var at time.Time
	if v := t.tx.Bucket(bucketMeta).Get(keyLatest); v != nil {
		at, _ = time.Parse(time.RFC3339Nano, string(v))
	}
	return at
}

// logged moves the latest time logged on to at, if it is later.
func (t *Tx) logged(at time.Time) error {
	if !at.After(t.Latest()) {
		return nil
	}
	if err := put(t.tx, path(bucketMeta), keyLatest, []byte(at.UTC().Format(time.RFC3339Nano))); err != nil {
		return fmt.Errorf("keeping the latest time logged: %w", err)
	}
	return nil
}

// Meta returns a setting kept with SetMeta, or "".
func (t *Tx) Meta(key string) string {
	return string(t.tx.Bucket(bucketMeta).Get([]byte("setting/" + key)))
}

// Scenario returns a game's scenario, loaded once for all the games that
// share its files.
func (t *Tx) Scenario(id string) (*rules.Scenario, error) {
	g, err := t.Summary(id)
	if err != nil {
		return nil, err
	}
	l, err := t.scenario(g)
	if err != nil {
		return nil, err
	}
	return l.s, nil
}
