package store_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"titm/adjudicator/tournament"
	"titm/store"
)

func TestTournaments(t *testing.T) {
	s, path := open(t)
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
		if _, err := tr.Pair(t0); err != nil {
			return err
		}
		tr.GameMade(1, 1, "intro-9", t0)
		return tx.SaveTournament(tr)
	})
	if err != nil {
		t.Fatal(err)
	}
	s.View(func(tx *store.Tx) error {
		got, err := tx.Tournament("open-1")
		if err != nil {
			t.Fatal(err)
		}
		if got.Head != tr.Head || got.Secret() == nil || len(got.Rounds) != 1 {
			t.Errorf("read back: head %s, %d rounds", got.Head, len(got.Rounds))
		}
		if id, _ := tx.TournamentOf("intro-9"); id != "open-1" {
			t.Errorf("TournamentOf = %q", id)
		}
		if ids, _ := tx.TournamentsOf("b@example.test"); len(ids) != 1 {
			t.Errorf("TournamentsOf = %v", ids)
		}
		if _, err := tx.Tournament("nope"); !errors.Is(err, store.ErrNoTournament) {
			t.Errorf("a missing tournament: %v", err)
		}
		return nil
	})
	s.Close()
	// A file of version 7 has no tournaments: the migration adds them.
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	db.Update(func(tx *bolt.Tx) error {
		tx.DeleteBucket([]byte("tournaments"))
		tx.DeleteBucket([]byte("tournament-secrets"))
		var v [8]byte
		binary.BigEndian.PutUint64(v[:], 7)
		return tx.Bucket([]byte("meta")).Put([]byte("version"), v[:])
	})
	db.Close()
	s, err = store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.View(func(tx *store.Tx) error {
		if ts, err := tx.Tournaments(); err != nil || len(ts) != 0 {
			t.Errorf("after migrating version 7: %v, %v", ts, err)
		}
		return nil
	})
}
