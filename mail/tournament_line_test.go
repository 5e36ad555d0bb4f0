package mail_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	acts "titm/adjudicator/referee"
	"titm/adjudicator/tournament"
	"titm/mail"
	"titm/rules"
	"titm/store"
)

// A player whose other tournament is over needs no TOURNAMENT line: only
// the running ones count when deciding whether the mail must name one.
func TestTournamentLineOnlyForRunning(t *testing.T) {
	t.Parallel()
	w := newWorld(t, &worldOptions{noStart: true})
	h := mail.NewHandler(w.cfg, quiet())
	ref := acts.New(&acts.Options{Address: referee, Deadline: 24 * time.Hour})
	now := time.Date(2026, 12, 16, 6, 0, 0, 0, time.UTC)
	token := regexp.MustCompile(`tournament token:\n\n    (\S+)`)
	newCup := func(name, other string) (string, string) {
		file := fmt.Sprintf("name = %q\ndirector = \"td@test.example\"\nscenario = \"intro\"\nformat = \"round-robin\"\n\n"+
			"[[player]]\nname = \"G\"\naddress = %q\n\n[[player]]\nname = \"O\"\naddress = %q\n", name, german, other)
		var id, tok string
		err := w.st.Update(func(tx *store.Tx) error {
			res, err := ref.NewTournament(tx, name+".toml", []byte(file), now)
			if err != nil {
				return err
			}
			id = res.Tournament.ID
			for _, m := range res.Mails {
				if k := token.FindStringSubmatch(m.Text); k != nil && m.To[0] == german {
					tok = k[1]
				}
			}
			return nil
		})
		if err != nil || tok == "" {
			t.Fatalf("tournament %s: %v, token %q", name, err, tok)
		}
		return id, tok
	}
	over, oldTok := newCup("Old Cup", allied)
	// The one game of the old cup ends: the cup is over.
	err := w.st.Update(func(tx *store.Tx) error {
		tr, err := tx.Tournament(over)
		if err != nil {
			return err
		}
		game := tr.Current().Pairings[0].Game
		for _, side := range []rules.Side{rules.German, rules.Allied} {
			if _, err := ref.Join(tx, game, side, "", now); err != nil {
				return err
			}
		}
		_, err = ref.Orders(tx, game, rules.German, "CONCEDE", now)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	w.st.View(func(tx *store.Tx) error {
		if tr, _ := tx.Tournament(over); tr.Status != tournament.Over {
			t.Fatalf("the old cup is %s", tr.Status)
		}
		return nil
	})
	running, tok := newCup("New Cup", stranger)
	w.queued(german)
	raw, _ := message(german, "standings", "TOKEN "+tok+"\nSTANDINGS\n")
	outcome := w.handle(h, 500, raw, now.Add(time.Hour))
	replies := w.queued(german)
	if len(replies) != 1 || !strings.Contains(replies[0], "Standings of New Cup ("+running+")") {
		t.Errorf("STANDINGS without a TOURNAMENT line: %s\n%s", outcome, strings.Join(replies, "\n---\n"))
	}
	// Naming the cup that is over still answers for it.
	raw, _ = message(german, "standings", "TOURNAMENT "+over+"\nTOKEN "+oldTok+"\nSTANDINGS\n")
	w.handle(h, 501, raw, now.Add(time.Hour))
	if replies := w.queued(german); len(replies) != 1 || !strings.Contains(replies[0], "Standings of Old Cup ("+over+") after 1 of 1 round: final") {
		t.Errorf("STANDINGS of the cup that is over:\n%s", strings.Join(replies, "\n---\n"))
	}
}
