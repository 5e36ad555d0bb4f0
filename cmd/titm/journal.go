package main

import (
	"errors"
	"fmt"

	"titm/adjudicator"
	"titm/adjudicator/journal"
	"titm/store"
)

// storeJournal is the journal's source: the store, read in one read
// transaction a call, beside the daemon that writes it.
type storeJournal struct{ st *store.Store }

var _ journal.Source = storeJournal{}

// notFound makes the store's error for a game it does not hold the
// journal's.
func notFound(err error) error {
	if errors.Is(err, store.ErrNoGame) {
		return fmt.Errorf("%w: %w", journal.ErrNotFound, err)
	}
	return err
}

func (s storeJournal) Games() ([]journal.Summary, error) {
	var out []journal.Summary
	err := s.st.View(func(tx *store.Tx) error {
		games, err := tx.Games()
		if err != nil {
			return err
		}
		out = make([]journal.Summary, 0, len(games))
		for _, g := range games {
			last, err := tx.LastRecord(g.ID)
			if err != nil {
				return err
			}
			out = append(out, journal.Summary{Game: g, Changed: last.Time})
		}
		return nil
	})
	return out, err
}

func (s storeJournal) Summary(id string) (journal.Summary, error) {
	var out journal.Summary
	err := s.st.View(func(tx *store.Tx) error {
		g, err := tx.Summary(id)
		if err != nil {
			return err
		}
		last, err := tx.LastRecord(id)
		out = journal.Summary{Game: g, Changed: last.Time}
		return err
	})
	return out, notFound(err)
}

func (s storeJournal) Game(id string) (*adjudicator.Game, []adjudicator.Record, error) {
	var g *adjudicator.Game
	var log []adjudicator.Record
	err := s.st.View(func(tx *store.Tx) error {
		var err error
		if g, err = tx.Game(id); err != nil {
			return err
		}
		log, err = tx.Log(id)
		return err
	})
	return g, log, notFound(err)
}
