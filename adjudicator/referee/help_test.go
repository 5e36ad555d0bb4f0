package referee_test

import (
	"strings"
	"testing"
	"time"

	"titm/adjudicator/referee"
	"titm/rules"
	"titm/store"
)

// HELP gives examples at the game's position: after the German impulse,
// the German player's examples are for his next impulse, and the unit that
// moved is in no MOVE example, as it may not move again this turn (8.25).
func TestHelpAtPosition(t *testing.T) {
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
	help := send("HELP\n").Reply
	_, move, ok := strings.Cut(help, "e.g. MOVE ")
	move, _, _ = strings.Cut(move, "\n")
	if !strings.Contains(help, "e.g. IMPULSE 16-1\n") || !ok {
		t.Fatalf("HELP at the start:\n%s", help)
	}
	// The example is played as it stands.
	if res := send("IMPULSE 16-1\nMOVE " + move + "\n"); res.Refused {
		t.Fatalf("the example MOVE %s is refused: %s", move, res.Reply)
	}
	unit, _, _ := strings.Cut(move, " ")
	help = send("HELP\n").Reply
	if !strings.Contains(help, "e.g. IMPULSE 16-2\n") || strings.Contains(help, "MOVE "+unit+" ") {
		t.Errorf("HELP after G16-1 with MOVE %s:\n%s", move, help)
	}
}
