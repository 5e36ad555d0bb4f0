package referee_test

import (
	"strings"
	"testing"
	"time"

	"titm/adjudicator"
	"titm/adjudicator/referee"
	"titm/rules"
	"titm/store"
)

// A draw offered in the mail of one's orders stands after the impulse
// those orders play: the opponent, told of it, can accept it.
func TestDrawOfferedWithOrders(t *testing.T) {
	ref := referee.New(&referee.Options{Address: "referee@example.org"})
	st, id, tokens, _ := scriptedStart(t, ref)
	at := start
	mail := func(side rules.Side, text string) *referee.Result {
		at = at.Add(time.Minute)
		return act(t, st, func(tx *store.Tx) (*referee.Result, error) {
			return ref.Orders(tx, id, side, "GAME "+id+"\nTOKEN "+tokens[side]+"\n"+text, at)
		})
	}
	mail(rules.German, "JOIN")
	mail(rules.Allied, "JOIN")
	res := mail(rules.German, "IMPULSE 16-1\nENTRENCH 212/423\nDRAW")
	if res.Refused {
		t.Fatalf("orders with DRAW refused:\n%s", res.Reply)
	}
	var kinds []string
	for _, r := range res.Records {
		kinds = append(kinds, r.Kind)
	}
	if got := strings.Join(kinds, " "); got != adjudicator.KindImpulse+" "+adjudicator.KindDrawOffered {
		t.Errorf("records %s: the offer comes after the impulse it is sent with", got)
	}
	told := false
	for _, m := range res.Mails {
		told = told || m.To[0] == "troy@example.org" && strings.Contains(m.Text, "The German player offers a draw")
	}
	if !told {
		t.Error("the Allied player was not told of the offer")
	}
	res = mail(rules.Allied, "DRAW ACCEPT")
	if res.Refused || res.Game.Status != adjudicator.Finished || res.Game.Result != rules.DrawnByAgreement {
		t.Errorf("the offer accepted: refused %v, %s %q\n%s", res.Refused, res.Game.Status, res.Game.Result, res.Reply)
	}
}
