package referee_test

import (
	"strings"
	"testing"
	"time"

	"titm/adjudicator/referee"
	"titm/rules"
	"titm/store"
)

// A sign-off below the orders is not read as orders, and the answer names
// its lines; a mail of chatter alone is refused as holding no orders.
func TestSignOffNamed(t *testing.T) {
	ref := referee.New(&referee.Options{Address: "referee@example.org"})
	st, id, _ := game(t, ref)
	for _, side := range []rules.Side{rules.German, rules.Allied} {
		act(t, st, func(tx *store.Tx) (*referee.Result, error) { return ref.Join(tx, id, side, "seed", start) })
	}
	send := func(mail string) *referee.Result {
		return act(t, st, func(tx *store.Tx) (*referee.Result, error) {
			return ref.Orders(tx, id, rules.German, mail, start.Add(time.Hour))
		})
	}
	head := "GAME " + id + "\nIMPULSE 16-1\n"

	// Chatter alone: refused, and the reply says so.
	res := send("GAME " + id + "\n\nThanks, Hans\n")
	if !res.Refused || !strings.Contains(res.Reply, "no orders found (not read as orders: line 3") || strings.Contains(res.Reply, "Not read as orders") {
		t.Errorf("chatter alone: refused %v, reply:\n%s", res.Refused, res.Reply)
	}

	// Refused orders: the sign-off is named above the errors.
	res = send(head + "ATACK 24\n\nCheers,\nTony\n")
	if !res.Refused || !strings.HasPrefix(res.Reply, "Not read as orders: lines 5-6.\n\nYour orders have 1 error(s)") {
		t.Errorf("refused: refused %v, reply:\n%s", res.Refused, res.Reply)
	}

	// Played: the impulse is reported, and the player's answer names the
	// lines not read.
	res = send(head + "MOVE 352/914 23 24\n\nThanks, Hans\nSee you tomorrow\n")
	if res.Refused || len(res.Records) != 1 || !strings.HasPrefix(res.Reply, "Not read as orders: lines 5-6.\n") {
		t.Errorf("played: refused %v, %d records, reply:\n%s", res.Refused, len(res.Records), res.Reply)
	}
}

// TestRequestAndSignOff: a request's line is taken out before the game
// reads the orders, which must not then see a mail of chatter alone and
// refuse what the referee took.
func TestRequestAndSignOff(t *testing.T) {
	ref := referee.New(&referee.Options{Address: "referee@example.org"})
	st, id, _ := game(t, ref)
	for _, side := range []rules.Side{rules.German, rules.Allied} {
		act(t, st, func(tx *store.Tx) (*referee.Result, error) { return ref.Join(tx, id, side, "seed", start) })
	}
	res := act(t, st, func(tx *store.Tx) (*referee.Result, error) {
		return ref.Orders(tx, id, rules.German, "GAME "+id+"\nIMPULSE 16-1\nUNITS\nThanks, Hans\n", start.Add(time.Hour))
	})
	if res.Refused || !strings.Contains(res.Reply, "Not read as orders: line 4.") || !strings.Contains(res.Reply, "352/914") {
		t.Errorf("refused %v, reply:\n%s", res.Refused, res.Reply)
	}
}
