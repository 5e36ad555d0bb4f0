package store_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"titm/store"
)

// fixtureV1 is a store of schema version 1 with one game of the intro
// scenario, six impulses played. It is written once and kept: every later
// version of titm must open it (migrating it when the schema has moved on).
const fixtureV1 = "../testdata/store/v1.db"

// TestWriteFixtureV1 writes the fixture; it runs only when asked, and only
// while Version is 1.
func TestWriteFixtureV1(t *testing.T) {
	if os.Getenv("TITM_WRITE_FIXTURE") == "" {
		t.Skip("set TITM_WRITE_FIXTURE=1 to write " + fixtureV1)
	}
	if store.Version != 1 {
		t.Fatal("the fixture of version 1 is written by a titm of version 1 only")
	}
	os.Remove(fixtureV1)
	s, err := store.Open(fixtureV1, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.Update(func(tx *store.Tx) error { makeGame(t, tx, "intro", secret(7)); return nil })
	for i := 0; i < 6; i++ {
		err := s.Update(func(tx *store.Tx) error {
			g, err := tx.Game("intro-1")
			if err != nil {
				return err
			}
			return tx.SaveGame(g, playImpulse(t, g, t0.Add(time.Duration(i)*time.Hour)))
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// A store of every earlier schema version opens, migrated to this one, and
// its games go on.
func TestOpenOlderStores(t *testing.T) {
	t.Parallel()
	for _, fixture := range []string{fixtureV1} {
		path := filepath.Join(t.TempDir(), "old.db")
		data, err := os.ReadFile(fixture)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(path, data, 0o600)
		s, err := store.Open(path, nil)
		if err != nil {
			t.Fatalf("%s: %v", fixture, err)
		}
		err = s.Update(func(tx *store.Tx) error {
			g, err := tx.Game("intro-1")
			if err != nil {
				return err
			}
			if log, err := tx.Log("intro-1"); err != nil || len(log) != g.Log {
				return fmt.Errorf("the log (%v) does not match the game at record %d", err, g.Log)
			}
			// Version 3 indexes the games by address.
			if ids, err := tx.GamesOf("G@example.test"); err != nil || len(ids) != 1 || ids[0] != "intro-1" {
				return fmt.Errorf("the games of a player after migration: %v, %v", ids, err)
			}
			// Version 2 keeps the impulse to play in the game's record.
			list, err := tx.Games()
			if err != nil || len(list) != 1 || list[0].Next != g.State.Next || list[0].State != nil {
				return fmt.Errorf("the list of games after migration: %v, %+v", err, list)
			}
			return tx.SaveGame(g, playImpulse(t, g, t0.Add(10*time.Hour)))
		})
		s.Close()
		if err != nil {
			t.Errorf("%s: %v", fixture, err)
		}
	}
}
