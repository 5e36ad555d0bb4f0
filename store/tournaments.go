package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"titm/adjudicator"
	"titm/adjudicator/tournament"
)

// ErrNoTournament is returned for a tournament the store does not hold.
var ErrNoTournament = errors.New("no such tournament")

// CreateTournament keeps a new tournament and the seed of its dice, apart.
func (t *Tx) CreateTournament(tr *tournament.Tournament) error {
	if t.tx.Bucket(bucketTournaments).Get([]byte(tr.ID)) != nil {
		return fmt.Errorf("store: tournament %s: %w", tr.ID, ErrExists)
	}
	if err := put(t.tx, path(bucketTourSecrets), []byte(tr.ID), tr.Secret()); err != nil {
		return fmt.Errorf("store: tournament %s: keeping its seed: %w", tr.ID, err)
	}
	return t.SaveTournament(tr)
}

// SaveTournament keeps a tournament after a change.
func (t *Tx) SaveTournament(tr *tournament.Tournament) error {
	data, err := json.Marshal(tr)
	if err != nil {
		return fmt.Errorf("store: tournament %s: %w", tr.ID, err)
	}
	if n := len(tr.Log); n > 0 {
		if err := t.logged(tr.Log[n-1].Time); err != nil {
			return fmt.Errorf("store: tournament %s: %w", tr.ID, err)
		}
	}
	return put(t.tx, path(bucketTournaments), []byte(tr.ID), data)
}

// Tournament returns a tournament with the seed of its dice.
func (t *Tx) Tournament(id string) (*tournament.Tournament, error) {
	data := t.tx.Bucket(bucketTournaments).Get([]byte(id))
	if data == nil {
		return nil, fmt.Errorf("store: tournament %s: %w", id, ErrNoTournament)
	}
	var tr tournament.Tournament
	if err := json.Unmarshal(data, &tr); err != nil {
		return nil, fmt.Errorf("store: tournament %s: %w", id, err)
	}
	if err := tr.SetSecret(t.tx.Bucket(bucketTourSecrets).Get([]byte(id))); err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	return &tr, nil
}

// Tournaments returns every tournament, by id, without the seeds: what a
// list or a web page shows.
func (t *Tx) Tournaments() ([]*tournament.Tournament, error) {
	var out []*tournament.Tournament
	err := t.tx.Bucket(bucketTournaments).ForEach(func(k, v []byte) error {
		var tr tournament.Tournament
		if err := json.Unmarshal(v, &tr); err != nil {
			return fmt.Errorf("store: tournament %s: %w", k, err)
		}
		out = append(out, &tr)
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return lessID(out[i].ID, out[j].ID) })
	return out, err
}

// TournamentOf returns the id of the tournament a game was made for, or "".
func (t *Tx) TournamentOf(game string) (string, error) {
	ts, err := t.Tournaments()
	if err != nil {
		return "", err
	}
	for _, tr := range ts {
		if _, p, _ := tr.Find(game); p != nil {
			return tr.ID, nil
		}
	}
	return "", nil
}

// TournamentsOf returns the ids of the tournaments an address plays in,
// running or over.
func (t *Tx) TournamentsOf(address string) ([]string, error) {
	ts, err := t.Tournaments()
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, tr := range ts {
		if tr.Player(address) >= 0 {
			ids = append(ids, tr.ID)
		}
	}
	return ids, nil
}

// IndexGame adds a game's addresses to the index of who plays what: after
// a tournament's player is replaced, the new address finds the game.
func (t *Tx) IndexGame(g *adjudicator.Game) error { return t.index(g) }
