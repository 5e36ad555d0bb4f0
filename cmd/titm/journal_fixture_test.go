package main

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"titm/adjudicator"
	"titm/adjudicator/journal"
	"titm/internal/playtest"
	"titm/rules"
	"titm/rules/scenarios"
	"titm/store"
)

// The journal's tests play real games into a real store file, through the
// adjudicator as the referee's acts do, with the scripted players' orders
// and standing orders that must never show.

// The players' and observers' addresses of the journal's games: no page
// may show them, nor their domains.
const (
	journalGerman   = "gerhard.schmidt@players.test"
	journalAllied   = "alice.jones@players.test"
	journalObserver = "watcher@observers.test"
)

// journalStanding are the standing orders the players give: text no page
// may show before the game ends.
var journalStanding = map[rules.Side]string{
	rules.German: "DEFEND PREFER ARMOR INFANTRY",
	rules.Allied: "BLOW NONE",
}

// journalStore is a store of played games, and what must never leak of
// them.
type journalStore struct {
	st      *store.Store
	db      string
	clock   time.Time
	tokens  []string          // every player's token
	secrets map[string]string // each game's seed, in hex
	// fixed makes the games' secrets, tokens and salts fixed rather than
	// drawn, so that their logs and pages are the same at every run.
	fixed bool
}

func newJournalStore(tb testing.TB) *journalStore {
	tb.Helper()
	db := filepath.Join(tb.TempDir(), "titm.db")
	st, err := store.Open(db, nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	return &journalStore{st: st, db: db, clock: time.Date(2026, 11, 2, 8, 0, 0, 0, time.UTC), secrets: map[string]string{}}
}

// now moves the store's clock on: an hour a change.
func (js *journalStore) now() time.Time {
	js.clock = js.clock.Add(time.Hour)
	return js.clock
}

// newGame makes a game of a scenario; with join, both players join it.
func (js *journalStore) newGame(tb testing.TB, id, scenario string, join bool) {
	tb.Helper()
	s, files, main, err := scenarios.LoadFiles(scenario)
	if err != nil {
		tb.Fatal(err)
	}
	secret, err := adjudicator.NewSecret()
	if err != nil {
		tb.Fatal(err)
	}
	tokens := map[rules.Side]string{}
	for _, side := range []rules.Side{rules.German, rules.Allied} {
		if tokens[side], err = adjudicator.NewToken(); err != nil {
			tb.Fatal(err)
		}
		js.tokens = append(js.tokens, tokens[side])
	}
	salt := ""
	if js.fixed {
		secret = bytes.Repeat([]byte{byte(len(js.secrets) + 1)}, len(secret))
		tokens = map[rules.Side]string{rules.German: fmt.Sprintf("germ-%04d-fixd", len(js.secrets)), rules.Allied: fmt.Sprintf("alld-%04d-fixd", len(js.secrets))}
		js.tokens = append(js.tokens[:len(js.tokens)-2], tokens[rules.German], tokens[rules.Allied])
		salt = hex.EncodeToString(bytes.Repeat([]byte{0x5a}, adjudicator.AddressSaltSize))
	}
	js.secrets[id] = hex.EncodeToString(secret)
	g, recs, err := adjudicator.New(adjudicator.Options{ID: id, Scenario: s, Files: files, Main: main,
		German: journalGerman, Allied: journalAllied, Observers: []string{journalObserver},
		Deadline: 72 * time.Hour, Tokens: tokens, Secret: secret, Salt: salt, Now: js.now()})
	if err != nil {
		tb.Fatal(err)
	}
	if err := js.st.Update(func(tx *store.Tx) error { return tx.CreateGame(g, recs) }); err != nil {
		tb.Fatal(err)
	}
	if join {
		js.change(tb, id, func(g *adjudicator.Game, _ []adjudicator.Record) ([]adjudicator.Record, error) {
			return g.Join(rules.German, "the German player's dice", js.now())
		})
		js.change(tb, id, func(g *adjudicator.Game, _ []adjudicator.Record) ([]adjudicator.Record, error) {
			return g.Join(rules.Allied, "9f2c4e1a77b03d5c", js.now())
		})
	}
}

// change makes a change to a game in one transaction, as the referee's
// acts do.
func (js *journalStore) change(tb testing.TB, id string, fn func(*adjudicator.Game, []adjudicator.Record) ([]adjudicator.Record, error)) {
	tb.Helper()
	err := js.st.Update(func(tx *store.Tx) error {
		g, err := tx.Game(id)
		if err != nil {
			return err
		}
		log, err := tx.Log(id)
		if err != nil {
			return err
		}
		recs, err := fn(g, log)
		if err != nil {
			return err
		}
		return tx.SaveGame(g, recs)
	})
	if err != nil {
		tb.Fatalf("game %s: %v", id, err)
	}
}

// game reads a game.
func (js *journalStore) game(tb testing.TB, id string) *adjudicator.Game {
	tb.Helper()
	var g *adjudicator.Game
	if err := js.st.View(func(tx *store.Tx) error {
		var err error
		g, err = tx.Game(id)
		return err
	}); err != nil {
		tb.Fatal(err)
	}
	return g
}

// play plays n impulses of a game with the scripted players' orders, or
// to its end when n < 0. Before its first impulse each side gives
// standing orders: the Allied player alone, the German one with his
// impulse's orders.
func (js *journalStore) play(tb testing.TB, id string, n int) {
	tb.Helper()
	for i := 0; n < 0 || i < n; i++ {
		g := js.game(tb, id)
		if g.Status != adjudicator.Playing {
			return
		}
		s, _ := g.Rules()
		side := g.ToMove()
		text, err := playtest.EveryAttack(s, g.State)
		if err != nil {
			tb.Fatal(err)
		}
		orders := fmt.Sprintf("GAME %s\nIMPULSE %d-%d\n%s", id, g.Next.Day, g.Next.N, text)
		if g.Players[side].Impulses == 0 && g.Players[side].Missed == 0 {
			if side == rules.German {
				orders += "\n" + journalStanding[rules.German] + "\n"
			}
			other := rules.Allied
			if side == rules.Allied {
				other = rules.German
			}
			if other == rules.Allied && g.Players[other].Impulses == 0 {
				js.change(tb, id, func(g *adjudicator.Game, _ []adjudicator.Record) ([]adjudicator.Record, error) {
					recs, _, err := g.Submit(rules.Allied, journalStanding[rules.Allied]+"\n", js.now())
					return recs, err
				})
			}
		}
		js.change(tb, id, func(g *adjudicator.Game, _ []adjudicator.Record) ([]adjudicator.Record, error) {
			recs, _, err := g.Submit(side, orders, js.now())
			return recs, err
		})
	}
}

// rollback has the director roll a game back to an impulse.
func (js *journalStore) rollback(tb testing.TB, id, to string) {
	tb.Helper()
	imp, err := rules.ParseImpulse(to)
	if err != nil {
		tb.Fatal(err)
	}
	js.change(tb, id, func(g *adjudicator.Game, log []adjudicator.Record) ([]adjudicator.Record, error) {
		return g.Rollback(log, imp, "a proven error", js.now())
	})
}

// secretsOf lists what must never show of the store's games: tokens and
// their hashes, addresses, standing orders, and the seeds of the games not
// finished, as name and text.
func (js *journalStore) secretsOf(tb testing.TB) map[string]string {
	tb.Helper()
	out := map[string]string{
		"the German player's address": journalGerman, "the Allied player's address": journalAllied,
		"the observer's address": journalObserver, "an address's domain": "players.test", "the observer": "watcher",
	}
	for i, tk := range js.tokens {
		out[fmt.Sprintf("token %d", i)] = tk
		out[fmt.Sprintf("token %d's hash", i)] = adjudicator.HashToken(tk)
	}
	for side, text := range journalStanding {
		out["the "+side.Title()+" standing orders"] = text
	}
	for id, seed := range js.secrets {
		if js.game(tb, id).Status != adjudicator.Finished {
			out["the seed of "+id] = seed
			out["the seed of "+id+" in upper case"] = strings.ToUpper(seed)
		}
	}
	return out
}

// testLog writes a logger's lines to the test's log.
type testLog struct{ tb testing.TB }

func (w testLog) Write(p []byte) (int, error) {
	w.tb.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

// journal is the journal of the store, logging to the test.
func (js *journalStore) journal(tb testing.TB, opt *journal.Options) *journal.Journal {
	o := journal.Options{}
	if opt != nil {
		o = *opt
	}
	o.Logger = slog.New(slog.NewTextHandler(testLog{tb}, nil))
	return journal.New(storeJournal{st: js.st, log: slog.New(slog.DiscardHandler)}, &o)
}
