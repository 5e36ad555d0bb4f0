package main

import (
	"errors"
	"fmt"

	"titm/adjudicator/journal"
	"titm/adjudicator/tournament"
	"titm/store"
)

var _ journal.TournamentSource = storeJournal{}

// Tournaments returns every tournament as it may be shown: Public's copy,
// without token hashes, sealed bids or the seed before the end.
func (s storeJournal) Tournaments() ([]*tournament.Tournament, error) {
	var out []*tournament.Tournament
	err := s.view(func(tx *store.Tx) error {
		all, err := tx.Tournaments()
		for _, t := range all {
			out = append(out, t.Public())
		}
		return err
	})
	return out, err
}

// Tournament returns one tournament as it may be shown.
func (s storeJournal) Tournament(id string) (*tournament.Tournament, error) {
	var t *tournament.Tournament
	err := s.view(func(tx *store.Tx) error {
		var err error
		t, err = tx.Tournament(id)
		return err
	})
	if errors.Is(err, store.ErrNoTournament) {
		return nil, fmt.Errorf("%w: %w", journal.ErrNotFound, err)
	}
	if err != nil {
		return nil, err
	}
	return t.Public(), nil
}
