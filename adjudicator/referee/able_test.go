package referee_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"titm/adjudicator/referee"
	"titm/rules"
	"titm/store"
)

// UNITS, STATUS and CHECK say what each unit may do by the judgement that
// refuses the orders (rules.Abilities): on 16-1 of the campaign, after the
// German impulse, an Allied unit without a green triangle is listed as
// unable to move by 5.23, and a move of it is refused by 5.23; one with a
// green triangle is listed as able, and its move is accepted. In English
// and in Japanese.
func TestUnitsAgreeWithTheRules(t *testing.T) {
	for _, c := range []struct {
		code                         string
		noMove, yesMove, why, status string
	}{
		{"en", "move: no (5.23)", "move: yes", "only green-triangle units move on 16-1 (5.23)", `move: \d+ may, \d+ may not \(5\.23: \d+`},
		{"ja", "移動: 不可 (5.23)", "移動: 可", "16-1 に移動できるのは緑色の三角のユニットのみ (5.23)", `移動: 可 \d+、不可 \d+ \(5\.23: \d+`},
	} {
		opt := &referee.Options{Address: "referee@example.org"}
		if c.code != "en" {
			opt.Languages = map[string]string{"hasso@example.org": c.code, "troy@example.org": c.code}
		}
		ref := referee.New(opt)
		st, id, tokens := newGame(t, ref, "campaign")
		begin(t, ref, st, id)
		mail := func(side rules.Side, text string) *referee.Result {
			return act(t, st, func(tx *store.Tx) (*referee.Result, error) {
				return ref.Orders(tx, id, side, "GAME "+id+"\nTOKEN "+tokens[side]+"\n"+text, start.Add(time.Hour))
			})
		}
		if r := mail(rules.German, "IMPULSE 16-1\nEND\n"); r.Refused {
			t.Fatalf("%s: the German 16-1 refused:\n%s", c.code, r.Reply)
		}
		units := mail(rules.Allied, "UNITS\n").Reply
		// 4/3-12 has no green triangle, 2ID/23 has one.
		for unit, want := range map[string]string{"4/3-12": c.noMove, "2ID/23": c.yesMove} {
			m := regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(unit) + ` .*\n +(.*)$`).FindStringSubmatch(units)
			if m == nil || !strings.HasPrefix(m[1], want) {
				t.Errorf("%s: UNITS on %s: %q, want %q:\n%s", c.code, unit, m, want, units)
			}
		}
		if !strings.Contains(units, c.why) {
			t.Errorf("%s: UNITS does not say why %q:\n%s", c.code, c.why, units)
		}
		if s := mail(rules.Allied, "STATUS\n").Reply; !regexp.MustCompile(c.status).MatchString(s) {
			t.Errorf("%s: STATUS does not count the units by %s:\n%s", c.code, c.status, s)
		}
		check := mail(rules.Allied, "CHECK\nIMPULSE 16-1\nMOVE 4/3-12 17 11\n").Reply
		if !strings.Contains(check, "(5.23)") || !strings.Contains(check, "4/3-12") || !strings.Contains(check, c.noMove) {
			t.Errorf("%s: CHECK of a move UNITS forbids:\n%s", c.code, check)
		}
		if r := mail(rules.Allied, "IMPULSE 16-1\nMOVE 4/3-12 17 11\n"); !r.Refused || !strings.Contains(r.Reply, "(5.23)") {
			t.Errorf("%s: the move UNITS forbids: refused %v:\n%s", c.code, r.Refused, r.Reply)
		}
	}
}
