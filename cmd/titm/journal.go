package main

import (
	"errors"
	"fmt"
	"log/slog"

	"titm/adjudicator"
	"titm/adjudicator/journal"
	"titm/internal/daemon"
	"titm/store"
)

// storeJournal is the journal's source: the store, read in one read
// transaction a call, beside the daemon that writes it. Each read is
// contained: a damaged page is the request's error, which the journal
// logs and answers with 500, not a panic.
type storeJournal struct {
	st     *store.Store
	log    *slog.Logger
	damage *damage // where damage met is remembered, or nil
}

// view reads the store in one read transaction, contained.
func (s storeJournal) view(fn func(tx *store.Tx) error) error {
	err := daemon.Contain(s.log, "journal", func() error { return s.st.View(fn) })
	s.damage.Note(err)
	return err
}

var _ journal.Source = storeJournal{}

// notFound makes the store's error for a game it does not hold the
// journal's.
func notFound(err error) error {
	if errors.Is(err, store.ErrNoGame) {
		return fmt.Errorf("%w: %w", journal.ErrNotFound, err)
	}
	return err
}

// Games reads every game's summary, in one read transaction.
func (s storeJournal) Games() ([]*adjudicator.Game, error) {
	var out []*adjudicator.Game
	err := s.view(func(tx *store.Tx) error {
		var err error
		out, err = tx.Games()
		return err
	})
	return out, err
}

// Summary reads a game's summary.
func (s storeJournal) Summary(id string) (*adjudicator.Game, error) {
	var g *adjudicator.Game
	err := s.view(func(tx *store.Tx) error {
		var err error
		g, err = tx.Summary(id)
		return err
	})
	return g, notFound(err)
}

// LastRecord reads the last record of a game's log.
func (s storeJournal) LastRecord(id string) (adjudicator.Record, error) {
	var r adjudicator.Record
	err := s.view(func(tx *store.Tx) error {
		var err error
		r, err = tx.LastRecord(id)
		return err
	})
	return r, notFound(err)
}

// Game reads a game and its whole log, in one read transaction.
func (s storeJournal) Game(id string) (*adjudicator.Game, []adjudicator.Record, error) {
	var g *adjudicator.Game
	var log []adjudicator.Record
	err := s.view(func(tx *store.Tx) error {
		var err error
		if g, err = tx.Game(id); err != nil {
			return err
		}
		log, err = tx.Log(id)
		return err
	})
	return g, log, notFound(err)
}

// Version reads the store's version.
func (s storeJournal) Version() (string, error) {
	var v string
	err := s.view(func(tx *store.Tx) error { v = tx.Version(); return nil })
	return v, err
}
