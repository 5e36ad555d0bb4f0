package store_test

import (
	"errors"
	"testing"
	"time"

	"titm/store"
)

// What a reader beside the daemon (the web journal) reads: the version,
// the same while nothing is written and another after every change and
// after a compaction; and a game's last record without its log.
func TestVersionAndLastRecord(t *testing.T) {
	s, _ := open(t)
	version := func() string {
		var v string
		if err := s.View(func(tx *store.Tx) error { v = tx.Version(); return nil }); err != nil {
			t.Fatal(err)
		}
		return v
	}
	seen := map[string]bool{version(): true}
	if !seen[version()] {
		t.Fatal("the version changed with no change")
	}
	var id string
	change := func(what string) {
		t.Helper()
		err := s.Update(func(tx *store.Tx) error {
			if id == "" {
				id = makeGame(t, tx, "intro", secret(7)).ID
				return nil
			}
			g, err := tx.Game(id)
			if err != nil {
				return err
			}
			return tx.SaveGame(g, playImpulse(t, g, t0.Add(time.Hour)))
		})
		if err != nil {
			t.Fatal(err)
		}
		if v := version(); seen[v] {
			t.Fatalf("%s: version %s seen before", what, v)
		} else {
			seen[v] = true
		}
	}
	change("a game made")
	change("an impulse")
	if _, _, err := s.Compact(); err != nil {
		t.Fatal(err)
	}
	if v := version(); seen[v] {
		t.Fatalf("after compaction: version %s seen before", v)
	}
	change("an impulse after compaction")

	err := s.View(func(tx *store.Tx) error {
		g, err := tx.Summary(id)
		if err != nil {
			return err
		}
		r, err := tx.LastRecord(id)
		if err != nil {
			return err
		}
		if r.Hash != g.Head || r.Seq != g.Log-1 || r.Kind != "impulse" {
			t.Errorf("last record %d %s %s; the game's head %s at %d", r.Seq, r.Kind, r.Hash, g.Head, g.Log)
		}
		if _, err := tx.LastRecord("nosuch-1"); !errors.Is(err, store.ErrNoGame) {
			t.Errorf("the last record of no game: %v", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
